"""What agent runtimes call on serve-adb beside input and uiautomator, through Google's adb and the Python
ADB clients: ADBKeyboard broadcasts, ime, getevent, screenrecord, clipboard, notifications, wm size, the
date, pm install/grant and the SMS compose intent."""
from __future__ import annotations

import base64
import io
import struct
import subprocess
from typing import Iterator

import pytest
from PIL import Image

from mobilegym.adbd.server import AdbdServer
from mobilegym.adbd.shell import Shell
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.clock import from_ms
from mobilegym.device.sim import SimDevice

from .adb_support import ADB, AdbServer

pytestmark = pytest.mark.skipif(ADB is None, reason="the adb binary is not installed (apt-get install adb)")
APPS = ("settings", "clock", "contacts", "messages")
ADB_IME = "com.android.adbkeyboard/.AdbIME"


@pytest.fixture(scope="module")
def adb() -> Iterator[AdbServer]:
    server = AdbServer().start()
    yield server
    server.kill()


@pytest.fixture
def served(adb: AdbServer) -> Iterator[AdbdServer]:
    adbd = AdbdServer(SimDevice(540, 1200, apps=APPS, world="canonical")).start()
    adb.connect(adbd.serial)
    yield adbd
    adb.cli("disconnect", adbd.serial)
    adbd.close()


def shell(adb: AdbServer, served: AdbdServer, line: str, code: int = 0) -> str:
    """`adb shell LINE` with the real adb binary: its stdout, after checking the exit status."""
    done = adb.cli("shell", line, serial=served.serial, timeout=60)
    assert done.returncode == code, (line, done.stdout, done.stderr)
    return (done.stdout + done.stderr).decode()


def tap_rid(adb: AdbServer, served: AdbdServer, rid: str) -> None:
    found = [n for n in parse_nodes(shell(adb, served, "uiautomator dump /dev/tty").split("UI hierchary")[0])
             if n.short_id == rid]
    assert found, f"no {rid} on the screen"
    x, y = found[0].center
    shell(adb, served, f"input tap {x} {y}")


def field_text(served: AdbdServer, rid: str) -> str:
    return next(n.text for n in parse_nodes(served.phone.a11y_xml()) if n.short_id == rid)


def test_adbkeyboard_types_into_the_focused_field(adb: AdbServer, served: AdbdServer) -> None:
    assert ADB_IME in shell(adb, served, "ime list -s").split()
    assert "package:com.android.adbkeyboard" in shell(adb, served, "pm list packages")
    shell(adb, served, "am start -a android.intent.action.SENDTO -d sms:5551234")
    assert field_text(served, "recipient_input") == "5551234"
    # not the current input method: the text reaches nothing, and the command says so
    refused = shell(adb, served, "am broadcast -a ADB_INPUT_TEXT --es msg hi", code=1)
    assert "ADBKeyboard is not the current input method" in refused
    shell(adb, served, f"ime set {ADB_IME}")
    assert shell(adb, served, "settings get secure default_input_method").strip() == ADB_IME
    # nothing focused: a failure, not a silent drop
    encoded = base64.b64encode("你好, world".encode()).decode()
    dropped = shell(adb, served, f"am broadcast -a ADB_INPUT_B64 --es msg {encoded}", code=1)
    assert "no text field has focus" in dropped
    tap_rid(adb, served, "message_input")
    out = shell(adb, served, f"am broadcast -a ADB_INPUT_B64 --es msg {encoded}")
    assert "Broadcast completed: result=0" in out
    assert field_text(served, "message_input") == "你好, world"
    shell(adb, served, "am broadcast -a ADB_CLEAR_TEXT")
    shell(adb, served, "am broadcast -a ADB_INPUT_TEXT --es msg 'see you'")
    assert field_text(served, "message_input") == "see you"
    assert "not base64" in shell(adb, served, "am broadcast -a ADB_INPUT_B64 --es msg '%%%'", code=1)
    shell(adb, served, "am broadcast -a ADB_EDITOR_CODE --ei code 4")  # send
    sent = served.phone.get_state()["apps"]["messages"]["conversations"]
    assert any(c["address"] == "5551234" and c["messages"][-1]["text"] == "see you" for c in sent)


def test_adbutils_and_ppadb_type_through_adbkeyboard(adb: AdbServer, served: AdbdServer) -> None:
    adbutils = pytest.importorskip("adbutils")
    ppadb = pytest.importorskip("ppadb.client")
    device = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(served.serial)
    device.shell(["am", "start", "-a", "android.intent.action.SENDTO", "-d", "sms:5551234", "--es", "sms_body", "hey"])
    assert field_text(served, "recipient_input") == "5551234"
    assert field_text(served, "message_input") == "hey"
    tap_rid(adb, served, "message_input")
    device.shell(["ime", "enable", ADB_IME])
    device.shell(["ime", "set", ADB_IME])
    device.shell(["am", "broadcast", "-a", "ADB_CLEAR_TEXT"])
    text = base64.b64encode("Grüße 🙂".encode()).decode()
    assert "result=0" in device.shell(["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", text])
    assert field_text(served, "message_input") == "Grüße 🙂"
    other = ppadb.Client(host="127.0.0.1", port=adb.port).device(served.serial)
    other.shell("am broadcast -a ADB_INPUT_TEXT --es msg '!'")
    assert field_text(served, "message_input") == "Grüße 🙂!"


def test_ime_commands(adb: AdbServer, served: AdbdServer) -> None:
    assert "Unknown input method com.x/.Y" in shell(adb, served, "ime set com.x/.Y", code=1)
    assert "now disabled" in shell(adb, served, f"ime disable {ADB_IME}")
    assert ADB_IME not in shell(adb, served, "ime list -s")
    assert "is not enabled" in shell(adb, served, f"ime set {ADB_IME}", code=1)
    assert "now enabled" in shell(adb, served, f"ime enable {ADB_IME}")
    assert "packageName=com.android.adbkeyboard" in shell(adb, served, "ime list -a")
    shell(adb, served, f"ime set {ADB_IME}")
    assert "Selected: com.mobilegym.ime/.SimpleIME" in shell(adb, served, "ime reset")


def test_getevent_lists_the_input_devices(adb: AdbServer, served: AdbdServer) -> None:
    listing = shell(adb, served, "getevent -l")
    assert 'add device 2: /dev/input/event1\n  name:     "mobilegym_touchscreen"' in listing.replace("\r", "")
    possible = shell(adb, served, "getevent -lp")
    assert "ABS_MT_POSITION_X" in possible and "max 539," in possible and "max 1199," in possible
    assert "INPUT_PROP_DIRECT" in possible
    numeric = shell(adb, served, "getevent -p /dev/input/event1")
    assert "0035" in numeric and "gpio-keys" not in numeric
    assert "No such file" in shell(adb, served, "getevent -p /dev/input/event9", code=1)


def _boxes(data: bytes, start: int = 0, end: int | None = None) -> dict[bytes, tuple[int, int]]:
    """The top-level boxes of an ISO media file: kind -> (body start, body end)."""
    found, i, end = {}, start, len(data) if end is None else end
    while i < end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        assert size >= 8, "a box shorter than its header"
        found[kind] = (i + 8, i + size)
        i += size
    assert i == end, "boxes do not add up to the file"
    return found


def test_screenrecord_writes_a_real_mp4(adb: AdbServer, served: AdbdServer, tmp_path) -> None:
    before = served.phone.time_ms()
    shell(adb, served, "am start -n com.mobilegym.clock/.MainActivity")
    shell(adb, served, "screenrecord --time-limit 3 --size 270x600 /sdcard/Movies/rec.mp4")
    assert served.phone.time_ms() >= before + 3000  # the recording ran on the simulated clock
    local = tmp_path / "rec.mp4"
    assert adb.cli("pull", "/sdcard/Movies/rec.mp4", str(local), serial=served.serial).returncode == 0
    data = local.read_bytes()
    top = _boxes(data)
    assert list(top) == [b"ftyp", b"moov", b"mdat"]
    moov = _boxes(data, *top[b"moov"])
    trak = _boxes(data, *moov[b"trak"])
    mdia = _boxes(data, *trak[b"mdia"])
    stbl = _boxes(data, *_boxes(data, *mdia[b"minf"])[b"stbl"])
    a, b = stbl[b"stsz"]
    _, _, count = struct.unpack(">III", data[a:a + 12])
    sizes = struct.unpack(f">{count}I", data[a + 12:a + 12 + 4 * count])
    offset = struct.unpack(">I", data[stbl[b"stco"][0] + 8:stbl[b"stco"][0] + 12])[0]
    assert offset == top[b"mdat"][0]
    for size in sizes:  # every sample is a whole JPEG of the asked size
        frame = Image.open(io.BytesIO(data[offset:offset + size]))
        assert frame.format == "JPEG" and frame.size == (270, 600)
        offset += size
    assert offset == len(data)
    duration = struct.unpack(">I", data[mdia[b"mdhd"][0] + 16:mdia[b"mdhd"][0] + 20])[0]
    assert 3000 <= duration <= 3001
    assert "must specify output file" in shell(adb, served, "screenrecord", code=1)
    assert "exceeds maximum 180s" in shell(adb, served, "screenrecord --time-limit 999 /sdcard/a.mp4", code=1)
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")  # ships with moviepy (mobilegym[wrappers])
    decoded = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-i", str(local), "-f", "framemd5", "-"],
                             capture_output=True, text=True, timeout=120)
    assert decoded.returncode == 0 and decoded.stderr == "", decoded.stderr  # ffmpeg plays it, frame for frame
    frames = [line for line in decoded.stdout.splitlines() if line and not line.startswith("#")]
    assert len(frames) == count and "dimensions 0: 270x600" in decoded.stdout


def test_clipboard_and_notifications(adb: AdbServer, served: AdbdServer) -> None:
    assert shell(adb, served, "cmd clipboard get-primary-clip").strip() == "null"
    shell(adb, served, "cmd clipboard set-primary-clip 'copied text'")
    assert shell(adb, served, "cmd clipboard get-primary-clip").strip() == "copied text"
    shell(adb, served, "cmd notification post -t 'Build done' build_tag 'All 12 tests passed'")
    posted = served.phone.get_state()["os"]["notifications"][0]
    assert (posted["title"], posted["text"], posted["app"]) == ("Build done", "All 12 tests passed", "Shell")
    shell(adb, served, "input swipe 270 5 270 900 300")  # pull the shade down
    texts = [n.text for n in parse_nodes(served.phone.a11y_xml())]
    assert "Build done" in texts and "All 12 tests passed" in texts  # shown in the shade
    assert "usage: cmd notification post" in shell(adb, served, "cmd notification post only_tag", code=1)


def test_wm_size_override_and_reset(adb: AdbServer, served: AdbdServer) -> None:
    shell(adb, served, "wm size 720x1600")
    assert shell(adb, served, "wm size").replace("\r", "") == "Physical size: 540x1200\nOverride size: 720x1600\n"
    png = adb.cli("exec-out", "screencap", "-p", serial=served.serial).stdout
    assert Image.open(io.BytesIO(png)).size == (720, 1600)
    assert "max 539," in shell(adb, served, "getevent -lp")  # the panel itself keeps its size
    shell(adb, served, "wm size reset")
    assert shell(adb, served, "wm size").replace("\r", "") == "Physical size: 540x1200\n"
    assert "bad size" in shell(adb, served, "wm size big", code=1)
    assert "screen width" in shell(adb, served, "wm size 10x10", code=1)


def test_setting_the_date_moves_the_clock_forward_only(adb: AdbServer, served: AdbdServer) -> None:
    now = from_ms(served.phone.time_ms())
    later = now.replace(year=now.year + 1, hour=7, minute=30, second=0)
    out = shell(adb, served, f"date {later:%m%d%H%M%Y.%S}")
    assert from_ms(served.phone.time_ms()) == later and f"{later:%H:%M:%S}" in out
    shell(adb, served, f"date -s '{later.replace(minute=45):%Y-%m-%d %H:%M:%S}'")
    assert from_ms(served.phone.time_ms()).minute == 45
    stamp = served.phone.time_ms() + 60_000
    shell(adb, served, f"cmd alarm set-time {stamp}")
    assert served.phone.time_ms() == stamp
    refused = shell(adb, served, f"date {now:%m%d%H%M%Y}", code=1)
    assert "only moves forward" in refused and served.phone.time_ms() == stamp
    assert "invalid date" in shell(adb, served, "date -s yesterday", code=1)


def test_pm_install_is_refused_and_pm_grant_accepted(adb: AdbServer, served: AdbdServer, tmp_path) -> None:
    apk = tmp_path / "app.apk"
    apk.write_bytes(b"PK\x03\x04 not really an apk")
    done = adb.cli("install", str(apk), serial=served.serial, timeout=60)
    assert done.returncode != 0 and b"cannot install APKs" in done.stdout + done.stderr
    assert "cannot install APKs" in shell(adb, served, "pm install /sdcard/app.apk", code=1)
    shell(adb, served, "pm grant com.mobilegym.clock android.permission.POST_NOTIFICATIONS")
    shell(adb, served, "pm grant com.android.adbkeyboard android.permission.READ_CONTACTS")
    assert "Unknown package: com.nope" in shell(adb, served, "pm grant com.nope android.permission.CAMERA", code=255)
    assert "Unknown permission" in shell(adb, served, "pm grant com.mobilegym.clock CAMERA", code=255)


def test_uiautomator2_launch_without_the_jar_fails_with_the_reason(adb: AdbServer, served: AdbdServer) -> None:
    out = shell(adb, served, "CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008")
    assert "Could not find or load main class com.wetest.uia2.Main" in out and "push" in out
    assert "runs no Android runtime" in shell(adb, served, "app_process / com.example.Main", code=1)
    assert shell(adb, served, "toybox echo hi").strip() == "hi"
    assert shell(adb, served, "echo -n abc > /sdcard/a.txt; toybox md5sum /sdcard/a.txt").split()[0] == \
        "900150983cd24fb0d6963f7d28e17f72"


def test_assignment_prefix_sets_a_variable_for_one_command() -> None:
    shell_ = Shell(SimDevice(540, 1200, apps=("settings",)))
    assert shell_.run("A=1; echo $A").stdout == b"1\n"
    assert shell_.run("B=2 echo x").stdout == b"x\n" and "B" not in shell_.env


def test_adb_device_types_unicode_on_a_stock_phone_through_adbkeyboard(adb: AdbServer) -> None:
    from mobilegym.device.adb import AdbDevice

    plain = AdbdServer(SimDevice(540, 1200, apps=APPS, world="canonical"), extensions=False).start()
    try:
        device = AdbDevice(plain.serial, adb_port=adb.port)
        assert not device.is_sim
        device.shell("am start -a android.intent.action.SENDTO -d sms:5551234")
        device.type_text("早上好")  # nothing focused: reaches no field, as keys would, and no error
        field = next(n for n in parse_nodes(plain.phone.a11y_xml()) if n.short_id == "message_input")
        device.tap(*field.center)
        device.type_text("早上好")
        assert next(n.text for n in parse_nodes(plain.phone.a11y_xml()) if n.short_id == "message_input") == "早上好"
        assert device.shell("settings get secure default_input_method").strip() == ADB_IME
    finally:
        adb.cli("disconnect", plain.serial)
        plain.close()


def test_uiautomator2_drives_the_phone(adb: AdbServer, served: AdbdServer) -> None:
    u2 = pytest.importorskip("uiautomator2")
    adbutils = pytest.importorskip("adbutils")
    device = adbutils.AdbClient(host="127.0.0.1", port=adb.port).device(served.serial)
    d = u2.connect(device)
    try:
        info = d.info
        assert (info["displayWidth"], info["displayHeight"], info["sdkInt"]) == (540, 1200, 34)
        assert info["currentPackageName"] == "com.mobilegym.launcher"
        assert d.dump_hierarchy() == served.phone.a11y_xml()
        assert d.screenshot().size == (540, 1200)
        d.app_start("com.mobilegym.messages")
        assert d.app_current()["package"] == "com.mobilegym.messages"
        new = next(n for n in parse_nodes(d.dump_hierarchy()) if n.short_id == "new_message")
        d.click(*new.center)
        assert served.phone.current_route().startswith("/compose")
        field = next(n for n in parse_nodes(d.dump_hierarchy()) if n.short_id == "recipient_input")
        d.click(*field.center)
        d.send_keys("5551234 ☎")  # through the clipboard, as uiautomator2 does without its own keyboard
        assert field_text(served, "recipient_input") == "5551234 ☎"
        d.clear_text()
        assert field_text(served, "recipient_input") == ""
        d.press("back")
        d.swipe(270, 900, 270, 300, steps=20)
        d.press("home")
        assert served.phone.current_app() == "launcher"
        with pytest.raises(u2.exceptions.RPCUnknownError, match="Method not found: objInfo"):
            d.jsonrpc.objInfo({"text": "x"})
        with pytest.raises(u2.exceptions.RPCUnknownError, match="outside the 540x1200 screen"):
            d.click(540, 1200)
    finally:
        d.stop_uiautomator()
    done = adb.cli("forward", "tcp:0", "tcp:9008", serial=served.serial)  # stopped: the port is closed again
    assert done.returncode == 0
    local = int(done.stdout.decode().strip())
    import socket

    with socket.create_connection(("127.0.0.1", local), timeout=5) as sock:
        sock.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(100) == b""
    adb.cli("forward", "--remove", f"tcp:{local}", serial=served.serial)


def test_adb_shell_package_reaches_the_same_commands(served: AdbdServer) -> None:
    adb_device = pytest.importorskip("adb_shell.adb_device")
    host, port = served.serial.rsplit(":", 1)
    device = adb_device.AdbDeviceTcp(host, int(port), default_transport_timeout_s=10)
    device.connect(auth_timeout_s=1)
    try:
        out = device.shell("ime list -s; cmd clipboard set-primary-clip hi; cmd clipboard get-primary-clip; "
                           "getevent -lp | grep -c ABS_MT", read_timeout_s=10)
        lines = out.split()
        assert ADB_IME in lines and "hi" in lines and lines[-1] == "6"
    finally:
        device.close()
