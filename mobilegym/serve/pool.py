"""The session pool of the front: worker processes, which session lives where, limits and idle reaping.

Each worker process holds several sessions pinned to it (a fork stays on its parent's worker); a new
session goes to the worker holding the fewest. One request at a time runs per worker (it steps its
sessions in turn), while the workers run in parallel. A worker that dies takes only its own sessions
with it: their requests get ``worker_crashed`` and a fresh worker takes its place.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
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
    """A worker process, its pipe and the lock that keeps one request in flight on it."""

    def __init__(self, context: Any, limits: Limits) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=worker_module.run, args=(child, limits.max_response_bytes),
                                       daemon=True, name="mobilegym-serve-worker")
        self.process.start()
        child.close()
        self.lock = asyncio.Lock()
        self.sessions: set[str] = set()

    def call(self, request: dict[str, Any]) -> tuple[int, bytes, dict[str, Any]]:
        self.conn.send(request)
        return self.conn.recv()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
        self.conn.close()


class Pool:
    """Sessions spread over ``workers`` processes."""

    def __init__(self, workers: int, limits: Limits) -> None:
        self.limits = limits
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["mobilegym.serve.worker"])
        self.workers = [_Worker(self.context, limits) for _ in range(max(1, workers))]
        self.where: dict[str, _Worker] = {}
        self.last_used: dict[str, float] = {}
        self.reserved = 0  # sessions being made
        self._threads = ThreadPoolExecutor(max_workers=len(self.workers) + 2, thread_name_prefix="serve-pool")
        self._reaper: asyncio.Task | None = None

    def start_reaper(self) -> None:
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
        loop = asyncio.get_running_loop()
        async with target.lock:
            if target not in self.workers:  # it died while this request waited
                raise ServeError(500, "worker_crashed", "the worker process holding this session died")
            try:
                status, body, meta = await loop.run_in_executor(self._threads, target.call, request)
            except (EOFError, OSError, BrokenPipeError):
                self._replace(target)
                raise ServeError(500, "worker_crashed", "the worker process holding this session died; "
                                                        "its sessions are gone (other sessions are unaffected)")
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

    def _replace(self, dead: _Worker) -> None:
        for sid in list(dead.sessions):
            self._forget(sid)
        self.workers[self.workers.index(dead)] = _Worker(self.context, self.limits)
        dead.process.join(timeout=1)
        dead.conn.close()

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
        if self._reaper is not None:
            self._reaper.cancel()
        for w in self.workers:
            w.stop()
        self._threads.shutdown(wait=False)


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
