"""The Chat app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="chat", label="Chat", label_zh="聊天", home="/", glyph="✆", color="#078C4F",
             defaults_package=__package__, view_state=("chats[*].unread",), generate=generate)
