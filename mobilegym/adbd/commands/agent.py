"""What agent runtimes call beside `input` and `uiautomator`: ADBKeyboard broadcasts, `ime`,
`getevent`, `screenrecord`, `cmd clipboard|notification|alarm`, `wm size WxH`, setting the date
and `app_process` (refused: the phone runs no Android runtime; uiautomator2's launch line is answered by
:mod:`mobilegym.adbd.u2` before it reaches the shell).

Each either does on the simulated phone what it does on Android or fails with a message that
says why; none reports a success it did not have.
"""
from __future__ import annotations

import base64
import binascii
import re
from typing import Any
from urllib.parse import unquote

from .common import set_clock
from .registry import COMMANDS, CommandError, Invocation, command
from ...sim import notifications

ADB_KEYBOARD = "com.android.adbkeyboard"
ADB_IME = f"{ADB_KEYBOARD}/.AdbIME"
SIM_IME = "com.mobilegym.ime/.SimpleIME"
IMES = {SIM_IME: "com.mobilegym.ime.SimpleIME", ADB_IME: "com.android.adbkeyboard.AdbIME"}
IME_SETTING = ("secure", "default_input_method")
ENABLED_SETTING = ("secure", "enabled_input_methods")
DEFAULT_ENABLED = f"{SIM_IME}:{ADB_IME}"
EDITOR_ACTIONS = {2, 3, 4, 5, 6}  # IME_ACTION_GO, SEARCH, SEND, NEXT, DONE: the field's enter action
KEYBOARD_ACTIONS = ("ADB_INPUT_TEXT", "ADB_INPUT_B64", "ADB_INPUT_CHARS", "ADB_CLEAR_TEXT", "ADB_INPUT_CODE",
                    "ADB_EDITOR_CODE", "ADB_INPUT_MCODE")
NOTIFY_USAGE = "usage: cmd notification post [-t TITLE] [-S STYLE] [-i ICON] [-c INTENT] TAG TEXT"
SHELL_SENDER = "Shell"  # what the shade shows as the sender of `cmd notification post`


# --------------------------------------------------------------------------- intent extras
def intent_extras(args: list[str]) -> tuple[dict[str, str], dict[str, Any]]:
    """(-a/-n/-d/-c/-p options, --es/--ei/--ez/--el/--ef extras) of an `am` command line."""
    options: dict[str, str] = {}
    extras: dict[str, Any] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--es", "-e", "--ei", "--ez", "--el", "--ef", "--eu", "--esa", "--eia") and i + 2 < len(args):
            key, value = args[i + 1], args[i + 2]
            if a in ("--ei", "--el"):
                try:
                    extras[key] = int(value)
                except ValueError:
                    raise CommandError(f"Error: {a} {key} needs an integer, got {value!r}") from None
            elif a == "--ez":
                extras[key] = value.lower() in ("true", "1")
            else:
                extras[key] = value
            i += 3
        elif a in ("-a", "-n", "-d", "-c", "-t", "-p", "-f", "--user", "--display") and i + 1 < len(args):
            options[a] = args[i + 1]
            i += 2
        else:
            i += 1
    return options, extras


def _input_method(inv: Invocation) -> str:
    from .settings import get

    return get({}, inv.shell.extra_settings, *IME_SETTING)


def _enabled(inv: Invocation) -> list[str]:
    found = inv.shell.extra_settings.get(ENABLED_SETTING, DEFAULT_ENABLED)
    return [ime for ime in found.split(":") if ime]


# --------------------------------------------------------------------------- ADBKeyboard
def broadcast(inv: Invocation, args: list[str]) -> int:
    """`am broadcast ...`: ADBKeyboard's actions type into the focused field; others are delivered to no one."""
    options, extras = intent_extras(args)
    action = options.get("-a")
    shown = f"act={action} " if action else ""
    inv.out(f"Broadcasting: Intent {{ {shown}flg=0x400000{' (has extras)' if extras else ''} }}\n")
    if action not in KEYBOARD_ACTIONS:
        inv.out("Broadcast completed: result=0\n")
        return 0
    if _input_method(inv) != ADB_IME:
        raise CommandError(f"ADBKeyboard: nothing received {action}: ADBKeyboard is not the current input method "
                           f"(select it with `ime set {ADB_IME}`)")
    shell, phone = inv.shell, inv.shell.phone
    if action in ("ADB_INPUT_CODE", "ADB_EDITOR_CODE"):
        code = extras.get("code")
        if not isinstance(code, int):
            raise CommandError(f"ADBKeyboard: {action} needs --ei code N")
        if action == "ADB_EDITOR_CODE":
            if code not in EDITOR_ACTIONS:
                raise CommandError(f"ADBKeyboard: editor action {code} is not supported (2-6: go, search, send, "
                                   "next, done)")
            shell.call(phone.key, "enter")
        else:
            sub = Invocation(shell, ["input", "keyevent", str(code)], b"")
            COMMANDS["input"](sub)
        inv.out("Broadcast completed: result=0\n")
        return 0
    if action == "ADB_CLEAR_TEXT":
        text, clear = "", True
    else:
        text, clear = _keyboard_text(action, extras), False
    typed = shell.call(phone.type_text, text, clear)
    if typed is False:
        raise CommandError(f"ADBKeyboard: no text field has focus, so {action} typed nothing (tap a field first)")
    inv.out("Broadcast completed: result=0\n")
    return 0


def _keyboard_text(action: str, extras: dict[str, Any]) -> str:
    if action == "ADB_INPUT_MCODE":
        raise CommandError("ADBKeyboard: ADB_INPUT_MCODE (meta key codes) is not supported by the simulated phone")
    if action == "ADB_INPUT_CHARS":
        raw = str(extras.get("chars", ""))
        try:
            return "".join(chr(int(c)) for c in raw.split(",") if c.strip())
        except (ValueError, OverflowError):
            raise CommandError(f"ADBKeyboard: --eia chars must be code points, got {raw!r}") from None
    msg = extras.get("msg")
    if not isinstance(msg, str):
        raise CommandError(f"ADBKeyboard: {action} needs --es msg TEXT")
    if action == "ADB_INPUT_TEXT":
        return msg
    try:
        return base64.b64decode(msg, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise CommandError("ADBKeyboard: ADB_INPUT_B64 msg is not base64 of UTF-8 text") from None


# --------------------------------------------------------------------------- ime
@command("ime")
def ime(inv: Invocation) -> int:
    args = inv.args[1:]
    extra = inv.shell.extra_settings
    verb = args[0] if args else ""
    if verb == "list":
        shown = IMES if "-a" in args else {i: IMES.get(i, i) for i in _enabled(inv)}
        for ime_id, service in shown.items():
            if "-s" in args:
                inv.out(ime_id + "\n")
            else:
                package = ime_id.partition("/")[0]
                inv.out(f"{ime_id}:\n  mId={ime_id} mSettingsActivityName=null\n  Service:\n    ServiceInfo:\n"
                        f"      name={service}\n      packageName={package}\n      enabled=true exported=true\n")
        return 0
    if verb in ("enable", "disable", "set") and len(args) == 2:
        ime_id = args[1]
        if ime_id not in IMES:
            raise CommandError(f"Unknown input method {ime_id} cannot be {verb + 'd' if verb != 'set' else 'selected'}"
                               " for user #0")
        enabled = _enabled(inv)
        if verb == "enable":
            inv.out(f"Input method {ime_id}: {'already enabled' if ime_id in enabled else 'now enabled'} for user #0\n")
            extra[ENABLED_SETTING] = ":".join(dict.fromkeys([*enabled, ime_id]))
        elif verb == "disable":
            left = [i for i in enabled if i != ime_id]
            extra[ENABLED_SETTING] = ":".join(left)
            if _input_method(inv) == ime_id:
                extra[IME_SETTING] = left[0] if left else ""
            inv.out(f"Input method {ime_id}: {'now disabled' if ime_id in enabled else 'already disabled'} for user #0\n")
        else:
            if ime_id not in enabled:
                raise CommandError(f"Input method {ime_id} is not enabled for user #0 (ime enable {ime_id})")
            extra[IME_SETTING] = ime_id
            inv.out(f"Input method {ime_id} selected for user #0\n")
        return 0
    if verb == "reset":
        extra.pop(ENABLED_SETTING, None)
        extra.pop(IME_SETTING, None)
        inv.out(f"Reset current and enabled IMEs for user #0\n  Selected: {_input_method(inv)}\n"
                f"   Enabled: {SIM_IME}\n")
        return 0
    raise CommandError("usage: ime list [-a] [-s] | enable ID | disable ID | set ID | reset")


# --------------------------------------------------------------------------- getevent
def _input_devices(width: int, height: int) -> list[tuple[str, str, list[tuple[str, str, str]], str]]:
    """(path, name, [(type, code, range)], props) of the phone's input devices."""
    touch = [("KEY (0001)", "014a BTN_TOUCH", "")]
    for code, name, hi in (("002f", "ABS_MT_SLOT", 9), ("0030", "ABS_MT_TOUCH_MAJOR", 255),
                           ("0035", "ABS_MT_POSITION_X", width - 1), ("0036", "ABS_MT_POSITION_Y", height - 1),
                           ("0039", "ABS_MT_TRACKING_ID", 65535), ("003a", "ABS_MT_PRESSURE", 255)):
        touch.append(("ABS (0003)", f"{code} {name}", f"value 0, min 0, max {hi}, fuzz 0, flat 0, resolution 0"))
    keys = [("KEY (0001)", f"{code} {name}", "") for code, name in
            (("0072", "KEY_VOLUMEDOWN"), ("0073", "KEY_VOLUMEUP"), ("0074", "KEY_POWER"))]
    return [("/dev/input/event0", "gpio-keys", keys, "<none>"),
            ("/dev/input/event1", "mobilegym_touchscreen", touch, "INPUT_PROP_DIRECT")]


@command("getevent")
def getevent(inv: Invocation) -> int:
    """The input devices (`-p`: with their event codes and ranges; `-l`: names for codes). The phone makes no
    events while the command runs, so it prints the device list and ends instead of waiting."""
    flags = "".join(a[1:] for a in inv.args[1:] if a.startswith("-") and not a[1:].isdigit())
    wanted = [a for a in inv.args[1:] if a.startswith("/dev/")]
    width, height = inv.shell.services.get("physical_size") or inv.shell.phone.screen_size
    devices = [d for d in _input_devices(width, height) if not wanted or d[0] in wanted]
    if wanted and not devices:
        raise CommandError(f"could not open {wanted[0]}, No such file or directory")
    for number, (path, name, events, props) in enumerate(devices):
        inv.out(f"add device {number + 1}: {path}\n  name:     \"{name}\"\n")
        if "p" not in flags and "i" not in flags:
            continue
        inv.out("  events:\n")
        last = ""
        for kind, code, span in events:
            label = code.split()[1] if "l" in flags else code.split()[0]
            head = f"    {kind}: " if kind != last else " " * (len(kind) + 6)
            inv.out(f"{head}{label:<20}" + (f" : {span}" if span else "") + "\n")
            last = kind
        inv.out(f"  input props:\n    {props}\n")
    return 0


# --------------------------------------------------------------------------- screenrecord
@command("screenrecord")
def screenrecord(inv: Invocation) -> int:
    """A short MP4 of the screen as the simulated clock runs (see :mod:`.mp4`)."""
    from .mp4 import record

    return record(inv)


# --------------------------------------------------------------------------- wm size
def wm_size(inv: Invocation, args: list[str]) -> int:
    """`wm size` (physical and override size), `wm size WxH` and `wm size reset`."""
    shell, phone = inv.shell, inv.shell.phone
    physical = shell.services.get("physical_size")
    if not args:
        w, h = physical or phone.screen_size
        inv.out(f"Physical size: {w}x{h}\n")
        if physical is not None:
            inv.out("Override size: {}x{}\n".format(*phone.screen_size))
        return 0
    resize = getattr(phone, "resize", None)
    if resize is None:
        raise CommandError("Error: this phone cannot change its display size")
    if args == ["reset"]:
        if physical is not None:
            shell.call(resize, *physical)
            shell.services.pop("physical_size", None)
        return 0
    match = re.fullmatch(r"(\d+)x(\d+)", args[0])
    if match is None or len(args) > 1:
        raise CommandError(f"Error: bad size {' '.join(args)} (wm size WIDTHxHEIGHT | reset)")
    before = phone.screen_size
    shell.call(resize, int(match.group(1)), int(match.group(2)))
    shell.services.setdefault("physical_size", before)
    if tuple(phone.screen_size) == tuple(shell.services["physical_size"]):
        shell.services.pop("physical_size")
    return 0


# --------------------------------------------------------------------------- the clock


# --------------------------------------------------------------------------- cmd services
def cmd_service(inv: Invocation, service: str, rest: list[str]) -> int | None:
    """`cmd clipboard|notification|alarm ...`; None for a service this module does not serve."""
    if service == "clipboard":
        return _clipboard(inv, rest)
    if service == "notification":
        return _notification(inv, rest)
    if service == "alarm" and rest[:1] == ["set-time"]:
        if len(rest) != 2 or not rest[1].isdigit():
            raise CommandError("usage: cmd alarm set-time MILLIS_SINCE_EPOCH")
        set_clock(inv, int(rest[1]), "cmd alarm set-time")
        return 0
    return None


def _clipboard(inv: Invocation, rest: list[str]) -> int:
    services = inv.shell.services
    verb = rest[0] if rest else ""
    if verb in ("get-primary-clip", "get"):
        clip = services.get("clipboard")
        inv.out(("null" if clip is None else clip) + "\n")
    elif verb in ("set-primary-clip", "set") and len(rest) >= 2:
        services["clipboard"] = " ".join(rest[1:])
    elif verb in ("clear-primary-clip", "clear"):
        services.pop("clipboard", None)
    else:
        raise CommandError("usage: cmd clipboard get-primary-clip | set-primary-clip TEXT | clear-primary-clip")
    return 0


def _notification(inv: Invocation, rest: list[str]) -> int:
    if rest[:1] != ["post"]:
        raise CommandError(NOTIFY_USAGE)
    args, title, operands, i = rest[1:], None, [], 0
    while i < len(args):
        a = args[i]
        if a in ("-t", "--title") and i + 1 < len(args):
            title = args[i + 1]
            i += 2
        elif a in ("-S", "--style", "-i", "--icon", "-I", "--large-icon", "-c", "--content-intent") \
                and i + 1 < len(args):
            i += 2
        elif a in ("-v", "--verbose", "-h", "--help", "--wait"):
            i += 1
        elif a in ("--line", "--message", "--conversation", "--picture") and i + 1 < len(args):
            i += 2
        else:
            operands.append(a)
            i += 1
    if len(operands) < 2:
        raise CommandError(NOTIFY_USAGE)
    tag, text = operands[0], " ".join(operands[1:])
    shell, phone = inv.shell, inv.shell.phone
    with shell.lock:
        os_state = shell.call(phone.get_state)["os"]
        try:
            notifications.post(os_state, SHELL_SENDER, title if title is not None else tag, text, None)
        except ValueError as exc:
            raise CommandError(f"cmd notification: {exc}") from None
        shell.call(phone.set_state, {"os": {"notifications": os_state["notifications"]}})
    return 0


# --------------------------------------------------------------------------- app_process
@command("app_process", "app_process64")
def app_process(inv: Invocation) -> int:
    """Refused: a jar run this way needs an Android runtime the phone does not have (uiautomator2's own launch
    line never gets here: the stream service serves it, see :mod:`mobilegym.adbd.u2`)."""
    main = next((a for a in inv.args[1:] if "." in a and not a.startswith(("/", "-"))), "the class")
    hint = (" (uiautomator2's server starts only as uiautomator2 launches it: `CLASSPATH=/data/local/tmp/u2.jar "
            "app_process / com.wetest.uia2.Main [-p PORT]` as a whole shell command)") if "uia2" in main else ""
    raise CommandError(
        f"app_process: cannot start {main}{hint}: the MobileGym simulated phone runs no Android runtime, so "
        "no jar or dex code runs on it.", 1)


def sms_route(data: str, extras: dict[str, Any]) -> str:
    """The Messages compose route an ``sms:NUMBER[?body=TEXT]`` intent opens, recipient and body filled."""
    from urllib.parse import parse_qs, urlencode

    rest = data.partition(":")[2]
    number, _, query = rest.partition("?")
    params = {"to": unquote(number).strip()}
    body = extras.get("sms_body") or extras.get("android.intent.extra.TEXT") or \
        (parse_qs(query).get("body") or [""])[0]
    if body:
        params["body"] = str(body)
    return "/compose?" + urlencode({k: v for k, v in params.items() if v})
