"""``maiui``: MAI-UI's ``mobile_use`` calls with its action space, ``ask_user`` included.

The reply is ``<thinking>...</thinking>`` then ``<tool_call>{"name": "mobile_use", "arguments":
{"action": ...}}</tool_call>``. Coordinates are relative, 0-999 on each axis (MAI-UI's runtime divides
by 999); the screenshot is sent as captured. The actions: click, double_click, long_press, type,
swipe by ``direction`` (from ``coordinate``, else the screen's centre), drag from ``start_coordinate``
to ``end_coordinate``, open (and its alias AWAKE), system_button, wait, answer, terminate with status
``success`` or ``fail``, and ask_user (alias INFO). Nobody answers ``ask_user`` in an evaluation: it
ends the episode as an abort with the question as its text, unless ``user_reply`` is given, which the
next prompt passes on as the user's answer (the step changes nothing on the phone).
"""
from __future__ import annotations

from typing import Any

from ..images import Frame, ResizePolicy
from .base import Parsed, PromptContext, answer_rule, apps_line, point
from .guiowl import GUIOwlAdapter

DEFAULT_WAIT_S = 2.0


class MAIUIAdapter(GUIOwlAdapter):
    """MAI-UI mobile navigation: relative 0-999 coordinates, ``ask_user``."""

    name = "maiui"
    PROMPT_VERSION = "1"

    def __init__(self, user_reply: str | None = None) -> None:
        if user_reply is not None and (not isinstance(user_reply, str) or not user_reply.strip()):
            raise ValueError(f"maiui user_reply must be a non-empty string or None, got {user_reply!r}")
        self.user_reply = user_reply
        self.convention = "relative_999"
        self.resize = ResizePolicy("none")
        self._variant = None

    def options(self) -> dict[str, Any]:
        return {**super().options(), "user_reply": self.user_reply}

    def system_prompt(self, ctx: PromptContext) -> str:
        lines = [
            "You are a GUI agent. You get a task, the history of your actions and screenshots of an Android phone; "
            "decide the next action.",
            "",
            "## Output Format",
            "Write your reasoning inside <thinking></thinking> tags, then one JSON object with the function name "
            "and arguments inside <tool_call></tool_call> tags:",
            "<thinking>",
            "...",
            "</thinking>",
            "<tool_call>",
            '{"name": "mobile_use", "arguments": <args-json-object>}',
            "</tool_call>",
            "",
            "## Action Space",
            '{"action": "click", "coordinate": [x, y]}',
            '{"action": "double_click", "coordinate": [x, y]}',
            '{"action": "long_press", "coordinate": [x, y]}',
            '{"action": "type", "text": ""}',
            '{"action": "swipe", "direction": "up or down or left or right", "coordinate": [x, y]}  '
            '# the finger moves that way; "coordinate" (optional) is where it starts',
            '{"action": "open", "text": "app_name"}',
            '{"action": "drag", "start_coordinate": [x1, y1], "end_coordinate": [x2, y2]}',
            '{"action": "system_button", "button": "back or home or menu or enter"}',
            '{"action": "wait"}',
            '{"action": "terminate", "status": "success or fail"}',
        ]
        if ctx.eval_mode == "text":
            lines.append('{"action": "answer", "text": "xxx"}  # the answer to the user\'s question')
        lines += [
            '{"action": "ask_user", "text": "xxx"}  # ask the user for information the task needs',
            "",
            "## Note",
            "- Coordinates are relative: [0, 0] is the top-left corner of the screen and [999, 999] the "
            "bottom-right one.",
            "- Write a short plan in <thinking></thinking>, ending with one sentence naming the next action and "
            "its target.",
            "- " + answer_rule(ctx.eval_mode, 'the "answer" action', 'terminate with status "success"'),
            '- If the task is impossible on this phone, terminate with status "fail".',
        ]
        if ctx.apps:
            lines.append("- " + apps_line(ctx.apps))
        return "\n".join(lines)

    def _parsed(self, args: dict[str, Any], frame: Frame, thought: str | None) -> Parsed:
        kind = args.get("action")
        if kind in ("ask_user", "INFO"):
            question = args.get("text") if isinstance(args.get("text"), str) else None
            if self.user_reply is None:
                return Parsed({"type": "abort", "text": question}, thought)
            return Parsed({"type": "wait", "seconds": 0}, thought, f"The user answers: {self.user_reply}")
        if kind == "AWAKE":
            args = {**args, "action": "open"}
        if kind == "double_click":
            x, y = point(frame, args.get("coordinate"), "coordinate")
            return Parsed({"type": "double_tap", "x": x, "y": y}, thought)
        if kind == "wait" and args.get("time") is None:
            return Parsed({"type": "wait", "seconds": DEFAULT_WAIT_S}, thought)
        return super()._parsed(args, frame, thought)
