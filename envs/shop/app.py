"""The Shop app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="shop", label="Shop", label_zh="购物", home="/", glyph="🛒", color="#B45309",
             defaults_package=__package__, generate=generate)
