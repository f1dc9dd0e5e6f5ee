"""``qwen``: Qwen2.5-VL / Qwen3-VL mobile use, one ``mobile_use`` function call per step.

The function is described in the system prompt inside ``<tools>`` and the model answers
``<tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}</tool_call>``;
a server that parses tool calls itself (vLLM ``--enable-auto-tool-choice``) returns them in
``message.tool_calls``, which is read the same way. Variants:

* ``qwen2.5``: coordinates are pixels of the screenshot after Qwen2.5-VL's smart resize (sides
  multiples of 28, area within ``min_pixels``..``max_pixels``), which is also the image sent.
* ``qwen3``: coordinates are relative, 0-1000 on each axis; the image is smart-resized with
  Qwen3-VL's factor of 32.
"""
from __future__ import annotations

import json
from typing import Any

from ..errors import ParseError
from ..images import Frame, ResizePolicy
from .base import (Adapter, Parsed, PromptContext, Reply, answer_rule, apps_line, centre, end_status,
                   first_json_object, key_action, point, strip_think, swipe_toward)

VARIANTS = {
    "qwen2.5": ("image", ResizePolicy("smart", factor=28, min_pixels=4 * 28 * 28, max_pixels=16384 * 28 * 28)),
    "qwen3": ("relative_1000", ResizePolicy("smart", factor=32, min_pixels=64 * 32 * 32, max_pixels=16384 * 32 * 32)),
}
FUNCTION = "mobile_use"
BUTTONS = {"back": "back", "home": "home", "menu": "recent", "enter": "enter"}
DEFAULT_WAIT_S = 2.0


class QwenAdapter(Adapter):
    """Qwen-VL ``mobile_use`` tool calls; ``variant`` picks the coordinate convention."""

    name = "qwen"
    PROMPT_VERSION = "1"

    def __init__(self, variant: str = "qwen2.5", min_pixels: int | None = None, max_pixels: int | None = None) -> None:
        self._use_variant("variant", variant, VARIANTS, min_pixels, max_pixels)

    def tool(self, ctx: PromptContext) -> dict[str, Any]:
        """The ``mobile_use`` function schema shown to the model."""
        frame = ctx.frame
        if frame.convention == "image":
            where = (f"* The screenshot is {frame.image_size[0]}x{frame.image_size[1]} pixels; a coordinate is "
                     "(x, y) in those pixels, x from the left edge and y from the top edge.")
        else:
            where = ("* A coordinate is (x, y) relative to the screen: (0, 0) is the top-left corner and "
                     "(1000, 1000) the bottom-right one, whatever the screenshot's size.")
        actions = ["click", "long_press", "swipe", "type", "key", "system_button", "open", "wait"]
        described = [
            "* `click`: tap the point `coordinate`.",
            "* `long_press`: press and hold `coordinate` for `time` seconds.",
            "* `swipe`: move a finger from `coordinate` to `coordinate2` (swipe up to see what is further down).",
            "* `type`: enter `text` into the focused input field.",
            "* `key`: press the key named by `text` (back, home, enter, delete).",
            "* `system_button`: press a system `button`.",
            "* `open`: launch the app named by `text`.",
            "* `wait`: let `time` seconds pass, then look again.",
        ]
        if ctx.eval_mode == "text":
            actions.append("answer")
            described.append("* `answer`: record `text` as the answer to the user's question.")
        actions.append("terminate")
        described.append("* `terminate`: end the task with `status` success (done) or failure (impossible here).")
        properties: dict[str, Any] = {
            "action": {"description": "The action to perform:\n" + "\n".join(described), "enum": actions,
                       "type": "string"},
            "coordinate": {"description": "(x, y): the point to touch. For click, long_press and the start of swipe.",
                           "type": "array"},
            "coordinate2": {"description": "(x, y): where a swipe ends. For swipe only.", "type": "array"},
            "text": {"description": "For type, key, open" + (" and answer." if ctx.eval_mode == "text" else "."),
                     "type": "string"},
            "time": {"description": "Seconds. For long_press and wait.", "type": "number"},
            "button": {"description": "Back: the previous screen. Home: the home screen. Menu: the recent apps. "
                                      "Enter: the enter key. For system_button only.",
                       "enum": ["Back", "Home", "Menu", "Enter"], "type": "string"},
            "status": {"description": "How the task ended. For terminate only.", "enum": ["success", "failure"],
                       "type": "string"},
        }
        if ctx.marks:
            properties["mark"] = {"description": "The number of a box drawn on the screenshot; click and long_press "
                                                 "may give it instead of coordinate.", "type": "integer"}
        description = "\n".join([
            "Operate an Android phone through its touchscreen and buttons.",
            where,
            "* Touch the middle of buttons, icons and fields rather than their edges.",
            "* Apps can take a moment to respond; wait and look at the next screenshot when a screen is loading.",
        ])
        return {"type": "function", "function": {"name": FUNCTION, "description": description, "parameters": {
            "properties": properties, "required": ["action"], "type": "object"}}}

    def system_prompt(self, ctx: PromptContext) -> str:
        lines = [
            "You are a phone-use assistant. You can call the function below to act on the user's Android phone.",
            "",
            "# Tools",
            "",
            "The function signature, inside <tools></tools> XML tags:",
            "<tools>",
            json.dumps(self.tool(ctx), ensure_ascii=False),
            "</tools>",
            "",
            "To call it, write a JSON object with the function name and its arguments inside "
            "<tool_call></tool_call> XML tags:",
            "<tool_call>",
            '{"name": "mobile_use", "arguments": <args-json-object>}',
            "</tool_call>",
            "",
            "# Each step",
            "Write one short sentence about what you see and what you do next, then make exactly one call.",
            answer_rule(ctx.eval_mode, 'the "answer" action', 'a terminate call with status "success"'),
            'If the task is impossible on this phone, terminate with status "failure".',
        ]
        if ctx.apps:
            lines.append(apps_line(ctx.apps))
        return "\n".join(lines)

    def _text(self, text: str) -> str:
        """The reply's text as this family's parser reads it (families with other reasoning tags override it)."""
        return text

    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        text, think = strip_think(self._text(reply.text))
        if reply.tool_calls:
            name, arguments, before = reply.tool_calls[0].name, reply.tool_calls[0].arguments, text
        else:
            start = text.find("<tool_call>")
            if start == -1:
                raise ParseError(f"{self.name}: the reply has no <tool_call> block and the server returned no "
                                 "tool call")
            found = first_json_object(text[start:])
            if found is None:
                raise ParseError(f"{self.name}: the <tool_call> block holds no JSON object")
            name, arguments, before = found[0].get("name"), found[0].get("arguments"), text[:start]
        if name != FUNCTION:
            raise ParseError(f"{self.name}: the call is to {name!r}, not {FUNCTION!r}")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                raise ParseError(f"{self.name}: the call's arguments are not JSON: {arguments[:120]!r}") from None
        if not isinstance(arguments, dict):
            raise ParseError(f"{self.name}: the call's arguments must be an object, got {type(arguments).__name__}")
        thought = " ".join(part for part in (think, " ".join(before.split())) if part) or None
        return self._parsed(arguments, frame, thought)

    def _parsed(self, args: dict[str, Any], frame: Frame, thought: str | None) -> Parsed:
        if args.get("action") in ("key", "system_button"):
            raw = args.get("text" if args["action"] == "key" else "button")
            if args["action"] == "key" or not (isinstance(raw, str) and raw.strip().lower() in BUTTONS):
                action, note = key_action(raw, self.name)
                return Parsed(action, thought, note)
        return Parsed(self._action(args, frame), thought)

    def _action(self, args: dict[str, Any], frame: Frame) -> dict[str, Any]:
        """The ``mobile_use`` arguments as an action; also the readings of MAI-UI-style calls (a swipe by
        ``direction``, ``drag`` from ``start_coordinate``, ``terminate`` with status ``fail``)."""
        kind = args.get("action")
        if kind in ("click", "long_press"):
            x, y = frame.mark(args["mark"]) if "mark" in args else point(frame, args.get("coordinate"), "coordinate")
            if kind == "click":
                return {"type": "tap", "x": x, "y": y}
            action: dict[str, Any] = {"type": "long_press", "x": x, "y": y}
            if args.get("time") is not None:
                action["duration_ms"] = _seconds(args["time"], "time") * 1000
            return action
        if kind == "swipe" and args.get("coordinate2") is None and args.get("direction") is not None:
            start = point(frame, args["coordinate"], "coordinate") if args.get("coordinate") else centre(
                frame.device_size)
            return swipe_toward(start, args["direction"], frame.device_size)
        if kind in ("swipe", "drag"):
            first, second = (("start_coordinate", "end_coordinate") if "start_coordinate" in args
                             else ("coordinate", "coordinate2"))
            x, y = point(frame, args.get(first), first)
            x2, y2 = point(frame, args.get(second), second)
            return {"type": kind, "x": x, "y": y, "x2": x2, "y2": y2}
        if kind == "type":
            return {"type": "type", "text": args.get("text")}
        if kind == "system_button":
            return {"type": "key", "key": BUTTONS[args["button"].strip().lower()]}
        if kind in ("open", "awake"):
            return {"type": "open_app", "app": args.get("text")}
        if kind == "wait":
            seconds = DEFAULT_WAIT_S if args.get("time") is None else _seconds(args["time"], "time")
            return {"type": "wait", "seconds": seconds}
        if kind == "answer":
            return {"type": "answer", "text": args.get("text")}
        if kind == "terminate":
            return {"type": end_status(args.get("status"), self.name)}
        raise ParseError(f"{self.name}: unknown action {kind!r}")


def _seconds(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParseError(f"qwen: {name} must be a number of seconds, got {value!r}")
    return float(value)
