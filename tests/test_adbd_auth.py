"""ADB authentication on the served phone: with authorized keys, only a host that signs the device's token with one
of them gets in (the real adb binary and the adb-shell package, each with keys of its own); the keys file and the
command line refuse what they cannot use."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mobilegym.adbd.auth import AuthKeyError, PublicKey, load_keys
from mobilegym.adbd.server import AdbdServer
from mobilegym.adbd.transport import Limits
from mobilegym.device.sim import SimDevice

from .adb_support import ADB, free_port, requires_adb
from .serve_support import child_env

LIMITS = Limits(handshake_timeout=3.0)


class _Adb:
    """A real adb server on its own port with its own HOME, so it makes (and signs with) a key of its own."""

    def __init__(self, home: Path) -> None:
        self.port, self.env = str(free_port()), {**os.environ, "HOME": str(home)}
        self.env.pop("ADB_VENDOR_KEYS", None)
        home.mkdir(parents=True, exist_ok=True)
        assert self.run("start-server", timeout=30).returncode == 0
        self.public_key = (home / ".android" / "adbkey.pub").read_text()

    def run(self, *args: str, timeout: float = 20) -> subprocess.CompletedProcess:
        return subprocess.run([ADB or "adb", "-P", self.port, *args], capture_output=True, text=True, env=self.env,
                              timeout=timeout)


@pytest.fixture(scope="module")
def adb_hosts(tmp_path_factory: pytest.TempPathFactory):
    hosts = [_Adb(tmp_path_factory.mktemp(f"host{n}")) for n in range(2)]
    yield hosts
    for host in hosts:
        host.run("kill-server")


def _served(keys_text: str, tmp_path: Path) -> AdbdServer:
    (tmp_path / "keys").write_text(keys_text)
    return AdbdServer(SimDevice(270, 600), keys=load_keys(tmp_path / "keys"), limits=LIMITS).start()


@requires_adb
def test_the_real_adb_gets_in_with_an_authorized_key_and_stays_unauthorized_without(adb_hosts, tmp_path) -> None:
    mine, other = adb_hosts
    assert mine.public_key != other.public_key
    server = _served(f"# the lab's hosts\n{mine.public_key}\n", tmp_path)
    try:
        assert "connected to" in mine.run("connect", server.serial).stdout
        assert mine.run("-s", server.serial, "wait-for-device", timeout=15).returncode == 0
        assert mine.run("-s", server.serial, "shell", "echo", "signed").stdout == "signed\n"
        assert "failed to authenticate" in other.run("connect", server.serial).stdout
        refused = other.run("-s", server.serial, "shell", "echo", "unsigned", timeout=30)
        assert refused.returncode != 0 and "unsigned" not in refused.stdout
    finally:
        server.close()


def test_the_adb_shell_package_signs_with_its_own_key(tmp_path) -> None:
    adb_device = pytest.importorskip("adb_shell.adb_device")
    from adb_shell.auth.keygen import keygen
    from adb_shell.auth.sign_pythonrsa import PythonRSASigner

    for name in ("allowed", "stranger"):
        keygen(str(tmp_path / name))
    server = _served((tmp_path / "allowed.pub").read_text(), tmp_path)
    host, port = server.serial.rsplit(":", 1)
    try:
        for name, gets_in in (("allowed", True), ("stranger", False)):
            signer = PythonRSASigner((tmp_path / f"{name}.pub").read_text(), (tmp_path / name).read_text())
            device = adb_device.AdbDeviceTcp(host, int(port), default_transport_timeout_s=5)
            if gets_in:
                device.connect(rsa_keys=[signer], auth_timeout_s=2)
                assert device.shell("echo hi", read_timeout_s=10) == "hi\n"
                device.close()
            else:
                with pytest.raises(Exception):
                    device.connect(rsa_keys=[signer], auth_timeout_s=1)
                    device.shell("echo hi", read_timeout_s=3)
                device.close()
            # no key at all: the device asks for a signature the host cannot give
        with pytest.raises(Exception):
            bare = adb_device.AdbDeviceTcp(host, int(port), default_transport_timeout_s=3)
            bare.connect(auth_timeout_s=1)
    finally:
        server.close()


def test_a_keys_file_names_what_is_wrong(tmp_path) -> None:
    cases = {"empty": ("# nobody yet\n", "holds no ADB public key"),
             "text": ("hello world\n", "keys:1: not base64"),
             "short": ("QUFBQQ== me@host\n", "keys:1: an ADB public key has 524 bytes, this one 4")}
    for name, (text, said) in cases.items():
        (tmp_path / "keys").write_text(text)
        with pytest.raises(AuthKeyError, match=said):
            load_keys(tmp_path / "keys")
    with pytest.raises(AuthKeyError, match="cannot read the ADB keys file"):
        load_keys(tmp_path / "missing")


def test_a_signature_verifies_only_its_own_token() -> None:
    pytest.importorskip("adb_shell")
    import tempfile

    from adb_shell.auth.keygen import keygen
    from adb_shell.auth.sign_pythonrsa import PythonRSASigner

    with tempfile.TemporaryDirectory() as folder:
        keygen(os.path.join(folder, "k"))
        public = open(os.path.join(folder, "k.pub")).read()
        signer = PythonRSASigner(public, open(os.path.join(folder, "k")).read())
    key = PublicKey.parse(public)
    token = bytes(range(20))
    signature = signer.Sign(token)
    assert key.verifies(token, signature)
    assert not key.verifies(bytes(20), signature)
    assert not key.verifies(token, signature[:-1] + bytes([signature[-1] ^ 1]))
    assert not key.verifies(token, b"\x00" * 3)


def test_serving_beyond_loopback_needs_authorized_keys(tmp_path) -> None:
    def serve(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "mobilegym", "serve-adb", "--port", "0", *args],
                              capture_output=True, text=True, env=child_env(), timeout=60)

    beyond = serve("--host", "0.0.0.0")
    assert beyond.returncode == 2 and "needs --auth-keys FILE" in beyond.stderr and "Traceback" not in beyond.stderr
    missing = serve("--host", "0.0.0.0", "--auth-keys", str(tmp_path / "none.pub"))
    assert missing.returncode == 2 and "cannot read the ADB keys file" in missing.stderr
