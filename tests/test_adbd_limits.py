"""The ADB server's limits: back-pressure, streams and connections per client, idle timeouts,
the file-system quota, a bounded clock, linear-time regexes and per-line output."""
from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Iterator

import pytest

from mobilegym.adbd import proto
from mobilegym.adbd.server import AdbdServer, Limits
from mobilegym.adbd.shell import Shell
from mobilegym.sim.clock import MAX_MS
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.vfs import VfsError, VirtualFS


@pytest.fixture(scope="module")
def phone() -> Phone:
    return SimDevice(540, 1200, world="canonical")


def serve(phone: Phone, **limits: float) -> AdbdServer:
    return AdbdServer(phone, limits=Limits(**limits)).start()


class Raw:
    """A bare ADB host over a socket."""

    def __init__(self, port: int, handshake: bool = True) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        if handshake:
            self.send(proto.A_CNXN, proto.A_VERSION, 1 << 20, b"host::features=shell_v2\0")
            assert self.recv().command == proto.A_CNXN

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        self.sock.sendall(proto.pack(proto.Message(command, arg0, arg1, data), with_checksum=command == proto.A_CNXN))

    def recv(self, timeout: float = 5) -> proto.Message:
        self.sock.settimeout(timeout)
        return proto.read_message(self.sock, proto.MAX_PAYLOAD, verify_checksum=False)

    def closed_within(self, seconds: float) -> bool:
        """True if the server drops the connection within ``seconds`` (messages in between are skipped)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.recv(max(0.05, deadline - time.monotonic()))
            except (ConnectionError, OSError):
                return True
        return False

    def open(self, local: int, service: str) -> proto.Message:
        self.send(proto.A_OPEN, local, 0, service.encode() + b"\0")
        while True:
            msg = self.recv()
            if msg.command in (proto.A_OKAY, proto.A_CLSE) and msg.arg1 == local:
                return msg

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def server(phone: Phone) -> Iterator[AdbdServer]:
    srv = serve(phone, window=128 * 1024, max_streams=4, max_connections_per_client=3, idle_timeout=1.5,
                handshake_timeout=1.0, ack_timeout=20)
    yield srv
    srv.close()


def _stream_of(server: AdbdServer):  # noqa: ANN202
    conns = list(server._connections)
    return [s for c in conns for s in c._streams.values()]


def test_stalled_stream_stops_acknowledging(server: AdbdServer) -> None:
    host = Raw(server.port)
    okay = host.open(1, "shell:")          # an interactive shell: it writes a prompt first
    prompt = host.recv()                    # ... which we never acknowledge, so it stalls
    assert prompt.command == proto.A_WRTE
    chunk, sent, acked = b"x" * 60_000, 0, 0
    while sent < 4 * 1024 * 1024:
        host.send(proto.A_WRTE, 1, okay.arg0, chunk)
        sent += len(chunk)
        try:
            msg = host.recv(timeout=0.5)
        except socket.timeout:
            break  # a well-behaved host waits for the OKAY that does not come
        assert msg.command == proto.A_OKAY
        acked += 1
    # the window (128 KiB) plus the chunk in flight, plus one the shell may already have read into its line before
    # its echo blocked on the unacknowledged prompt (how soon it reads depends on the host's load)
    assert acked * len(chunk) <= 128 * 1024 + 2 * len(chunk)
    streams = _stream_of(server)
    assert streams and max(s.buffered for s in streams) <= 128 * 1024 + len(chunk)
    # a host that keeps writing without the OKAY is dropped instead of buffered
    for _ in range(5):
        try:
            host.send(proto.A_WRTE, 1, okay.arg0, chunk)
        except OSError:
            break
    assert host.closed_within(3)
    host.close()


def test_acknowledges_again_once_the_stream_reads(server: AdbdServer) -> None:
    host = Raw(server.port)
    okay = host.open(1, "shell:")
    assert host.recv().command == proto.A_WRTE      # the prompt
    data = b"echo " + b"y" * 200_000 + b"\n"        # larger than the window: needs the held-back OKAY
    host.send(proto.A_WRTE, 1, okay.arg0, data[:150_000])
    host.send(proto.A_OKAY, 1, okay.arg0)           # acknowledge the prompt: the shell reads again
    got_okay = False
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not got_okay:
        msg = host.recv()
        if msg.command == proto.A_OKAY:
            got_okay = True
        elif msg.command == proto.A_WRTE:
            host.send(proto.A_OKAY, 1, okay.arg0)
    assert got_okay
    host.close()


def test_too_many_streams_are_refused(server: AdbdServer) -> None:
    host = Raw(server.port)
    replies = [host.open(i, "shell:") for i in range(1, 11)]
    accepted = [r for r in replies if r.command == proto.A_OKAY]
    assert len(accepted) == 4
    assert all(r.command == proto.A_CLSE and r.arg0 == 0 for r in replies[4:])
    conn = next(iter(server._connections))
    assert conn.stream_count == 4
    host.close()


def test_connections_per_client(server: AdbdServer) -> None:
    hosts = [Raw(server.port) for _ in range(3)]
    extra = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    extra.settimeout(3)
    assert extra.recv(1) == b""   # closed at once
    extra.close()
    for h in hosts:
        h.close()


def test_handshake_and_idle_timeouts(server: AdbdServer) -> None:
    silent = Raw(server.port, handshake=False)
    assert silent.closed_within(3)
    idle = Raw(server.port)
    assert idle.closed_within(4)
    waiting = Raw(server.port)
    okay = waiting.open(1, "shell:")   # a stream waiting for input is closed after the idle timeout
    deadline, closed = time.monotonic() + 5, False
    while time.monotonic() < deadline and not closed:
        msg = waiting.recv()
        if msg.command == proto.A_WRTE:
            waiting.send(proto.A_OKAY, 1, okay.arg0)
        closed = msg.command == proto.A_CLSE
    assert closed
    for h in (silent, idle, waiting):
        h.close()


def test_host_clse_is_answered(server: AdbdServer) -> None:
    host = Raw(server.port)
    okay = host.open(5, "sync:")
    host.send(proto.A_CLSE, 5, okay.arg0)
    msg = host.recv()
    assert (msg.command, msg.arg0, msg.arg1) == (proto.A_CLSE, okay.arg0, 5)
    host.close()


def test_threads_are_bounded(phone: Phone) -> None:
    srv = serve(phone, max_streams=8, max_streams_per_client=12, max_connections_per_client=4)
    try:
        before = threading.active_count()
        hosts = [Raw(srv.port) for _ in range(4)]
        accepted = sum(h.open(i, "shell:").command == proto.A_OKAY for h in hosts for i in range(1, 60))
        assert accepted == 12                      # streams per client, over all its connections
        assert threading.active_count() - before <= 4 + 12
        hosts[0].close()                           # its streams end and return to the budget
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and next(iter(srv._budgets.values())).used > 12 - 8:
            time.sleep(0.05)
        assert hosts[1].open(100, "shell:").command == proto.A_OKAY
        for h in hosts[1:]:
            h.close()
    finally:
        srv.close()


def test_file_system_quota() -> None:
    files = VirtualFS(quota=1000, max_nodes=40)
    files.write("/sdcard/a", b"x" * 600)
    with pytest.raises(VfsError, match="No space left on device"):
        files.write("/sdcard/b", b"x" * 600)
    with pytest.raises(VfsError, match="No space left on device"):
        files.write("/sdcard/a", b"x" * 500, append=True)
    files.write("/sdcard/a", b"x" * 900)          # replacing counts the difference only
    files.remove("/sdcard/a")
    assert files.used == 0
    with pytest.raises(VfsError, match="No space left on device"):
        for i in range(100):
            files.mkdir(f"/sdcard/d{i}")
    with pytest.raises(VfsError, match="Read-only file system"):
        files.write("/system/bin/x", b"")
    with pytest.raises(VfsError, match="Read-only file system"):
        files.write("/x", b"")


def test_push_over_quota_fails_cleanly(phone: Phone) -> None:
    shell = Shell(phone)
    phone.files.quota = phone.files.used + 50_000
    try:
        result = shell.run("screencap /sdcard/big.raw")
        assert result.code == 1 and b"No space left on device" in result.stderr
        assert not phone.files.exists("/sdcard/big.raw")
        assert shell.run("df /sdcard").code == 0
    finally:
        phone.files.quota = 128 << 20


def test_sync_push_over_quota(phone: Phone) -> None:
    srv = serve(phone)
    phone.files.quota = phone.files.used + 10_000
    try:
        host = Raw(srv.port)
        okay = host.open(1, "sync:")
        path = b"/sdcard/Download/big.bin,33188"
        payload = b"SEND" + struct.pack("<I", len(path)) + path
        for _ in range(3):
            payload += b"DATA" + struct.pack("<I", 8000) + b"z" * 8000
        payload += b"DONE" + struct.pack("<I", 0)
        host.send(proto.A_WRTE, 1, okay.arg0, payload)
        reply = b""
        while b"FAIL" not in reply:
            msg = host.recv()
            if msg.command == proto.A_WRTE:
                reply += msg.data
                host.send(proto.A_OKAY, 1, okay.arg0)
        assert b"No space left on device" in reply
        assert not phone.files.exists("/sdcard/Download/big.bin")
        host.close()
    finally:
        phone.files.quota = 128 << 20
        srv.close()


def test_clock_is_bounded(phone: Phone) -> None:
    shell = Shell(phone)
    before = phone.time_ms()
    for line in ("sleep 1e300", "sleep inf", "sleep nan", "mobilegym wait 1e15", "mobilegym wait -5",
                 "mobilegym state patch '{\"os\": {\"time_ms\": 1e30}}'",
                 f"mobilegym state patch '{{\"os\": {{\"time_ms\": {MAX_MS + 1}}}}}'",
                 "mobilegym state patch '{\"os\": {\"time_ms\": \"soon\"}}'",
                 "mobilegym state reset 1e400"):
        result = shell.run(line)
        assert result.code != 0 and result.stderr, line
        assert b"internal error" not in result.stderr, line
    assert phone.time_ms() == before
    assert shell.run("screencap -p /sdcard/ok.png").code == 0
    assert shell.run("date +%Y").stdout.strip().isdigit()


def test_regex_is_linear_time(phone: Phone) -> None:
    shell = Shell(phone)
    phone.files.write("/sdcard/a.txt", b"a" * 200_000 + b"\n")
    started = time.monotonic()
    result = shell.run("grep -E '(a*)*b' /sdcard/a.txt; grep -c '\\(a*\\)*b' /sdcard/a.txt")
    assert time.monotonic() - started < 2
    assert result.stdout == b"0\n"
    for bad in ("grep -E '(a)\\1' /sdcard/a.txt", "grep -E '(?=a)' /sdcard/a.txt", "grep '\\(a\\)\\1' /sdcard/a.txt"):
        result = shell.run(bad)
        assert result.code == 2
        assert b"not supported (regexes run on a linear-time engine" in result.stderr, bad
    assert shell.run("grep -E '[' /sdcard/a.txt").code == 2
    phone.files.remove("/sdcard/a.txt")


def test_a_slow_client_does_not_block_others(phone: Phone) -> None:
    srv = serve(phone)
    phone.files.write("/sdcard/big.txt", (b"x" * 5000 + b"\n") * 800)
    try:
        busy = Raw(srv.port)
        busy.open(1, "shell:" + "; ".join(["grep -cE '(x+x+)+y' /sdcard/big.txt"] * 20))
        other = Raw(srv.port)
        started = time.monotonic()
        okay = other.open(1, "shell:echo hi")
        out = b""
        while True:
            msg = other.recv(10)
            if msg.command == proto.A_WRTE:
                out += msg.data
                other.send(proto.A_OKAY, 1, okay.arg0)
            elif msg.command == proto.A_CLSE:
                break
        assert out == b"hi\n" and time.monotonic() - started < 3
        busy.close()
        other.close()
    finally:
        phone.files.remove("/sdcard/big.txt")
        srv.close()


def test_output_per_command_line_is_bounded(phone: Phone) -> None:
    shell = Shell(phone, max_output=100_000)
    phone.files.write("/sdcard/o.txt", b"o" * 60_000)
    result = shell.run("cat /sdcard/o.txt /sdcard/o.txt /sdcard/o.txt; echo after")
    assert result.code == 1 and b"output limit exceeded" in result.stderr
    assert shell.run("echo fine").stdout == b"fine\n"
    phone.files.remove("/sdcard/o.txt")


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="max_streams"):
        Limits(max_streams=0)
