"""The model-family adapters of the OpenAI-compatible agent, by name.

=========  ==========================================  ===========================================
name       reply format                                coordinates
=========  ==========================================  ===========================================
json       one JSON object in the env's schema         relative 0-1000 (or 0-1, device pixels)
tools      OpenAI tool calls, one function per action  relative 0-1000 (or 0-1, device pixels)
qwen       ``<tool_call>`` mobile_use (or native)      qwen2.5: smart-resized pixels; qwen3: 0-1000
guiowl     ``<thinking>``, mobile_use, ``<conclusion>``  smart-resized pixels (factor 28)
maiui      ``<thinking>``, mobile_use (``ask_user``)   relative 0-999
uitars     ``Thought: ... Action: click(...)``         1.5: smart-resized pixels; 1: 0-1000
uivenus    ``<action>Click(box=(x,y))</action>``       relative 0-999
autoglm    ``do(action=...)`` / ``finish(...)``        relative 0-999 (divided by 1000)
gelab      ``explain:...\taction:CLICK\tpoint:x,y``    relative 0-1000
=========  ==========================================  ===========================================
"""
from __future__ import annotations

import inspect
from typing import Any

from .autoglm import AutoGLMAdapter
from .base import Adapter, Parsed, PromptContext, Reply, Turn
from .gelab import GELabAdapter
from .guiowl import GUIOwlAdapter
from .maiui import MAIUIAdapter
from .plain_json import JsonAdapter
from .qwen import QwenAdapter
from .tools import ToolsAdapter
from .uitars import UITarsAdapter
from .uivenus import UIVenusAdapter

ADAPTERS: dict[str, type[Adapter]] = {
    cls.name: cls for cls in (JsonAdapter, QwenAdapter, UITarsAdapter, AutoGLMAdapter, ToolsAdapter, GUIOwlAdapter,
                              MAIUIAdapter, UIVenusAdapter, GELabAdapter)}


def make_adapter(name: str, **options: Any) -> Adapter:
    """The adapter ``name`` built with its options (e.g. ``make_adapter("qwen", variant="qwen3")``)."""
    cls = ADAPTERS.get(name)
    if cls is None:
        raise ValueError(f"unknown adapter {name!r}; expected one of {', '.join(ADAPTERS)}")
    accepted = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise ValueError(f"adapter {name!r} has no option(s) {', '.join(unknown)}; "
                         f"it takes {', '.join(accepted) or 'none'}")
    return cls(**options)


__all__ = ["ADAPTERS", "Adapter", "AutoGLMAdapter", "GELabAdapter", "GUIOwlAdapter", "JsonAdapter", "MAIUIAdapter",
           "Parsed", "PromptContext", "QwenAdapter", "Reply", "ToolsAdapter", "Turn", "UITarsAdapter", "UIVenusAdapter",
           "make_adapter"]
