"""``gelab``: GELab-Zero's tab-separated actions: ``<THINK>...</THINK>``, then
``explain:...\\taction:CLICK\\tpoint:x,y\\tsummary:...``.

Coordinates are relative, 0-1000 on each axis; the screenshot is sent as captured. The actions: CLICK
and LONGPRESS (``point``), TYPE (``value``, and ``point`` of the field to tap first when given), SLIDE
(``point1`` to ``point2``: the finger's path), AWAKE (open the app ``value``), WAIT (``value``
seconds), COMPLETE (``return``: the text answer), ABORT (``value``: why), and INFO (a question for the
user: nobody answers in an evaluation, so it ends the episode as an abort, unless ``user_reply`` is
given, which the next prompt passes on as the user's answer). Field names and action names are read
in any case; fields may be separated by tabs or, as some servers rewrite them, by runs of spaces.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import ParseError
from ..images import Frame, ResizePolicy
from .base import NUMBER, Adapter, Parsed, PromptContext, Reply, answer_rule, apps_line

DEFAULT_WAIT_S = 2.0
_THINK = re.compile(r"<\s*think\s*>(.*?)<\s*/\s*think\s*>", re.IGNORECASE | re.DOTALL)
_FIELD = re.compile(r"(?:^|\t|\s{2,}|\n)(explain|action|action_type|point1|point2|point|value|return|summary)\s*:",
                    re.IGNORECASE)


class GELabAdapter(Adapter):
    """GELab-Zero mobile actions, relative 0-1000 coordinates."""

    name = "gelab"
    PROMPT_VERSION = "1"

    def __init__(self, user_reply: str | None = None) -> None:
        if user_reply is not None and (not isinstance(user_reply, str) or not user_reply.strip()):
            raise ValueError(f"gelab user_reply must be a non-empty string or None, got {user_reply!r}")
        self.user_reply = user_reply
        self.convention = "relative_1000"
        self.resize = ResizePolicy("none")

    def options(self) -> dict[str, Any]:
        return {**super().options(), "user_reply": self.user_reply}

    def system_prompt(self, ctx: PromptContext) -> str:
        lines = [
            "You are an expert at operating a phone's GUI. From the user's task, the phone's screenshot and the "
            "history of your steps, you act on the phone with the actions below to complete the task.",
            "The screen's coordinates have their origin at the top-left corner, x to the right and y downwards, "
            "both from 0 to 1000.",
            "",
            "# Action space",
            "Every action is one line of tab-separated fields:",
            "1. CLICK: tap a point. Example: action:CLICK\\tpoint:x,y",
            "2. TYPE: type text into an input field; point is the field. Example: action:TYPE\\tvalue:text\\tpoint:x,y",
            "3. COMPLETE: the task is done; report the result. Example: action:COMPLETE\\treturn:the result",
            "4. WAIT: wait some seconds. Example: action:WAIT\\tvalue:2",
            "5. AWAKE: open an app by its name. Example: action:AWAKE\\tvalue:app name",
            "6. INFO: ask the user a question. Example: action:INFO\\tvalue:the question",
            "7. ABORT: stop, only when the task cannot go on; say why. Example: action:ABORT\\tvalue:the reason",
            "8. SLIDE: move the finger from point1 to point2. Example: action:SLIDE\\tpoint1:x1,y1\\tpoint2:x2,y2",
            "9. LONGPRESS: press and hold a point. Example: action:LONGPRESS\\tpoint:x,y",
            "",
            "# Output format",
            "Think inside <THINK> and </THINK>, then write the action line: explain: says what the action is for, "
            "then the action and its fields, then summary: the history so far including this step.",
            "<THINK> your thinking </THINK>",
            "explain:why this action\\taction:CLICK\\tpoint:x,y\\tsummary:what has been done so far",
            "",
            "# Rules",
            "- " + answer_rule(ctx.eval_mode, "COMPLETE with the answer as its return", "COMPLETE"),
            "- Do not slide the same way more than five times in a row.",
        ]
        if ctx.apps:
            lines.append("- " + apps_line(ctx.apps))
        return "\n".join(lines)

    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        text = reply.text.strip()
        thinks = list(_THINK.finditer(text))
        think = " ".join(thinks[0].group(1).split()) if thinks else None
        body = text[thinks[-1].end():] if thinks else text
        fields = _fields(body)
        kind = (fields.get("action") or fields.get("action_type") or "").strip().upper()
        if not kind:
            raise ParseError("gelab: the reply has no action: field")
        thought = think or fields.get("explain") or None
        if kind == "INFO" and self.user_reply is not None:
            return Parsed({"type": "wait", "seconds": 0}, thought, f"The user answers: {self.user_reply}")
        return Parsed(self._action(kind, fields, frame), thought)

    def _action(self, kind: str, fields: dict[str, str], frame: Frame) -> dict[str, Any]:
        if kind in ("CLICK", "LONGPRESS"):
            x, y = _point(frame, fields, "point")
            return {"type": "tap" if kind == "CLICK" else "long_press", "x": x, "y": y}
        if kind == "TYPE":
            action: dict[str, Any] = {"type": "type", "text": fields.get("value")}
            if fields.get("point"):
                action["x"], action["y"] = _point(frame, fields, "point")
            return action
        if kind == "SLIDE":
            x, y = _point(frame, fields, "point1")
            x2, y2 = _point(frame, fields, "point2")
            return {"type": "swipe", "x": x, "y": y, "x2": x2, "y2": y2}
        if kind == "AWAKE":
            return {"type": "open_app", "app": fields.get("value")}
        if kind == "WAIT":
            return {"type": "wait", "seconds": _seconds(fields.get("value"))}
        if kind == "COMPLETE":
            result = fields.get("return") or fields.get("value")
            return {"type": "complete", "text": result or None}
        if kind in ("ABORT", "INFO"):
            return {"type": "abort", "text": fields.get("value") or None}
        raise ParseError(f"gelab: unknown action {kind!r}")


def _fields(body: str) -> dict[str, str]:
    """``key:value`` fields of the action line (the first of each key)."""
    marks = list(_FIELD.finditer(body))
    out: dict[str, str] = {}
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        out.setdefault(mark.group(1).lower(), body[mark.end():end].strip())
    return out


def _point(frame: Frame, fields: dict[str, str], key: str) -> tuple[int, int]:
    numbers = re.findall(NUMBER, fields.get(key, ""))
    if len(numbers) != 2:
        raise ParseError(f"gelab: {key} must be 'x,y', got {fields.get(key)!r}")
    return frame.to_device(float(numbers[0]), float(numbers[1]))


def _seconds(value: str | None) -> float:
    if not value:
        return DEFAULT_WAIT_S
    match = re.fullmatch(rf"\s*({NUMBER})\s*(?:s|sec|seconds?|秒)?\s*", value)
    if match is None:
        raise ParseError(f"gelab: WAIT value must be a number of seconds, got {value!r}")
    return float(match.group(1))
