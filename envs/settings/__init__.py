"""Settings: network, Bluetooth, display (dark theme, brightness, font size) and about phone."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="settings", label="Settings", label_zh="设置", home="/", glyph="⚙", color="#607D8B",
             defaults_package=__name__, generate=generate)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
