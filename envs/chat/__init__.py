"""Chat: a messenger (as WeChat or WhatsApp) with one-to-one and group chats, friends, moments and money
transfers from the chat wallet, which move only after a confirmation and the six-digit payment passcode."""
from .app import APP

from . import screens  # noqa: F401  (registers the screens on APP)

__all__ = ["APP"]
