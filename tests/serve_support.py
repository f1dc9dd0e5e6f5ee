"""A real `mobilegym serve` subprocess of this checkout, for the server's tests."""
from __future__ import annotations

from pathlib import Path

import httpx

from mobilegym.serve.process import ServerProcess, child_env as _child_env

ROOT = Path(__file__).resolve().parents[1]
RL = {"task": "clock.CountAlarms", "render_scale": 0.1}


def child_env() -> dict[str, str]:
    return _child_env(str(ROOT))


class Server(ServerProcess):
    """A server running this checkout, with an httpx client at hand."""

    def __init__(self, *args: str) -> None:
        super().__init__(*args, env=child_env())

    def http(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60.0)
