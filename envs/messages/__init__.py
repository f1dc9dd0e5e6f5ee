"""Messages: SMS conversations with unread badges, threads, compose/send, search and delete."""
from mobilegym.sim.app import SimApp

APP = SimApp(id="messages", label="Messages", label_zh="信息", home="/", glyph="✉", color="#1E88E5",
             defaults_package=__name__, view_state=("conversations[*].unread",))  # read markers

from . import screens  # noqa: E402,F401  (registers the screens on APP)
