"""Clock: alarms (add, edit, toggle, delete), a countdown timer and a stopwatch."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="clock", label="Clock", label_zh="时钟", home="/alarms", glyph="⏰", color="#5C6BC0",
             defaults_package=__name__, generate=generate,
             view_state=("timer", "stopwatch"))  # a running timer is a tool in use, not stored data

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
