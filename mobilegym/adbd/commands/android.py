"""Android commands of the simulated phone's shell: screencap, uiautomator, input, wm, dumpsys,
am, monkey, getprop, settings, pm, cmd, and the `mobilegym` extension for the judge.
"""
from __future__ import annotations

import io
import json
import struct
import zlib
from typing import Any

import numpy as np
from PIL import Image

from . import agent
from . import settings as settings_map
from .common import advance_clock, log_event, package_of, uid_of
from .registry import COMMANDS, CommandError, Invocation, command
from ...sim.nav import LAUNCHER as LAUNCHER_ID
from ...sim.nav import LAUNCHER_PACKAGE
from ...sim.clock import MAX_MS
from ...sim.system_ui import SYSTEM_PACKAGE
from ...sim.vfs import normpath

SYSTEM_PACKAGES = ("android", "com.android.shell", SYSTEM_PACKAGE, LAUNCHER_PACKAGE)
TOOL_PACKAGES = (agent.ADB_KEYBOARD,)  # installed tools that are not apps of the simulated phone
HOME_INTENT = "android.intent.category.HOME"
DUMP_DEFAULT = "/sdcard/window_dump.xml"
TTY_PATHS = ("/dev/tty", "/dev/stdout")
INPUT_SOURCES = {"touchscreen", "touchpad", "touchnavigation", "keyboard", "mouse", "gamepad",
                 "joystick", "trackball", "stylus", "dpad", "rotaryencoder"}
LONG_PRESS_MS = 400  # a swipe that stays in place at least this long is a long press

# --------------------------------------------------------------------------- key codes
SIM_KEYS = {3: "home", 4: "back", 66: "enter", 160: "enter", 67: "delete", 187: "recent"}
CHAR_KEYS = {**{7 + d: str(d) for d in range(10)}, **{29 + i: chr(97 + i) for i in range(26)},
             55: ",", 56: ".", 62: " ", 69: "-", 70: "=", 76: "/", 77: "@", 81: "+"}
KEYCODES = {
    "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21,
    "DPAD_RIGHT": 22, "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27,
    "COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "MINUS": 69, "EQUALS": 70,
    "SLASH": 76, "AT": 77, "PLUS": 81, "MENU": 82, "NOTIFICATION": 83, "SEARCH": 84, "ESCAPE": 111,
    "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123, "VOLUME_MUTE": 164, "NUMPAD_ENTER": 160,
    "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
    **{str(d): 7 + d for d in range(10)}, **{chr(65 + i): 29 + i for i in range(26)},
}
NOOP_KEYS = {5, 6, 19, 20, 21, 22, 23, 24, 25, 26, 27, 61, 82, 83, 84, 111, 112, 122, 123, 164, 223, 224}


def keycode(name: str) -> int:
    """A key name (with or without KEYCODE_) or number -> Android key code."""
    if name.isdigit():
        return int(name)
    code = KEYCODES.get(name.upper().removeprefix("KEYCODE_"))
    if code is None:
        raise CommandError(f"Error: Unknown keycode: {name}")
    return code


# --------------------------------------------------------------------------- helpers


def activity_of(package: str) -> str:
    return f"{package}.Launcher" if package == LAUNCHER_PACKAGE else f"{package}.MainActivity"


def app_of_package(phone: Any, package: str) -> str | None:
    if package == LAUNCHER_PACKAGE:
        return LAUNCHER_ID
    for app_id, app in getattr(phone, "apps", {}).items():
        if app.package == package:
            return app_id
    return None


def _hash(text: str) -> str:
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:07x}"


def _ints(args: list[str], count: int, what: str) -> list[int]:
    if len(args) < count:
        raise CommandError(f"Error: Invalid arguments for command: {what}\nUsage: input {what} ...")
    try:
        return [int(float(a)) for a in args[:count]]
    except ValueError:
        raise CommandError(f"Error: Invalid arguments for command: {what}: {' '.join(args)}") from None


def _settings_state(inv: Invocation) -> dict[str, Any]:
    with inv.shell.lock:
        return inv.shell.phone.get_state()["apps"].get("settings", {})


def all_props(phone: Any, lock: Any, overrides: dict[str, str]) -> dict[str, str]:
    """System properties: fixed values, values from the world document, then overrides."""
    with lock:
        state = phone.get_state()
    about = state["apps"].get("settings", {}).get("about", {})
    locale = "zh-CN" if state["os"].get("language", "en") == "zh" else "en-US"
    props = default_props(phone) | {"persist.sys.locale": locale, "ro.product.locale": locale}
    for prop, key in (("ro.product.model", "model"), ("ro.build.version.release", "android_version"),
                      ("ro.build.id", "build_number"), ("ro.build.display.id", "build_number"),
                      ("ro.serialno", "serial_number"), ("ro.boot.serialno", "serial_number")):
        if key in about:
            props[prop] = str(about[key])
    return props | overrides


def default_props(phone: Any) -> dict[str, str]:
    """Properties that do not depend on the world document."""
    w, h = phone.screen_size
    dpi = round(getattr(phone, "density", 2.625) * 160)
    return {
        "ro.product.model": "MobileGym Phone", "ro.product.brand": "mobilegym",
        "ro.product.manufacturer": "MobileGym", "ro.product.name": "mobilegym_phone",
        "ro.product.device": "mobilegym", "ro.product.board": "sim", "ro.hardware": "mobilegym",
        "ro.product.cpu.abi": "x86_64", "ro.product.cpu.abilist": "x86_64,arm64-v8a",
        "ro.build.version.sdk": "34", "ro.build.version.release": "14", "ro.build.type": "user",
        "ro.build.tags": "release-keys", "ro.build.characteristics": "phone",
        "ro.build.fingerprint": "mobilegym/mobilegym_phone/mobilegym:14/UQ1A/1:user/release-keys",
        "ro.serialno": "MG1X20260042", "ro.sf.lcd_density": str(dpi), "ro.secure": "1",
        "ro.debuggable": "0", "ro.kernel.qemu": "0", "sys.boot_completed": "1",
        "dev.bootcomplete": "1", "init.svc.bootanim": "stopped", "persist.sys.timezone": "UTC",
        "mobilegym.screen": f"{w}x{h}",
    }


# --------------------------------------------------------------------------- screen
def png_bytes(pixels: np.ndarray) -> bytes:
    """Lossless PNG (fast compression) of an (H, W, 3) uint8 array."""
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


@command("screencap")
def screencap(inv: Invocation) -> int:
    args = [a for a in inv.args[1:] if a != "-p"]
    as_png = "-p" in inv.args[1:]
    if "-d" in args:
        i = args.index("-d")
        args = args[:i] + args[i + 2:]
    pixels = inv.shell.call(inv.shell.phone.screenshot)
    if args and not as_png:
        as_png = args[0].endswith(".png")
    if as_png:
        data = png_bytes(pixels)
    else:  # raw RGBA_8888 framebuffer with the API 28+ 16-byte header
        h, w = pixels.shape[:2]
        rgba = np.dstack([pixels, np.full((h, w, 1), 255, np.uint8)])
        data = struct.pack("<4I", w, h, 1, 0) + rgba.tobytes()
    if args:
        inv.shell.files.write(normpath(args[0], inv.shell.cwd), data)
    else:
        inv.out(data)
    return 0


@command("uiautomator")
def uiautomator(inv: Invocation) -> int:
    args = [a for a in inv.args[1:] if not a.startswith("--")]
    if not args or args[0] != "dump":
        raise CommandError("Usage: uiautomator dump [--compressed] [FILE]")
    target = args[1] if len(args) > 1 else DUMP_DEFAULT
    xml = inv.shell.call(inv.shell.phone.a11y_xml)
    if target in TTY_PATHS:
        inv.out(xml)
    else:
        inv.shell.files.write(normpath(target, inv.shell.cwd), xml.encode("utf-8"), make_parents=False)
    inv.out(f"UI hierchary dumped to: {target}\n")
    return 0


@command("input")
def input_(inv: Invocation) -> int:
    args = inv.args[1:]
    while args and (args[0] in INPUT_SOURCES or args[0] == "-d"):
        args = args[2:] if args[0] == "-d" else args[1:]
    if not args:
        raise CommandError("Usage: input [<source>] <command> [<arg>...]")
    phone, call, what, rest = inv.shell.phone, inv.shell.call, args[0], args[1:]
    if what == "tap":
        call(phone.tap, *_ints(rest, 2, what))
    elif what == "swipe":
        x, y, x2, y2 = _ints(rest, 4, what)
        duration = _ints(rest[4:], 1, what)[0] if len(rest) > 4 else 300
        if abs(x2 - x) + abs(y2 - y) <= 8:
            if duration >= LONG_PRESS_MS:
                call(phone.long_press, x, y, duration)
            else:
                call(phone.tap, x, y)
        else:
            call(phone.swipe, x, y, x2, y2, duration)
    elif what == "draganddrop":
        call(phone.drag, *_ints(rest, 4, what))
    elif what == "longpress":
        x, y = _ints(rest, 2, what)
        duration = _ints(rest[2:], 1, what)[0] if len(rest) > 2 else 800
        call(phone.long_press, x, y, duration)
    elif what == "text":
        if not rest:
            raise CommandError("Error: Invalid arguments for command: text")
        call(phone.type_text, " ".join(rest).replace("%s", " "))
    elif what in ("keyevent", "press"):
        codes = [keycode(a) for a in (rest if what == "keyevent" else ["DPAD_CENTER"]) if not a.startswith("--")]
        if not codes:
            raise CommandError("Error: Invalid arguments for command: keyevent")
        for code in codes:
            if code in SIM_KEYS:
                call(phone.key, SIM_KEYS[code])
            elif code in CHAR_KEYS:
                call(phone.type_text, CHAR_KEYS[code])
            elif code not in NOOP_KEYS:
                raise CommandError(f"Error: key code {code} is not supported by the simulated phone")
    else:
        raise CommandError(f"Error: Unknown command: {what}")
    return 0


@command("wm")
def wm(inv: Invocation) -> int:
    args = inv.args[1:]
    phone = inv.shell.phone
    if args[:1] == ["size"]:
        return agent.wm_size(inv, args[1:])
    if args[:1] == ["density"] and len(args) == 1:
        inv.out(f"Physical density: {round(getattr(phone, 'density', 2.625) * 160)}\n")
    elif args[:1] == ["density"]:
        raise CommandError("Error: changing the density is not supported on the simulated phone (the screens are "
                           "laid out 360 dp wide; `wm size WxH` changes the size)")
    else:
        raise CommandError("usage: wm [size [WxH|reset]|density]")
    return 0


# --------------------------------------------------------------------------- dumpsys
def _focus(inv: Invocation) -> tuple[str, str]:
    app_id = inv.shell.call(inv.shell.phone.current_app)
    package = package_of(inv.shell.phone, app_id)
    return package, activity_of(package)


def _dump_window(inv: Invocation) -> str:
    package, activity = _focus(inv)
    w, h = inv.shell.phone.screen_size
    dpi = round(getattr(inv.shell.phone, "density", 2.625) * 160)
    h_app, h_win = _hash(activity), _hash(activity + "w")
    return (
        "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
        f"  Window #0 Window{{{h_win} u0 {package}/{activity}}}:\n"
        f"    mDisplayId=0 rootTaskId=1 mSession=Session{{{_hash(package)} 1000:u0a10000}}\n"
        f"  mCurrentFocus=Window{{{h_win} u0 {package}/{activity}}}\n"
        f"  mFocusedApp=ActivityRecord{{{h_app} u0 {package}/{activity} t1}}\n"
        f"  Display: mDisplayId=0 rotation=0 init={w}x{h} {dpi}dpi cur={w}x{h} app={w}x{h}\n"
    )


def _dump_activity(inv: Invocation) -> str:
    package, activity = _focus(inv)
    h_app = _hash(activity)
    return (
        "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
        f"  mResumedActivity: ActivityRecord{{{h_app} u0 {package}/{activity} t1}}\n"
        f"  ResumedActivity: ActivityRecord{{{h_app} u0 {package}/{activity} t1}}\n"
        f"TASK 1 id=1\n  ACTIVITY {package}/{activity} {h_app} pid=1000\n"
    )


def _dump_display(inv: Invocation) -> str:
    w, h = inv.shell.phone.screen_size
    dpi = round(getattr(inv.shell.phone, "density", 2.625) * 160)
    return (
        "DISPLAY MANAGER (dumpsys display)\n"
        f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="local:0", {w} x {h}, density {dpi}, '
        f"rotation 0, type INTERNAL, state ON, FLAG_DEFAULT_DISPLAY}}\n"
        f'  mBaseDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {w} x {h}, '
        f"density {dpi} ({dpi}.0 x {dpi}.0) dpi, rotation 0, state ON}}\n"
        "  mCurrentOrientation=0\n  orientation=0\n"
    )


def _dump_package(inv: Invocation) -> str:
    """`dumpsys package [PKG]`: what adbutils' app_info and similar tools parse."""

    apps = {app.package: app for app in getattr(inv.shell.phone, "apps", {}).values()}
    wanted = [a for a in inv.args[2:] if not a.startswith("-")]
    packages = [p for p in wanted if p in apps or p in SYSTEM_PACKAGES] if wanted else sorted([*apps, *SYSTEM_PACKAGES])
    if wanted and not packages:
        return f"Unable to find package: {wanted[0]}\n"
    out = ["Packages:\n"]
    for package in packages:
        h = _hash(package)
        system = package in SYSTEM_PACKAGES
        flags = "SYSTEM HAS_CODE PERSISTENT" if system else "HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP"
        path = f"/system/priv-app/{package}" if system else f"/data/app/{package}"
        out.append(
            f"  Package [{package}] ({h}):\n"
            f"    userId={1000 if package == 'android' else uid_of(package)}\n"
            f"    pkg=Package{{{h} {package}}}\n"
            f"    codePath={path}\n    resourcePath={path}\n"
            f"    primaryCpuAbi=x86_64\n"
            f"    versionCode=34 minSdk=30 targetSdk=34\n"
            f"    versionName=14\n"
            f"    flags=[ {flags} ]\n"
            f"    pkgFlags=[ {flags} ]\n"
            f"    timeStamp=2026-01-01 00:00:00\n"
            f"    firstInstallTime=2026-01-01 00:00:00\n"
            f"    lastUpdateTime=2026-01-01 00:00:00\n"
            f"    installerPackageName=null\n"
            f"    signatures=PackageSignatures{{{_hash(package + 's')} version:3, signatures:[{_hash(package + 'k')}], past signatures:[]}}\n"
            f"    User 0: ceDataInode=0 installed=true hidden=false suspended=false stopped=false "
            f"notLaunched=false enabled=0 instant=false virtual=false\n"
        )
    return "".join(out)


DUMPSYS = {
    "package": _dump_package,
    "window": _dump_window,
    "activity": _dump_activity,
    "display": _dump_display,
    "power": lambda inv: "POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n"
                         "  mHoldingDisplaySuspendBlocker=true\n  Display Power: state=ON\n",
    "battery": lambda inv: "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n"
                           "  Wireless powered: false\n  status: 2\n  health: 2\n  present: true\n"
                           "  level: 100\n  scale: 100\n  voltage: 4200\n  temperature: 250\n"
                           "  technology: Li-ion\n",
}


@command("dumpsys")
def dumpsys(inv: Invocation) -> int:
    if len(inv.args) < 2:
        inv.out("Currently running services:\n" + "".join(f"  {s}\n" for s in sorted(DUMPSYS)))
        return 0
    fn = DUMPSYS.get(inv.args[1])
    if fn is None:
        inv.err(f"Can't find service: {inv.args[1]}\n")
        return 0
    inv.out(fn(inv))
    return 0


# --------------------------------------------------------------------------- apps
def _open_package(inv: Invocation, package: str) -> bool:
    app_id = app_of_package(inv.shell.phone, package)
    if app_id is None:
        return False
    if app_id == LAUNCHER_ID:
        inv.shell.call(inv.shell.phone.key, "home")
    else:
        inv.shell.call(inv.shell.phone.open_app, app_id)
    return True


@command("am")
def am(inv: Invocation) -> int:
    args = inv.args[1:]
    if not args:
        raise CommandError("usage: am [start|force-stop] ...")
    if args[0] == "force-stop" and len(args) >= 2:
        package, _ = _focus(inv)
        if package == args[-1] and package != LAUNCHER_PACKAGE:
            inv.shell.call(inv.shell.phone.key, "home")
        return 0
    if args[0] == "broadcast":
        return agent.broadcast(inv, args[1:])
    if args[0] not in ("start", "start-activity"):
        raise CommandError(f"Error: am {args[0]} is not supported on the simulated phone")
    component = action = category = data = None
    i = 1
    while i < len(args):
        a = args[i]
        if a in ("-n", "-a", "-c", "-d", "-t", "-f", "--user", "--display") and i + 1 < len(args):
            value = args[i + 1]
            component = value if a == "-n" else component
            action = value if a == "-a" else action
            category = value if a == "-c" else category
            data = value if a == "-d" else data
            i += 2
        elif a.startswith("--e") or a == "-e":
            i += 3
        elif a.startswith("-"):
            i += 1
        else:
            component = component or (a if "/" in a else None)
            i += 1
    shown = " ".join(f"{k}={v}" for k, v in (("act", action), ("cat", f"[{category}]" if category else None),
                                                 ("cmp", component)) if v)
    inv.out(f"Starting: Intent {{ {shown} }}\n")
    if category == HOME_INTENT:
        inv.shell.call(inv.shell.phone.key, "home")
        _log_start(inv, LAUNCHER_PACKAGE, action, category)
        return 0
    if component is not None:
        package, _, activity = component.partition("/")
        if _open_package(inv, package):
            _log_start(inv, package, action, category)
            return 0
        inv.err(f"Error type 3\nError: Activity class {{{package}/{activity}}} does not exist.\n")
        return 1
    target = resolve_intent(action, category, data)
    if target is not None and target[0] in getattr(inv.shell.phone, "apps", {}):
        app_id, route = target
        if target == ("messages", "/compose") and data:
            route = agent.sms_route(data, agent.intent_extras(args[1:])[1])
        launch = getattr(inv.shell.phone, "launch", None)
        if route == "/" or launch is None:
            inv.shell.call(inv.shell.phone.open_app, app_id)
        else:
            inv.shell.call(launch, app_id, route)
        _log_start(inv, package_of(inv.shell.phone, app_id), action, category)
        return 0
    inv.err("Error: Activity not started, unable to resolve Intent "
            f"{{ {shown} }}\n")
    return 1


def _log_start(inv: Invocation, package: str, action: str | None, category: str | None) -> None:

    shown = " ".join(f"{k}={v}" for k, v in (("act", action or "android.intent.action.MAIN"),
                                             ("cat", f"[{category}]" if category else None),
                                             ("cmp", f"{package}/{activity_of(package)}")) if v)
    log_event(inv.shell, "ActivityTaskManager", f"START u0 {{{shown}}} from uid 2000")


# Settings intents (android.provider.Settings.ACTION_*) -> the Settings screen that shows them.
SETTINGS_ROUTES = {
    "android.settings.SETTINGS": "/",
    "android.settings.WIFI_SETTINGS": "/network",
    "android.settings.WIFI_IP_SETTINGS": "/network",
    "android.settings.WIRELESS_SETTINGS": "/network",
    "android.settings.AIRPLANE_MODE_SETTINGS": "/network",
    "android.settings.DATA_ROAMING_SETTINGS": "/network",
    "android.settings.NETWORK_OPERATOR_SETTINGS": "/network",
    "android.settings.DATA_USAGE_SETTINGS": "/network",
    "android.settings.panel.action.INTERNET_CONNECTIVITY": "/network",
    "android.settings.panel.action.WIFI": "/network",
    "android.settings.BLUETOOTH_SETTINGS": "/bluetooth",
    "android.bluetooth.adapter.action.REQUEST_ENABLE": "/bluetooth",
    "android.settings.DISPLAY_SETTINGS": "/display",
    "android.settings.DARK_THEME_SETTINGS": "/display",
    "android.settings.NIGHT_DISPLAY_SETTINGS": "/display",
    "android.settings.TEXT_READING_SETTINGS": "/display/font_size",
    "android.settings.SOUND_SETTINGS": "/sound",
    "android.settings.ZEN_MODE_SETTINGS": "/sound",
    "android.settings.ZEN_MODE_PRIORITY_SETTINGS": "/sound",
    "android.settings.DEVICE_INFO_SETTINGS": "/about",
}
# Other common intents -> (app, route).
ACTION_ROUTES = {
    "android.intent.action.SHOW_ALARMS": ("clock", "/alarms"),
    "android.intent.action.SET_ALARM": ("clock", "/alarms"),
    "android.intent.action.SET_TIMER": ("clock", "/timer"),
    "android.intent.action.SHOW_TIMERS": ("clock", "/timer"),
    "android.intent.action.MUSIC_PLAYER": ("music", "/"),
}
CATEGORY_APPS = {
    "android.intent.category.APP_CONTACTS": "contacts", "android.intent.category.APP_MESSAGING": "messages",
    "android.intent.category.APP_CALENDAR": "calendar", "android.intent.category.APP_MUSIC": "music",
}


def resolve_intent(action: str | None, category: str | None, data: str | None) -> tuple[str, str] | None:
    """(app id, route) an implicit intent opens on the simulated phone, or None."""
    if action in SETTINGS_ROUTES:
        return "settings", SETTINGS_ROUTES[action]
    if action in ACTION_ROUTES:
        return ACTION_ROUTES[action]
    if action and action.startswith("android.settings."):
        return "settings", "/"
    if category in CATEGORY_APPS:
        return CATEGORY_APPS[category], "/"
    scheme = (data or "").partition(":")[0].lower()
    if action in ("android.intent.action.SENDTO", "android.intent.action.VIEW", "android.intent.action.SEND") \
            and scheme in ("sms", "smsto", "mms", "mmsto"):
        return "messages", "/compose"
    if action in ("android.intent.action.VIEW", None) and data:
        if data.startswith(("content://contacts", "content://com.android.contacts")):
            return "contacts", "/"
        if data.startswith("content://com.android.calendar"):
            return "calendar", "/"
    return None


@command("monkey")
def monkey(inv: Invocation) -> int:
    args, packages, i = inv.args[1:], [], 0
    while i < len(args):
        if args[i] == "-p" and i + 1 < len(args):
            packages.append(args[i + 1])
            i += 2
        elif args[i] in ("-c", "--throttle", "-s", "--pct-touch", "--pct-motion") and i + 1 < len(args):
            i += 2
        else:
            i += 1
    if not packages:
        raise CommandError("monkey: only `monkey -p PACKAGE ... 1` (launch an app) is supported")
    if not _open_package(inv, packages[0]):
        inv.err("** No activities found to run, monkey aborted.\n")
        return 252
    _log_start(inv, packages[0], "android.intent.action.MAIN", "android.intent.category.LAUNCHER")
    inv.out("Events injected: 1\n## Network stats: elapsed time=0ms (0ms mobile, 0ms wifi, 0ms not connected)\n")
    return 0


@command("pm")
def pm(inv: Invocation) -> int:
    args = inv.args[1:]
    phone = inv.shell.phone
    apps = sorted(app.package for app in getattr(phone, "apps", {}).values())
    if args[:2] == ["list", "packages"]:
        flags = {a for a in args[2:] if a.startswith("-")}
        needle = next((a for a in args[2:] if not a.startswith("-")), "")
        found = sorted([*apps, *TOOL_PACKAGES]) if "-3" in flags else list(SYSTEM_PACKAGES) if "-s" in flags \
            else sorted([*SYSTEM_PACKAGES, *TOOL_PACKAGES, *apps])
        for pkg in found:
            if needle in pkg:
                inv.out(f"package:/data/app/{pkg}/base.apk={pkg}\n" if "-f" in flags else f"package:{pkg}\n")
        return 0
    if args[:1] in (["install"], ["install-create"], ["install-multiple"]):
        inv.out("Failure [INSTALL_FAILED_UNSUPPORTED: the MobileGym simulated phone cannot install APKs: its apps "
                "are built in (pm list packages)]\n")
        return 1
    if args[:1] in (["grant"], ["revoke"]):
        names = [a for a in args[1:] if not a.startswith("-") and a not in ("0",)]
        if len(names) != 2:
            raise CommandError(f"usage: pm {args[0]} [--user USER] PACKAGE PERMISSION")
        if names[0] not in apps and names[0] not in SYSTEM_PACKAGES and names[0] not in TOOL_PACKAGES:
            inv.err(f"Exception occurred while executing '{args[0]}':\n"
                    f"java.lang.IllegalArgumentException: Unknown package: {names[0]}\n")
            return 255
        if not names[1].startswith("android.permission."):
            inv.err(f"Exception occurred while executing '{args[0]}':\n"
                    f"java.lang.IllegalArgumentException: Unknown permission: {names[1]}\n")
            return 255
        return 0  # the simulated apps ask for no runtime permissions: granting one changes nothing
    if args[:1] == ["path"] and len(args) == 2:
        if args[1] not in apps and args[1] not in SYSTEM_PACKAGES and args[1] not in TOOL_PACKAGES:
            return 1
        inv.out(f"package:/data/app/{args[1]}/base.apk\n")
        return 0
    if args[:1] == ["resolve-activity"]:
        if HOME_INTENT in args:
            inv.out(f"priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n"
                    f"{LAUNCHER_PACKAGE}/{activity_of(LAUNCHER_PACKAGE)}\n")
            return 0
        package = next((a for a in args if a in apps), None)
        if package is None:
            inv.out("No activity found\n")
            return 0
        inv.out(f"priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n"
                f"{package}/{activity_of(package)}\n")
        return 0
    if args[:1] == ["clear"] and len(args) == 2:
        app_id = app_of_package(phone, args[1])
        if app_id is None or app_id == LAUNCHER_ID:
            raise CommandError(f"Error: unknown package {args[1]}")
        defaults = phone.apps[app_id].defaults()
        with inv.shell.lock:  # a merge patch cannot drop keys: remove, then write the defaults
            inv.shell.call(phone.set_state, {"apps": {app_id: None}})
            inv.shell.call(phone.set_state, {"apps": {app_id: defaults}})
        inv.out("Success\n")
        return 0
    raise CommandError(f"Error: pm {' '.join(args[:1])} is not supported on the simulated phone")


@command("getprop")
def getprop(inv: Invocation) -> int:
    props = all_props(inv.shell.phone, inv.shell.lock, inv.shell.props)
    if len(inv.args) == 1:
        inv.out("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
    else:
        inv.out(props.get(inv.args[1], inv.args[2] if len(inv.args) > 2 else "") + "\n")
    return 0


@command("settings")
def settings(inv: Invocation) -> int:
    args = inv.args[1:]
    while args[:1] == ["--user"]:
        args = args[2:]
    if not args or args[0] not in ("get", "put", "delete", "list") or len(args) < 2:
        raise CommandError("usage: settings [--user N] get|put|delete|list NAMESPACE [NAME [VALUE]]")
    verb, ns = args[0], args[1]
    if ns not in settings_map.NAMESPACES:
        raise CommandError(f"Invalid namespace '{ns}'")
    extra, state = inv.shell.extra_settings, _settings_state(inv)
    if verb == "list":
        inv.out("".join(line + "\n" for line in settings_map.listing(state, extra, ns)))
        return 0
    if len(args) < 3:
        raise CommandError(f"settings {verb}: missing NAME")
    name = args[2]
    if verb == "get":
        inv.out(settings_map.get(state, extra, ns, name) + "\n")
    elif verb == "delete":
        inv.out(f"Deleted {int(extra.pop((ns, name), None) is not None)} rows\n")
    else:
        if len(args) < 4:
            raise CommandError("settings put: missing VALUE")
        value = " ".join(args[3:])
        try:
            patch = settings_map.put_patch(state, ns, name, value)
        except ValueError as exc:
            raise CommandError(f"Error: bad value for {ns} {name}: {exc}") from None
        if patch is None:
            extra[(ns, name)] = value
        else:
            inv.shell.call(inv.shell.phone.set_state, {"apps": {"settings": patch}})
    return 0


CMD_SERVICES = {"package": "pm", "window": "wm", "settings": "settings", "activity": "am", "input": "input"}


def _cmd_switch(inv: Invocation, key: str, value: str, usage: str) -> int:
    if value not in ("enabled", "disabled", "enable", "disable"):
        raise CommandError(usage)
    state = _settings_state(inv)
    if key not in state:
        raise CommandError(f"the simulated phone has no {key} setting")
    inv.shell.call(inv.shell.phone.set_state, {"apps": {"settings": {key: value.startswith("enable")}}})
    return 0


@command("cmd")
def cmd(inv: Invocation) -> int:
    if len(inv.args) < 2:
        raise CommandError("usage: cmd SERVICE [ARGS...]")
    rest = inv.args[2:]
    if inv.args[1] == "wifi" and rest[:1] == ["set-wifi-enabled"] and len(rest) == 2:
        return _cmd_switch(inv, "wifi", rest[1], "usage: cmd wifi set-wifi-enabled enabled|disabled")
    if inv.args[1] == "wifi" and rest[:1] == ["status"]:
        on = bool(_settings_state(inv).get("wifi"))
        inv.out("Wifi is enabled\n" if on else "Wifi is disabled\n")
        return 0
    if inv.args[1] == "connectivity" and rest[:1] == ["airplane-mode"]:
        if len(rest) == 1:
            inv.out("enabled\n" if _settings_state(inv).get("airplane_mode") else "disabled\n")
            return 0
        return _cmd_switch(inv, "airplane_mode", rest[1] + ("d" if rest[1] in ("enable", "disable") else ""),
                           "usage: cmd connectivity airplane-mode [enable|disable]")
    if inv.args[1] == "bluetooth_manager" and rest[:1] in (["enable"], ["disable"]):
        return _cmd_switch(inv, "bluetooth", rest[0], "usage: cmd bluetooth_manager enable|disable")
    served = agent.cmd_service(inv, inv.args[1], rest)
    if served is not None:
        return served
    target = CMD_SERVICES.get(inv.args[1])
    if target is None:
        inv.err(f"cmd: Can't find service: {inv.args[1]}\n")
        return 20
    sub = Invocation(inv.shell, [target, *inv.args[2:]], inv.stdin)
    code = COMMANDS[target](sub)
    inv.chunks.extend(sub.chunks)
    return code


# --------------------------------------------------------------------------- mobilegym
MOBILEGYM_HELP = """usage: mobilegym COMMAND
  state get [PATH]           the world document (or the value at a dotted PATH) as JSON
  state patch JSON|-f FILE|- deep-merge a patch into the world document
  state reset [SEED]         every app back to its defaults, home screen showing
  apps                       installed apps: id<TAB>package<TAB>label
  app | route                the foreground app id / screen route
  wait SECONDS               let the simulated clock run
  type [--clear] TEXT        type into the focused field (any Unicode)
  launch APP ROUTE           open an app at a screen route (a deep link)
  version                    the protocol version of this extension
"""
EXTENSION_VERSION = "1"


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise CommandError(f"mobilegym: {what} must be a number, got {text!r}") from None


def _dotted(value: Any, path: str) -> Any:
    for part in [p for p in path.split(".") if p]:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
            value = value[int(part)]
        else:
            raise CommandError(f"mobilegym: no state at {path!r} (missing {part!r})")
    return value


def _state(inv: Invocation, args: list[str]) -> int:
    shell, phone = inv.shell, inv.shell.phone
    verb = args[0] if args else ""
    if verb == "get":
        value = _dotted(shell.call(phone.get_state), args[1] if len(args) > 1 else "")
        inv.out(json.dumps(value, ensure_ascii=False) + "\n")
    elif verb == "patch" and len(args) >= 2:
        if args[1] == "-f" and len(args) == 3:
            text = shell.files.read(normpath(args[2], shell.cwd)).decode("utf-8")
        elif args[1] == "-":
            text = inv.stdin.decode("utf-8")
        else:
            text = " ".join(args[1:])
        try:
            patch = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise CommandError(f"mobilegym: the patch is not valid JSON: {exc}") from None
        if not isinstance(patch, dict):
            raise CommandError("mobilegym: the patch must be a JSON object")
        clock = patch.get("os", {}).get("time_ms") if isinstance(patch.get("os"), dict) else None
        if clock is not None and (isinstance(clock, bool) or not isinstance(clock, int) or not 0 <= clock <= MAX_MS):
            raise CommandError(f"mobilegym: os.time_ms must be an integer in [0, {MAX_MS}] (epoch ms), got {clock!r}")
        shell.call(phone.set_state, patch)
    elif verb == "reset":
        seed = args[1] if len(args) > 1 else None
        if seed is not None and not (seed.isdigit() and int(seed) < 2 ** 63):
            raise CommandError(f"mobilegym: the seed must be an integer in [0, 2**63), got {seed!r}")
        seed = int(seed) if seed is not None else None
        shell.call(phone.reset_state, seed)
    else:
        raise CommandError("usage: mobilegym state get [PATH] | patch JSON|-f FILE|- | reset [SEED]")
    return 0


@command("mobilegym")
def mobilegym(inv: Invocation) -> int:
    args = inv.args[1:]
    shell, phone = inv.shell, inv.shell.phone
    verb = args[0] if args else "help"
    if verb == "state":
        return _state(inv, args[1:])
    if verb == "apps":
        apps = getattr(phone, "apps", {})
        inv.out("".join(f"{a.id}\t{a.package}\t{a.label}\n" for a in apps.values()))
    elif verb == "app":
        inv.out(shell.call(phone.current_app) + "\n")
    elif verb == "route":
        inv.out(shell.call(phone.current_route) + "\n")
    elif verb == "wait" and len(args) == 2:

        advance_clock(inv, _number(args[1], "seconds"), "mobilegym wait")
    elif verb == "type" and len(args) >= 2:
        clear = args[1] == "--clear"
        shell.call(phone.type_text, " ".join(args[2:] if clear else args[1:]), clear)
    elif verb == "launch" and len(args) == 3:
        launch = getattr(phone, "launch", None)
        if launch is None:
            raise CommandError("mobilegym: this phone does not support launch")
        shell.call(launch, args[1], args[2])
    elif verb == "version":
        inv.out(EXTENSION_VERSION + "\n")
    elif verb in ("help", "--help", "-h"):
        inv.out(MOBILEGYM_HELP)
    else:
        raise CommandError(MOBILEGYM_HELP.rstrip())
    return 0
