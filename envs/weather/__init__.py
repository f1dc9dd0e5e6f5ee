"""Weather: saved cities, current conditions, hourly and five-day forecasts, city search, units."""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)
from . import prepare  # noqa: F401  (registers the preparers of JSON tasks)

__all__ = ["APP"]
