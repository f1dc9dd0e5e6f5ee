"""Maps: a map app (Google Maps / Amap style): search places with category chips, place pages with hours,
saving and sharing, directions from A to B by mode (drive, transit, walk, bike), saved lists and the Home and
Work labels."""
from .app import APP

from . import prepare, routes, saved, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
