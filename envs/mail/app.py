"""The Mail app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="mail", label="Mail", label_zh="邮件", home="/", glyph="✉", color="#D93025",
             defaults_package=__package__, view_state=("threads[*].unread",),  # read markers
             generate=generate)
