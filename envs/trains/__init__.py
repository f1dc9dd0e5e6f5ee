"""Trains: train tickets as 12306 or Trainline sell them: search a day's trains between two stations, sort and
filter them, book a seat class for saved passengers (confirm, then the payment passcode), see and cancel orders
(a refund minus the cancellation fee), and manage passengers."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="trains", label="Trains", label_zh="火车票", home="/", glyph="🚄", color="#1565C0",
             defaults_package=__name__, generate=generate)

from . import orders, passengers, prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
