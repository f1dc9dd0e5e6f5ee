"""``json``: the model answers one JSON object in the env's own action schema.

The family-neutral adapter for general-purpose models (GPT-4o, Claude, Gemini, Qwen chat models,
anything with vision): no special tokens, nothing to learn but the schema. The screenshot is sent
with its longer side shrunk to ``max_side`` (or as captured when ``max_side`` is None). Coordinates
are in one of the env's coordinate spaces (``coordinates``): ``norm1000`` (the default, 0-1000 on
each axis), ``norm1`` (0-1) or ``pixels`` (device pixels, whatever the screenshot's size).
"""
from __future__ import annotations

from typing import Any

from ..errors import ParseError
from ..images import Frame, ResizePolicy
from .base import (Adapter, Parsed, PromptContext, Reply, answer_rule, apps_line, centre, end_status,
                   first_json_object, key_action, scroll, swipe_toward)

POINT_TYPES = ("tap", "double_tap", "long_press", "type")
# what general models write instead of the schema's type names
TYPE_ALIASES = {"click": "tap", "single_tap": "tap", "double_click": "double_tap", "long_click": "long_press",
                "input": "type", "input_text": "type", "type_text": "type", "open": "open_app", "launch": "open_app",
                "open_application": "open_app", "finish": "complete", "done": "complete", "stop": "complete",
                "answer_question": "answer", "press_key": "key", "system_button": "key"}
NAMED_KEYS = {"back": "back", "navigate_back": "back", "press_back": "back", "home": "home", "navigate_home": "home",
              "press_home": "home", "enter": "enter", "press_enter": "enter"}
# other names of the schema's fields
FIELD_ALIASES = {"coordinate": ("x", "y"), "start_coordinate": ("x", "y"), "coordinate2": ("x2", "y2"),
                 "end_coordinate": ("x2", "y2")}
# the env's coordinate spaces -> the frame conventions that read them
COORDINATES = {"norm1000": "relative_1000", "norm1": "relative_1", "pixels": "device"}


class JsonAdapter(Adapter):
    """A JSON action object, optionally with ``"thought"``; ``"mark": N`` replaces x/y with set-of-mark."""

    name = "json"
    PROMPT_VERSION = "1"

    def __init__(self, max_side: int | None = 1280, coordinates: str = "norm1000") -> None:
        if coordinates not in COORDINATES:
            raise ValueError(f"json coordinates must be one of {', '.join(COORDINATES)}, got {coordinates!r}")
        self.convention = COORDINATES[coordinates]
        self._variant = None if coordinates == "norm1000" else coordinates
        self.resize = ResizePolicy("none") if max_side is None else ResizePolicy("max_side", max_side=max_side)

    def system_prompt(self, ctx: PromptContext) -> str:
        lines = [
            "You operate an Android phone to carry out a user's task. Each turn you see the phone's "
            "current screenshot" + (" and a list of its screen elements" if ctx.tree else "")
            + ", and you reply with exactly one action.",
            "",
            "Reply with a single JSON object and nothing else, for example:",
            '{"thought": "The search field is at the top; tap it before typing.", "type": "tap", '
            + _example(ctx.frame) + "}",
            "",
            _coordinates_rule(ctx.frame) + " Aim at the middle of the element.",
            "",
            'Actions ("thought", a sentence on why, is allowed in every one):',
            '{"type": "tap", "x": X, "y": Y}',
            '{"type": "double_tap", "x": X, "y": Y}',
            '{"type": "long_press", "x": X, "y": Y, "duration_ms": 800}',
            '{"type": "swipe", "x": X1, "y": Y1, "x2": X2, "y2": Y2}  the finger moves from (x, y) to (x2, y2): '
            "swipe up to see what is further down",
            '{"type": "drag", "x": X1, "y": Y1, "x2": X2, "y2": Y2}  a slow drag that does not fling',
            '{"type": "type", "text": "..."}  types into the focused field; add "x" and "y" to tap the field first '
            'and "clear": true to replace what it holds',
            '{"type": "key", "key": "back"}  also "home", "recent", "enter" or "delete"',
            '{"type": "open_app", "app": "Clock"}',
            '{"type": "wait", "seconds": 2}',
        ]
        if ctx.eval_mode == "text":
            lines.append('{"type": "answer", "text": "..."}  records your answer to a question')
        lines += [
            '{"type": "complete", "text": "..."}  the task is done; the text is optional',
            '{"type": "abort", "text": "..."}  the task cannot be done on this phone; say why',
        ]
        if ctx.marks:
            lines += ["", 'Numbered boxes are drawn on the screenshot. A tap, double_tap, long_press or type may '
                          'give "mark": N instead of "x" and "y" to act on the centre of box N.']
        lines += ["", "Rules:",
                  "- " + answer_rule(ctx.eval_mode, 'the "answer" action', '"complete"'),
                  "- End with \"abort\" only when the task is impossible here, e.g. it asks for something this "
                  "phone does not have.",
                  "- If an action changed nothing, try something else instead of repeating it."]
        if ctx.apps:
            lines += ["", apps_line(ctx.apps)]
        return "\n".join(lines)

    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        found = first_json_object(reply.text)
        if found is None:
            raise ParseError("json: the reply holds no JSON object")
        action, start, end = found
        prose = (reply.text[:start] + " " + reply.text[end:]).replace("```json", "").replace("```", "")
        return self._from_object(action, " ".join(prose.split()) or None, frame)

    def _from_object(self, action: dict[str, Any], prose: str | None, frame: Frame) -> Parsed:
        """An action object in (or near) the env's schema -> the action in device pixels; ``prose`` is the
        reasoning around it, used when the object has no "thought"."""
        if isinstance(action.get("action"), dict) and "type" not in action:  # {"thought": ..., "action": {...}}
            action = {**{k: v for k, v in action.items() if k != "action"}, **action["action"]}
        action = dict(action)
        if "type" not in action:  # {"action": "tap", ...} or {"action_type": "tap", ...}
            for key in ("action", "action_type"):
                if isinstance(action.get(key), str):
                    action["type"] = action.pop(key)
                    break
            else:
                raise ParseError(f"json: the object has no \"type\": {action!r}"[:200])
        thought = action.pop("thought", None)
        if thought is not None and not isinstance(thought, str):
            raise ParseError(f"json: \"thought\" must be a string, got {type(thought).__name__}")
        if thought is None:  # the prose around the object, if the model wrote any
            thought = prose
        action, note = _tolerate(action)
        if "mark" in action:
            if action["type"] not in POINT_TYPES:
                raise ParseError(f"json: \"mark\" works with {', '.join(POINT_TYPES)}, not {action['type']!r}")
            action["x"], action["y"] = frame.mark(action.pop("mark"))
        else:
            _map_points(action, frame)
        if action["type"] == "scroll" or (action["type"] == "swipe" and "direction" in action and "x2" not in action):
            start = (action["x"], action["y"]) if action.get("x") is not None else centre(frame.device_size)
            move = scroll if action["type"] == "scroll" else swipe_toward
            action = move(start, action.get("direction"), frame.device_size)
        return Parsed(action, thought, note)


def _tolerate(action: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The readings of what real models write beside the schema: other type names (``click``, ``input_text``,
    ``open``, ``back``, ``terminate`` with a status), ``coordinate`` pairs, ``app_name``, Android key names
    (keys this phone ignores give a zero-second wait and a note). ``scroll`` is handled by the caller."""
    kind = action["type"].strip().lower() if isinstance(action["type"], str) else action["type"]
    note = None
    for name, (kx, ky) in FIELD_ALIASES.items():
        pair = action.pop(name, None)
        if isinstance(pair, (list, tuple)) and len(pair) == 2 and kx not in action:
            action[kx], action[ky] = pair
    if kind in NAMED_KEYS:
        return {"type": "key", "key": NAMED_KEYS[kind]}, None
    if kind == "terminate":
        return {"type": end_status(action.get("status"), "json"),
                **({"text": action["text"]} if isinstance(action.get("text"), str) else {})}, None
    kind = TYPE_ALIASES.get(kind, kind)
    action["type"] = kind
    if kind == "open_app" and "app" not in action:
        for key in ("app_name", "text", "name"):
            if key in action:
                action["app"] = action.pop(key)
                break
    if kind == "type" and "text" not in action and "content" in action:
        action["text"] = action.pop("content")
    if kind == "key":
        name = next((action.get(k) for k in ("key", "button", "text") if action.get(k) is not None), None)
        return key_action(name, "json")
    return action, note


def _example(frame: Frame) -> str:
    """The example tap's coordinates (the middle of the top of the screen) in the frame's convention."""
    if frame.convention == "device":
        width, height = frame.device_size
        return f'"x": {round(width * 0.5)}, "y": {round(height * 0.08)}'
    if frame.convention == "relative_1":
        return '"x": 0.5, "y": 0.08'
    return '"x": 500, "y": 80'


def _coordinates_rule(frame: Frame) -> str:
    if frame.convention == "device":
        width, height = frame.device_size
        return (f"Coordinates x and y are pixels of the phone's {width}x{height} screen, whatever the screenshot's "
                f"size: (0, 0) is the top-left corner, ({width - 1}, {height - 1}) the bottom-right one.")
    extent = "1" if frame.convention == "relative_1" else "1000"
    return (f"Coordinates x and y are relative to the screenshot: 0 is the left or top edge, {extent} the right "
            "or bottom edge, whatever the image's size in pixels.")


def _map_points(action: dict[str, Any], frame: Frame) -> None:
    """Convert the (x, y) and (x2, y2) pairs present in the action to device pixels, in place."""
    for kx, ky in (("x", "y"), ("x2", "y2")):
        if action.get(kx) is not None and action.get(ky) is not None:
            action[kx], action[ky] = frame.to_device(action[kx], action[ky])
