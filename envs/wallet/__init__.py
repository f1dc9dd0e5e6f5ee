"""Wallet: a payments app with a balance, bank cards, transfers to people, bills and the transaction history.
Money moves only after a confirmation and the six-digit passcode."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="wallet", label="Wallet", label_zh="钱包", home="/", glyph="$", color="#00796B",
             defaults_package=__name__, generate=generate)

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
