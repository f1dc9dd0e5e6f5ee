"""``OpenAIAgent``: a model behind any OpenAI-compatible endpoint, playing through a family adapter.

Each step the agent resizes the screenshot as the adapter's family expects (optionally drawing
set-of-mark boxes), builds the messages (system prompt, the last ``history`` steps, the current
screen with the task and optionally the tree as text), calls the endpoint, and parses the reply
into an action in device pixels. The :class:`~mobilegym.eval.agents.base.Decision` it returns
records the prompt (images as ``<image 000.png>`` placeholders), the reply, usage, retries and
latency; an unreadable reply gives ``action=None`` with ``error`` set, and the model is told
about it on the next step. An endpoint that fails after its retries raises ``ModelError``.
"""
from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass
from typing import Any, Mapping

from ..base import Decision
from .adapters import Adapter, PromptContext, Reply, Turn, make_adapter
from .client import ChatClient, Completion, Sleep
from .errors import ParseError
from .images import Frame, check_screenshot, describe_marks, draw_marks, find_marks, png_data_url, resize
from .tree import tree_text


@dataclass(frozen=True)
class PreparedStep:
    """A step's request before it is sent: the recorded prompt, the request with its images, the frame."""

    prompt: list[dict[str, Any]]
    request: list[dict[str, Any]]
    frame: Frame
    image: str
    image_url: str
    notes: tuple[str, ...]


def _with_images(messages: list[dict[str, Any]], urls: Mapping[str, str]) -> list[dict[str, Any]]:
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


class OpenAIAgent:
    """An agent backed by an OpenAI-compatible chat-completions endpoint.

    Args:
        base_url: the endpoint, e.g. ``http://localhost:8000/v1``.
        model: the served model name.
        adapter: ``json``, ``qwen``, ``uitars`` or ``autoglm`` (see :mod:`.adapters`), or an Adapter.
        adapter_options: the adapter's options, e.g. ``{"variant": "qwen3"}`` or ``{"version": "1"}``.
        api_key_env: the environment variable holding the API key (unset: no Authorization header).
        history: earlier steps replayed in each prompt (their replies; 0 for none).
        history_images: how many of those also re-send their screenshot (the most recent ones).
        send_tree: add the accessibility tree as text (centres in the model's coordinates).
        set_of_mark: draw numbered boxes on the clickable nodes and list them; actions may name a mark.
        max_concurrency: requests in flight per endpoint, shared by the agents of the event loop.
        timeout_s, max_retries, backoff_s, backoff_max_s: per-request deadline and the retry schedule.
        temperature, top_p, max_tokens, seed, extra_body: passed to the endpoint.
        sleep: the coroutine waiting between retries (tests).
    """

    name = "openai"
    version = "1"

    def __init__(
        self,
        base_url: str,
        model: str,
        adapter: str | Adapter = "json",
        *,
        adapter_options: Mapping[str, Any] | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        history: int = 4,
        history_images: int = 0,
        send_tree: bool = False,
        set_of_mark: bool = False,
        max_concurrency: int = 8,
        timeout_s: float = 120.0,
        max_retries: int = 3,
        backoff_s: float = 1.0,
        backoff_max_s: float = 30.0,
        temperature: float | None = 0.0,
        top_p: float | None = None,
        max_tokens: int | None = 1024,
        seed: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        sleep: Sleep | None = None,
    ) -> None:
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
        self.client = ChatClient(base_url, model, api_key_env=api_key_env, timeout_s=timeout_s,
                                 max_retries=max_retries, backoff_s=backoff_s, backoff_max_s=backoff_max_s,
                                 temperature=temperature, top_p=top_p, max_tokens=max_tokens, seed=seed,
                                 extra_body=extra_body, max_concurrency=max_concurrency, sleep=sleep)
        self.prompt_version = self.adapter.prompt_id
        self._instruction: str | None = None
        self._info: dict[str, Any] = {}
        self.totals = {"calls": 0, "retries": 0, "prompt": 0, "completion": 0}

    def meta(self) -> dict[str, Any]:
        """The agent's full configuration for the results' meta (the API key's variable, never the key)."""
        client = self.client
        return {"name": self.name, "version": self.version, "prompt_version": self.prompt_version,
                **self.adapter.options(), "base_url": client.url, "model": client.model,
                "api_key_env": client.api_key_env, "history": self.history, "history_images": self.history_images,
                "send_tree": self.send_tree, "set_of_mark": self.set_of_mark,
                "max_concurrency": client.max_concurrency, "timeout_s": client.timeout_s,
                "max_retries": client.max_retries, "backoff_delays_s": list(client.delays), **client.sampling,
                "extra_body": client.extra_body}

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

    # one step -------------------------------------------------------------------
    def prepare(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> PreparedStep:
        """Build this step's prompt and request from the observation (no network)."""
        if self._instruction is None:
            raise RuntimeError("OpenAIAgent: call reset(instruction, info) before act()")
        shot = check_screenshot(obs.get("screenshot"))
        height, width = shot.shape[:2]
        device = self._info["screen_size"] or (width, height)
        xml = obs.get("a11y")
        if (self.send_tree or self.set_of_mark) and not isinstance(xml, str):
            raise ValueError("OpenAIAgent: send_tree and set_of_mark need the a11y tree in the observation")
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
        return PreparedStep(prompt, _with_images(prompt, urls), frame, name, url, notes)

    def conclude(self, step: PreparedStep, completion: Completion) -> Decision:
        """Parse the model's answer to a prepared step, remember the step, and record it as a Decision."""
        response = completion.text + "".join(
            "\n<tool_call>\n" + json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False)
            + "\n</tool_call>" for call in completion.tool_calls).strip()
        action, thought, error = None, None, None
        try:
            parsed = self.adapter.parse(Reply(completion.text, completion.tool_calls), step.frame)
            action, thought = parsed.action, parsed.thought
        except ParseError as exc:
            error = str(exc)
        self._turns.append(Turn(self._step, response, step.image, step.notes))
        self._urls[step.image] = step.image_url
        recent = list(self._turns)[max(0, len(self._turns) - self.history_images):] if self.history_images else []
        self._urls = {turn.image: self._urls[turn.image] for turn in recent if turn.image in self._urls}
        self._notes = ((f"Your previous reply could not be used: {error}. Answer in the format described above.",)
                       if error else ())
        self._last_failed = action is None
        self._step += 1
        for key, value in (("calls", 1), ("retries", completion.retries), ("prompt", completion.usage.get("prompt", 0)),
                           ("completion", completion.usage.get("completion", 0))):
            self.totals[key] += value
        return Decision(action=action, thought=thought or completion.reasoning, prompt=step.prompt, response=response,
                        usage=dict(completion.usage), retries=completion.retries, latency_s=completion.latency_s,
                        error=error)

    async def aact(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> Decision:
        """The next action: prepare the request, call the endpoint, parse the reply."""
        step = self.prepare(obs, info)
        completion = await self.client.complete(step.request)
        return self.conclude(step, completion)

    def act(self, obs: Mapping[str, Any], info: Mapping[str, Any]) -> Decision:
        """:meth:`aact` run to completion (outside an event loop; inside one, await ``aact``)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.aact(obs, info))
        raise RuntimeError("OpenAIAgent.act() was called inside a running event loop; await aact() instead")
