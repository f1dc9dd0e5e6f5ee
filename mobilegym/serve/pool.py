"""The session pool of the front: worker processes, which session lives where, limits and idle reaping.

Each worker process holds several sessions pinned to it (a fork stays on its parent's worker); a new
session goes to the worker holding the fewest. One request at a time runs per worker (it steps its
sessions in turn), while the workers run in parallel. A worker that dies takes only its own sessions
with it: their requests get ``worker_crashed`` and a fresh worker takes its place.
"""
from __future__ import annotations

import asyncio
import collections
import multiprocessing
import os
import pickle
import socket
import time
import uuid
from dataclasses import dataclass
from typing import Any

from . import worker as worker_module
from .errors import ServeError, unknown_session


@dataclass(frozen=True)
class Limits:
    """What one server allows: sessions, idle time, request and response sizes."""

    max_sessions: int = 64
    idle_timeout_s: float = 300.0
    max_request_bytes: int = 1 << 20
    max_response_bytes: int = 64 << 20
    max_fork: int = 64


class _Worker:
    """A worker process and the socket to it: requests go out in order, replies come back in that order."""

    def __init__(self, context: Any, limits: Limits) -> None:
        front, child = socket.socketpair()
        self.process = context.Process(target=worker_module.run, args=(child, limits.max_response_bytes),
                                       daemon=True, name="mobilegym-serve-worker")
        self.process.start()
        child.close()
        self.socket = front
        self.sessions: set[str] = set()
        self.waiting: collections.deque[asyncio.Future] = collections.deque()
        self.writer: asyncio.StreamWriter | None = None
        self.alive = True

    async def connect(self, on_exit: Any) -> None:
        reader, self.writer = await asyncio.open_unix_connection(sock=self.socket)
        asyncio.get_running_loop().create_task(self._read(reader, on_exit))

    async def _read(self, reader: asyncio.StreamReader, on_exit: Any) -> None:
        try:
            while True:
                size = int.from_bytes(await reader.readexactly(8), "big")
                reply = pickle.loads(await reader.readexactly(size))
                future = self.waiting.popleft()
                if not future.done():
                    future.set_result(reply)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        self.alive = False
        for future in self.waiting:
            if not future.done():
                future.set_exception(_crashed())
        self.waiting.clear()
        on_exit(self)

    async def call(self, request: dict[str, Any]) -> tuple[int, bytes, dict[str, Any]]:
        if not self.alive or self.writer is None:
            raise _crashed()
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        self.writer.write(worker_module.frame_of(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)))
        await self.writer.drain()
        return await future

    def stop(self) -> None:
        try:
            self.socket.sendall(worker_module.frame_of(b""))
        except OSError:
            pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
        self.socket.close()


def _crashed() -> ServeError:
    return ServeError(500, "worker_crashed", "the worker process holding this session died; its sessions are "
                                            "gone (other sessions are unaffected)")


class Pool:
    """Sessions spread over ``workers`` processes."""

    def __init__(self, workers: int, limits: Limits) -> None:
        self.limits = limits
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["mobilegym.serve.worker"])
        self.workers = [_Worker(self.context, limits) for _ in range(max(1, workers))]
        self._closing = False
        self.where: dict[str, _Worker] = {}
        self.last_used: dict[str, float] = {}
        self.reserved = 0  # sessions being made
        self._reaper: asyncio.Task | None = None

    async def start(self) -> None:
        """Connect to the workers and start reaping idle sessions (in the server's event loop)."""
        for w in self.workers:
            await w.connect(self._exited)
        self._reaper = asyncio.get_running_loop().create_task(self._reap_forever())

    @property
    def active(self) -> int:
        return len(self.where)

    def _reserve(self, n: int) -> None:
        if self.active + self.reserved + n > self.limits.max_sessions:
            raise ServeError(429, "session_limit", f"the server holds at most {self.limits.max_sessions} sessions "
                                                   f"({self.active} open); close some first")
        self.reserved += n

    async def create(self, make: Any, image: Any, style: str) -> tuple[int, bytes, str | None]:
        """Make a session on the least-loaded worker; returns (status, body, its id or None)."""
        self._reserve(1)
        try:
            target = min(self.workers, key=lambda w: len(w.sessions))
            sid = uuid.uuid4().hex
            status, body = await self._run(target, {"op": "create", "session": sid, "style": style,
                                                    "args": {"make": make, "image": image}})
        finally:
            self.reserved -= 1
        return status, body, sid if status == 200 else None

    async def call(self, sid: str, op: str, args: dict[str, Any] | None, style: str) -> tuple[int, bytes]:
        """Run ``op`` on session ``sid`` in its worker."""
        target = self.where.get(sid)
        if target is None:
            raise unknown_session(sid)
        self.last_used[sid] = time.monotonic()
        if op != "fork":
            return await self._run(target, {"op": op, "session": sid, "args": args, "style": style})
        n = (args or {}).get("n", 1)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= self.limits.max_fork:
            raise ServeError(400, "bad_fork", f"fork n must be an integer in 1-{self.limits.max_fork}, got {n!r}")
        self._reserve(n)
        try:
            ids = [uuid.uuid4().hex for _ in range(n)]
            return await self._run(target, {"op": "fork", "session": sid, "args": {"ids": ids}, "style": style})
        finally:
            self.reserved -= n

    async def _run(self, target: _Worker, request: dict[str, Any]) -> tuple[int, bytes]:
        status, body, meta = await target.call(request)
        now = time.monotonic()
        for sid in meta.get("created", ()):
            self.where[sid] = target
            target.sessions.add(sid)
            self.last_used[sid] = now
        for sid in meta.get("closed", ()):
            self._forget(sid)
        return status, body

    def _forget(self, sid: str) -> None:
        target = self.where.pop(sid, None)
        self.last_used.pop(sid, None)
        if target is not None:
            target.sessions.discard(sid)

    def _exited(self, dead: _Worker) -> None:
        """A worker's socket closed: forget its sessions and, unless the server is stopping, start another."""
        for sid in list(dead.sessions):
            self._forget(sid)
        dead.process.join(timeout=1)
        dead.socket.close()
        if self._closing or dead not in self.workers:
            return
        fresh = _Worker(self.context, self.limits)
        self.workers[self.workers.index(dead)] = fresh
        asyncio.get_running_loop().create_task(fresh.connect(self._exited))

    async def close_session(self, sid: str) -> None:
        if sid in self.where:
            try:
                await self.call(sid, "close", None, "json")
            except ServeError:
                self._forget(sid)

    async def _reap_forever(self) -> None:
        period = max(0.05, min(self.limits.idle_timeout_s / 4, 5.0))
        while True:
            await asyncio.sleep(period)
            await self.reap()

    async def reap(self) -> list[str]:
        """Close the sessions idle longer than the idle timeout; returns their ids."""
        cutoff = time.monotonic() - self.limits.idle_timeout_s
        idle = [sid for sid, used in self.last_used.items() if used < cutoff]
        for sid in idle:
            await self.close_session(sid)
        return idle

    def describe(self) -> list[dict[str, Any]]:
        """Each worker's pid and the sessions it holds."""
        return [{"pid": w.process.pid, "sessions": sorted(w.sessions)} for w in self.workers]

    def close(self) -> None:
        self._closing = True
        if self._reaper is not None:
            self._reaper.cancel()
        for w in self.workers:
            w.stop()


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
