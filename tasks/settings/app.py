"""Accessor for the Settings app's state."""
from __future__ import annotations

from mobilegym.judge import BaseApp

SETTINGS_DARK_MODE_CHANGES = ["settings.dark_mode"]


class Settings(BaseApp):
    """Read settings values."""

    def storage_used_gb(self) -> float:
        """Used storage in GB, as the About page shows it."""
        return self.require(".about.storage_used_gb")
