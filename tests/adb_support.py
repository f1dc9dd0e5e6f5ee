"""Helpers for the ADB tests: a private adb server on a free port and a served simulated phone."""
from __future__ import annotations

import shutil
import socket
import subprocess
from dataclasses import dataclass, field
from typing import Iterator

import pytest

from mobilegym.adbd.server import AdbdServer
from mobilegym.device.sim import SimDevice

from .uitools import CORE_APPS

ADB = shutil.which("adb")
requires_adb = pytest.mark.skipif(ADB is None, reason="the adb binary is not installed (apt-get install adb)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class AdbServer:
    """A real adb server process on its own port (never the user's 5037)."""

    port: int = field(default_factory=free_port)

    def cli(self, *args: str, serial: str | None = None, timeout: float = 15,
            stdin: bytes | None = None) -> subprocess.CompletedProcess:
        cmd = [ADB or "adb", "-P", str(self.port), *(["-s", serial] if serial else []), *args]
        return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)

    def start(self) -> AdbServer:
        done = self.cli("start-server", timeout=30)
        assert done.returncode == 0, done.stderr.decode()
        return self

    def kill(self) -> None:
        self.cli("kill-server", timeout=15)

    def connect(self, serial: str) -> None:
        out = self.cli("connect", serial).stdout.decode()
        assert "connected to" in out, out
        self.cli("wait-for-device", serial=serial, timeout=15)


def serve_phone(port: int = 0) -> AdbdServer:
    """A fresh simulated phone served over ADB on 127.0.0.1."""
    return AdbdServer(SimDevice(apps=CORE_APPS), port=port).start()


@pytest.fixture(scope="module")
def adb_server() -> Iterator[AdbServer]:
    if ADB is None:
        pytest.skip("the adb binary is not installed (apt-get install adb)")
    server = AdbServer().start()
    yield server
    server.kill()


@pytest.fixture(scope="module")
def served(adb_server: AdbServer) -> Iterator[AdbdServer]:
    """A simulated phone served over ADB and connected to the module's adb server."""
    adbd = serve_phone()
    adb_server.connect(adbd.serial)
    yield adbd
    adb_server.cli("disconnect", adbd.serial)
    adbd.close()
