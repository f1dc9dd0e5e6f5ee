"""``OpenAIAgent``: a model behind any OpenAI-compatible endpoint, playing through a family adapter.

Each step the agent resizes the screenshot as the adapter's family expects (optionally drawing
set-of-mark boxes), builds the messages (system prompt, the last ``history`` steps, the current
screen with the task and optionally the tree as text), calls the endpoint, and parses the reply
into an action in device pixels: the prompts and the parsing are those of its
:class:`~.conversation.Conversation`, the same that ``mobilegym.agentic.ChatEnv`` trains with. The
:class:`~mobilegym.eval.agents.base.Decision` it returns records the prompt (images as
``<image 000.png>`` placeholders), the reply, usage, retries and latency; an unreadable reply gives
``action=None`` with ``error`` set, and the model is told about it on the next step. An endpoint
that fails after its retries raises ``ModelError``.
"""
from __future__ import annotations

from typing import Any, Mapping

from .adapters import Adapter
from .client import ChatClient, Sleep
from .conversation import ChatAgent, Conversation, PreparedStep


class OpenAIAgent(ChatAgent):
    """An agent backed by an OpenAI-compatible chat-completions endpoint.

    Args:
        base_url: the endpoint, e.g. ``http://localhost:8000/v1``.
        model: the served model name.
        adapter: ``json``, ``tools``, ``qwen``, ``guiowl``, ``maiui``, ``uitars``, ``uivenus``, ``autoglm`` or
            ``gelab`` (see :mod:`.adapters`), or an Adapter; ``tools`` sends its functions as the request's ``tools``.
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
        conversation = Conversation(adapter, adapter_options=adapter_options, history=history,
                                    history_images=history_images, send_tree=send_tree, set_of_mark=set_of_mark)
        if extra_body is not None and not isinstance(extra_body, Mapping):
            raise ValueError(f"extra_body must be a mapping of request fields, got {type(extra_body).__name__}")
        self.extra_body = dict(extra_body or {})
        tools = getattr(conversation.adapter, "tools", None)  # a tool-calling family sends its functions
        fields = {"tools": tools(), "tool_choice": "auto"} if callable(tools) else {}
        self.client = ChatClient(base_url, model, api_key_env=api_key_env, timeout_s=timeout_s,
                                 max_retries=max_retries, backoff_s=backoff_s, backoff_max_s=backoff_max_s,
                                 temperature=temperature, top_p=top_p, max_tokens=max_tokens, seed=seed,
                                 extra_body={**fields, **self.extra_body}, max_concurrency=max_concurrency,
                                 sleep=sleep)
        super().__init__(conversation, self.client.complete)

    async def preflight(self) -> None:
        """Check the endpoint once before a run (see :meth:`ChatClient.check`); ModelError when it cannot be used."""
        await self.client.check()

    def meta(self) -> dict[str, Any]:
        """The agent's full configuration for the results' meta (the API key's variable, never the key)."""
        client, conversation = self.client, self.conversation
        return {"name": self.name, "version": self.version, "prompt_version": self.prompt_version,
                **self.adapter.options(), "base_url": client.url, "model": client.model,
                "api_key_env": client.api_key_env, "history": conversation.history,
                "history_images": conversation.history_images, "send_tree": conversation.send_tree,
                "set_of_mark": conversation.set_of_mark, "max_concurrency": client.max_concurrency,
                "timeout_s": client.timeout_s, "max_retries": client.max_retries,
                "backoff_delays_s": list(client.delays), **client.sampling, "extra_body": self.extra_body,
                "tools": [t["function"]["name"] for t in client.extra_body.get("tools", ())] or None}


__all__ = ["OpenAIAgent", "PreparedStep"]
