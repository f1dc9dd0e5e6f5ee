"""Settings: network, Bluetooth, display (dark theme, brightness, font size) and about phone."""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)

__all__ = ["APP"]
