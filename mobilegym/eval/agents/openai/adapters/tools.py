"""``tools``: any model with OpenAI tool calling, reading ``message.tool_calls`` against a schema of the env's actions.

Each action of MobileGym's schema is one function (``tap``, ``double_tap``, ``long_press``, ``swipe``,
``drag``, ``type``, ``key``, ``open_app``, ``wait``, ``answer``, ``complete``, ``abort``) whose
parameters are the action's fields, coordinates relative 0-1000 (or 0-1, or device pixels, as the
``json`` adapter's ``coordinates``). :meth:`ToolsAdapter.tools` is that schema: ``OpenAIAgent`` sends
it as the request's ``tools`` (with ``tool_choice: "auto"``), and the system prompt names the same
functions for servers that render tools into the prompt themselves. A reply without a native tool
call may give one as ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` or a bare JSON
object with ``name`` and ``arguments``. The arguments are then read as the ``json`` adapter reads an
action object (its tolerant readings included).
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import ParseError
from ..images import Frame
from .base import Parsed, PromptContext, Reply, answer_rule, apps_line, first_json_object, strip_think
from .plain_json import JsonAdapter

POINT = {"x": {"type": "number", "description": "x of the point"},
         "y": {"type": "number", "description": "y of the point"}}
FUNCTIONS: tuple[tuple[str, str, dict[str, Any], tuple[str, ...]], ...] = (
    ("tap", "Tap a point of the screen.", POINT, ("x", "y")),
    ("double_tap", "Tap a point twice quickly.", POINT, ("x", "y")),
    ("long_press", "Press and hold a point.", {**POINT, "duration_ms": {"type": "integer", "description":
                                                                        "how long to hold (default 800)"}}, ("x", "y")),
    ("swipe", "Move a finger from (x, y) to (x2, y2); swipe up to see what is further down.",
     {**POINT, "x2": {"type": "number", "description": "x where the finger ends"},
      "y2": {"type": "number", "description": "y where the finger ends"}}, ("x", "y", "x2", "y2")),
    ("drag", "A slow drag from (x, y) to (x2, y2) that does not fling.",
     {**POINT, "x2": {"type": "number"}, "y2": {"type": "number"}}, ("x", "y", "x2", "y2")),
    ("type", "Type text into the focused field; give x and y to tap the field first.",
     {"text": {"type": "string"}, **POINT, "clear": {"type": "boolean", "description": "replace what it holds"}},
     ("text",)),
    ("key", "Press a key.", {"key": {"type": "string", "enum": ["back", "home", "recent", "enter", "delete"]}},
     ("key",)),
    ("open_app", "Open an app by its name.", {"app": {"type": "string"}}, ("app",)),
    ("wait", "Let some seconds pass, then look again.", {"seconds": {"type": "number"}}, ()),
    ("answer", "Record the answer to the user's question (text mode).", {"text": {"type": "string"}}, ("text",)),
    ("complete", "The task is done.", {"text": {"type": "string", "description": "optional"}}, ()),
    ("abort", "The task cannot be done on this phone; say why.", {"text": {"type": "string"}}, ()),
)


class ToolsAdapter(JsonAdapter):
    """OpenAI tool calls against the env's action schema."""

    name = "tools"
    PROMPT_VERSION = "1"

    def tools(self) -> list[dict[str, Any]]:
        """The ``tools`` of each request: one function per action."""
        return [{"type": "function", "function": {"name": name, "description": text, "parameters": {
            "type": "object", "properties": properties, "required": list(required)}}}
            for name, text, properties, required in FUNCTIONS]

    def system_prompt(self, ctx: PromptContext) -> str:
        frame = ctx.frame
        if frame.convention == "device":
            where = (f"Coordinates are pixels of the phone's {frame.device_size[0]}x{frame.device_size[1]} screen, "
                     "(0, 0) at the top-left corner.")
        else:
            extent = "1" if frame.convention == "relative_1" else "1000"
            where = (f"Coordinates are relative to the screenshot: 0 is the left or top edge, {extent} the right or "
                     "bottom edge.")
        names = [name for name, *_ in FUNCTIONS if ctx.eval_mode == "text" or name != "answer"]
        lines = [
            "You operate an Android phone to carry out a user's task. Each turn you see the phone's screenshot and "
            "call exactly one of the functions you are given: " + ", ".join(names) + ".",
            where + " Aim at the middle of an element.",
            "Before the call, say in one sentence what you see and why you act.",
            "",
            "Rules:",
            "- " + answer_rule(ctx.eval_mode, "the answer function", "complete"),
            "- Call abort only when the task is impossible here, e.g. it asks for something this phone does not have.",
            "- If an action changed nothing, try something else instead of repeating it.",
        ]
        if ctx.marks:
            lines.append("- Numbered boxes are drawn on the screenshot: tap, double_tap, long_press and type may give "
                         '"mark": N instead of x and y.')
        if ctx.apps:
            lines.append(apps_line(ctx.apps))
        return "\n".join(lines)

    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        text, think = strip_think(reply.text)
        prose = " ".join(text.split()) or None
        if reply.tool_calls:
            name, arguments = reply.tool_calls[0].name, reply.tool_calls[0].arguments
        else:
            start = text.find("<tool_call>")
            found = first_json_object(text[start:] if start != -1 else text)
            if found is None or "name" not in found[0]:
                raise ParseError("tools: the reply has no tool call (natively, in <tool_call> tags or as a JSON "
                                 "object with name and arguments)")
            name, arguments = found[0]["name"], found[0].get("arguments", {})
            prose = " ".join(text[:start if start != -1 else found[1]].split()) or None
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except ValueError:
                raise ParseError(f"tools: the arguments of {name!r} are not JSON: {arguments[:120]!r}") from None
        if arguments is None:
            arguments = {}
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise ParseError(f"tools: a call needs a function name and an arguments object, got {name!r}")
        return self._from_object({**arguments, "type": name}, think or prose, frame)
