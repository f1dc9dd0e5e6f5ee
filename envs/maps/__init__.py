"""Maps: a map app (Google Maps / Amap style): search places with category chips, place pages with hours,
saving and sharing, directions from A to B by mode (drive, transit, walk, bike), saved lists and the Home and
Work labels."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="maps", label="Maps", label_zh="地图", home="/", glyph="📍", color="#1A73E8",
             defaults_package=__name__, generate=generate,
             view_state=("recent",))  # recently viewed places: history, not the user's saved data

from . import prepare, routes, saved, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
