"""OpenEnv compatibility: the ``/ws`` session protocol, ``/reset``, ``/step``, ``/state``, ``/schema``,
``/metadata`` and ``/health`` as OpenEnv's ``EnvClient`` and tools expect them.

A WebSocket on ``/ws`` is one session, made at its first ``reset`` from the server's default make
arguments (``mobilegym serve --make JSON``) or the reset's own ``make`` object (a later reset naming
other ``make`` or ``image`` remakes it), and closed with the connection. ``reset`` data: ``seed``, ``episode_id``, ``options`` (gym reset options), ``make``, ``image``;
``step`` data: the action dict. Observations hold the screenshot (base64 PNG by default), the tree,
the instruction, ``info``, ``terminated`` and ``truncated``; ``reward`` and ``done`` sit beside them.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from .errors import ServeError, bad_request

RESET_KEYS = ("seed", "episode_id", "options", "make", "image")
_FIELD_SCHEMA = {"x": {"type": "number"}, "y": {"type": "number"}, "x2": {"type": "number"},
                 "y2": {"type": "number"}, "seconds": {"type": "number"}, "duration_ms": {"type": "integer"},
                 "text": {"type": ["string", "null"]}, "app": {"type": "string"}, "clear": {"type": "boolean"}}


def envelope(op: str, body: Mapping[str, Any], status: int) -> dict[str, Any]:
    """A worker's answer in OpenEnv's WebSocket message shapes."""
    if status != 200:
        return {"type": "error", "data": {"message": body["message"], "code": body["error"]}}
    if op in ("reset", "step", "restore"):
        observation = dict(body["observation"])
        observation.update(info=body.get("info", {}), terminated=body.get("terminated", False),
                           truncated=body.get("truncated", False))
        reward = body.get("reward")
        return {"type": "observation", "data": {"observation": observation, "reward": reward,
                                                "done": bool(observation["terminated"] or observation["truncated"])}}
    return {"type": "state" if op == "state" else op, "data": dict(body)}


def action_schema() -> dict[str, Any]:
    """The JSON schema of an action dict, from the one action table (mobilegym.actions.SCHEMA)."""
    from ..actions import KEYS, SCHEMA

    variants = []
    for kind, (required, optional) in SCHEMA.items():
        props: dict[str, Any] = {"type": {"const": kind}}
        for name in (*required, *optional):
            props[name] = {"enum": list(KEYS)} if name == "key" else _FIELD_SCHEMA[name]
        variants.append({"type": "object", "properties": props, "required": ["type", *required],
                         "additionalProperties": False})
    return {"title": "MobileGymAction", "oneOf": variants}


def schemas() -> dict[str, Any]:
    image = {"type": "object", "properties": {"format": {"enum": ["png", "jpeg", "raw"]},
                                              "shape": {"type": "array", "items": {"type": "integer"}},
                                              "data": {"type": "string", "contentEncoding": "base64"}}}
    observation = {"title": "MobileGymObservation", "type": "object", "properties": {
        "screenshot": image, "a11y": {"type": "string"}, "text": {"type": "string"},
        "instruction": {"type": "string"}, "info": {"type": "object"}, "terminated": {"type": "boolean"},
        "truncated": {"type": "boolean"}}}
    state = {"title": "MobileGymState", "type": "object", "properties": {
        "episode_id": {"type": ["string", "null"]}, "step_count": {"type": "integer", "minimum": 0},
        "task_id": {"type": ["string", "null"]}}}
    return {"action": action_schema(), "observation": observation, "state": state}


def metadata(max_sessions: int, idle_timeout_s: float) -> dict[str, Any]:
    from .. import __version__

    return {"name": "MobileGym", "version": __version__,
            "description": "A simulated phone for GUI agents: screenshots, accessibility trees, touch and key "
                           "actions, judged rewards.",
            "readme_content": None, "author": None, "documentation_url": None,
            "supports_concurrent_sessions": True, "max_concurrent_envs": max_sessions,
            "session_timeout": idle_timeout_s}


def reset_args(data: Any) -> dict[str, Any]:
    """The reset message's data, checked."""
    if not isinstance(data, Mapping):
        raise bad_request("bad_reset", f"reset data must be an object, got {data!r}")
    unknown = sorted(set(data) - set(RESET_KEYS))
    if unknown:
        raise bad_request("bad_reset", f"unknown reset field(s) {unknown}; known: {', '.join(RESET_KEYS)}")
    return dict(data)


class OpenEnvSession:
    """The session behind one ``/ws`` connection: made at the first reset, remade when ``make`` changes."""

    def __init__(self, pool: Any, default_make: Mapping[str, Any]) -> None:
        self.pool = pool
        self.default_make = dict(default_make)
        self.sid: str | None = None
        self.made: tuple[Any, Any] | None = None

    async def handle(self, message: Any) -> bytes:
        """One client message -> the encoded reply."""
        try:
            if not isinstance(message, Mapping):
                raise bad_request("malformed_json", "a message must be a JSON object with a 'type'")
            kind, data = message.get("type"), message.get("data") or {}
            if kind == "reset":
                return await self._reset(reset_args(data))
            if kind == "step":
                if not isinstance(data, Mapping):
                    raise bad_request("bad_action", f"step data must be an action object, got {data!r}")
                return await self._call("step", {"action": dict(data)})
            if kind == "state":
                if self.sid is None:
                    return _text({"type": "state", "data": {"episode_id": None, "step_count": 0, "task_id": None}})
                return await self._call("state", None)
            raise bad_request("unknown_type", f"unknown message type {kind!r} (reset, step, state, close)")
        except ServeError as exc:
            return _text(envelope("", exc.to_dict(), exc.status))

    async def _reset(self, data: dict[str, Any]) -> bytes:
        make, image = data.pop("make", None), data.pop("image", None)
        current = self.made or (self.default_make, None)  # a reset that names neither keeps the session's
        made = (make if make is not None else current[0], image if image is not None else current[1])
        if self.sid is None or made != self.made:
            await self.close()
            status, body, sid = await self.pool.create(made[0], made[1], "openenv")
            if sid is None:
                return body
            self.sid, self.made = sid, made
        return await self._call("reset", data)

    async def _call(self, op: str, args: Any) -> bytes:
        if self.sid is None:
            raise ServeError(409, "bad_state", "call reset before step")
        status, body = await self.pool.call(self.sid, op, args, "openenv")
        return body

    async def close(self) -> None:
        if self.sid is not None:
            await self.pool.close_session(self.sid)
            self.sid = None


def _text(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()
