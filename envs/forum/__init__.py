"""Forum: a social feed / forum (Reddit / Xiaohongshu style): communities to join or leave, a home feed sorted
hot, new or top, post pages with votes, saving and comment threads (replies, votes), creating a post after a
confirmation, user profiles to follow, the owner's profile (posts, saved posts, following), and deleting the
owner's own posts and comments after a confirmation."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="forum", label="Forum", label_zh="论坛", home="/", glyph="☰", color="#D84315",
             defaults_package=__name__, generate=generate)

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
