"""A tiny POSIX-ish shell for the simulated phone: quoting, $VARS, `;` `&&` `||` `|`,
redirections (`>`, `>>`, `<`, `2>`, `2>&1`) and globs over the virtual file system.

Commands live in a registry (name -> function): :mod:`mobilegym.adbd.commands`.
"""
from __future__ import annotations

import logging
import re
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ..sim.vfs import VfsError, VirtualFS, normpath
from . import commands as _commands  # noqa: F401  (registers every command)
from .commands.registry import COMMANDS, SH, CommandError, Invocation, OutputLimit
from .commands.system import new_log, resolve

MAX_OUTPUT = 256 * 1024 * 1024  # bytes one command line may print (pipes included)

log = logging.getLogger(__name__)
OPERATORS = ("2>&1", ">&2", "2>>", "&&", "||", ">>", "2>", "1>", ";", "|", "&", ">", "<", "\n")
SEPARATORS = {";", "&&", "||", "&", "\n"}
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
REDIRECTS = {">", ">>", "1>", "2>", "2>>", "<"}


class ShellSyntaxError(ValueError):
    """The command line cannot be parsed."""


# --------------------------------------------------------------------------- parsing
Segment = tuple[str, str, bool]  # (kind "lit"|"var", text, quoted)


@dataclass
class Word:
    segments: list[Segment] = field(default_factory=list)

    def add(self, kind: str, text: str, quoted: bool) -> None:
        last = self.segments[-1] if self.segments else None
        if kind == "lit" and last is not None and last[0] == "lit" and last[2] == quoted:
            self.segments[-1] = ("lit", last[1] + text, quoted)
        else:
            self.segments.append((kind, text, quoted))


@dataclass
class Command:
    words: list[Word] = field(default_factory=list)
    redirects: list[tuple[str, Word | None]] = field(default_factory=list)


Pipeline = list[Command]


def _read_var(line: str, i: int) -> tuple[str, int]:
    """The variable name after a '$' at ``line[i]``, and the index after it."""
    j = i + 1
    if j < len(line) and line[j] == "{":
        end = line.find("}", j)
        if end < 0:
            raise ShellSyntaxError("bad substitution: missing '}'")
        return line[j + 1:end], end + 1
    if j < len(line) and line[j] in "?$#0123456789":
        return line[j], j + 1
    while j < len(line) and (line[j].isalnum() or line[j] == "_"):
        j += 1
    return line[i + 1:j], j


def tokenize(line: str) -> list[Word | str]:
    """Words and operator strings."""
    tokens: list[Word | str] = []
    word: Word | None = None
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if word is None and c in " \t\r":
            i += 1
            continue
        if word is None and c == "#":
            while i < n and line[i] != "\n":
                i += 1
            continue
        op = next((o for o in OPERATORS if line.startswith(o, i)), None)
        if op is not None and not (op[0] in "12" and word is not None):
            if word is not None:
                tokens.append(word)
                word = None
            tokens.append(";" if op == "\n" else op)
            i += len(op)
            continue
        if c in " \t\r":
            tokens.append(word)  # type: ignore[arg-type]
            word = None
            i += 1
            continue
        word = word or Word()
        if c == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated quoted string")
            word.add("lit", line[i + 1:end], True)
            i = end + 1
        elif c == '"':
            i += 1
            buf = ""
            while True:
                if i >= n:
                    raise ShellSyntaxError("unterminated quoted string")
                ch = line[i]
                if ch == '"':
                    i += 1
                    break
                if ch == "\\" and i + 1 < n and line[i + 1] in '"\\$`\n':
                    buf += line[i + 1]
                    i += 2
                elif ch == "`" or line.startswith("$(", i):
                    raise ShellSyntaxError("command substitution is not supported")
                elif ch == "$" and i + 1 < n and (line[i + 1].isalnum() or line[i + 1] in "_?{$#"):
                    word.add("lit", buf, True)
                    buf = ""
                    name, i = _read_var(line, i)
                    word.add("var", name, True)
                else:
                    buf += ch
                    i += 1
            word.add("lit", buf, True)
        elif c == "\\":
            if i + 1 < n:
                word.add("lit", line[i + 1], True)
            i += 2
        elif c == "`" or line.startswith("$(", i):
            raise ShellSyntaxError("command substitution is not supported")
        elif c == "$" and i + 1 < n and (line[i + 1].isalnum() or line[i + 1] in "_?{$#"):
            name, i = _read_var(line, i)
            word.add("var", name, False)
        else:
            word.add("lit", c, False)
            i += 1
    if word is not None:
        tokens.append(word)
    return tokens


def parse(line: str) -> list[tuple[str, Pipeline]]:
    """[(separator that precedes the pipeline, pipeline)]; the first separator is ';'."""
    result: list[tuple[str, Pipeline]] = []
    sep, pipeline, cmd = ";", [], Command()
    tokens = tokenize(line)
    i = 0

    def finish_cmd() -> None:
        nonlocal cmd
        if not cmd.words and not cmd.redirects:
            raise ShellSyntaxError("syntax error: unexpected operator")
        pipeline.append(cmd)
        cmd = Command()

    while i < len(tokens):
        tok = tokens[i]
        if isinstance(tok, Word):
            cmd.words.append(tok)
        elif tok in REDIRECTS:
            target = tokens[i + 1] if i + 1 < len(tokens) else None
            if not isinstance(target, Word):
                raise ShellSyntaxError(f"syntax error: missing file name after {tok!r}")
            cmd.redirects.append((tok, target))
            i += 1
        elif tok in ("2>&1", ">&2"):
            cmd.redirects.append((tok, None))
        elif tok == "|":
            finish_cmd()
        else:  # a separator
            if cmd.words or cmd.redirects:
                finish_cmd()
            if pipeline:
                result.append((sep, pipeline))
            elif tok in ("&&", "||"):
                raise ShellSyntaxError(f"syntax error: unexpected {tok!r}")
            sep, pipeline = tok, []
        i += 1
    if cmd.words or cmd.redirects:
        finish_cmd()
    elif tokens and tokens[-1] == "|":
        raise ShellSyntaxError("syntax error: unexpected end of file")
    if pipeline:
        result.append((sep, pipeline))
    return result


# --------------------------------------------------------------------------- execution
@dataclass
class ShellResult:
    """What a command line printed (in order, tagged 1=stdout / 2=stderr) and its exit status."""

    chunks: list[tuple[int, bytes]]
    code: int

    @property
    def stdout(self) -> bytes:
        return b"".join(d for fd, d in self.chunks if fd == 1)

    @property
    def stderr(self) -> bytes:
        return b"".join(d for fd, d in self.chunks if fd == 2)

    @property
    def output(self) -> bytes:
        return b"".join(d for _, d in self.chunks)


class Shell:
    """Runs command lines against a phone; phone calls go through ``lock``.

    ``phone`` needs the Device protocol plus ``apps`` (id -> app with .package, .label)
    and ``files`` (a VirtualFS, looked up on every use since a reset replaces it); for a
    phone without ``files`` the ``files`` argument (or a private VirtualFS) is used.
    ``props`` override system properties; ``settings`` holds Android settings that are not
    mapped onto app state (share both between the shells of one server). Without
    ``extensions`` the `mobilegym` command is hidden and the phone looks like a stock one.
    """

    def __init__(self, phone: Any, *, lock: threading.RLock | None = None,
                 props: dict[str, str] | None = None, settings: dict[tuple[str, str], str] | None = None,
                 files: VirtualFS | None = None, extensions: bool = True, logs: deque | None = None,
                 max_output: int = MAX_OUTPUT, services: dict[str, Any] | None = None) -> None:
        self.phone = phone
        # what the phone's system services hold beside the world document (the clipboard, the display
        # size override); shared between the shells of one server
        self.services = services if services is not None else {}
        self.logs = logs if logs is not None else new_log()
        self.max_output = max_output
        self.output = 0  # bytes printed by the command line that is running
        self.lock = lock or threading.RLock()
        self.props = props if props is not None else {}
        self.extra_settings = settings if settings is not None else {}
        self._own_files = files
        self.extensions = extensions
        self.env = {"PATH": "/system/bin:/system/xbin", "HOME": "/", "EXTERNAL_STORAGE": "/sdcard",
                    "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system", "USER": "shell",
                    "TMPDIR": "/data/local/tmp", "SHELL": SH}
        self.status = 0
        self.cwd = "/"
        self.exited = False

    def __getstate__(self) -> dict[str, Any]:  # a lock cannot be pickled: a copy gets its own
        state = dict(self.__dict__)
        state["lock"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.lock = threading.RLock()

    @property
    def files(self) -> VirtualFS:
        found = getattr(self.phone, "files", None) or self._own_files
        if found is None:
            found = self._own_files = VirtualFS(clock=self.phone.time_ms)
        return found

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call into the phone under the lock; its ValueErrors become command errors."""
        with self.lock:
            try:
                return fn(*args)
            except ValueError as exc:
                raise CommandError(f"Error: {exc}") from None

    def run(self, line: str, stdin: bytes = b"") -> ShellResult:
        """Execute a whole command line."""
        try:
            program = parse(line)
        except ShellSyntaxError as exc:
            self.status = 2
            return ShellResult([(2, f"{SH}: {exc}\n".encode())], 2)
        chunks: list[tuple[int, bytes]] = []
        nested = self.output > 0  # `sh -c` inside a running line shares its output budget
        if not nested:
            self.output = 0
        for sep, pipeline in program:
            if self.exited:
                break
            if (sep == "&&" and self.status != 0) or (sep == "||" and self.status == 0):
                continue
            try:
                self.status = self._pipeline(pipeline, stdin, chunks)
            except OutputLimit as exc:
                chunks.append((2, f"{SH}: {exc}\n".encode()))
                self.status = 1
                break
            finally:
                if not nested:
                    self.output = 0
            stdin = b""
        return ShellResult(chunks, self.status)

    # ------------------------------------------------------------------ internals
    def _expand(self, word: Word) -> list[str]:
        text, pattern, has_glob = "", "", False
        for kind, value, quoted in word.segments:
            if kind == "var":
                value = str(self.status) if value == "?" else self.env.get(value, "")
            text += value
            if not quoted and kind == "lit" and any(c in value for c in "*?["):
                has_glob = True
                pattern += value
            else:
                pattern += value.replace("[", "[[]").replace("*", "[*]").replace("?", "[?]")
        if has_glob:
            matches = self.files.glob(pattern if pattern.startswith("/") else normpath(pattern, self.cwd))
            if matches:
                return matches
        if not text and all(kind == "var" and not q for kind, _, q in word.segments):
            return []
        return [text]

    def _pipeline(self, pipeline: Pipeline, stdin: bytes, chunks: list[tuple[int, bytes]]) -> int:
        code = 0
        for index, cmd in enumerate(pipeline):
            last = index == len(pipeline) - 1
            code, out = self._command(cmd, stdin, chunks, capture=not last)
            stdin = out
        return code

    def _command(self, cmd: Command, stdin: bytes, chunks: list[tuple[int, bytes]],
                 capture: bool) -> tuple[int, bytes]:
        """Run one simple command; returns (status, stdout if captured for a pipe)."""
        args = [a for w in cmd.words for a in self._expand(w)]
        assigned: dict[str, str] = {}
        while args and ASSIGNMENT.match(args[0]):
            name, _, value = args.pop(0).partition("=")
            assigned[name] = value
        if assigned and not args:  # `VAR=value` alone sets a shell variable
            self.env.update(assigned)
            return 0, b""
        out_target: tuple[str, bool] | None = None  # (path, append)
        err_target: tuple[str, bool] | None = None
        err_to_out = out_to_err = False
        try:
            for op, target in cmd.redirects:
                path = (self._expand(target) or [""])[0] if target is not None else ""
                if op == "<":
                    stdin = b"" if path == "/dev/null" else self.files.read(normpath(path, self.cwd))
                elif op in (">", ">>", "1>"):
                    out_target = (path, op == ">>")
                elif op in ("2>", "2>>"):
                    err_target = (path, op == "2>>")
                elif op == "2>&1":
                    err_to_out = True
                elif op == ">&2":
                    out_to_err = True
        except VfsError as exc:
            chunks.append((2, f"{SH}: {exc.filename}: {exc.strerror}\n".encode()))
            return 1, b""
        if not args:
            return 0, b""
        inv = Invocation(self, args, stdin, assigned)
        name = resolve(self, args[0])  # a name, or its path in the PATH (/system/bin/input)
        fn = COMMANDS.get(name) if name and (self.extensions or name != "mobilegym") else None
        if fn is None:
            inv.err(f"{SH}: {args[0]}: inaccessible or not found\n")
            code = 127
        else:
            try:
                code = fn(inv)
            except CommandError as exc:
                inv.err(exc.message if exc.message.endswith("\n") else exc.message + "\n")
                code = exc.code
            except VfsError as exc:
                inv.err(f"{args[0]}: {exc.filename}: {exc.strerror}\n")
                code = 1
            except OutputLimit:
                raise
            except Exception as exc:  # a bug in a command must not kill the server
                log.exception("shell command %r failed", args)
                inv.err(f"{args[0]}: internal error: {exc!r}\n")
                code = 1
        out_buf, err_buf, passed = bytearray(), bytearray(), []
        for fd, data in inv.chunks:
            if fd == 1 and out_to_err:
                fd = 2
            elif fd == 2 and err_to_out:
                fd = 1
            if fd == 1 and (out_target or capture):
                out_buf += data
            elif fd == 2 and err_target:
                err_buf += data
            else:
                passed.append((fd, data))
        try:
            for target, buf in ((out_target, out_buf), (err_target, err_buf)):
                if target is not None and target[0] not in ("/dev/null", "/dev/tty", "/dev/stdout"):
                    self.files.write(normpath(target[0], self.cwd), bytes(buf), append=target[1])
                elif target is not None and target[0] != "/dev/null":
                    passed.append((1, bytes(buf)))
        except VfsError as exc:
            passed.append((2, f"{SH}: {exc.filename}: {exc.strerror}\n".encode()))
            code = 1
        chunks.extend(passed)
        return code, bytes(out_buf) if capture and out_target is None else b""
