"""``uivenus``: UI-Venus navigation:
``<think>...</think><action>Click(box=(x, y))</action><conclusion>...</conclusion>``.

Coordinates are relative, 0-999 on each axis ((0, 0) the top-left corner, (999, 999) the bottom-right);
the screenshot is sent as captured. Actions are calls read as literals (never run): Click and
LongPress (``box`` a point or a box, its centre), Drag and Scroll (``start`` to ``end``: the finger's
path), Type(content=...), Launch(app=...), Wait(), PressBack/PressHome/PressEnter/PressRecent(),
Finished(content=...) (done; the content is the text answer) and CallUser(content=...) (the task
needs someone: nobody is there in an evaluation, so the episode ends as an abort).
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import ParseError
from ..images import Frame, ResizePolicy
from .base import NUMBER, Adapter, Parsed, PromptContext, Reply, answer_rule, apps_line, strip_think
from .calls import lenient_text, parse_call

WAIT_S = 2.0
KEYS = {"PressBack": "back", "PressHome": "home", "PressEnter": "enter", "PressRecent": "recent"}
_ACTION = re.compile(r"<action>(.*?)(?:</action>|$)", re.DOTALL)
_CONCLUSION = re.compile(r"<conclusion>(.*?)(?:</conclusion>|$)", re.DOTALL)


class UIVenusAdapter(Adapter):
    """UI-Venus mobile navigation, relative 0-999 coordinates."""

    name = "uivenus"
    PROMPT_VERSION = "1"

    def __init__(self) -> None:
        self.convention = "relative_999"
        self.resize = ResizePolicy("none")

    def system_prompt(self, ctx: PromptContext) -> str:
        lines = [
            "**You are a GUI agent operating a phone.**",
            "Your job is to carry out the user's task step by step, from the earlier actions and the phone's "
            "current screen.",
            "",
            "### Actions you can use",
            "- Click(box=(x1,y1))",
            ">> tap a point of the screen. Coordinates run from (0,0) at the top-left to (999,999) at the "
            "bottom-right.",
            "- LongPress(box=(x1,y1))",
            ">> press and hold a point, e.g. to open more options.",
            "- Drag(start=(x1,y1), end=(x2,y2))",
            ">> hold at the start, then drag to the end, e.g. to move an item or a slider.",
            "- Scroll(start=(x1,y1), end=(x2,y2))",
            ">> move the finger from start to end: scroll a list, switch tabs, pull down the notifications.",
            "- Type(content='')",
            ">> type into the active input field.",
            "- Launch(app='')",
            ">> open an app by its name.",
            "- Wait()",
            ">> wait for the page to load.",
            "- Finished(content='')",
            ">> the task is done; content holds the answer when the task asks a question.",
            "- CallUser(content='')",
            ">> the task cannot be done here and needs the user; say why.",
            "- PressBack()",
            "- PressHome()",
            "- PressEnter()",
            "- PressRecent()",
            "",
            "### Output format",
            "<think>your reasoning</think>",
            "<action>one action</action>",
            "<conclusion>a summary of this step</conclusion>",
            "",
            "### Notes",
            "- Make sure the input field is active (the keyboard is showing) before typing.",
            "- If you cannot find what the task needs inside an app, try its search.",
            "- " + answer_rule(ctx.eval_mode, "Finished(content='...')", "Finished()"),
        ]
        if ctx.apps:
            lines.append("- " + apps_line(ctx.apps))
        return "\n".join(lines)

    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        text, think = strip_think(reply.text)
        match = _ACTION.search(text)
        if match is None:
            found = re.search(r"\b(Click|LongPress|Drag|Scroll|Type|Launch|Wait|Finished|CallUser|Press[A-Z]\w*)\(",
                              text)
            if found is None:
                raise ParseError("uivenus: the reply has no <action> block and no action call")
            source = text[found.start():].strip().splitlines()[0]
        else:
            source = match.group(1).strip()
        conclusion = _CONCLUSION.search(text)
        thought = think or (" ".join(conclusion.group(1).split()) if conclusion else None)
        try:
            name, args = parse_call(source)
        except ParseError:
            name = source.split("(", 1)[0].strip()
            content = lenient_text(source, name, "content") if name in ("Type", "Finished", "CallUser") else None
            if content is None:
                raise
            args = {"content": content}
        return Parsed(self._action(name, args, frame), thought)

    def _action(self, name: str, args: dict[str, Any], frame: Frame) -> dict[str, Any]:
        if name in ("Click", "LongPress"):
            x, y = _point(frame, args.get("box"), "box")
            return {"type": "tap" if name == "Click" else "long_press", "x": x, "y": y}
        if name in ("Drag", "Scroll"):
            x, y = _point(frame, args.get("start"), "start")
            x2, y2 = _point(frame, args.get("end"), "end")
            return {"type": "drag" if name == "Drag" else "swipe", "x": x, "y": y, "x2": x2, "y2": y2}
        if name == "Type":
            return {"type": "type", "text": args.get("content")}
        if name == "Launch":
            return {"type": "open_app", "app": args.get("app")}
        if name == "Wait":
            return {"type": "wait", "seconds": WAIT_S}
        if name in KEYS:
            return {"type": "key", "key": KEYS[name]}
        if name in ("Finished", "CallUser"):
            content = args.get("content")
            return {"type": "complete" if name == "Finished" else "abort",
                    "text": content if isinstance(content, str) and content.strip() else None}
        raise ParseError(f"uivenus: unknown action {name}()")


def _point(frame: Frame, value: Any, what: str) -> tuple[int, int]:
    """A point ``(x, y)`` or a box ``(x1, y1, x2, y2)`` (its centre), as a tuple, list or text -> device pixels."""
    if isinstance(value, str):
        value = [float(n) for n in re.findall(NUMBER, value)]
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return frame.to_device(value[0], value[1])
    if isinstance(value, (list, tuple)) and len(value) == 4 and all(isinstance(v, (int, float)) for v in value):
        return frame.to_device((value[0] + value[2]) / 2, (value[1] + value[3]) / 2)
    raise ParseError(f"uivenus: {what} must be a point (x,y) or a box (x1,y1,x2,y2), got {value!r}")
