"""A real `mobilegym serve` subprocess on an ephemeral loopback port, for the server's tests."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
RL = {"task": "clock.CountAlarms", "render_scale": 0.1}


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment with the repository first on PYTHONPATH (the server runs this checkout)."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


class Server:
    """``python -m mobilegym serve ARGS`` until ``stop()``; ``url`` once it listens."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, timeout: float = 60.0) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "mobilegym", "serve", "--port", "0", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=env or child_env())
        deadline = time.monotonic() + timeout
        line = ""
        while time.monotonic() < deadline and not line:
            line = self.process.stdout.readline()
            if self.process.poll() is not None and not line:
                raise RuntimeError(f"the server exited: {self.process.stderr.read()}")
        match = re.search(r"http://([\d.]+):(\d+)", line)
        if match is None:
            self.stop()
            raise RuntimeError(f"the server did not announce its address: {line!r}")
        self.url = f"http://{match.group(1)}:{match.group(2)}"

    def http(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60.0)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
