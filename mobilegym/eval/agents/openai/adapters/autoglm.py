"""``autoglm``: AutoGLM-Phone's ``do(action="Tap", element=[x, y])`` / ``finish(message="...")`` calls.

Coordinates are relative, 0-999 on each axis (divided by 1000, as AutoGLM's own runtime does).
``Note`` and ``Call_API`` (the model recording or summing up what it read) leave the phone alone: a
zero-second wait; ``Interact`` (asking the user to choose) ends the episode like ``Take_over``.
The reply may wrap its reasoning and action as ``<think>...</think><answer>...</answer>``; without
the tags the first ``do(`` or ``finish(`` starts the action. The screenshot is sent as captured.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import ParseError
from ..images import Frame, ResizePolicy
from .base import Adapter, Parsed, PromptContext, Reply, answer_rule, apps_line, point, strip_think
from .calls import lenient_text, parse_call

_START = re.compile(r"\b(do|finish)\(")
_WAIT = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:s|sec|secs|second|seconds)?\s*")
DEFAULT_WAIT_S = 1.0
TOUCHES = {"Tap": "tap", "Double Tap": "double_tap", "Long Press": "long_press"}


class AutoGLMAdapter(Adapter):
    """AutoGLM phone actions, relative 0-999 coordinates."""

    name = "autoglm"
    PROMPT_VERSION = "1"

    def __init__(self) -> None:
        self.convention = "relative_1000"
        self.resize = ResizePolicy("none")

    def system_prompt(self, ctx: PromptContext) -> str:
        lines = [
            "You are an agent that operates an Android phone for the user. At each step you get the task and "
            "a screenshot; look at the screen, reason about it, then give one operation as a line of "
            "Python-style code.",
            "",
            "Answer in exactly this form:",
            "<think>what you see and why you choose the next operation</think>",
            "<answer>one operation</answer>",
            "",
            "Coordinates are relative: [0, 0] is the top-left corner and [999, 999] the bottom-right one.",
            "",
            "Operations:",
            'do(action="Launch", app="Clock")  open an app by its name',
            'do(action="Tap", element=[x, y])',
            'do(action="Double Tap", element=[x, y])',
            'do(action="Long Press", element=[x, y])',
            'do(action="Swipe", start=[x1, y1], end=[x2, y2])  the finger moves from start to end; '
            "swipe up to see what is further down",
            'do(action="Type", text="...")  replaces the text of the focused input field',
            'do(action="Back")',
            'do(action="Home")',
            'do(action="Wait", duration="2 seconds")',
            'do(action="Take_over", message="...")  the task cannot be done on this phone; say why',
            'finish(message="...")  the task is done; the message sums up the result',
        ]
        if ctx.marks:
            lines.append('Tap, Double Tap and Long Press may give mark=N (a numbered box on the screenshot) '
                         "instead of element.")
        lines += [
            "",
            "Rules:",
            "- " + answer_rule(ctx.eval_mode, 'finish(message="...")', "finish()"),
            "- One operation per answer, on one line.",
            "- If an operation changed nothing, try another way instead of repeating it.",
        ]
        if ctx.apps:
            lines.append("- " + apps_line(ctx.apps))
        return "\n".join(lines)

    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        text, think = strip_think(reply.text)
        start = text.find("<answer>")
        if start != -1:
            before, source = text[:start], text[start + len("<answer>"):].split("</answer>", 1)[0]
        else:
            match = _START.search(text)
            if match is None:
                raise ParseError("autoglm: the reply has no <answer> block and no do(...) or finish(...) call")
            before, source = text[:match.start()], text[match.start():]
        thought = think or " ".join(before.split()) or None
        source = source.strip()
        try:
            name, args = parse_call(source)
        except ParseError:
            typed = (lenient_text(source, "do", "text")
                     if source.startswith(('do(action="Type"', "do(action='Type'")) else None)
            message = lenient_text(source, "finish", "message") if source.startswith("finish(") else None
            if typed is not None:
                name, args = "do", {"action": "Type", "text": typed}
            elif message is not None:
                name, args = "finish", {"message": message}
            else:
                raise
        return Parsed(self._action(name, args, frame), thought)

    def _action(self, name: str, args: dict[str, Any], frame: Frame) -> dict[str, Any]:
        if name == "finish":
            message = args.get("message")
            return {"type": "complete", "text": message if isinstance(message, str) and message.strip() else None}
        if name != "do":
            raise ParseError(f"autoglm: expected do(...) or finish(...), got {name}(...)")
        kind = args.get("action")
        if kind in TOUCHES:
            x, y = frame.mark(args["mark"]) if "mark" in args else point(frame, args.get("element"), "element")
            return {"type": TOUCHES[kind], "x": x, "y": y}
        if kind == "Swipe":
            x, y = point(frame, args.get("start"), "start")
            x2, y2 = point(frame, args.get("end"), "end")
            return {"type": "swipe", "x": x, "y": y, "x2": x2, "y2": y2}
        if kind in ("Type", "Type_Name"):
            return {"type": "type", "text": args.get("text"), "clear": True}
        if kind == "Launch":
            return {"type": "open_app", "app": args.get("app")}
        if kind in ("Back", "Home"):
            return {"type": "key", "key": kind.lower()}
        if kind == "Wait":
            return {"type": "wait", "seconds": _duration(args.get("duration"))}
        if kind in ("Take_over", "Interact"):  # no one is there to take over or to choose: the episode ends
            message = args.get("message")
            return {"type": "abort", "text": message if isinstance(message, str) and message.strip() else None}
        if kind in ("Note", "Call_API"):  # the model records or sums up what it read; the phone is left alone
            return {"type": "wait", "seconds": 0}
        raise ParseError(f"autoglm: unknown action {kind!r}")


def _duration(value: Any) -> float:
    """AutoGLM's wait duration: ``"2 seconds"``, ``"2"`` or a number (1 second when absent)."""
    if value is None:
        return DEFAULT_WAIT_S
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    match = _WAIT.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise ParseError(f"autoglm: Wait duration must be like \"2 seconds\", got {value!r}")
    return float(match.group(1))
