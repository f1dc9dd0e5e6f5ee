"""A local Ray head of this checkout for the tests (``ray start --head --block``), stopped by its own process
group: ``ray stop`` would end every Ray process on the machine, other users' clusters included."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADDRESS = re.compile(r"ray start --address='([^']+)'")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


class RayHead:
    """``ray start --head --num-cpus=N`` in a session of its own; ``address`` once it is up, ``stop()`` ends it.
    No token authentication (Ray's default for `ray start` varies across versions; a test cluster needs none)."""

    def __init__(self, temp: Path, num_cpus: int = 2, timeout_s: float = 180.0) -> None:
        ray = shutil.which("ray")
        assert ray is not None, "the `ray` command is missing: scripts/setup.sh installs ray[default]"
        self.log = temp / "ray-start.log"
        env = {**os.environ, "RAY_AUTH_MODE": "disabled",
               "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
        with open(self.log, "w") as out:
            self.process = subprocess.Popen(
                [ray, "start", "--head", "--block", f"--port={free_port()}", f"--num-cpus={num_cpus}",
                 "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}"],
                stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + timeout_s
        while True:
            match = ADDRESS.search(self.log.read_text())
            if match:
                self.address = match.group(1)
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"ray start failed:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        """End the head and every process it started (they share its process group)."""
        for sig, wait_s in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                return
            deadline = time.monotonic() + wait_s
            while time.monotonic() < deadline:
                try:
                    os.killpg(self.process.pid, 0)
                except ProcessLookupError:
                    self.process.wait()
                    return
                self.process.poll()
                time.sleep(0.2)
