"""Notes: notes (pinned and others), a note editor, search, and a to-do list with due dates."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="notes", label="Notes", label_zh="笔记", home="/", glyph="✎", color="#B26A00",
             defaults_package=__name__, generate=generate)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
from . import prepare  # noqa: E402,F401  (registers the preparers of JSON tasks on APP)
