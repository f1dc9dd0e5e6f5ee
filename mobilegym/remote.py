"""RemoteEnv: a MobileGym environment that runs on a ``mobilegym serve`` server, as a ``gymnasium.Env``.

::

    env = RemoteEnv("http://127.0.0.1:8000", task="clock.CountAlarms", render_scale=0.1)
    obs, info = env.reset(seed=0)

It takes ``gym.make("MobileGym-v0", ...)``'s keyword arguments (JSON-able: task ids, not classes or
paths), has the same spaces, and gives the same screenshots (raw RGB over one persistent WebSocket),
trees, rewards and infos as a local env on the same seed and actions. ``gym.make("MobileGymRemote-v0",
base_url=..., ...)`` and ``gym.make_vec`` make it too. Needs the ``serve`` extra.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any, Mapping

import gymnasium as gym
import numpy as np

from .serve import require
from .serve import wire

from . import REMOTE_ENV_ID  # the id gym.make knows RemoteEnv by


class RemoteError(Exception):
    """The server refused a request or failed it: ``code`` is its named error, ``status`` the HTTP status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.status, self.code = status, code


class RemoteRequestError(RemoteError, ValueError):
    """A request the server found wrong (4xx): bad make arguments, unknown task, bad reset options..."""


class RemoteStateError(RemoteError, RuntimeError):
    """An operation the session's state does not allow (step before reset, after the episode ended)."""


@dataclass(frozen=True)
class RemoteTask:
    """A task of the remote env: its id and metadata (what ``env.unwrapped.tasks`` holds locally)."""

    id: str
    metadata: dict[str, Any]


def _raise(status: int, code: str, message: str) -> None:
    from .actions import InvalidAction
    from .judge import TaskError

    if code == "invalid_action":
        raise InvalidAction(message)
    if code == "task_error":
        raise TaskError(message)
    if status == 409:
        raise RemoteStateError(status, code, message)
    raise (RemoteRequestError if 400 <= status < 500 else RemoteError)(status, code, message)


def _ws_url(base_url: str) -> str:
    url = base_url.rstrip("/")
    for http, ws in (("http://", "ws://"), ("https://", "wss://")):
        if url.startswith(http):
            url = ws + url[len(http):]
    if not url.startswith(("ws://", "wss://")):
        url = "ws://" + url
    return url + "/v1/ws"


class RemoteEnv(gym.Env[dict, dict]):
    """A session on a MobileGym server (see the module docstring)."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, base_url: str, token: str | None = None, *, render_mode: str | None = None,
                 image: Mapping[str, Any] | None = None, timeout_s: float = 120.0, **make_kwargs: Any) -> None:
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.base_url, self.token, self.timeout_s = base_url, token, timeout_s
        self.make_kwargs = dict(make_kwargs)
        self.image = dict(image) if image is not None else {"format": "raw"}
        self.session: str | None = None
        self._init_state()
        self._connect()
        reply = self._call("create", make=wire.to_json(self.make_kwargs), image=self.image)
        self.session = reply["session"]
        self.observation_space = wire.build_space(reply["observation_space"])
        self._phone(reply)

    def _init_state(self) -> None:
        self._last_shot: np.ndarray | None = None
        self._tasks: list[RemoteTask] | None = None
        self._pending = False

    def _connect(self) -> None:
        client = require("websockets.sync.client")
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        try:
            connection = client.connect(_ws_url(self.base_url), additional_headers=headers, max_size=None,
                                        open_timeout=min(self.timeout_s, 30.0), compression=None)
            self._ws = connection.__enter__()  # held open until close()
        except Exception as exc:  # noqa: BLE001  (refused, unauthorised, not a MobileGym server)
            status = getattr(getattr(exc, "response", None), "status_code", None)
            if status == 401:
                raise RemoteRequestError(401, "unauthorized", f"{self.base_url} wants a valid token") from None
            raise ConnectionError(f"cannot reach the MobileGym server at {self.base_url}: {exc}") from None

    # the wire ---------------------------------------------------------------------
    def _send(self, op: str, **args: Any) -> None:
        self._ws.send(json.dumps({"op": op, "session": self.session, "args": args}, separators=(",", ":")))

    def _receive(self) -> tuple[dict[str, Any], list[bytes]]:
        try:
            data = self._ws.recv(timeout=self.timeout_s)
        except TimeoutError:
            raise RemoteError(504, "timeout", f"no reply from {self.base_url} in {self.timeout_s:g} s") from None
        header, blobs = wire.unpack_frame(data)
        if "error" in header:
            _raise(header["status"], header["error"], header["message"])
        return header, blobs

    def _call(self, op: str, **args: Any) -> dict[str, Any]:
        if self._pending:
            raise RuntimeError("step_wait() first: a step is in flight")
        self._send(op, **args)
        header, blobs = self._receive()
        if "observation" in header:
            header["observation"] = self._obs(header["observation"], blobs)
        return header

    def _obs(self, encoded: Mapping[str, Any], blobs: list[bytes]) -> dict[str, Any]:
        obs = wire.decode_obs(encoded, blobs)
        self._last_shot = obs.get("screenshot", self._last_shot)
        return obs

    @staticmethod
    def _info(info: dict[str, Any]) -> dict[str, Any]:
        from .env import Timings

        if isinstance(info.get("timings"), dict):
            info["timings"] = Timings(**info["timings"])
        return info

    # gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        reply = self._call("reset", seed=seed, options=wire.to_json(options) if options is not None else None)
        self._phone(reply)
        return reply["observation"], self._info(reply["info"])

    def _phone(self, reply: Mapping[str, Any]) -> None:
        """The episode's settings the server reported: action space (kept when unchanged), language, eval mode."""
        space = wire.build_space(reply["action_space"])
        if getattr(self, "action_space", None) != space or list(space.apps) != list(self.action_space.apps):
            self.action_space = space
        self.language, self.eval_mode = reply["language"], reply["eval_mode"]

    @property
    def coords(self) -> Any:
        """The agent's coordinate space (as ``env.unwrapped.coords`` locally)."""
        return self.action_space.coords

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        self.step_async(action)
        return self.step_wait()

    def step_async(self, action: Any) -> None:
        """Send a step without waiting for it (``step_wait`` collects it): step many envs at once."""
        if self._pending:
            raise RuntimeError("step_wait() first: a step is in flight")
        self._send("step", action=wire.to_json(action))
        self._pending = True

    def step_wait(self) -> tuple[dict, float, bool, bool, dict]:
        if not self._pending:
            raise RuntimeError("step_async() first: no step is in flight")
        self._pending = False
        header, blobs = self._receive()
        return (self._obs(header["observation"], blobs), header["reward"], header["terminated"],
                header["truncated"], self._info(header["info"]))

    def render(self) -> np.ndarray | None:
        return self._last_shot if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        if getattr(self, "_ws", None) is None:
            return
        try:
            if self._pending:
                self._receive()
            self._pending = False
            self._call("close")
        except Exception:  # noqa: BLE001  (the session or the server may be gone already)
            pass
        finally:
            self._ws.close()
            self._ws = None

    # MobileGym extras ---------------------------------------------------------------
    def fork(self, n: int = 1) -> list["RemoteEnv"]:
        """``n`` new server sessions in this env's identical state, each as its own RemoteEnv."""
        ids = self._call("fork", n=n)["sessions"]
        forks = []
        for sid in ids:
            other = object.__new__(RemoteEnv)
            other.render_mode, other.base_url, other.token = self.render_mode, self.base_url, self.token
            other.timeout_s, other.make_kwargs, other.image = self.timeout_s, dict(self.make_kwargs), dict(self.image)
            other.session = sid
            other.observation_space, other.action_space = self.observation_space, self.action_space
            other.language, other.eval_mode = self.language, self.eval_mode
            other._np_random, other._np_random_seed = copy.deepcopy(self._np_random), self._np_random_seed
            other._init_state()
            other._connect()
            other._last_shot = self._last_shot
            forks.append(other)
        return forks

    def snapshot(self) -> str:
        """Freeze the episode on the server; returns the snapshot's id (for ``restore``)."""
        return self._call("snapshot")["snapshot"]

    def restore(self, snapshot: str) -> dict[str, Any]:
        """Return to a snapshot of this session; returns the observation there."""
        return self._call("restore", snapshot=snapshot)["observation"]

    def drop_snapshot(self, snapshot: str) -> None:
        """Free a snapshot on the server (a session keeps a bounded number)."""
        self._call("drop_snapshot", snapshot=snapshot)

    def judge_now(self) -> Any:
        """Judge the phone as it is now (without ending the episode): a JudgeResult."""
        from .judge.result import JudgeResult

        return JudgeResult(**self._call("judge")["judge"])

    @property
    def tasks(self) -> list[RemoteTask]:
        """The env's tasks (id and metadata), as ``env.unwrapped.tasks`` lists them locally."""
        if self._tasks is None:
            self._tasks = [RemoteTask(t["id"], t["metadata"]) for t in self._call("tasks")["tasks"]]
        return self._tasks

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError("a RemoteEnv holds a live connection; pass its arguments (or a factory) to other processes")


__all__ = ["REMOTE_ENV_ID", "RemoteEnv", "RemoteError", "RemoteRequestError", "RemoteStateError", "RemoteTask"]
