"""Browser: local web pages (news, recipes, a store directory, a cinema, an encyclopedia) in tabs, an address bar
that opens urls or searches the pages, back and forward, bookmarks, and history with clear browsing data."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="browser", label="Browser", label_zh="浏览器", home="/", glyph="◎", color="#1A73E8",
             defaults_package=__name__, generate=generate)

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
