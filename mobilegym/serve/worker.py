"""A worker process of the server: it holds sessions (each one env) and answers the front's requests.

The front sends ``{"op", "session", "args", "style"}``; the worker replies ``(status, body, meta)`` with
the body already encoded for the client (``style``: ``frame`` for MobileGym's client, ``json``, or
``openenv``), so encoding screenshots runs in parallel in the workers, never in the front.
"""
from __future__ import annotations

import inspect
import json
import uuid
from typing import Any, Callable, Mapping

import gymnasium as gym

from .. import ENV_ID
from . import wire
from .errors import ServeError, bad_request, unknown_session

REFUSED_MAKE_KWARGS = {"device": "a server runs the simulated phone only",
                       "allow_hosts": "a client may not open downloads on the server",
                       "render_mode": "render on the client (RemoteEnv keeps the last screenshot)"}
TUPLE_MAKE_KWARGS = ("screen_size",)
MAX_SNAPSHOTS = 64  # per session: snapshots live in the worker's memory


def check_make_kwargs(make: Any) -> dict[str, Any]:
    """The ``gym.make("MobileGym-v0", ...)`` keyword arguments a client sent, checked (JSON lists as tuples)."""
    from ..env import MobileGymEnv

    if not isinstance(make, Mapping):
        raise bad_request("bad_make_kwargs", f"make must be an object of gym.make keyword arguments, got {make!r}")
    known = set(inspect.signature(MobileGymEnv.__init__).parameters) - {"self"}
    for key in make:
        if key in REFUSED_MAKE_KWARGS:
            raise bad_request("bad_make_kwargs", f"make argument {key!r} is not accepted: {REFUSED_MAKE_KWARGS[key]}")
        if key not in known:
            raise bad_request("bad_make_kwargs", f"unknown make argument {key!r}; known: {', '.join(sorted(known))}")
    tasks = make.get("task")
    for task in tasks if isinstance(tasks, list) else [tasks]:
        if task is not None and (not isinstance(task, str) or "/" in task or "\\" in task or task.endswith(".json")):
            raise bad_request("bad_make_kwargs", f"task must be task ids or suite names (no file paths), got {task!r}")
    return {k: tuple(v) if k in TUPLE_MAKE_KWARGS and isinstance(v, list) else v for k, v in make.items()}


class Session:
    """One env with its screenshot format, its snapshots and (for OpenEnv) the episode id."""

    def __init__(self, env: Any, image: wire.ImageOptions) -> None:
        self.env = env
        self.image = image
        self.snapshots: dict[str, Any] = {}
        self.episode_id: str | None = None

    def obs(self, obs: Mapping[str, Any], blobs: list[bytes] | None) -> dict[str, Any]:
        return wire.encode_obs(obs, self.image, blobs)


def _make(make: Mapping[str, Any], image: Any) -> Session:
    options = wire.ImageOptions.parse(image)
    kwargs = check_make_kwargs(make)
    try:
        env = gym.make(ENV_ID, **kwargs)
    except ServeError:
        raise
    except Exception as exc:  # TaskError (an unknown task id), ValueError, TypeError: the client's arguments
        raise bad_request("bad_make_kwargs", f"{type(exc).__name__}: {exc}") from None
    return Session(env, options)


def _spaces(session: Session) -> dict[str, Any]:
    return {"observation_space": wire.describe_space(session.env.observation_space), **_phone(session)}


def _phone(session: Session) -> dict[str, Any]:
    """What the env's episode settings are now: its action space, the phone's language, the evaluation mode."""
    env = session.env.unwrapped
    return {"action_space": wire.describe_space(env.action_space), "language": env.language,
            "eval_mode": env.eval_mode}


class Worker:
    """The sessions of one worker process and the operations on them."""

    def __init__(self, max_response_bytes: int) -> None:
        self.sessions: dict[str, Session] = {}
        self.max_response_bytes = max_response_bytes
        self.ops: dict[str, Callable[[str, dict[str, Any], list[bytes] | None], tuple[dict[str, Any], dict]]] = {
            "create": self.create, "reset": self.reset, "step": self.step, "fork": self.fork,
            "snapshot": self.snapshot, "restore": self.restore, "drop_snapshot": self.drop_snapshot,
            "judge": self.judge, "tasks": self.tasks, "state": self.state, "close": self.close}

    def handle(self, request: Mapping[str, Any]) -> tuple[int, bytes, dict[str, Any]]:
        """One request -> (HTTP status, encoded body, meta for the front: sessions created or closed)."""
        style = request.get("style", "json")
        blobs: list[bytes] | None = [] if style == "frame" else None
        op, args = request["op"], request.get("args") or {}
        try:
            body, meta = self.ops[op](request["session"], args, blobs)
            status = 200
        except ServeError as exc:
            body, meta, status, blobs = exc.to_dict(), {}, exc.status, [] if blobs is not None else None
        except Exception as exc:  # noqa: BLE001  (a session's own failure: its error, never the worker's)
            error = _env_error(exc)
            body, meta, status, blobs = error.to_dict(), {}, error.status, [] if blobs is not None else None
        encoded = _encode(op, body, status, style, blobs)
        if len(encoded) > self.max_response_bytes:
            error = ServeError(500, "response_too_large", f"the response ({len(encoded)} bytes) exceeds the server's "
                                                          f"bound of {self.max_response_bytes} bytes")
            encoded = _encode(op, error.to_dict(), 500, style, [] if blobs is not None else None)
        return status, encoded, meta

    def _session(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise unknown_session(sid)
        return session

    def create(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = _make(args.get("make") or {}, args.get("image"))
        self.sessions[sid] = session
        return {"session": sid, **_spaces(session)}, {"created": [sid]}

    def reset(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = self._session(sid)
        seed, options = args.get("seed"), args.get("options")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise bad_request("bad_reset", f"seed must be a non-negative integer or null, got {seed!r}")
        if options is not None and not isinstance(options, dict):
            raise bad_request("bad_reset", f"options must be an object or null, got {options!r}")
        try:
            obs, info = session.env.reset(seed=seed, options=options)
        except ValueError as exc:
            raise bad_request("bad_reset", f"{type(exc).__name__}: {exc}") from None
        session.episode_id = args.get("episode_id") or uuid.uuid4().hex
        return {"observation": session.obs(obs, blobs), "info": wire.to_json(info), **_phone(session)}, {}

    def step(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        from ..actions import InvalidAction

        session = self._session(sid)
        if "action" not in args:
            raise bad_request("bad_action", "step needs an 'action' object")
        try:
            obs, reward, terminated, truncated, info = session.env.step(args["action"])
        except InvalidAction as exc:
            raise bad_request("invalid_action", str(exc)) from None
        except (RuntimeError, gym.error.ResetNeeded) as exc:  # step before reset, or after the episode ended
            raise ServeError(409, "bad_state", str(exc)) from None
        return {"observation": session.obs(obs, blobs), "reward": float(reward), "terminated": bool(terminated),
                "truncated": bool(truncated), "info": wire.to_json(info)}, {}

    def fork(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = self._session(sid)
        ids = args.get("ids") or []
        for sid_new, env in zip(ids, session.env.unwrapped.fork(len(ids))):
            self.sessions[sid_new] = Session(env, session.image)
        return {"sessions": ids}, {"created": list(ids)}

    def snapshot(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = self._session(sid)
        if len(session.snapshots) >= MAX_SNAPSHOTS:
            raise ServeError(429, "snapshot_limit", f"a session keeps at most {MAX_SNAPSHOTS} snapshots; "
                                                    f"drop_snapshot one first")
        snap = uuid.uuid4().hex
        session.snapshots[snap] = session.env.unwrapped.snapshot()
        return {"snapshot": snap}, {}

    def _snap(self, session: Session, args: dict) -> str:
        snap = args.get("snapshot")
        if snap not in session.snapshots:
            raise ServeError(404, "unknown_snapshot", f"this session has no snapshot {snap!r}")
        return snap

    def restore(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = self._session(sid)
        obs = session.env.unwrapped.restore(session.snapshots[self._snap(session, args)])
        return {"observation": session.obs(obs, blobs)}, {}

    def drop_snapshot(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = self._session(sid)
        del session.snapshots[self._snap(session, args)]
        return {"dropped": args["snapshot"]}, {}

    def judge(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        return {"judge": self._session(sid).env.unwrapped.judge_now().to_dict()}, {}

    def tasks(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        refs = self._session(sid).env.unwrapped.tasks
        return {"tasks": [{"id": r.id, "metadata": wire.to_json(r.metadata)} for r in refs]}, {}

    def state(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = self._session(sid)
        env = session.env.unwrapped
        task = env.episode.id if env.episode is not None else None
        return {"episode_id": session.episode_id, "step_count": env.steps, "task_id": task}, {}

    def close(self, sid: str, args: dict, blobs: Any) -> tuple[dict, dict]:
        session = self.sessions.pop(sid, None)
        if session is None:
            raise unknown_session(sid)
        session.env.close()
        return {"closed": sid}, {"closed": [sid]}


def _env_error(exc: Exception) -> ServeError:
    from ..device.base import UnsupportedCapability
    from ..judge import TaskError

    if isinstance(exc, UnsupportedCapability):
        return ServeError(400, "unsupported", str(exc))
    if isinstance(exc, TaskError):
        return ServeError(400, "task_error", str(exc))
    if isinstance(exc, RuntimeError):
        return ServeError(409, "bad_state", str(exc))
    return ServeError(500, "env_error", f"{type(exc).__name__}: {exc}")


def _encode(op: str, body: dict[str, Any], status: int, style: str, blobs: list[bytes] | None) -> bytes:
    if style == "frame":
        return wire.pack_frame(body, blobs or [])
    if style == "openenv":
        from .openenv import envelope

        body = envelope(op, body, status)
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def run(sock: Any, max_response_bytes: int) -> None:
    """The worker process: answer the front's framed requests (:func:`read_frame`) until it sends an empty
    frame or goes away."""
    import pickle
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the front, which then stops the workers
    worker = Worker(max_response_bytes)
    stream = sock.makefile("rb")
    while True:
        data = read_frame(stream)
        if not data:
            break
        reply = pickle.dumps(worker.handle(pickle.loads(data)), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            sock.sendall(frame_of(reply))
        except OSError:
            break
    for session in worker.sessions.values():
        session.env.close()


def frame_of(data: bytes) -> bytes:
    """A message between the front and a worker: an 8-byte big-endian length, then the bytes."""
    return len(data).to_bytes(8, "big") + data


def read_frame(stream: Any) -> bytes:
    """The next message from a blocking byte stream; b"" at its end."""
    head = stream.read(8)
    if len(head) < 8:
        return b""
    return stream.read(int.from_bytes(head, "big"))
