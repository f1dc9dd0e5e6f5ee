"""Wallet: a payments app with a balance, bank cards, transfers to people, bills and the transaction history.
Money moves only after a confirmation and the six-digit passcode."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
