"""The adapter contract: one model family's prompt, action format, coordinate convention and resize.

An adapter builds the chat messages of a step from a :class:`PromptContext` (images appear as
placeholder URLs such as ``<image 000.png>``; the agent swaps in the data URLs when it sends them)
and parses a :class:`Reply` into an action of the env's schema in device pixels, raising
:class:`ParseError` on anything it cannot read. ``PROMPT_VERSION`` changes whenever the prompt text
changes; the golden-prompt tests in ``tests/test_eval_adapters.py`` notice when it is forgotten.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

from mobilegym.actions import CoordinateSpace, InvalidAction, parse_action
from ..client import ToolCall
from ..errors import ParseError
from ..images import Frame, ResizePolicy

SCROLL_FRACTION = 0.5  # a scroll's finger travel, as a share of the screen along its axis
DIRECTIONS = ("up", "down", "left", "right")
NUMBER = r"-?\d+(?:\.\d+)?"  # a number in a reply, as a regex


@dataclass(frozen=True)
class Turn:
    """An earlier step as the next prompts replay it."""

    step: int
    response: str
    image: str | None = None  # the placeholder of its screenshot, when the prompt re-sends it
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PromptContext:
    """Everything a step's prompt is built from."""

    instruction: str
    step: int
    image: str
    frame: Frame
    eval_mode: str = "grounded"
    apps: tuple[str, ...] = ()
    max_steps: int | None = None
    tree: str | None = None
    marks: str | None = None
    history: tuple[Turn, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reply:
    """A model's answer: its text and any tool calls the server returned natively."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class Parsed:
    """An action (the env's schema, device pixels), the model's stated reasoning, and a note the next prompt
    passes on to the model (e.g. that a key it pressed does nothing on this phone)."""

    action: dict[str, Any]
    thought: str | None = None
    note: str | None = None


class Adapter(ABC):
    """One model family. Subclasses set ``name`` and ``PROMPT_VERSION``, and ``convention`` (a
    :data:`~mobilegym.eval.agents.openai.images.CONVENTIONS` key) and ``resize`` in ``__init__``."""

    name: ClassVar[str]
    PROMPT_VERSION: ClassVar[str]
    convention: str
    resize: ResizePolicy

    _variant: str | None = None

    @property
    def variant(self) -> str | None:
        """The family variant that changes the prompt or coordinates (None for single-variant adapters)."""
        return self._variant

    def _use_variant(self, option: str, variant: str, table: Mapping[str, tuple[str, ResizePolicy]],
                     min_pixels: int | None, max_pixels: int | None) -> None:
        """Set the variant's coordinate convention and smart-resize policy (pixel bounds overridable)."""
        if variant not in table:
            raise ValueError(f"{self.name} {option} must be one of {', '.join(table)}, got {variant!r}")
        self._variant = variant
        self.convention, resize = table[variant]
        self.resize = ResizePolicy("smart", factor=resize.factor, min_pixels=min_pixels or resize.min_pixels,
                                   max_pixels=max_pixels or resize.max_pixels)

    @property
    def prompt_id(self) -> str:
        """The adapter, variant and prompt version, e.g. ``qwen/qwen2.5@1``."""
        return f"{self.name}{'/' + self.variant if self.variant else ''}@{self.PROMPT_VERSION}"

    def options(self) -> dict[str, Any]:
        """The adapter's settings for the results' meta."""
        return {"adapter": self.name, "variant": self.variant, "prompt_version": self.prompt_id,
                "coordinates": self.convention, "resize": self.resize.to_dict()}

    # prompts ------------------------------------------------------------------
    @abstractmethod
    def system_prompt(self, ctx: PromptContext) -> str:
        """The family's instructions: output format, action space, coordinate convention, rules."""

    def user_text(self, ctx: PromptContext) -> str:
        """The text beside the current screenshot: the task, the step, notes, tree and marks."""
        budget = f" of at most {ctx.max_steps}" if ctx.max_steps else ""
        parts = [f"Task: {ctx.instruction}", f"Step {ctx.step + 1}{budget}."]
        parts += ctx.notes
        if ctx.marks:
            parts.append("Numbered marks on the screenshot:\n" + ctx.marks)
        if ctx.tree:
            parts.append(f"Screen elements (accessibility tree; @ gives each centre, {ctx.frame.describe()}):\n"
                         + ctx.tree)
        return "\n".join(parts)

    def messages(self, ctx: PromptContext) -> list[dict[str, Any]]:
        """System prompt, the replayed history (user turn, the model's reply), then the current step."""
        messages: list[dict[str, Any]] = [{"role": "system", "content": self.system_prompt(ctx)}]
        for turn in ctx.history:
            text = "\n".join((f"Step {turn.step + 1}." + ("" if turn.image else " (screenshot not repeated)"),
                              *turn.notes))
            messages.append({"role": "user", "content": _content(turn.image, text)})
            messages.append({"role": "assistant", "content": turn.response})
        messages.append({"role": "user", "content": _content(ctx.image, self.user_text(ctx))})
        return messages

    # parsing ------------------------------------------------------------------
    @abstractmethod
    def _parse(self, reply: Reply, frame: Frame) -> Parsed:
        """The reply's action (device pixels, not yet validated) and thought."""

    def parse(self, reply: Reply, frame: Frame) -> Parsed:
        """The reply's action validated against the env's schema; ParseError on anything else."""
        parsed = self._parse(reply, frame)
        try:
            action = parse_action(parsed.action, CoordinateSpace("pixels", frame.device_size)).to_dict()
        except InvalidAction as exc:
            raise ParseError(f"{self.name}: {exc}") from None
        return Parsed(action, parsed.thought or None, parsed.note)


def _content(image: str | None, text: str) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = [{"type": "image_url", "image_url": {"url": image}}] if image else []
    return parts + [{"type": "text", "text": text}]


def answer_rule(eval_mode: str, answer: str, done: str) -> str:
    """How a task's answer is given in this evaluation mode, phrased with the family's actions."""
    if eval_mode == "text":
        return (f"If the task asks a question, give the answer with {answer} and then end with {done}; "
                "state the answer plainly, in words a person would use.")
    return ("If the task asks a question, open the AnswerSheet app, enter the answer in its fields and "
            f"submit it, then end with {done}. An answer given any other way is not read.")


def apps_line(apps: Sequence[str]) -> str:
    """The apps the phone has, for prompts ("" when unknown)."""
    return f"Apps on this phone: {', '.join(apps)}." if apps else ""


def first_json_object(text: str) -> tuple[dict[str, Any], int, int] | None:
    """The first JSON object in ``text`` and its span, or None."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            value, end = None, start
        if isinstance(value, dict):
            return value, start, end
        start = text.find("{", start + 1)
    return None


def point(frame: Frame, value: Any, what: str) -> tuple[int, int]:
    """A ``[x, y]`` pair in the model's convention -> device pixels."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ParseError(f"{what} must be a pair [x, y], got {value!r}")
    return frame.to_device(value[0], value[1])


def scroll(start: tuple[int, int], direction: Any, device_size: tuple[int, int]) -> dict[str, Any]:
    """A swipe that moves the view ``direction`` from ``start``: "down" shows what lies below, so the
    finger travels up. The travel is ``SCROLL_FRACTION`` of the screen, kept on the screen."""
    if not isinstance(direction, str) or direction.strip().lower() not in DIRECTIONS:
        raise ParseError(f"scroll direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    dx, dy = {"down": (0, -1), "up": (0, 1), "left": (1, 0), "right": (-1, 0)}[direction.strip().lower()]
    width, height = device_size
    x, y = start
    x2 = min(width - 1, max(0, x + dx * round(width * SCROLL_FRACTION)))
    y2 = min(height - 1, max(0, y + dy * round(height * SCROLL_FRACTION)))
    return {"type": "swipe", "x": x, "y": y, "x2": x2, "y2": y2}


# Android keys this phone has no use for: pressing one is read as a step that changes nothing (and the model is
# told), not as an unreadable reply
IDLE_KEYS = frozenset({"volume_up", "volume_down", "volume_mute", "mute", "power", "camera", "search", "notification",
                       "media_play_pause", "media_play", "media_pause", "media_next", "media_previous", "brightness_up",
                       "brightness_down", "sleep", "wakeup"})
KEY_ALIASES = {"back": "back", "home": "home", "menu": "recent", "recent": "recent", "recents": "recent",
               "app_switch": "recent", "enter": "enter", "return": "enter", "delete": "delete", "del": "delete",
               "backspace": "delete"}


def key_action(name: Any, family: str) -> tuple[dict[str, Any], str | None]:
    """A key press by its Android name (``KEYCODE_`` and case ignored) -> (action, note). Keys this phone
    ignores (volume, power, ...) give a zero-second wait and a note saying so; unknown names a ParseError."""
    key = name.strip().lower().removeprefix("keycode_").replace(" ", "_") if isinstance(name, str) else None
    if key in KEY_ALIASES:
        return {"type": "key", "key": KEY_ALIASES[key]}, None
    if key in IDLE_KEYS:
        return {"type": "wait", "seconds": 0}, f"The {key} key does nothing on this phone; nothing changed."
    raise ParseError(f"{family}: unknown key {name!r}; expected one of {', '.join(KEY_ALIASES)}")


def swipe_toward(start: tuple[int, int], direction: Any, device_size: tuple[int, int]) -> dict[str, Any]:
    """A swipe whose finger moves ``direction`` from ``start`` ("up": the finger moves up, showing what lies
    below), ``SCROLL_FRACTION`` of the screen."""
    if not isinstance(direction, str) or direction.strip().lower() not in DIRECTIONS:
        raise ParseError(f"swipe direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}[direction.strip().lower()]
    return scroll(start, opposite, device_size)


def centre(device_size: tuple[int, int]) -> tuple[int, int]:
    """The middle of the screen (where a swipe without a start point begins)."""
    return device_size[0] // 2, device_size[1] // 2


def end_status(status: Any, family: str) -> str:
    """A terminate call's status -> "complete" or "abort" (the spellings real models use)."""
    word = status.strip().lower() if isinstance(status, str) else None
    if word in ("success", "succeeded", "successful", "done", "complete", "completed", "finish", "finished"):
        return "complete"
    if word in ("failure", "fail", "failed", "infeasible", "impossible", "abort", "error"):
        return "abort"
    raise ParseError(f"{family}: terminate needs status 'success' or 'failure', got {status!r}")


def strip_think(text: str) -> tuple[str, str | None]:
    """Text without a leading ``<think>...</think>`` block, and that block's content."""
    start, end = text.find("<think>"), text.find("</think>")
    if end == -1:
        return text, None
    thought = text[start + len("<think>") if start != -1 else 0:end].strip()
    return text[end + len("</think>"):], thought or None
