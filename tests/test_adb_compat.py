"""Third-party ADB clients against a real `mobilegym serve-adb` process on a free port:
Google's adb, adbutils, adb-shell (talks to the device port directly) and pure-python-adb."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import time
from typing import Iterator

import numpy as np
import pytest
from PIL import Image

from .adb_support import ADB, AdbServer

pytestmark = pytest.mark.skipif(ADB is None, reason="the adb binary is not installed (apt-get install adb)")


@pytest.fixture(scope="module")
def serve() -> Iterator[str]:
    """`mobilegym serve-adb --port 0` in its own process; yields its serial HOST:PORT."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mobilegym.cli", "serve-adb", "--port", "0", "--world", "canonical",
         "--width", "540", "--height", "1200"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    serial = None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        if not line:
            break
        if " on " in line and line.startswith("serving"):
            serial = line.rsplit(" on ", 1)[1].strip()
            break
    assert serial, f"serve-adb did not start: {proc.stderr.read() if proc.stderr else ''}"  # type: ignore[union-attr]
    yield serial
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def adb(serve: str) -> Iterator[AdbServer]:
    server = AdbServer().start()
    server.connect(serve)
    yield server
    server.cli("disconnect", serve)
    server.kill()


def test_google_adb(adb: AdbServer, serve: str, tmp_path) -> None:
    def sh(*cmd: str) -> str:
        done = adb.cli("shell", *cmd, serial=serve, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout.decode()

    assert sh("getprop", "ro.build.version.sdk").strip() == "34"
    assert sh("/system/bin/echo hi").strip() == "hi"
    png = adb.cli("exec-out", "screencap", "-p", serial=serve, timeout=30).stdout
    assert Image.open(io.BytesIO(png)).size == (540, 1200)
    local = tmp_path / "f.txt"
    local.write_bytes(b"x" * 300_000)
    assert adb.cli("push", str(local), "/sdcard/Download/f.txt", serial=serve, timeout=30).returncode == 0
    assert sh("ls", "-l", "/sdcard/Download/f.txt").split()[4] == "300000"
    back = tmp_path / "back.txt"
    assert adb.cli("pull", "/sdcard/Download/f.txt", str(back), serial=serve, timeout=30).returncode == 0
    assert back.read_bytes() == local.read_bytes()
    refused = adb.cli("push", str(local), "/system/f.txt", serial=serve, timeout=30)
    assert refused.returncode != 0 and b"Read-only file system" in refused.stderr + refused.stdout
    assert "Row: 0 _id=1, display_name=Alice Chen" in sh("content query --uri content://com.android.contacts/contacts"
                                                          " --projection _id:display_name")


def test_adbutils(adb: AdbServer, serve: str) -> None:
    adbutils = pytest.importorskip("adbutils")
    device = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(serve)
    device.switch_wifi(False)
    assert device.shell("settings get global wifi_on").strip() == "0"
    device.switch_wifi(True)
    assert device.shell("settings get global wifi_on").strip() == "1"
    device.switch_airplane(True)
    assert device.shell("settings get global airplane_mode_on").strip() == "1"
    device.switch_airplane(False)
    info = device.app_info("com.mobilegym.clock")
    assert info is not None and info.version_name == "14" and info.version_code == 34
    device.app_start("com.mobilegym.clock")
    assert device.app_current().package == "com.mobilegym.clock"
    assert "com.mobilegym.clock" in device.list_packages()
    assert device.window_size() == (540, 1200)
    assert device.screenshot().size == (540, 1200)
    device.sync.push(b"hello", "/sdcard/Download/u.txt")
    assert device.sync.read_bytes("/sdcard/Download/u.txt") == b"hello"
    assert device.shell(["pidof", "com.mobilegym.clock"]).strip().isdigit()


def test_adb_shell_package(serve: str) -> None:
    adb_device = pytest.importorskip("adb_shell.adb_device")
    host, port = serve.rsplit(":", 1)
    device = adb_device.AdbDeviceTcp(host, int(port), default_transport_timeout_s=10)
    device.connect(auth_timeout_s=1)
    try:
        assert device.shell("echo hi; getprop ro.build.version.sdk", read_timeout_s=10) == "hi\n34\n"
        with tempfile.TemporaryDirectory() as folder:
            local = os.path.join(folder, "a.bin")
            data = os.urandom(200_000)
            with open(local, "wb") as f:
                f.write(data)
            started = time.monotonic()
            device.push(local, "/sdcard/Download/a.bin", read_timeout_s=10)
            mode, size, _ = device.stat("/sdcard/Download/a.bin", read_timeout_s=10)
            assert size == len(data) and mode & 0o170000 == 0o100000
            names = {bytes(e.filename).decode() for e in device.list("/sdcard/Download", read_timeout_s=10)}
            assert "a.bin" in names
            device.pull("/sdcard/Download/a.bin", os.path.join(folder, "b.bin"), read_timeout_s=10)
            with open(os.path.join(folder, "b.bin"), "rb") as f:
                assert f.read() == data
            assert time.monotonic() - started < 8  # no CLSE timeouts
            with pytest.raises(Exception, match="Read-only file system"):
                device.push(local, "/system/a.bin", read_timeout_s=10)
    finally:
        device.close()


def test_pure_python_adb(adb: AdbServer, serve: str) -> None:
    client_mod = pytest.importorskip("ppadb.client")
    device = client_mod.Client(host="127.0.0.1", port=adb.port).device(serve)
    assert device is not None
    png = device.screencap()  # runs /system/bin/screencap -p
    assert Image.open(io.BytesIO(png)).size == (540, 1200)
    assert np.asarray(Image.open(io.BytesIO(png))).shape == (1200, 540, 3)
    device.input_keyevent(3)
    assert device.shell("/system/bin/input tap 10 10; echo $?").strip() == "0"
    assert "Physical size: 540x1200" in device.shell("wm size")
    assert device.get_properties()["ro.build.version.sdk"] == "34"
