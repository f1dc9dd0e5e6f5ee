"""Contacts: an alphabetical contact list with search, contact cards, add/edit/delete, favourites and calls."""
from mobilegym.sim.app import SimApp

APP = SimApp(id="contacts", label="Contacts", label_zh="通讯录", home="/", glyph="☺", color="#E65100",
             defaults_package=__name__)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
