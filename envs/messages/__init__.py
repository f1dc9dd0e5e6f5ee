"""Messages: SMS conversations with unread badges, threads, compose/send, search and delete."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="messages", label="Messages", label_zh="信息", home="/", glyph="✉", color="#1E88E5",
             defaults_package=__name__, view_state=("conversations[*].unread",),  # read markers
             generate=generate)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
from . import prepare  # noqa: E402,F401  (registers the JSON tasks' preparers on APP)
from .notice import incoming  # noqa: E402

APP.notice = incoming
