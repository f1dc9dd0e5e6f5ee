"""System tools of the simulated phone, with Android 14's output: ps, pidof, logcat, svc, uname,
df, which/command -v, cut.

Processes are derived from the world document (the launcher, system services and every app in
recents or the foreground); logcat shows the server's log buffer (activity starts, settings
changes, svc calls) with the simulated clock's time stamps.
"""
from __future__ import annotations

import zlib
from collections import deque
from typing import Any

from ...sim.clock import from_ms
from ...sim.nav import LAUNCHER as LAUNCHER_ID
from ...sim.nav import LAUNCHER_PACKAGE
from .common import log_event, package_of, uid_of
from .registry import COMMANDS, CommandError, Invocation, command

PATH_DIRS = ("/system/bin", "/system/xbin", "/bin", "/vendor/bin", "/product/bin", "/system_ext/bin")
LOG_LINES = 2000  # the log buffer keeps this many lines

# (user, pid, ppid, vsz, rss, wchan, name) of the fixed system processes
SYSTEM_PROCS = (
    ("root", 1, 0, 10932140, 11888, "do_epoll_wait", "init"),
    ("root", 2, 0, 0, 0, "kthreadd", "[kthreadd]"),
    ("logd", 285, 1, 10853048, 6912, "__do_sys_rt_sigsuspend", "logd"),
    ("system", 331, 1, 10892044, 3496, "binder_ioctl", "servicemanager"),
    ("root", 420, 1, 14823564, 151256, "do_sys_poll", "zygote64"),
    ("shell", 502, 1, 10859752, 5176, "do_select", "adbd"),
    ("system", 612, 420, 16843280, 341188, "do_epoll_wait", "system_server"),
    ("u0_a108", 1020, 420, 15012092, 186736, "do_epoll_wait", "com.android.systemui"),
)


def pid_of(package: str) -> int:
    """A stable pid for an app's process."""
    return 2000 + zlib.crc32(package.encode()) % 28000


def running_packages(inv: Invocation) -> list[str]:
    """The launcher, then every app in the foreground or in recents."""

    with inv.shell.lock:
        os_state = inv.shell.phone.get_state()["os"]
    apps = [os_state.get("foreground"), *os_state.get("recents", [])]
    seen = [LAUNCHER_PACKAGE]
    for app_id in apps:
        if app_id and app_id != LAUNCHER_ID:
            package = package_of(inv.shell.phone, app_id)
            if package not in seen:
                seen.append(package)
    return seen


def _processes(inv: Invocation) -> list[tuple[str, int, int, int, int, str, str]]:
    procs = list(SYSTEM_PROCS)
    for package in running_packages(inv):
        procs.append((f"u0_a{uid_of(package) - 10000}", pid_of(package), 420, 15200000 + pid_of(package),
                      120000 + pid_of(package) % 50000, "do_epoll_wait", package))
    return sorted(procs, key=lambda p: p[1])


@command("ps")
def ps(inv: Invocation) -> int:
    args = inv.args[1:]
    show_all = any(a in ("-A", "-e", "-ef", "-Af") or a.startswith("-A") for a in args)
    names = [a for a in args if not a.startswith("-")]
    header = "USER           PID  PPID        VSZ    RSS WCHAN            ADDR S NAME                       \n"
    procs = _processes(inv) if show_all or names else []
    shell_pid = 4242
    procs = procs + [("shell", shell_pid, 502, 10868328, 3832, "__do_sys_rt_sigsuspend", "sh"),
                     ("shell", shell_pid + 1, shell_pid, 10895812, 4044, "0", "ps")]
    if names:
        procs = [p for p in procs if p[6] in names or str(p[1]) in names]
    out = [header]
    for user, pid, ppid, vsz, rss, wchan, name in procs:
        state = "R" if name == "ps" else "S"
        out.append(f"{user:<12}{pid:>6}{ppid:>6}{vsz:>11}{rss:>7} {wchan[:16]:<16} 0 {state} {name}\n")
    inv.out("".join(out))
    return 0


@command("pidof")
def pidof(inv: Invocation) -> int:
    names = [a for a in inv.args[1:] if not a.startswith("-")]
    single = "-s" in inv.args[1:]
    pids = [str(p[1]) for p in _processes(inv) if p[6] in names]
    if single:
        pids = pids[:1]
    if pids:
        inv.out(" ".join(pids) + "\n")
    return 0 if pids else 1


# --------------------------------------------------------------------------- logcat


def new_log() -> deque:
    return deque(maxlen=LOG_LINES)


PRIORITIES = "VDIWEFS"


def _logcat_filter(specs: list[str]) -> Any:
    """`TAG:LEVEL` filter specs (``*:S`` silences the rest) -> predicate(tag, priority)."""
    rules: dict[str, str] = {}
    for spec in specs:
        tag, _, level = spec.partition(":")
        level = (level or "V").upper()[:1]
        if level not in PRIORITIES:
            raise CommandError(f"Invalid filter expression '{spec}'")
        rules[tag] = level
    default = rules.pop("*", "V" if not rules else "S" if "*" in specs else "V")

    def keep(tag: str, priority: str) -> bool:
        level = rules.get(tag, default)
        return level != "S" and PRIORITIES.index(priority) >= PRIORITIES.index(level)

    return keep


def _log_line(entry: tuple, fmt: str) -> str:
    ms, pid, tid, priority, tag, message = entry
    moment = from_ms(ms)
    stamp = f"{moment:%m-%d %H:%M:%S}.{ms % 1000:03d}"
    if fmt == "brief":
        return f"{priority}/{tag}({pid:5d}): {message}\n"
    if fmt == "tag":
        return f"{priority}/{tag}: {message}\n"
    if fmt == "raw":
        return message + "\n"
    if fmt == "time":
        return f"{stamp} {priority}/{tag}({pid:5d}): {message}\n"
    if fmt == "epoch":
        return f"{ms // 1000:>10}.{ms % 1000:03d} {pid:5d} {tid:5d} {priority} {tag}: {message}\n"
    return f"{stamp} {pid:5d} {tid:5d} {priority} {tag}: {message}\n"  # threadtime


@command("logcat")
def logcat(inv: Invocation) -> int:
    """`logcat -d` dumps the buffer; without -d it dumps too and ends (the simulated phone logs
    nothing on its own, so following would wait forever)."""
    args, fmt, last, specs, i = inv.args[1:], "threadtime", None, [], 0
    while i < len(args):
        a = args[i]
        if a in ("-c", "--clear"):
            inv.shell.logs.clear()
            return 0
        if a in ("-v", "--format") and i + 1 < len(args):
            fmt = args[i + 1]
            i += 2
        elif a in ("-t", "-T", "-m", "--max-count") and i + 1 < len(args):
            if not args[i + 1].isdigit():
                raise CommandError(f"logcat: invalid count '{args[i + 1]}'")
            last = int(args[i + 1])
            i += 2
        elif a in ("-b", "--buffer", "-f", "--file", "-r", "-n", "--pid", "-e", "--regex") and i + 1 < len(args):
            i += 2
        elif a == "-s":
            specs.append("*:S")
            i += 1
        elif a.startswith("-"):
            i += 1
        else:
            specs.append(a if ":" in a or "*:S" not in specs else a + ":V")
            i += 1
    keep = _logcat_filter(specs)
    entries = [e for e in inv.shell.logs if keep(e[4], e[3])]
    if last is not None:
        entries = entries[-last:] if last else []
    inv.out("--------- beginning of main\n" + "".join(_log_line(e, fmt) for e in entries))
    return 0


# --------------------------------------------------------------------------- svc
def _settings_patch(inv: Invocation, patch: dict[str, Any]) -> None:
    inv.shell.call(inv.shell.phone.set_state, {"apps": {"settings": patch}})


def _switch(value: str, usage: str) -> bool:
    if value in ("enable", "true", "on"):
        return True
    if value in ("disable", "false", "off"):
        return False
    raise CommandError(usage)


SVC_USAGE = """Available commands:
    help     Show information about the subcommands
    power    Control the power manager
    data     Control mobile data connectivity
    wifi     Control the Wi-Fi manager
    bluetooth Control Bluetooth service
"""


@command("svc")
def svc(inv: Invocation) -> int:
    args = inv.args[1:]
    if not args or args[0] == "help":
        inv.out(SVC_USAGE)
        return 0
    what, rest = args[0], args[1:]
    if what in ("wifi", "data", "bluetooth"):
        usage = f"usage: svc {what} [enable|disable]"
        if len(rest) != 1:
            raise CommandError(usage)
        on = _switch(rest[0], usage)
        if what == "data":
            inv.shell.extra_settings[("global", "mobile_data")] = "1" if on else "0"
        else:
            state = inv.shell.call(inv.shell.phone.get_state)["apps"].get("settings")
            if state is None or what not in state:
                raise CommandError(f"svc {what}: the simulated phone has no {what} setting")
            _settings_patch(inv, {what: on})
        log_event(inv.shell, {"wifi": "WifiService", "data": "PhoneInterfaceManager",
                              "bluetooth": "BluetoothManagerService"}[what],
                  f"setEnabled {str(on).lower()} by com.android.shell")
        return 0
    if what == "power":
        if rest[:1] == ["stayon"] and len(rest) == 2 and rest[1] in ("true", "false", "usb", "ac", "wireless"):
            inv.shell.extra_settings[("global", "stay_on_while_plugged_in")] = \
                {"true": "7", "false": "0", "usb": "2", "ac": "1", "wireless": "4"}[rest[1]]
            return 0
        if rest[:1] in (["reboot"], ["shutdown"]):
            raise CommandError("svc power: the simulated phone cannot reboot")
        raise CommandError("usage: svc power stayon [true|false|usb|ac|wireless]")
    inv.err(f"Unknown command: {what}\n" + SVC_USAGE)
    return 1


# --------------------------------------------------------------------------- uname, df, which
UNAME = {"s": "Linux", "n": "localhost", "r": "5.15.137-android14-11-gcc3b1a7d2b8e",
         "v": "#1 SMP PREEMPT Mon Feb  5 00:00:00 UTC 2024", "m": "x86_64", "o": "Toybox"}


@command("uname")
def uname(inv: Invocation) -> int:
    flags = set("".join(a[1:] for a in inv.args[1:] if a.startswith("-")))
    if flags - set("asnrvmpio"):
        raise CommandError(f"uname: Unknown option '{sorted(flags - set('asnrvmpio'))[0]}'")
    if "a" in flags:
        flags = set("snrvmo")
    keys = [k for k in "snrvmo" if k in flags or (k == "m" and flags & {"p", "i"})] or ["s"]
    inv.out(" ".join(UNAME[k] for k in keys) + "\n")
    return 0


def _human(kib: int) -> str:
    for unit, size in (("T", 1 << 30), ("G", 1 << 20), ("M", 1 << 10)):
        if kib >= size:
            value = kib / size
            return f"{value:.1f}{unit}" if value < 10 else f"{round(value)}{unit}"
    return f"{kib}K"


@command("df")
def df(inv: Invocation) -> int:
    flags = set("".join(a[1:] for a in inv.args[1:] if a.startswith("-")))
    operands = [a for a in inv.args[1:] if not a.startswith("-")]
    files = inv.shell.files
    quota = getattr(files, "quota", 128 << 20) // 1024
    used = getattr(files, "used", 0) // 1024
    mounts = [  # (filesystem, size KiB, used KiB, mount point)
        ("/dev/block/dm-5", 6057180, 5930004, "/"),
        ("tmpfs", 1998880, 1392, "/dev"),
        ("/dev/block/dm-37", quota, used, "/data"),
        ("/dev/fuse", quota, used, "/storage/emulated"),
    ]
    if operands:
        from ...sim.vfs import normpath

        picked = []
        for name in operands:
            p = normpath(name, inv.shell.cwd)
            if not files.exists(p):
                inv.err(f"df: {name}: No such file or directory\n")
                continue
            target = "/storage/emulated" if p.startswith("/sdcard") or p.startswith("/storage") else \
                "/data" if p.startswith("/data") else "/dev" if p.startswith("/dev") else "/"
            picked.append(next(m for m in mounts if m[3] == target))
        mounts = picked
    human = "h" in flags
    out = ["Filesystem        Size  Used Avail Use% Mounted on\n" if human else
           "Filesystem       1K-blocks    Used Available Use% Mounted on\n"]
    for fs, size, use, mount in mounts:
        avail = max(0, size - use)
        pct = f"{-(-use * 100 // size) if size else 0}%"
        if human:
            out.append(f"{fs:<17}{_human(size):>5} {_human(use):>5} {_human(avail):>5} {pct:>4} {mount}\n")
        else:
            out.append(f"{fs:<16}{size:>10}{use:>8}{avail:>10} {pct:>4} {mount}\n")
    inv.out("".join(out))
    return 0 if mounts or not operands else 1


def resolve(shell: Any, name: str) -> str | None:
    """The registered command a name or an absolute path in the PATH runs, or None."""
    if "/" not in name:
        return name if name in COMMANDS else None
    folder, _, base = name.rpartition("/")
    return base if folder in PATH_DIRS and base in COMMANDS else None


@command("which")
def which(inv: Invocation) -> int:
    show_all = "-a" in inv.args[1:]
    code = 0
    for name in (a for a in inv.args[1:] if not a.startswith("-")):
        found = resolve(inv.shell, name)
        if found is None or (found == "mobilegym" and not inv.shell.extensions):
            code = 1
            continue
        inv.out(name + "\n" if "/" in name else f"/system/bin/{found}\n")
        if show_all and "/" not in name:
            inv.out(f"/system/xbin/{found}\n" if found in ("su",) else "")
    return code


@command("command")
def command_(inv: Invocation) -> int:
    args = inv.args[1:]
    if args[:1] in (["-v"], ["-V"]):
        code = 0
        for name in args[1:]:
            found = resolve(inv.shell, name)
            if found is None or (found == "mobilegym" and not inv.shell.extensions):
                code = 1
            else:
                inv.out(name + "\n" if "/" in name else f"/system/bin/{found}\n")
        return code
    if not args:
        return 0
    sub = Invocation(inv.shell, args, inv.stdin)
    found = resolve(inv.shell, args[0])
    if found is None:
        raise CommandError(f"/system/bin/sh: {args[0]}: inaccessible or not found", 127)
    code = COMMANDS[found](sub)
    inv.chunks.extend(sub.chunks)
    return code


# --------------------------------------------------------------------------- cut
def _ranges(spec: str) -> list[tuple[int, int]]:
    ranges = []
    for part in spec.split(","):
        lo, dash, hi = part.partition("-")
        try:
            start = int(lo) if lo else 1
            end = (int(hi) if hi else 1 << 31) if dash else start
        except ValueError:
            raise CommandError(f"cut: bad list '{spec}'") from None
        if start < 1 or end < start:
            raise CommandError(f"cut: bad list '{spec}'")
        ranges.append((start, end))
    return ranges


def _pick(items: list[Any], ranges: list[tuple[int, int]]) -> list[Any]:
    return [item for i, item in enumerate(items, 1) if any(lo <= i <= hi for lo, hi in ranges)]


@command("cut")
def cut(inv: Invocation) -> int:
    from .coreutils import inputs

    args, mode, spec, delim, only_delimited, names, i = inv.args[1:], None, "", "\t", False, [], 0
    while i < len(args):
        a = args[i]
        if a[:2] in ("-f", "-c", "-b", "-d") and (len(a) > 2 or i + 1 < len(args)):
            value = a[2:] if len(a) > 2 else args[i + 1]
            i += 1 if len(a) > 2 else 2
            if a[:2] == "-d":
                if len(value) != 1:
                    raise CommandError("cut: the delimiter must be a single character")
                delim = value
            else:
                mode, spec = a[1], value
        elif a == "-s":
            only_delimited = True
            i += 1
        else:
            names.append(a)
            i += 1
    if mode is None:
        raise CommandError("cut: Needs -fcb")
    ranges = _ranges(spec)
    for _, data in inputs(inv, names):
        text = data.decode("utf-8", "replace")
        for line in text.splitlines():
            if mode == "f":
                if delim not in line:
                    if not only_delimited:
                        inv.out(line + "\n")
                    continue
                inv.out(delim.join(_pick(line.split(delim), ranges)) + "\n")
            elif mode == "c":
                inv.out("".join(_pick(list(line), ranges)) + "\n")
            else:
                inv.out(bytes(_pick(list(line.encode()), ranges)) + b"\n")
    return 0
