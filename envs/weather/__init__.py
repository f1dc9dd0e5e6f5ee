"""Weather: saved cities, current conditions, hourly and five-day forecasts, city search, units."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="weather", label="Weather", label_zh="天气", home="/", glyph="☀", color="#0288D1",
             defaults_package=__name__, generate=generate)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
from . import prepare  # noqa: E402,F401  (registers the preparers of JSON tasks)
