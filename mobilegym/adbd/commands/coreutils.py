"""Toybox-like file and text commands over the virtual file system: cat, ls, rm, echo, grep..."""
from __future__ import annotations

import posixpath
import re
import stat as stat_mod
from typing import Any, Iterable

from .common import advance_clock, parse_date, set_clock
from .registry import SH, CommandError, Invocation, command
from ...sim.clock import from_ms
from ...sim.vfs import Node, VfsError, normpath


def split_flags(args: Iterable[str], known: str) -> tuple[set[str], list[str]]:
    """Single-letter flags (bundled like -rf) and the remaining operands."""
    flags: set[str] = set()
    rest: list[str] = []
    only_operands = False
    for a in args:
        if not only_operands and a == "--":
            only_operands = True
        elif not only_operands and a.startswith("-") and len(a) > 1 and all(c in known for c in a[1:]):
            flags.update(a[1:])
        else:
            rest.append(a)
    return flags, rest


def path_of(inv: Invocation, arg: str) -> str:
    return normpath(arg, inv.shell.cwd)


def inputs(inv: Invocation, operands: list[str]) -> list[tuple[str, bytes]]:
    """(name, content) of each file operand, or stdin; missing files are reported."""
    if not operands:
        return [("-", inv.stdin)]
    found = []
    for name in operands:
        try:
            found.append((name, inv.stdin if name == "-" else inv.shell.files.read(path_of(inv, name))))
        except VfsError as exc:
            inv.err(f"{inv.name}: {name}: {exc.strerror}\n")
    return found


@command("cat")
def cat(inv: Invocation) -> int:
    _, operands = split_flags(inv.args[1:], "uv")
    found = inputs(inv, operands)
    for _, data in found:
        inv.out(data)
    return 0 if len(found) == max(1, len(operands)) else 1


@command("echo")
def echo(inv: Invocation) -> int:
    args = inv.args[1:]
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        newline = newline and "n" not in args[0]
        escapes = "e" in args[0] or (escapes and "E" not in args[0])
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    inv.out(text + ("\n" if newline else ""))
    return 0


def _ls_line(name: str, node: Node) -> str:
    kind = "d" if node.is_dir else "-"
    perms = "".join(c if node.mode & (1 << (8 - i)) else "-" for i, c in enumerate("rwxrwxrwx"))
    when = from_ms(node.mtime_ms).strftime("%Y-%m-%d %H:%M")
    return f"{kind}{perms} {2 if node.is_dir else 1} shell shell {node.size:>8} {when} {name}"


def _ls_dir(inv: Invocation, name: str, p: str, flags: set[str]) -> str:
    files = inv.shell.files
    node = files.stat(p)
    entries = files.listdir(p)
    if "a" not in flags:
        entries = [(n, e) for n, e in entries if not n.startswith(".")] if "A" not in flags else entries
    else:
        entries = [(".", node), ("..", files.stat(posixpath.dirname(p)))] + entries
    lines = [_ls_line(n, e) if "l" in flags else n for n, e in entries]
    if "l" in flags:
        lines.insert(0, f"total {len(entries)}")
    return "".join(line + "\n" for line in lines)


@command("ls")
def ls(inv: Invocation) -> int:
    flags, operands = split_flags(inv.args[1:], "laA1dhRstrSFnCc")
    files = inv.shell.files
    code, blocks = 0, []
    targets = operands or ["."]
    for name in targets:
        p = path_of(inv, name)
        try:
            node = files.stat(p)
        except VfsError as exc:
            inv.err(f"ls: {name}: {exc.strerror}\n")
            code = 1
            continue
        if node.is_dir and "d" not in flags:
            if "R" in flags:  # toybox: every directory below, each under a "path:" header
                for sub in files.walk(p):
                    if files.is_dir(sub):
                        shown = name.rstrip("/") + sub[len(p.rstrip("/")):] if sub != p else name
                        blocks.append(f"{shown}:\n" + _ls_dir(inv, shown, sub, flags))
                continue
            header = f"{name}:\n" if len(targets) > 1 else ""
            blocks.append(header + _ls_dir(inv, name, p, flags))
        else:
            blocks.append((_ls_line(name, node) if "l" in flags else name) + "\n")
    inv.out("\n".join(blocks))
    return code


@command("rm")
def rm(inv: Invocation) -> int:
    flags, operands = split_flags(inv.args[1:], "rRfiv")
    if not operands and "f" not in flags:
        raise CommandError("rm: Need 1 argument")
    code = 0
    for name in operands:
        try:
            inv.shell.files.remove(path_of(inv, name), recursive=bool(flags & {"r", "R"}))
        except VfsError as exc:
            if exc.errno == 2 and "f" in flags:
                continue
            inv.err(f"rm: {name}: {exc.strerror}\n")
            code = 1
    return code


@command("mkdir")
def mkdir(inv: Invocation) -> int:
    flags, operands = split_flags(inv.args[1:], "pv")
    if not operands:
        raise CommandError("mkdir: Needs 1 argument")
    code = 0
    for name in operands:
        try:
            inv.shell.files.mkdir(path_of(inv, name), parents="p" in flags)
        except VfsError as exc:
            inv.err(f"mkdir: {name}: {exc.strerror}\n")
            code = 1
    return code


@command("touch")
def touch(inv: Invocation) -> int:
    _, operands = split_flags(inv.args[1:], "acm")
    files = inv.shell.files
    for name in operands:
        p = path_of(inv, name)
        if files.exists(p):
            files.stat(p).mtime_ms = files.clock()
        else:
            files.write(p, b"")
    return 0


@command("cp")
def cp(inv: Invocation) -> int:
    _, operands = split_flags(inv.args[1:], "fprRv")
    if len(operands) != 2:
        raise CommandError("cp: Needs 2 arguments")
    files = inv.shell.files
    src, dst = path_of(inv, operands[0]), path_of(inv, operands[1])
    if files.is_dir(dst):
        dst = posixpath.join(dst, posixpath.basename(src))
    files.write(dst, files.read(src))
    return 0


@command("mv")
def mv(inv: Invocation) -> int:
    _, operands = split_flags(inv.args[1:], "fnv")
    if len(operands) != 2:
        raise CommandError("mv: Needs 2 arguments")
    inv.shell.files.move(path_of(inv, operands[0]), path_of(inv, operands[1]))
    return 0


GREP_FLAGS = "ivcqEFnowHhslrRx"
MAX_PATTERN = 64 * 1024
_UNSUPPORTED = (("(?=", "lookahead"), ("(?!", "lookahead"), ("(?<=", "lookbehind"), ("(?<!", "lookbehind"))


def bre_to_ere(pattern: str) -> str:
    """POSIX basic regex (with the GNU \\| \\+ \\? extensions toybox accepts) -> extended syntax:
    escaped ( ) { } | + ? become operators, bare ones literals."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "(){}|+?" else c + nxt)
            i += 2
        elif c == "[":  # a bracket expression is copied as is
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j = pattern.index(":]", j + 2) + 2 if pattern.startswith("[:", j) and ":]" in pattern[j + 2:] else j + 1
            out.append(pattern[i:j + 1])
            i = j + 1
        elif c in "(){}|+?":
            out.append("\\" + c)
            i += 1
        elif c == "*" and (not out or out[-1] in ("(", "|", "^")):
            out.append("\\*")  # a leading * is literal in a BRE
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def compile_regex(pattern: str, *, ignore_case: bool = False, what: str = "grep") -> Any:
    """A linear-time (RE2) regex: untrusted patterns cannot backtrack catastrophically.

    Features RE2 lacks (backreferences, lookaround) fail with a CommandError naming them."""
    import re2

    if len(pattern) > MAX_PATTERN:
        raise CommandError(f"{what}: pattern too long ({len(pattern)} bytes, at most {MAX_PATTERN})", 2)
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = not ignore_case
    options.max_mem = 16 << 20
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        lacking = next((name for token, name in _UNSUPPORTED if token in pattern), None)
        if lacking is None and re.search(r"\\[1-9]", pattern):
            lacking = "backreferences"
        if lacking:
            reason = f"{lacking} are not supported (regexes run on a linear-time engine, RE2)"
        raise CommandError(f"{what}: bad regex '{pattern}': {reason}", 2) from None


def _grep_sources(inv: Invocation, names: list[str], recursive: bool) -> list[tuple[str, bytes]]:
    if not recursive:
        return inputs(inv, names)
    found: list[tuple[str, bytes]] = []
    files = inv.shell.files
    for name in names or ["."]:
        p = path_of(inv, name)
        if not files.is_dir(p):
            found += inputs(inv, [name])
            continue
        for sub in files.walk(p):
            if not files.is_dir(sub):
                shown = name.rstrip("/") + sub[len(p.rstrip("/")):] if name != "." else "." + sub[len(p.rstrip("/")):]
                found.append((shown, files.read(sub)))
    return found


@command("grep", "egrep", "fgrep")
def grep(inv: Invocation) -> int:
    args, patterns, i = inv.args[1:], [], 0
    rest: list[str] = []
    while i < len(args):  # -e PATTERN (repeatable) and -f are taken out first
        if args[i] == "-e" and i + 1 < len(args):
            patterns.append(args[i + 1])
            i += 2
        else:
            rest.append(args[i])
            i += 1
    flags, operands = split_flags(rest, GREP_FLAGS)
    flags |= {"E"} if inv.name == "egrep" else {"F"} if inv.name == "fgrep" else set()
    if not patterns:
        if not operands:
            raise CommandError("usage: grep [-EFivcqnowHhslrx] [-e PATTERN] PATTERN [FILE...]", 2)
        patterns, operands = [operands[0]], operands[1:]
    names = operands
    parts = []
    for pattern in patterns:
        if "F" in flags:
            import re2

            pattern = re2.escape(pattern)
        elif "E" not in flags:
            pattern = bre_to_ere(pattern)
        parts.append(pattern)
    pattern = parts[0] if len(parts) == 1 else "|".join(f"(?:{p})" for p in parts)
    if "w" in flags:
        pattern = rf"\b(?:{pattern})\b"
    if "x" in flags:
        pattern = rf"^(?:{pattern})$"
    regex = compile_regex(pattern, ignore_case="i" in flags)
    matched = 0
    sources = _grep_sources(inv, names, bool(flags & {"r", "R"}))
    many = len(names) > 1 or bool(flags & {"r", "R"})
    for name, data in sources:
        prefix = f"{name}:" if (many or "H" in flags) and "h" not in flags else ""
        count = 0
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            hit = regex.search(line)
            if bool(hit) == ("v" in flags):
                continue
            count += 1
            if "q" in flags:
                return 0
            if "c" in flags or "l" in flags:
                continue
            num = f"{number}:" if "n" in flags else ""
            if "o" in flags and hit:
                for m in regex.finditer(line):
                    if m.group(0):
                        inv.out(f"{prefix}{num}{m.group(0)}\n")
            else:
                inv.out(f"{prefix}{num}{line}\n")
        if "c" in flags:
            inv.out(f"{prefix}{count}\n")
        if "l" in flags and count:
            inv.out(f"{name}\n")
        matched += count
    if len(sources) < max(1, len(names)) and not flags & {"r", "R"}:
        return 2
    return 0 if matched else 1


def _count_arg(inv: Invocation, default: int) -> tuple[int, bool, list[str]]:
    """(count, count bytes instead of lines, file operands) for head/tail."""
    args, n, in_bytes, rest = inv.args[1:], default, False, []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-n", "-c") and i + 1 < len(args):
            value = args[i + 1]
            in_bytes, i = a == "-c", i + 2
        elif re.fullmatch(r"-[nc]?\d+", a):
            value, in_bytes, i = a.lstrip("-nc"), a.startswith("-c"), i + 1
        else:
            rest.append(a)
            i += 1
            continue
        if not value.lstrip("+").isdigit():
            raise CommandError(f"{inv.name}: invalid number '{value}'")
        n = int(value.lstrip("+"))
    return n, in_bytes, rest


@command("head")
def head(inv: Invocation) -> int:
    n, in_bytes, names = _count_arg(inv, 10)
    for _, data in inputs(inv, names):
        inv.out(data[:n] if in_bytes else b"".join(data.splitlines(keepends=True)[:n]))
    return 0


@command("tail")
def tail(inv: Invocation) -> int:
    n, in_bytes, names = _count_arg(inv, 10)
    for _, data in inputs(inv, names):
        parts = data if in_bytes else data.splitlines(keepends=True)
        inv.out(b"".join([bytes(parts[-n:])] if in_bytes else parts[-n:]) if n else b"")
    return 0


@command("wc")
def wc(inv: Invocation) -> int:
    flags, names = split_flags(inv.args[1:], "lwcm")
    for name, data in inputs(inv, names):
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data), "m": len(data)}
        shown = [str(counts[f]) for f in "lwcm" if f in flags] or [str(counts[f]) for f in "lwc"]
        inv.out(" ".join(shown) + ("" if name == "-" else f" {name}") + "\n")
    return 0


def format_date(ms: int, fmt: str) -> str:
    """strftime with the toybox extras %s, %N and %3N; the phone's clock is in UTC."""
    moment = from_ms(ms)
    out, i = [], 0
    while i < len(fmt):
        m = re.match(r"%(\d?)([a-zA-Z%])", fmt[i:])
        if fmt[i] != "%" or m is None:
            out.append(fmt[i])
            i += 1
            continue
        width, code = m.group(1), m.group(2)
        if code == "s":
            out.append(str(ms // 1000))
        elif code == "N":
            out.append(f"{(ms % 1000) * 1_000_000:09d}"[: int(width) if width else 9])
        elif code == "Z":
            out.append("UTC")
        elif code == "z":
            out.append("+0000")
        else:
            out.append(moment.strftime(f"%{code}"))
        i += len(m.group(0))
    return "".join(out)


@command("date")
def date(inv: Invocation) -> int:
    args = inv.args[1:]
    setting = [a for a in args if not a.startswith("+") and a not in ("-u", "-s")]
    if setting:  # `date MMDDhhmm[[CC]YY][.ss]`, `date -s 'YYYY-MM-DD hh:mm:ss'`: the clock moves forward only

        if len(setting) > 1 and "-s" not in args:
            raise CommandError(f"date: extra operand '{setting[1]}'")
        with inv.shell.lock:
            set_clock(inv, parse_date(" ".join(setting), inv.shell.phone.time_ms()), "date")
    fmt = next((a[1:] for a in args if a.startswith("+")), "%a %b %e %H:%M:%S %Z %Y")
    with inv.shell.lock:
        ms = inv.shell.phone.time_ms()
    inv.out(format_date(ms, fmt) + "\n")
    return 0


@command("sleep")
def sleep(inv: Invocation) -> int:
    """Advances the phone's simulated clock (it never blocks the host)."""
    if len(inv.args) != 2:
        raise CommandError("sleep: Needs 1 argument")
    try:
        seconds = float(inv.args[1].rstrip("s"))
    except ValueError:
        raise CommandError(f"sleep: invalid number '{inv.args[1]}'") from None
    advance_clock(inv, seconds, "sleep")
    return 0


@command("true")
def true(inv: Invocation) -> int:
    return 0


@command("false")
def false(inv: Invocation) -> int:
    return 1


@command("exit")
def exit_(inv: Invocation) -> int:
    inv.shell.exited = True
    try:
        return int(inv.args[1]) & 0xFF if len(inv.args) > 1 else inv.shell.status
    except ValueError:
        raise CommandError(f"{SH}: exit: bad number: {inv.args[1]}", 2) from None


@command("id")
def id_(inv: Invocation) -> int:
    inv.out("uid=2000(shell) gid=2000(shell) groups=2000(shell),1007(log),1015(sdcard_rw) context=u:r:shell:s0\n")
    return 0


@command("whoami")
def whoami(inv: Invocation) -> int:
    inv.out("shell\n")
    return 0


@command("pwd")
def pwd(inv: Invocation) -> int:
    inv.out(inv.shell.cwd + "\n")
    return 0


@command("cd")
def cd(inv: Invocation) -> int:
    target = path_of(inv, inv.args[1] if len(inv.args) > 1 else "/")
    if not inv.shell.files.is_dir(target):
        raise CommandError(f"{SH}: cd: {inv.args[1]}: No such file or directory", 2)
    inv.shell.cwd = target
    return 0


@command("sh")
def sh(inv: Invocation) -> int:
    if len(inv.args) < 3 or inv.args[1] != "-c":
        raise CommandError("sh: only `sh -c COMMAND` is supported", 2)
    result = inv.shell.run(inv.args[2], inv.stdin)
    inv.chunks.extend(result.chunks)
    return result.code


@command("test", "[")
def test(inv: Invocation) -> int:
    args = inv.args[1:]
    if inv.name == "[":
        if not args or args[-1] != "]":
            raise CommandError("[: missing ]", 2)
        args = args[:-1]
    negate = bool(args) and args[0] == "!"
    args = args[1:] if negate else args
    files = inv.shell.files
    if not args:
        ok = False
    elif len(args) == 1:
        ok = args[0] != ""
    elif len(args) == 2:
        op, value = args
        checks = {
            "-e": lambda: files.exists(path_of(inv, value)),
            "-f": lambda: files.exists(path_of(inv, value)) and not files.is_dir(path_of(inv, value)),
            "-d": lambda: files.is_dir(path_of(inv, value)),
            "-s": lambda: files.exists(path_of(inv, value)) and files.stat(path_of(inv, value)).size > 0,
            "-z": lambda: value == "",
            "-n": lambda: value != "",
        }
        if op not in checks:
            raise CommandError(f"test: unknown operator {op}", 2)
        ok = checks[op]()
    elif len(args) == 3:
        a, op, b = args
        if op in ("=", "=="):
            ok = a == b
        elif op == "!=":
            ok = a != b
        elif op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            try:
                x, y = int(a), int(b)
            except ValueError:
                raise CommandError(f"test: integer expected: {a} {b}", 2) from None
            ok = {"-eq": x == y, "-ne": x != y, "-lt": x < y, "-le": x <= y, "-gt": x > y, "-ge": x >= y}[op]
        else:
            raise CommandError(f"test: unknown operator {op}", 2)
    else:
        raise CommandError("test: too many arguments", 2)
    return 0 if ok != negate else 1


@command("stat")
def stat(inv: Invocation) -> int:
    _, operands = split_flags(inv.args[1:], "L")
    code = 0
    for name in operands:
        try:
            node = inv.shell.files.stat(path_of(inv, name))
        except VfsError as exc:
            inv.err(f"stat: {name}: {exc.strerror}\n")
            code = 1
            continue
        kind = "directory" if node.is_dir else "regular file"
        inv.out(f"  File: {name}\n  Size: {node.size}\t{kind}\n"
                f"Access: ({node.mode & 0o7777:04o}/{stat_mod.filemode(node.st_mode)})\n")
    return code


@command("md5sum")
def md5sum(inv: Invocation) -> int:
    """``HASH  NAME`` per file (stdin without operands), as toybox prints it."""
    import hashlib

    operands = [a for a in inv.args[1:] if not a.startswith("-") or a == "-"]
    found = inputs(inv, operands)
    for name, data in found:
        inv.out(f"{hashlib.md5(data).hexdigest()}  {name}\n")
    return 1 if len(found) < max(1, len(operands)) else 0


@command("toybox")
def toybox(inv: Invocation) -> int:
    """``toybox COMMAND ARGS``: the command itself (every command here is a toybox one or stands in for it)."""
    from .registry import COMMANDS

    if len(inv.args) < 2 or inv.args[1] not in COMMANDS or inv.args[1] == "mobilegym":
        raise CommandError(f"toybox: Unknown command {inv.args[1] if len(inv.args) > 1 else ''}".rstrip())
    sub = Invocation(inv.shell, inv.args[1:], inv.stdin, inv.env)
    code = COMMANDS[inv.args[1]](sub)
    inv.chunks.extend(sub.chunks)
    return code
