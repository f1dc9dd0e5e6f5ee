"""Mail: an inbox of threads with labels, stars, archive and Trash; thread view, compose, reply, forward, search."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="mail", label="Mail", label_zh="邮件", home="/", glyph="✉", color="#D93025",
             defaults_package=__name__, view_state=("threads[*].unread",),  # read markers
             generate=generate)

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
