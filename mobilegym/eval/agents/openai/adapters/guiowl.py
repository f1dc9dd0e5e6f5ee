"""``guiowl``: GUI-Owl (Mobile-Agent-v3), Qwen2.5-VL's ``mobile_use`` function with GUI-Owl's answer layout.

The reply is ``<thinking>...</thinking>``, one ``<tool_call>{"name": "mobile_use", "arguments": {...}}</tool_call>``
and a ``<conclusion>`` line summing up the step. Coordinates are pixels of the screenshot after
Qwen2.5-VL's smart resize (factor 28), which is also the image sent; the action space is Qwen's
(click, long_press, swipe from ``coordinate`` to ``coordinate2``, type, key, system_button, open,
wait, answer, terminate), read as the ``qwen`` adapter reads it.
"""
from __future__ import annotations

import json
import re

from ..images import ResizePolicy
from .base import PromptContext, answer_rule, apps_line
from .qwen import QwenAdapter

_THINKING = re.compile(r"<(/?)thinking>")
_CONCLUSION = re.compile(r"<conclusion>.*?(</conclusion>|$)", re.DOTALL)
RESIZE = ResizePolicy("smart", factor=28, min_pixels=4 * 28 * 28, max_pixels=16384 * 28 * 28)


class GUIOwlAdapter(QwenAdapter):
    """GUI-Owl / Mobile-Agent-v3 end-to-end: thinking, one ``mobile_use`` call, a conclusion."""

    name = "guiowl"
    PROMPT_VERSION = "1"

    def __init__(self, min_pixels: int | None = None, max_pixels: int | None = None) -> None:
        self._use_variant("variant", "qwen2.5", {"qwen2.5": ("image", RESIZE)}, min_pixels, max_pixels)
        self._variant = None

    def system_prompt(self, ctx: PromptContext) -> str:
        lines = [
            "You are a GUI agent operating an Android phone. You get the user's task, your earlier steps and the "
            "current screenshot, and you call the function below once per step.",
            "",
            "# Tools",
            "",
            "The function signature, inside <tools></tools> XML tags:",
            "<tools>",
            json.dumps(self.tool(ctx), ensure_ascii=False),
            "</tools>",
            "",
            "# Answer format",
            "First reason step by step inside <thinking></thinking> tags. Then make exactly one call, a JSON "
            "object with the function name and its arguments inside <tool_call></tool_call> tags:",
            "<tool_call>",
            '{"name": "mobile_use", "arguments": <args-json-object>}',
            "</tool_call>",
            "Last, sum up the action in one sentence inside <conclusion></conclusion> tags.",
            "",
            "# Rules",
            answer_rule(ctx.eval_mode, 'the "answer" action', 'a terminate call with status "success"'),
            'If the task is impossible on this phone, terminate with status "failure".',
        ]
        if ctx.apps:
            lines.append(apps_line(ctx.apps))
        return "\n".join(lines)

    def _text(self, text: str) -> str:
        return _CONCLUSION.sub("", _THINKING.sub(r"<\1think>", text))
