"""The shell's command registry: ``@command("name")`` registers a function taking an
:class:`Invocation` (arguments, stdin, output buffers) and returning the exit status."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..shell import Shell

SH = "/system/bin/sh"


class CommandError(Exception):
    """A command failed: ``message`` goes to stderr, ``code`` is the exit status."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class OutputLimit(Exception):
    """A command line printed more than its shell allows (``Shell.max_output``)."""


class Invocation:
    """One running command: its arguments, stdin and output buffers."""

    def __init__(self, shell: Shell, args: list[str], stdin: bytes, env: dict[str, str] | None = None) -> None:
        self.shell = shell
        self.args = args
        self.stdin = stdin
        self.env = env or {}  # `NAME=value command`: variables set for this command only
        self.chunks: list[tuple[int, bytes]] = []

    def out(self, data: bytes | str) -> None:
        self._add(1, data.encode() if isinstance(data, str) else data)

    def err(self, data: bytes | str) -> None:
        self._add(2, data.encode() if isinstance(data, str) else data)

    def _add(self, fd: int, data: bytes) -> None:
        shell = self.shell
        shell.output += len(data)
        if shell.output > shell.max_output:
            raise OutputLimit(f"output limit exceeded ({shell.max_output} bytes per command line)")
        self.chunks.append((fd, data))

    @property
    def name(self) -> str:
        return self.args[0]


CommandFn = Callable[[Invocation], int]
COMMANDS: dict[str, CommandFn] = {}


def command(*names: str) -> Callable[[CommandFn], CommandFn]:
    """Register a shell command under one or more names."""

    def register(fn: CommandFn) -> CommandFn:
        for name in names:
            COMMANDS[name] = fn
        return fn

    return register


