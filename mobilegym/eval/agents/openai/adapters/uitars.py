"""``uitars``: UI-TARS "Thought: ...\\nAction: click(start_box='(x,y)')" with its mobile action space.

Versions:

* ``1.5`` (UI-TARS-1.5): coordinates are pixels of the screenshot after smart resize (factor 28,
  ``100*28*28``..``16384*28*28`` pixels), which is also the image sent.
* ``1`` (UI-TARS v1, 7B/72B SFT and DPO): coordinates are relative, 0-1000 on each axis.

Points are read from ``(x,y)``, ``<|box_start|>(x,y)<|box_end|>``, ``<point>x y</point>``, or a
box ``(x1,y1,x2,y2)`` / ``[x1,y1,x2,y2]`` / ``<bbox>x1 y1 x2 y2</bbox>`` (its centre).
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import ParseError
from ..images import Frame, ResizePolicy
from .base import NUMBER, Adapter, Parsed, PromptContext, Reply, answer_rule, apps_line, scroll
from .calls import lenient_text, parse_call

VERSIONS = {
    "1.5": ("image", ResizePolicy("smart", factor=28, min_pixels=100 * 28 * 28, max_pixels=16384 * 28 * 28)),
    "1": ("relative_1000", ResizePolicy("smart", factor=28, min_pixels=100 * 28 * 28, max_pixels=16384 * 28 * 28)),
}
WAIT_S = 5.0
_POINT_TAG = re.compile(rf"<point>\s*({NUMBER})[\s,]+({NUMBER})\s*</point>")
_BBOX_TAG = re.compile(rf"<bbox>\s*({NUMBER})[\s,]+({NUMBER})[\s,]+({NUMBER})[\s,]+({NUMBER})\s*</bbox>")
_LABELS = re.compile(r"^\s*(Thought|Reflection|Action_Summary):\s*", re.MULTILINE)
_TEXT_ARGS = {"type": "content", "finished": "content"}


class UITarsAdapter(Adapter):
    """UI-TARS mobile actions; ``version`` picks the coordinate convention."""

    name = "uitars"
    PROMPT_VERSION = "1"

    def __init__(self, version: str = "1.5", min_pixels: int | None = None, max_pixels: int | None = None) -> None:
        self._use_variant("version", version, VERSIONS, min_pixels, max_pixels)

    def system_prompt(self, ctx: PromptContext) -> str:
        frame = ctx.frame
        if frame.convention == "image":
            where = (f"- Coordinates are pixels of the {frame.image_size[0]}x{frame.image_size[1]} screenshot: "
                     "x from the left edge, y from the top edge.")
        else:
            where = "- Coordinates are relative: x and y run from 0 (left, top) to 1000 (right, bottom)."
        box = "'<|box_start|>(x1,y1)<|box_end|>'"
        lines = [
            "You are a GUI agent operating an Android phone. You get a task, the steps you took so far and "
            "a screenshot; decide the single next action.",
            "",
            "## Output Format",
            "Thought: ...",
            "Action: ...",
            "",
            "## Action Space",
            f"click(start_box={box})",
            f"long_press(start_box={box})",
            "type(content='') # type into the focused field; escape ', \" and \\n as in a Python string",
            f"scroll(start_box={box}, direction='down or up or right or left') "
            "# move the view to show more in that direction",
            f"drag(start_box={box}, end_box='<|box_start|>(x3,y3)<|box_end|>')",
            "open_app(app_name='')",
            "press_home()",
            "press_back()",
            "wait() # wait five seconds, then look again",
            "finished(content='') # the task is done; content holds the answer when there is a question",
            "call_user() # the task is impossible on this phone",
        ]
        if ctx.marks:
            lines.append("# click and long_press may take mark=N (a numbered box on the screenshot) "
                         "instead of start_box")
        lines += [
            "",
            "## Note",
            where,
            "- Write the Thought in English: a short plan, then one sentence naming the next action and its target.",
            "- " + answer_rule(ctx.eval_mode, "finished(content='...')", "finished()"),
        ]
        if ctx.apps:
            lines.append("- " + apps_line(ctx.apps))
        return "\n".join(lines)

    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        text = reply.text.strip()
        head, found, source = text.rpartition("Action:")
        if not found:
            raise ParseError("uitars: the reply has no 'Action:' line")
        thought = " ".join(_LABELS.sub(" ", head).split()) or None
        source = _normalise(source.strip().split("\n\n")[0])
        try:
            name, args = parse_call(source)
        except ParseError:
            name = source.split("(", 1)[0].strip()
            text_arg = lenient_text(source, name, _TEXT_ARGS[name]) if name in _TEXT_ARGS else None
            if text_arg is None:
                raise
            args = {_TEXT_ARGS[name]: text_arg}
        return Parsed(self._action(name, args, frame), thought)

    def _action(self, name: str, args: dict[str, Any], frame: Frame) -> dict[str, Any]:
        if name in ("click", "long_press"):
            x, y = frame.mark(args["mark"]) if "mark" in args else _box(frame, args.get("start_box"), "start_box")
            return {"type": "tap" if name == "click" else "long_press", "x": x, "y": y}
        if name == "type":
            return {"type": "type", "text": args.get("content")}
        if name == "scroll":
            start = (_box(frame, args["start_box"], "start_box") if args.get("start_box")
                     else (frame.device_size[0] // 2, frame.device_size[1] // 2))
            return scroll(start, args.get("direction"), frame.device_size)
        if name == "drag":
            x, y = _box(frame, args.get("start_box"), "start_box")
            x2, y2 = _box(frame, args.get("end_box"), "end_box")
            return {"type": "drag", "x": x, "y": y, "x2": x2, "y2": y2}
        if name == "open_app":
            return {"type": "open_app", "app": args.get("app_name")}
        if name in ("press_home", "press_back"):
            return {"type": "key", "key": name.removeprefix("press_")}
        if name == "wait":
            return {"type": "wait", "seconds": WAIT_S}
        if name == "finished":
            content = args.get("content")
            return {"type": "complete", "text": content if isinstance(content, str) and content.strip() else None}
        if name == "call_user":
            return {"type": "abort"}
        raise ParseError(f"uitars: unknown action {name}()")


def _normalise(source: str) -> str:
    """The action with box tokens dropped, point/bbox tags as tuples and point keywords as boxes."""
    source = source.replace("<|box_start|>", "").replace("<|box_end|>", "")
    source = _POINT_TAG.sub(r"(\1,\2)", source)
    source = _BBOX_TAG.sub(r"(\1,\2,\3,\4)", source)
    source = re.sub(r"\bstart_point=", "start_box=", source)
    source = re.sub(r"\bend_point=", "end_box=", source)
    return re.sub(r"\bpoint=", "start_box=", source)


def _box(frame: Frame, value: Any, what: str) -> tuple[int, int]:
    """A point or a box (its centre) written as text -> device pixels."""
    numbers = [float(n) for n in re.findall(NUMBER, value)] if isinstance(value, str) else []
    if len(numbers) == 2:
        return frame.to_device(*numbers)
    if len(numbers) == 4:
        return frame.to_device((numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2)
    raise ParseError(f"uitars: {what} must be a point '(x,y)' or a box '(x1,y1,x2,y2)', got {value!r}")
