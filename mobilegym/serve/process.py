"""``mobilegym serve`` as a child process (for scripts, benchmarks and tests): started on a free loopback port,
its URL read from the line it prints, stopped with Ctrl-C's signal."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from typing import Mapping


class ServerProcess:
    """``python -m mobilegym serve --port 0 ARGS`` until ``stop()``; ``url`` once it listens."""

    def __init__(self, *args: str, env: Mapping[str, str] | None = None, timeout_s: float = 60.0) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "mobilegym", "serve", "--port", "0", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=dict(env) if env is not None else None)
        deadline = time.monotonic() + timeout_s
        line = ""
        while not line and time.monotonic() < deadline:
            line = self.process.stdout.readline()  # type: ignore[union-attr]
            if not line and self.process.poll() is not None:
                raise RuntimeError(f"mobilegym serve exited: {self.process.stderr.read()}")  # type: ignore[union-attr]
        match = re.search(r"http://(\S+):(\d+)", line)
        if match is None:
            self.stop()
            raise RuntimeError(f"mobilegym serve did not announce its address: {line!r}")
        self.url = f"http://{match.group(1)}:{match.group(2)}"

    def stop(self) -> None:
        """Stop the server (and its workers) and wait for it."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> "ServerProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def child_env(path: str) -> dict[str, str]:
    """This process's environment with ``path`` first on PYTHONPATH (a server that runs a given checkout)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (path, os.environ.get("PYTHONPATH", "")) if p)}
