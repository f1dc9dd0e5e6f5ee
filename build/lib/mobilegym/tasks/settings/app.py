"""Accessor for the Settings app's state."""
from __future__ import annotations

from mobilegym.judge import BaseApp

SETTINGS_DISPLAY_CHANGES = ["dark_mode", "brightness", "adaptive_brightness", "font_size"]
SETTINGS_NETWORK_CHANGES = ["wifi", "wifi_network", "airplane_mode"]


class Settings(BaseApp):
    """Read settings values."""

    def storage_used_gb(self) -> float:
        """Used storage in GB, as the About page shows it."""
        return self.require(".about.storage_used_gb")
