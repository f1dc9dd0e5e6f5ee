"""The Settings app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="settings", label="Settings", label_zh="设置", home="/", glyph="⚙", color="#607D8B",
             defaults_package=__package__, generate=generate)
