"""Trains: train tickets as 12306 or Trainline sell them: search a day's trains between two stations, sort and
filter them, book a seat class for saved passengers (confirm, then the payment passcode), see and cancel orders
(a refund minus the cancellation fee), and manage passengers."""
from .app import APP

from . import orders, passengers, prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
