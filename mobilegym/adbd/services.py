"""Stream services of the simulated adbd: `shell:` (legacy), `shell,v2,...:`, `exec:`, `sync:`, and
`tcp:PORT` for uiautomator2's server while its launch stream is open (:mod:`.u2`).

An empty command (``adb shell`` with no arguments) starts an interactive session: a prompt
and line editing with a PTY, or plain line-by-line execution of a piped script without one.
"""
from __future__ import annotations

import struct
from typing import Callable

from . import u2
from .shell import Shell
from .sync import serve_sync
from .transport import Service, Stream
from ..sim.vfs import VirtualFS

ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW = 0, 1, 2, 3, 4, 5
PROMPT = "mobilegym:{cwd} $ "
MAX_LINE = 64 * 1024


V2_PACKET_MAX = 64 * 1024  # like adbd's pipe reads; keeps clients from buffering huge packets


def _v2_packet(kind: int, data: bytes) -> bytes:
    """Shell protocol v2 framing (1-byte id, 4-byte length), split into bounded packets."""
    if len(data) <= V2_PACKET_MAX:
        return struct.pack("<BI", kind, len(data)) + data
    return b"".join(_v2_packet(kind, data[i:i + V2_PACKET_MAX]) for i in range(0, len(data), V2_PACKET_MAX))


class ShellSession:
    """One shell stream: runs a command, or a whole interactive session."""

    def __init__(self, stream: Stream, shell: Shell, v2: bool, pty: bool) -> None:
        self.stream = stream
        self.shell = shell
        self.v2 = v2
        self.pty = pty
        self._pending = b""

    def emit(self, chunks: list[tuple[int, bytes]]) -> None:
        """Send output: v2 packets keep stdout and stderr apart; otherwise they are merged."""
        out = bytearray()
        for fd, data in chunks:
            if not data:
                continue
            if self.pty:
                data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            out += _v2_packet(fd, data) if self.v2 else data
        if out:
            self.stream.write(bytes(out))

    def finish(self, code: int) -> None:
        if self.v2:
            self.stream.write(_v2_packet(ID_EXIT, bytes([code & 0xFF])))

    def run_command(self, line: str) -> None:
        result = self.shell.run(line)
        self.emit(result.chunks)
        self.finish(result.code)

    def _input(self) -> bytes | None:
        """The next stdin bytes; None at end of input."""
        if not self.v2:
            data = self.stream.read()
            return data or None
        while True:
            if len(self._pending) < 5:
                more = self.stream.read()
                if not more:
                    return None
                self._pending += more
                continue
            kind, size = struct.unpack("<BI", self._pending[:5])
            if len(self._pending) < 5 + size:
                more = self.stream.read()
                if not more:
                    return None
                self._pending += more
                continue
            data, self._pending = self._pending[5:5 + size], self._pending[5 + size:]
            if kind == ID_STDIN:
                return data
            if kind == ID_CLOSE_STDIN:
                return None

    def prompt(self) -> None:
        if self.pty:
            self.stream.write(self._wrap(PROMPT.format(cwd=self.shell.cwd).encode()))

    def _wrap(self, data: bytes) -> bytes:
        return _v2_packet(ID_STDOUT, data) if self.v2 else data

    def interactive(self) -> None:
        """Read lines and run them; in PTY mode echo keystrokes and show a prompt."""
        line = bytearray()
        self.prompt()
        while not self.shell.exited:
            data = self._input()
            if data is None:
                break
            echo = bytearray()
            for byte in data:
                if byte in (0x0D, 0x0A):
                    echo += b"\r\n"
                    if self.pty:
                        self.stream.write(self._wrap(bytes(echo)))
                    echo.clear()
                    self.emit(self.shell.run(line.decode("utf-8", "replace")).chunks)
                    line.clear()
                    if self.shell.exited:
                        break
                    self.prompt()
                elif byte == 0x04 and not line:  # Ctrl-D
                    self.shell.exited = True
                    break
                elif byte == 0x03:  # Ctrl-C
                    line.clear()
                    echo += b"^C\r\n" + PROMPT.format(cwd=self.shell.cwd).encode()
                elif byte in (0x7F, 0x08):
                    if line:
                        line.pop()
                        echo += b"\b \b"
                elif len(line) < MAX_LINE:
                    line.append(byte)
                    echo.append(byte)
            if self.pty and echo:
                self.stream.write(self._wrap(bytes(echo)))
        if line and not self.shell.exited:
            self.emit(self.shell.run(line.decode("utf-8", "replace")).chunks)
        self.finish(self.shell.status)


def make_resolver(new_shell: Callable[[], Shell], files_of: Callable[[], VirtualFS]) -> Callable[[str], Service | None]:
    """Service name -> handler, or None for services this device does not offer."""

    def resolve(name: str) -> Service | None:
        if name.startswith("sync:"):
            return lambda stream: serve_sync(stream, files_of)
        if name.startswith("tcp:"):  # a device port: only uiautomator2's server, while it runs
            port = name[len("tcp:"):]
            shell = new_shell()
            if not port.isdigit() or not u2.running(shell, int(port)):
                return None
            return lambda stream: u2.serve_http(stream, shell)
        launch = u2.launch_port(name.partition(":")[2]) if name.startswith(("exec:", "shell")) else None
        if launch is not None:
            head = name.partition(":")[0]
            v2 = "v2" in head.split(",")[1:]
            return lambda stream: u2.serve_launch(stream, new_shell(), *launch,
                                                  frame=(lambda data: _v2_packet(ID_STDOUT, data)) if v2 else None)
        if name.startswith("exec:"):
            command = name[len("exec:"):]
            return lambda stream: ShellSession(stream, new_shell(), False, False).run_command(command)
        if name.startswith("shell"):
            head, sep, command = name.partition(":")
            if not sep:
                return None
            options = head.split(",")[1:] if "," in head else []
            if head != "shell" and not head.startswith("shell,"):
                return None
            v2 = "v2" in options
            interactive = not command.strip()
            pty = interactive and (not v2 or "raw" not in options)

            def run(stream: Stream) -> None:
                session = ShellSession(stream, new_shell(), v2, pty)
                if interactive:
                    session.interactive()
                else:
                    session.run_command(command)

            return run
        return None

    return resolve
