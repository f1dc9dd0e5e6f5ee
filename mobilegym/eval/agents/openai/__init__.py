"""The OpenAI-compatible model agent of ``mobilegym eval`` and its model-family adapters.

``OpenAIAgent(base_url, model, adapter="json" | "qwen" | "uitars" | "autoglm", ...)``; see
:mod:`.agent` for the options and :mod:`.adapters` for the formats and coordinate conventions.
httpx (``pip install 'mobilegym[eval]'``) is imported when a client is built, never at import.
"""
from .adapters import ADAPTERS, Adapter, make_adapter
from .agent import OpenAIAgent
from .client import ChatClient, Completion, ToolCall
from .errors import ModelError, ParseError
from .images import Frame, ResizePolicy, smart_resize

__all__ = ["ADAPTERS", "Adapter", "ChatClient", "Completion", "Frame", "ModelError", "OpenAIAgent", "ParseError",
           "ResizePolicy", "ToolCall", "make_adapter", "smart_resize"]
