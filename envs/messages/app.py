"""The Messages app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="messages", label="Messages", label_zh="信息", home="/", glyph="✉", color="#1E88E5",
             defaults_package=__package__, view_state=("conversations[*].unread",),  # read markers
             generate=generate)
