"""The simulated phone's shell, file system, settings mapping and ADB framing (no adb binary)."""
from __future__ import annotations

import io
import json
import re
import socket
import struct

import numpy as np
import pytest
from PIL import Image

from mobilegym.adbd import proto
from mobilegym.adbd.server import AdbdServer
from mobilegym.adbd.shell import Shell, ShellSyntaxError, parse
from mobilegym.sim.phone import Phone
from mobilegym.sim.vfs import VfsError, VirtualFS

from .uitools import node


@pytest.fixture
def sh(phone: Phone) -> Shell:
    return Shell(phone)


def out(sh: Shell, line: str) -> str:
    result = sh.run(line)
    return result.output.decode()


# ----------------------------------------------------------------------------- shell language
def test_quoting_variables_and_status(sh: Shell) -> None:
    assert out(sh, "echo 'a  b' \"c $EXTERNAL_STORAGE\" d\\ e") == "a  b c /sdcard d e\n"
    assert out(sh, "false; echo $?; true && echo yes || echo no; false || echo fallback") == "1\nyes\nfallback\n"
    assert out(sh, "echo -n x; echo -e 'a\\tb'") == "xa\tb\n"


def test_redirections_and_pipes(sh: Shell) -> None:
    sh.run("echo one > /sdcard/f.txt; echo two >> /sdcard/f.txt")
    assert out(sh, "cat /sdcard/f.txt | grep -n two") == "2:two\n"
    assert out(sh, "cat < /sdcard/f.txt | wc -l") == "2\n"
    assert out(sh, "cat /nope 2>/dev/null; echo $?") == "1\n"
    assert out(sh, "cat /nope 2>&1 | head -n 1").startswith("cat: /nope: No such file")
    assert out(sh, "ls /sdcard/*.txt") == "/sdcard/f.txt\n"
    assert out(sh, "echo '*.txt'") == "*.txt\n"


def test_syntax_errors_and_unknown_commands(sh: Shell) -> None:
    result = sh.run("frobnicate --now")
    assert result.code == 127
    assert result.stderr == b"/system/bin/sh: frobnicate: inaccessible or not found\n"
    assert sh.run("echo 'unterminated").code == 2
    with pytest.raises(ShellSyntaxError):
        parse("echo $(id)")
    with pytest.raises(ShellSyntaxError):
        parse("&& echo x")


def test_file_commands(sh: Shell) -> None:
    assert sh.run("mkdir /sdcard/a/b").code == 1
    assert sh.run("mkdir -p /sdcard/a/b && touch /sdcard/a/b/c && cp /sdcard/a/b/c /sdcard/a/d").code == 0
    assert out(sh, "ls /sdcard/a") == "b\nd\n"
    assert re.search(r"-rw-rw---- 1 shell shell +0 2026-\d\d-\d\d \d\d:\d\d c", out(sh, "ls -l /sdcard/a/b"))
    assert sh.run("rm /sdcard/a").code == 1
    assert sh.run("rm -rf /sdcard/a && test -e /sdcard/a").code == 1
    assert out(sh, "cd /sdcard/Download; pwd") == "/sdcard/Download\n"
    assert out(sh, "ls /storage/emulated/0/ | head -2") == "Android\nDCIM\n"


def test_vfs_errors() -> None:
    fs = VirtualFS(clock=lambda: 5000)
    fs.write("/sdcard/x", b"1")
    assert fs.stat("/sdcard/x").mtime_ms == 5000
    with pytest.raises(VfsError) as err:
        fs.write("/missing/dir/x", b"")
    assert err.value.errno == 2
    with pytest.raises(VfsError):
        fs.read("/sdcard")
    fs.move("/sdcard/x", "/sdcard/Download")
    assert fs.read("/sdcard/Download/x") == b"1"


def test_date_and_sleep_use_the_simulated_clock(sh: Shell, phone: Phone) -> None:
    ms = phone.time_ms()
    assert out(sh, "date +%s%3N") == f"{ms}\n"
    assert out(sh, "date '+%Y-%m-%d %H:%M'") == "2026-03-16 09:00\n"
    sh.run("sleep 90")
    assert phone.time_ms() == ms + 90_000


# ----------------------------------------------------------------------------- Android commands
def test_screencap_png_and_raw(sh: Shell, phone: Phone) -> None:
    png = sh.run("screencap -p").stdout
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")), phone.screenshot())
    raw = sh.run("screencap").stdout
    w, h, fmt, _ = struct.unpack("<4I", raw[:16])
    assert (w, h, fmt) == (1080, 2400, 1) and len(raw) == 16 + w * h * 4
    sh.run("screencap -p /sdcard/s.png")
    assert phone.files.read("/sdcard/s.png") == png


def test_uiautomator_dump(sh: Shell, phone: Phone) -> None:
    assert out(sh, "uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    assert phone.files.read("/sdcard/window_dump.xml").decode() == phone.a11y_xml()
    assert out(sh, "uiautomator dump /dev/tty").startswith(phone.a11y_xml())


def test_input_and_focus(sh: Shell, phone: Phone) -> None:
    assert out(sh, "monkey -p com.mobilegym.settings -c android.intent.category.LAUNCHER 1").startswith("Events injected: 1")
    focus = out(sh, "dumpsys window windows | grep -E 'mCurrentFocus|mFocusedApp'")
    assert "mCurrentFocus=Window{" in focus and "com.mobilegym.settings/com.mobilegym.settings.MainActivity}" in focus
    x, y = node(phone, rid="about_entry").center
    sh.run(f"input tap {x} {y}")
    assert phone.current_route() == "/about"
    sh.run("input keyevent KEYCODE_BACK")
    assert phone.current_route() == "/"
    sh.run("input keyevent 3")
    assert phone.current_app() == "launcher"
    assert "launcher/com.mobilegym.launcher.Launcher" in out(sh, "dumpsys activity activities")
    assert sh.run("input keyevent KEYCODE_NOPE").code == 1
    assert sh.run("input tap 5000 5000").code == 1


def test_am_start_and_force_stop(sh: Shell, phone: Phone) -> None:
    assert out(sh, "am start -n com.mobilegym.clock/.Main").startswith("Starting: Intent { cmp=com.mobilegym.clock/.Main }")
    assert phone.current_app() == "clock"
    sh.run("am force-stop com.mobilegym.clock")
    assert phone.current_app() == "launcher"
    assert sh.run("am start -n com.nope/.Main").code == 1
    assert sh.run("monkey -p com.nope 1").code == 252


def test_wm_getprop_pm(sh: Shell, phone: Phone) -> None:
    assert out(sh, "wm size") == "Physical size: 1080x2400\n"
    assert out(sh, "wm density") == "Physical density: 480\n"
    assert out(sh, "getprop ro.build.version.sdk") == "34\n"
    assert out(sh, "getprop ro.product.model") == "MG-1 Pro\n"  # from the Settings app's About data
    assert "[ro.product.brand]: [mobilegym]" in out(sh, "getprop")
    packages = out(sh, "pm list packages -3").split()
    assert "package:com.mobilegym.settings" in packages and "package:android" not in packages
    assert out(sh, "cmd package list packages clock") == "package:com.mobilegym.clock\n"


def test_settings_mapping(sh: Shell, phone: Phone) -> None:
    assert out(sh, "settings get global wifi_on") == "1\n"
    sh.run("settings put global wifi_on 0")
    assert phone.get_state()["apps"]["settings"]["wifi"] is False
    sh.run("settings put system screen_brightness 255")
    assert phone.get_state()["apps"]["settings"]["brightness"] == 100
    sh.run("settings put secure ui_night_mode 2")
    assert phone.get_state()["apps"]["settings"]["dark_mode"] is True
    sh.run("settings put system font_scale 1.3")
    assert phone.get_state()["apps"]["settings"]["font_size"] == "largest"
    assert out(sh, "settings get system font_scale") == "1.3\n"
    assert sh.run("settings put global wifi_on maybe").code == 1
    assert out(sh, "settings get global no_such_setting") == "null\n"
    sh.run("settings put global my_flag 7")
    assert out(sh, "settings get global my_flag") == "7\n"
    assert "airplane_mode_on=0" in out(sh, "settings list global")


def test_mobilegym_state_extension(sh: Shell, phone: Phone) -> None:
    assert json.loads(out(sh, "mobilegym state get apps.settings.wifi")) is True
    sh.run("""mobilegym state patch '{"apps": {"settings": {"bluetooth": true}}}'""")
    assert phone.get_state()["apps"]["settings"]["bluetooth"] is True
    bad = sh.run("mobilegym state patch '{\"nope\": 1}'")
    assert bad.code == 1 and b"os" in bad.stderr
    assert sh.run("mobilegym state get apps.nope").code == 1
    phone.files.write("/sdcard/p.json", b'{"apps": {"settings": {"brightness": 7}}}')
    sh.run("mobilegym state patch -f /sdcard/p.json")
    assert phone.get_state()["apps"]["settings"]["brightness"] == 7
    sh.run("mobilegym state reset")
    assert phone.get_state()["apps"]["settings"]["brightness"] == 60
    assert "settings\tcom.mobilegym.settings\tSettings" in out(sh, "mobilegym apps")
    sh.run("mobilegym type --clear hi")  # no focused field: nothing happens, no error
    assert out(sh, "mobilegym version") == "1\n"


def test_pm_clear_resets_one_app(sh: Shell, phone: Phone) -> None:
    phone.set_state({"apps": {"settings": {"brightness": 5}}})
    assert out(sh, "pm clear com.mobilegym.settings") == "Success\n"
    assert phone.get_state()["apps"]["settings"]["brightness"] == 60


# ----------------------------------------------------------------------------- ADB framing
def test_message_roundtrip_and_bad_magic() -> None:
    a, b = socket.socketpair()
    with a, b:
        a.sendall(proto.pack(proto.Message(proto.A_WRTE, 3, 4, b"hello")))
        msg = proto.read_message(b, proto.MAX_PAYLOAD, verify_checksum=True)
        assert (msg.name, msg.arg0, msg.arg1, msg.data) == ("WRTE", 3, 4, b"hello")
        a.sendall(proto.HEADER.pack(proto.A_OKAY, 0, 0, 0, 0, 0))
        with pytest.raises(proto.ProtocolError):
            proto.read_message(b, proto.MAX_PAYLOAD, verify_checksum=False)


def _exchange(sock: socket.socket, msg: proto.Message) -> proto.Message:
    sock.sendall(proto.pack(msg))
    return proto.read_message(sock, proto.MAX_PAYLOAD, verify_checksum=False)


def test_raw_protocol_handshake_and_shell(phone: Phone) -> None:
    """Speak the host side by hand: CNXN, OPEN shell, WRTE/OKAY flow control, CLSE."""
    with AdbdServer(phone) as server, socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        reply = _exchange(sock, proto.Message(proto.A_CNXN, proto.A_VERSION, 4096, b"host::features=shell_v2\0"))
        assert reply.name == "CNXN" and reply.data.startswith(b"device::")
        assert b"features=shell_v2,cmd,stat_v2" in reply.data
        okay = _exchange(sock, proto.Message(proto.A_OPEN, 7, 0, b"shell:echo hi; getprop ro.build.version.sdk\0"))
        assert (okay.name, okay.arg1) == ("OKAY", 7)
        data = proto.read_message(sock, proto.MAX_PAYLOAD, False)
        assert (data.name, data.data) == ("WRTE", b"hi\n34\n")
        close = _exchange(sock, proto.Message(proto.A_OKAY, 7, okay.arg0))
        assert close.name == "CLSE"
        refused = _exchange(sock, proto.Message(proto.A_OPEN, 8, 0, b"reboot:\0"))
        assert (refused.name, refused.arg0, refused.arg1) == ("CLSE", 0, 8)
