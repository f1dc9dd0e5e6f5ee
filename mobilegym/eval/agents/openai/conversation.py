"""One episode's dialogue with a chat model: history, notes, images, prompt building and reply parsing.

A :class:`Conversation` turns each observation into the messages a model family expects (through
its adapter) and each reply into an action in device pixels, remembering the replies, screenshots
and notes the next prompts replay. :class:`ChatAgent` is a harness agent around one conversation and
a ``respond`` coroutine (messages -> :class:`~.client.Completion`): ``OpenAIAgent`` answers with an
HTTP endpoint, ``mobilegym.agentic`` with an endpoint or an in-process policy, and ``ChatEnv`` steps a
conversation from outside; all of them build the same prompts and read replies the same way.
"""
from __future__ import annotations

import asyncio
import copy
import json
from collections import deque
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping

from ..base import Decision
from .adapters import Adapter, PromptContext, Reply, Turn, make_adapter
from .client import Completion
from .errors import ParseError
from .images import Frame, check_screenshot, describe_marks, draw_marks, find_marks, png_data_url, resize
from .tree import tree_text

Respond = Callable[[list[dict[str, Any]]], Awaitable[Completion]]


@dataclass(frozen=True)
class PreparedStep:
    """A step's request before it is sent: the recorded prompt, the request with its images, the frame."""

    prompt: list[dict[str, Any]]
    request: list[dict[str, Any]]
    frame: Frame
    image: str
    image_url: str
    notes: tuple[str, ...]


def with_images(messages: list[dict[str, Any]], urls: Mapping[str, str]) -> list[dict[str, Any]]:
    """A copy of the messages with each image placeholder replaced by its data URL."""
    out = []
    for message in messages:
        content = message["content"]
        if isinstance(content, list):
            content = [{"type": "image_url", "image_url": {"url": urls[part["image_url"]["url"]]}}
                       if part.get("type") == "image_url" else dict(part) for part in content]
        out.append({**message, "content": content})
    return out


def _screen_size(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        raise ValueError(f"info['screen_size'] must be (width, height) in pixels, got {value!r}")
    return int(value[0]), int(value[1])


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def reply_text(completion: Completion) -> str:
    """A completion as the history replays it: its text, then any native tool calls as ``<tool_call>`` blocks."""
    return completion.text + "".join(
        "\n<tool_call>\n" + json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False)
        + "\n</tool_call>" for call in completion.tool_calls).strip()


class Conversation:
    """The prompts of one episode and the reading of their replies, through one family adapter.

    Args:
        adapter: a name of :data:`~.adapters.ADAPTERS` (``json``, ``qwen``, ``uivenus``, ...) or an Adapter.
        adapter_options: the adapter's options, e.g. ``{"variant": "qwen3"}``.
        history: earlier steps replayed in each prompt (their replies; 0 for none).
        history_images: how many of those also re-send their screenshot (the most recent ones).
        send_tree: add the accessibility tree as text (centres in the model's coordinates).
        set_of_mark: draw numbered boxes on the clickable nodes and list them; actions may name a mark.
    """

    def __init__(self, adapter: str | Adapter = "json", *, adapter_options: Mapping[str, Any] | None = None,
                 history: int = 4, history_images: int = 0, send_tree: bool = False,
                 set_of_mark: bool = False) -> None:
        if isinstance(adapter, Adapter):
            if adapter_options:
                raise ValueError("adapter_options apply to an adapter given by name, not to an Adapter instance")
            self.adapter = adapter
        else:
            self.adapter = make_adapter(adapter, **dict(adapter_options or {}))
        self.history = _count("history", history)
        self.history_images = _count("history_images", history_images)
        if self.history_images > self.history:
            raise ValueError(f"history_images ({history_images}) cannot exceed history ({history})")
        self.send_tree, self.set_of_mark = bool(send_tree), bool(set_of_mark)
        self._instruction: str | None = None
        self._info: dict[str, Any] = {}
        self.totals = {"calls": 0, "retries": 0, "prompt": 0, "completion": 0}

    def options(self) -> dict[str, Any]:
        """The adapter's settings and the prompt options, for the results' meta."""
        return {**self.adapter.options(), "history": self.history, "history_images": self.history_images,
                "send_tree": self.send_tree, "set_of_mark": self.set_of_mark}

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        """Start an episode: forget the history and the totals (model calls, retries, tokens); take the
        screen size, evaluation mode, apps and step budget from info."""
        if not isinstance(instruction, str) or not instruction.strip():
            raise ValueError(f"instruction must be a non-empty string, got {instruction!r}")
        self._instruction = instruction
        self._info = {"screen_size": _screen_size(info.get("screen_size")),
                      "eval_mode": info.get("eval_mode", "grounded"), "apps": tuple(info.get("apps") or ()),
                      "max_steps": info.get("max_steps")}
        self._step = 0
        self._turns: deque[Turn] = deque(maxlen=self.history)
        self._urls: dict[str, str] = {}
        self._notes: tuple[str, ...] = ()
        self._last_failed = False
        self.totals = {"calls": 0, "retries": 0, "prompt": 0, "completion": 0}

    def copy(self) -> "Conversation":
        """An independent copy in the same state (the adapter is shared: it holds no episode state)."""
        twin = copy.copy(self)
        if self._instruction is not None:
            twin._turns = deque(self._turns, maxlen=self.history)
            twin._urls, twin._info, twin.totals = dict(self._urls), dict(self._info), dict(self.totals)
        return twin

    def prepare(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> PreparedStep:
        """Build this step's prompt and request from the observation (no network)."""
        if self._instruction is None:
            raise RuntimeError("call reset(instruction, info) before the first step")
        shot = check_screenshot(obs.get("screenshot"))
        height, width = shot.shape[:2]
        device = self._info["screen_size"] or (width, height)
        xml = obs.get("a11y")
        if (self.send_tree or self.set_of_mark) and not isinstance(xml, str):
            raise ValueError("send_tree and set_of_mark need the a11y tree in the observation")
        marks = find_marks(xml, device) if self.set_of_mark else ()
        size = self.adapter.resize.size(width, height)
        frame = Frame(device, size, self.adapter.convention, marks)
        image = resize(shot, size)
        if marks:
            image = draw_marks(image, marks, device)
        name = f"<image {self._step:03d}.png{' + marks' if marks else ''}>"
        notes = self._notes
        if info.get("last_action_error") and not self._last_failed:
            notes += (f"The phone rejected your previous action: {info['last_action_error']}",)
        shown = len(self._turns) - self.history_images
        history = tuple(turn if i >= shown else Turn(turn.step, turn.response, None, turn.notes)
                        for i, turn in enumerate(self._turns))
        ctx = PromptContext(
            instruction=self._instruction, step=self._step, image=name, frame=frame,
            eval_mode=self._info["eval_mode"], apps=self._info["apps"], max_steps=self._info["max_steps"],
            tree=tree_text(xml, frame) if self.send_tree else None,
            marks=describe_marks(marks) if marks else None, history=history, notes=notes)
        prompt = self.adapter.messages(ctx)
        url = png_data_url(image)
        urls = {**{turn.image: self._urls[turn.image] for turn in history if turn.image}, name: url}
        return PreparedStep(prompt, with_images(prompt, urls), frame, name, url, notes)

    def conclude(self, step: PreparedStep, completion: Completion) -> Decision:
        """Parse the model's answer to a prepared step, remember the step, and record it as a Decision."""
        response = reply_text(completion)
        action, thought, error, note = None, None, None, None
        try:
            parsed = self.adapter.parse(Reply(completion.text, completion.tool_calls), step.frame)
            action, thought, note = parsed.action, parsed.thought, parsed.note
        except ParseError as exc:
            error = str(exc)
        self._turns.append(Turn(self._step, response, step.image, step.notes))
        self._urls[step.image] = step.image_url
        recent = list(self._turns)[max(0, len(self._turns) - self.history_images):] if self.history_images else []
        self._urls = {turn.image: self._urls[turn.image] for turn in recent if turn.image in self._urls}
        self._notes = ((f"Your previous reply could not be used: {error}. Answer in the format described above.",)
                       if error else (note,) if note else ())
        self._last_failed = action is None
        self._step += 1
        for key, value in (("calls", 1), ("retries", completion.retries), ("prompt", completion.usage.get("prompt", 0)),
                           ("completion", completion.usage.get("completion", 0))):
            self.totals[key] += value
        return Decision(action=action, thought=thought or completion.reasoning, prompt=step.prompt, response=response,
                        usage=dict(completion.usage), retries=completion.retries, latency_s=completion.latency_s,
                        error=error)


class ChatAgent:
    """A harness agent that plays one :class:`Conversation` with a ``respond`` coroutine as the model.

    ``last_step`` is the step most recently sent (its request holds the data URLs the model saw).
    """

    name = "chat"
    version = "1"

    def __init__(self, conversation: Conversation, respond: Respond) -> None:
        self.conversation = conversation
        self.respond = respond
        self.last_step: PreparedStep | None = None

    @property
    def adapter(self) -> Adapter:
        return self.conversation.adapter

    @property
    def prompt_version(self) -> str:
        return self.conversation.adapter.prompt_id

    @property
    def totals(self) -> dict[str, int]:
        """Model calls, retries and tokens of the current episode."""
        return self.conversation.totals

    def reset(self, instruction: str, info: Mapping[str, Any]) -> None:
        """Start an episode (see :meth:`Conversation.reset`)."""
        self.conversation.reset(instruction, info)
        self.last_step = None

    def prepare(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> PreparedStep:
        """Build this step's prompt and request from the observation (no network)."""
        return self.conversation.prepare(obs, info)

    def conclude(self, step: PreparedStep, completion: Completion) -> Decision:
        """Parse the model's answer to a prepared step and record it as a Decision."""
        return self.conversation.conclude(step, completion)

    async def aact(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> Decision:
        """The next action: prepare the request, ask the model, parse the reply."""
        step = self.last_step = self.prepare(obs, info)
        completion = await self.respond(step.request)
        return self.conclude(step, completion)

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> Decision:
        """:meth:`aact` run to completion (outside an event loop; inside one, await ``aact``)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.aact(obs, info))
        raise RuntimeError(f"{type(self).__name__}.act() was called inside a running event loop; "
                           "await aact() instead")
