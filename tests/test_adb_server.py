"""The simulated phone over ADB, driven by the real adb binary and by adbutils."""
from __future__ import annotations

import io
import threading

import adbutils
import numpy as np
import pytest
from PIL import Image

from mobilegym.adbd.server import AdbdServer

from .adb_support import AdbServer, adb_server, requires_adb, served  # noqa: F401  (fixtures)
from .uitools import node

pytestmark = requires_adb


@pytest.fixture(autouse=True)
def fresh_phone(served: AdbdServer) -> None:
    served.phone.reset_state()


@pytest.fixture
def device(adb_server: AdbServer, served: AdbdServer) -> adbutils.AdbDevice:
    return adbutils.AdbClient(host="127.0.0.1", port=adb_server.port).device(served.serial)


# ----------------------------------------------------------------------------- adb command line
def test_devices_lists_the_phone(adb_server: AdbServer, served: AdbdServer) -> None:
    listing = adb_server.cli("devices", "-l").stdout.decode()
    assert f"{served.serial}" in listing and "device product:mobilegym_phone" in listing


def test_adb_shell_output_and_exit_codes(adb_server: AdbServer, served: AdbdServer) -> None:
    done = adb_server.cli("shell", "echo hi; getprop ro.build.version.sdk", serial=served.serial)
    assert (done.returncode, done.stdout) == (0, b"hi\n34\n")
    missing = adb_server.cli("shell", "nosuchcmd", serial=served.serial)
    assert missing.returncode == 127 and b"nosuchcmd: inaccessible or not found" in missing.stderr
    assert adb_server.cli("shell", "exit 3", serial=served.serial).returncode == 3


def test_adb_shell_runs_a_piped_script(adb_server: AdbServer, served: AdbdServer) -> None:
    script = b"echo one\nsettings get global wifi_on\nmobilegym app\n"
    done = adb_server.cli("shell", serial=served.serial, stdin=script)
    assert done.stdout == b"one\n1\nlauncher\n"


def test_interactive_pty_session(adb_server: AdbServer, served: AdbdServer) -> None:
    done = adb_server.cli("shell", "-tt", serial=served.serial, stdin=b"echo hi\nexit 4\n")
    assert done.returncode == 4
    assert done.stdout.startswith(b"mobilegym:/ $ echo hi\r\nhi\r\nmobilegym:/ $ exit 4\r\n")


def test_exec_out_screencap_is_the_screen(adb_server: AdbServer, served: AdbdServer) -> None:
    done = adb_server.cli("exec-out", "screencap", "-p", serial=served.serial)
    shot = np.asarray(Image.open(io.BytesIO(done.stdout)).convert("RGB"))
    assert np.array_equal(shot, served.phone.screenshot())


def test_push_pull_and_ls(adb_server: AdbServer, served: AdbdServer, tmp_path) -> None:
    local = tmp_path / "note.txt"
    local.write_bytes(b"hello\x00world" * 10_000)  # larger than one sync chunk
    push = adb_server.cli("push", str(local), "/sdcard/Download/new/note.txt", serial=served.serial)
    assert push.returncode == 0, push.stderr
    assert served.phone.files.read("/sdcard/Download/new/note.txt") == local.read_bytes()
    assert adb_server.cli("shell", "uiautomator dump", serial=served.serial).returncode == 0
    pulled = tmp_path / "dump.xml"
    assert adb_server.cli("pull", "/sdcard/window_dump.xml", str(pulled), serial=served.serial).returncode == 0
    assert pulled.read_text("utf-8") == served.phone.a11y_xml()
    assert adb_server.cli("pull", "/sdcard/Download", str(tmp_path / "dl"), serial=served.serial).returncode == 0
    assert (tmp_path / "dl" / "new" / "note.txt").read_bytes() == local.read_bytes()
    missing = adb_server.cli("pull", "/sdcard/none.txt", str(tmp_path / "x"), serial=served.serial)
    assert missing.returncode != 0 and b"No such file" in missing.stdout + missing.stderr
    assert b"Download" in adb_server.cli("ls", "/sdcard", serial=served.serial).stdout


# ----------------------------------------------------------------------------- adbutils
def test_adbutils_observation(device: adbutils.AdbDevice, served: AdbdServer) -> None:
    assert np.array_equal(np.asarray(device.screenshot()), served.phone.screenshot())
    assert device.dump_hierarchy() == served.phone.a11y_xml()
    assert tuple(device.window_size()) == (1080, 2400)
    assert device.app_current().package == "com.mobilegym.launcher"
    assert device.prop.model == "MG-1 Pro"


def test_adbutils_input(device: adbutils.AdbDevice, served: AdbdServer) -> None:
    phone = served.phone
    device.app_start("com.mobilegym.settings")
    assert device.app_current().package == "com.mobilegym.settings"
    device.click(*node(phone, rid="about_entry").center)
    assert phone.current_route() == "/about"
    device.keyevent("KEYCODE_BACK")
    device.click(*node(phone, rid="display_entry").center)
    device.swipe(540, 1800, 540, 600, 0.3)
    assert phone.current_route() == "/display"
    device.keyevent("KEYCODE_HOME")
    assert device.app_current().package == "com.mobilegym.launcher"


def test_adbutils_send_keys_types_into_the_focused_field(device: adbutils.AdbDevice, served: AdbdServer) -> None:
    phone = served.phone
    device.app_start("com.mobilegym.settings")
    device.click(*node(phone, rid="about_entry").center)
    device.click(*node(phone, rid="device_name").center)
    device.click(*node(phone, rid="name_input").center)
    device.send_keys("Pocket%sRocket")
    assert node(phone, rid="name_input").text.endswith("Pocket Rocket")


def test_adbutils_sync(device: adbutils.AdbDevice, served: AdbdServer) -> None:
    device.sync.push(b"payload", "/sdcard/Documents/a.bin")
    assert device.sync.read_bytes("/sdcard/Documents/a.bin") == b"payload"
    info = device.sync.stat("/sdcard/Documents/a.bin")
    assert info.size == 7 and info.mode & 0o100000
    assert "a.bin" in [f.path for f in device.sync.list("/sdcard/Documents")]
    with pytest.raises(adbutils.AdbError):
        device.sync.read_bytes("/sdcard/missing")


def test_adbutils_shell_v2_splits_streams(device: adbutils.AdbDevice) -> None:
    result = device.shell2("echo out; echo err >&2; false", v2=True)
    assert (result.stdout, result.stderr, result.returncode) == ("out\n", "err\n", 1)


def test_concurrent_streams(device: adbutils.AdbDevice) -> None:
    results: list[str] = []

    def work(i: int) -> None:
        for _ in range(5):
            results.append(device.shell(f"echo {i}; date +%s"))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 30 and all(r.split("\n")[1].isdigit() for r in results)


def test_clean_shutdown_drops_the_transport(adb_server: AdbServer) -> None:
    from .adb_support import serve_phone

    adbd = serve_phone()
    adb_server.connect(adbd.serial)
    adbd.close()
    assert all(not t.is_alive() for t in adbd._threads)
    done = adb_server.cli("shell", "echo hi", serial=adbd.serial, timeout=20)
    assert done.returncode != 0
    adb_server.cli("disconnect", adbd.serial)
