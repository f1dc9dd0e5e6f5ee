"""The Forum app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="forum", label="Forum", label_zh="论坛", home="/", glyph="☰", color="#D84315",
             defaults_package=__package__, generate=generate)
