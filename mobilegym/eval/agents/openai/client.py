"""An async client for any OpenAI-compatible ``/chat/completions`` endpoint (vLLM, SGLang, Ollama, hosted).

It retries what is worth retrying (HTTP 408/429/5xx, timeouts, refused or dropped connections) on
a fixed exponential schedule, raises :class:`ModelError` after the last attempt, and reports the
reply's text, native tool calls, token usage, retries and latency. Every client of a process that
talks to the same endpoint with the same ``max_concurrency`` shares one semaphore, so many episodes
in one event loop never have more than that many requests in flight. httpx (the ``eval`` extra) is imported
when a client is built, so a missing install fails at the start of a run.
"""
from __future__ import annotations

import asyncio
import json
import math
import os
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Sequence

from ...extras import require
from .errors import ModelError

Sleep = Callable[[float], Awaitable[Any]]
RETRY_STATUSES = frozenset({408, 429})
_SNIPPET = 300
_LIMITS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, int], asyncio.Semaphore]]" = (
    weakref.WeakKeyDictionary())


@dataclass(frozen=True)
class ToolCall:
    """A function call the server returned natively (``message.tool_calls``)."""

    name: str
    arguments: Any  # the decoded JSON arguments, or the raw string when it is not JSON


@dataclass(frozen=True)
class Completion:
    """One answered request. ``latency_s`` runs from the first attempt to the answer (backoff included)."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    reasoning: str | None = None
    usage: dict[str, int] = field(default_factory=lambda: {"prompt": 0, "completion": 0})
    retries: int = 0
    latency_s: float = 0.0


class _Retryable(Exception):
    """A failed attempt worth another try."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def backoff_delays(max_retries: int, base_s: float, cap_s: float) -> tuple[float, ...]:
    """Seconds to sleep before retry 1..n: ``base_s * 2**i`` capped at ``cap_s`` (no jitter)."""
    return tuple(min(cap_s, base_s * 2 ** i) for i in range(max_retries))


def shared_limit(endpoint: str, limit: int) -> asyncio.Semaphore:
    """The semaphore of this event loop for an endpoint and limit, shared by every client using them."""
    per_loop = _LIMITS.setdefault(asyncio.get_running_loop(), {})
    return per_loop.setdefault((endpoint, limit), asyncio.Semaphore(limit))


def chat_url(base_url: str) -> str:
    """The chat-completions URL of a base URL (``http://host:8000/v1``) or of the full URL itself."""
    if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
        raise ValueError(f"base_url must be an http(s) URL such as 'http://localhost:8000/v1', got {base_url!r}")
    url = base_url.rstrip("/")
    return url if url.endswith("/chat/completions") else url + "/chat/completions"


def _optional_number(name: str, value: Any, low: float, high: float) -> float | None:
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not low <= value <= high):
        raise ValueError(f"{name} must be a number in [{low:g}, {high:g}] or None, got {value!r}")
    return float(value)


def _count(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET else text[:_SNIPPET - 3] + "..."


class ChatClient:
    """Chat completions against one endpoint and model.

    Args:
        base_url: the endpoint's base URL (``http://localhost:8000/v1``) or its full chat-completions URL.
        model: the served model name sent as ``model``.
        api_key_env: the environment variable holding the key (sent as a bearer token); unset is
            allowed, for local servers. The key is read once, here, and never recorded.
        timeout_s: deadline of one request (connect to last byte).
        max_retries: retries after the first attempt.
        backoff_s, backoff_max_s: the retry schedule (:func:`backoff_delays`); a 429's numeric
            ``Retry-After`` lengthens one wait up to ``backoff_max_s``.
        temperature, top_p, max_tokens, seed: sampling options passed through when not None.
        extra_body: more request fields (e.g. ``{"top_k": 1}``), merged last.
        max_concurrency: requests in flight per endpoint across the clients of the event loop.
        sleep: the coroutine that waits between attempts (tests inject a recorder).
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 120.0,
        max_retries: int = 3,
        backoff_s: float = 1.0,
        backoff_max_s: float = 30.0,
        temperature: float | None = 0.0,
        top_p: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        max_concurrency: int = 8,
        sleep: Sleep | None = None,
    ) -> None:
        self.url = chat_url(base_url)
        require("httpx", "the OpenAI-compatible model client")  # here, so a missing install fails at the start
        if not isinstance(model, str) or not model.strip():
            raise ValueError(f"model must be a non-empty string, got {model!r}")
        if not isinstance(api_key_env, str) or not api_key_env:
            raise ValueError(f"api_key_env must name an environment variable, got {api_key_env!r}")
        self.model = model
        self.api_key_env = api_key_env
        self._api_key = os.environ.get(api_key_env) or None
        self.timeout_s = _optional_number("timeout_s", timeout_s, 1e-3, 86_400.0)
        if self.timeout_s is None:
            raise ValueError("timeout_s must be a positive number of seconds, got None")
        self.max_retries = _count("max_retries", max_retries, 0)
        self.delays = backoff_delays(self.max_retries, _optional_number("backoff_s", backoff_s, 0.0, 3600.0) or 0.0,
                                     _optional_number("backoff_max_s", backoff_max_s, 0.0, 3600.0) or 0.0)
        self.backoff_max_s = float(backoff_max_s)
        self.max_concurrency = _count("max_concurrency", max_concurrency, 1)
        self.sampling: dict[str, Any] = {}
        for name, value, low, high in (("temperature", temperature, 0.0, 2.0), ("top_p", top_p, 0.0, 1.0)):
            checked = _optional_number(name, value, low, high)
            if checked is not None:
                self.sampling[name] = checked
        if max_tokens is not None:
            self.sampling["max_tokens"] = _count("max_tokens", max_tokens, 1)
        if seed is not None:
            self.sampling["seed"] = _count("seed", seed, 0)
        if extra_body is not None and not isinstance(extra_body, Mapping):
            raise ValueError(f"extra_body must be a mapping of request fields, got {type(extra_body).__name__}")
        self.extra_body = dict(extra_body or {})
        self._sleep = sleep or asyncio.sleep

    @property
    def has_key(self) -> bool:
        """Whether an API key was found in the environment."""
        return self._api_key is not None

    def body(self, messages: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The JSON request for these messages."""
        return {"model": self.model, "messages": list(messages), **self.sampling, **self.extra_body}

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    async def complete(self, messages: Sequence[Mapping[str, Any]]) -> Completion:
        """Send the messages; retry on the schedule; raise ModelError once the attempts run out."""
        import httpx

        body = self.body(messages)
        started = time.perf_counter()
        failure = ""
        for attempt in range(self.max_retries + 1):
            try:
                async with shared_limit(self.url, self.max_concurrency):
                    data = await self._post(httpx, body)
            except _Retryable as exc:
                failure = str(exc)
                if attempt == self.max_retries:
                    break
                delay = self.delays[attempt]
                if exc.retry_after is not None:
                    delay = max(delay, min(exc.retry_after, self.backoff_max_s))
                await self._sleep(delay)
                continue
            return _completion(data, self.url, retries=attempt, latency_s=time.perf_counter() - started)
        raise ModelError(f"{self.url}: {failure} (gave up after {self.max_retries + 1} attempt(s))")

    async def check(self, timeout_s: float = 30.0) -> list[str]:
        """One request to the endpoint before a run: ``GET /models``. Returns the served model ids (empty
        when the server does not list them); raises ModelError naming the URL and the cause when the
        server cannot be reached, refuses the key, or lists models without this one."""
        import httpx

        url = models_url(self.url)
        timeout = min(timeout_s, self.timeout_s)
        try:
            async with httpx.AsyncClient(timeout=httpx.Timeout(timeout)) as http:
                response = await asyncio.wait_for(http.get(url, headers=self._headers()), timeout)
        except (asyncio.TimeoutError, httpx.TimeoutException):
            raise ModelError(f"the model endpoint {url} did not answer within {timeout:g} s") from None
        except httpx.TransportError as exc:
            raise ModelError(f"cannot reach the model endpoint {url}: {type(exc).__name__}: {exc or 'no detail'}"
                             " (is the server running, and is base_url right?)") from None
        status = response.status_code
        if status in (401, 403):
            where = f"${self.api_key_env}" + ("" if self.has_key else " (unset)")
            raise ModelError(f"the model endpoint {url} refused the API key from {where}: HTTP {status}: "
                             f"{_snippet(response.text)}")
        if status >= 500 and status != 501:
            raise ModelError(f"the model endpoint {url} failed: HTTP {status}: {_snippet(response.text)}")
        if status != 200:
            return []  # up, but no model list here (404, 405, 501): the first request will tell
        try:
            data = response.json()
            ids = [str(item["id"]) for item in data["data"]]
        except (ValueError, KeyError, TypeError):
            return []
        if ids and self.model not in ids:
            raise ModelError(f"the model endpoint {url} does not serve model {self.model!r}; it serves "
                             f"{', '.join(repr(i) for i in ids[:10])}{' ...' if len(ids) > 10 else ''}")
        return ids

    async def _post(self, httpx: Any, body: dict[str, Any]) -> Any:
        try:
            async with httpx.AsyncClient(timeout=httpx.Timeout(self.timeout_s)) as http:
                response = await asyncio.wait_for(http.post(self.url, json=body, headers=self._headers()),
                                                  self.timeout_s)
        except (asyncio.TimeoutError, httpx.TimeoutException):
            raise _Retryable(f"no answer within timeout_s={self.timeout_s:g}") from None
        except httpx.TransportError as exc:
            raise _Retryable(f"connection failed ({type(exc).__name__}: {exc})") from None
        status = response.status_code
        if status in RETRY_STATUSES or status >= 500:
            raise _Retryable(f"HTTP {status}: {_snippet(response.text)}", _retry_after(response.headers))
        if status >= 400:
            raise ModelError(f"{self.url}: HTTP {status} (not retried): {_snippet(response.text)}")
        try:
            return response.json()
        except ValueError:
            raise ModelError(f"{self.url}: the answer is not JSON: {_snippet(response.text)}") from None


def models_url(chat: str) -> str:
    """The ``/models`` URL beside a chat-completions URL."""
    return chat.removesuffix("/chat/completions") + "/models"


def _retry_after(headers: Mapping[str, str]) -> float | None:
    try:
        value = float(headers.get("retry-after", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _text(content: Any) -> str:
    """A message's content as text: a string, or the text parts of a list of parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, Mapping)
                       and isinstance(part.get("text"), str))
    raise ValueError(f"message content is a {type(content).__name__}")


def _tool_calls(raw: Any) -> tuple[ToolCall, ...]:
    calls = []
    for item in raw or ():
        function = item.get("function") if isinstance(item, Mapping) else None
        if not isinstance(function, Mapping) or not isinstance(function.get("name"), str):
            raise ValueError("a tool call has no function name")
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError:
                pass  # kept as the string: the adapter reports it
        calls.append(ToolCall(function["name"], arguments))
    return tuple(calls)


def _tokens(usage: Any, key: str) -> int:
    value = usage.get(key) if isinstance(usage, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _completion(data: Any, url: str, retries: int, latency_s: float) -> Completion:
    """A chat-completions answer as a Completion; ModelError when it is not one."""
    try:
        if isinstance(data, Mapping) and "error" in data and not data.get("choices"):
            raise ValueError(f"the server reported an error: {_snippet(json.dumps(data['error'], default=str))}")
        choices = data.get("choices") if isinstance(data, Mapping) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
            raise ValueError("no choices")
        message = choices[0].get("message")
        if not isinstance(message, Mapping):
            raise ValueError("the first choice has no message")
        reasoning = message.get("reasoning_content") or message.get("reasoning")
        usage = data.get("usage")
        return Completion(
            text=_text(message.get("content")), tool_calls=_tool_calls(message.get("tool_calls")),
            reasoning=reasoning if isinstance(reasoning, str) and reasoning.strip() else None,
            usage={"prompt": _tokens(usage, "prompt_tokens"), "completion": _tokens(usage, "completion_tokens")},
            retries=retries, latency_s=latency_s)
    except (ValueError, AttributeError) as exc:
        raise ModelError(f"{url}: not a chat completion ({exc})") from None
