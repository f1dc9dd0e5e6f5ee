"""The Wallet app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="wallet", label="Wallet", label_zh="钱包", home="/", glyph="$", color="#00796B",
             defaults_package=__package__, generate=generate)
