"""The Clock app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="clock", label="Clock", label_zh="时钟", home="/alarms", glyph="⏰", color="#5C6BC0",
             defaults_package=__package__, generate=generate,
             view_state=("timer", "stopwatch"))  # a running timer is a tool in use, not stored data
