"""Calendar: month grid, day agenda, upcoming schedule, event detail, create/edit/delete and search."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="calendar", label="Calendar", label_zh="日历", home="/", glyph="▦", color="#1E88E5",
             defaults_package=__name__, generate=generate)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
from . import prepare  # noqa: E402,F401  (registers the preparers of JSON tasks on APP)
