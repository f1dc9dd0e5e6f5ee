"""Contacts: an alphabetical contact list with search, contact cards, add/edit/delete, favourites and calls."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="contacts", label="Contacts", label_zh="通讯录", home="/", glyph="☺", color="#E65100",
             defaults_package=__name__, generate=generate)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
from . import prepare  # noqa: E402,F401  (registers the JSON tasks' preparers on APP)
