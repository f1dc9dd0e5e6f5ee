"""Chat: a messenger (as WeChat or WhatsApp) with one-to-one and group chats, friends, moments and money
transfers from the chat wallet, which move only after a confirmation and the six-digit payment passcode."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="chat", label="Chat", label_zh="聊天", home="/", glyph="✆", color="#078C4F",
             defaults_package=__name__, view_state=("chats[*].unread",), generate=generate)

from . import screens  # noqa: E402,F401  (registers the screens on APP)
