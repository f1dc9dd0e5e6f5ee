"""AdbDevice and whole episodes through gym.make over ADB, on the simulated phone."""
from __future__ import annotations

import time

import gymnasium as gym
import numpy as np
import pytest

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.device.adb import AdbDevice, make_adb_device
from mobilegym.device.base import CAP_FILES, CAP_LAUNCH, CAP_PREPARE, CAP_SHELL, CAP_STATE, DeviceError, UnsupportedCapability
from mobilegym.oracle import Driver
from mobilegym.adbd.server import AdbdServer
from mobilegym.device.sim import SimDevice

from .adb_support import AdbServer, adb_server, free_port, requires_adb, served, serve_phone  # noqa: F401
from .uitools import CORE_APPS

pytestmark = requires_adb


@pytest.fixture
def device(adb_server: AdbServer, served: AdbdServer) -> AdbDevice:
    served.phone.reset_state()
    return make_adb_device({"serial": served.serial, "port": adb_server.port, "timeout": 10})


def adb_env(adb_server: AdbServer, served: AdbdServer, task: str, **kw) -> gym.Env:
    return gym.make("MobileGym-v0", task=task, device={"serial": served.serial, "port": adb_server.port}, **kw)


# ----------------------------------------------------------------------------- the device
def test_capabilities_and_basics(device: AdbDevice, served: AdbdServer) -> None:
    assert device.capabilities == {CAP_SHELL, CAP_FILES, CAP_LAUNCH, CAP_STATE, CAP_PREPARE}
    assert device.screen_size == (1080, 2400)
    assert set(device.apps) == set(CORE_APPS)
    assert device.time_ms() == served.phone.time_ms()
    device.wait(30)
    assert served.phone.time_ms() == device.time_ms()
    assert device.shell("echo hi") == "hi\n"


def test_observations_equal_the_in_process_phone(device: AdbDevice, served: AdbdServer) -> None:
    device.open_app("Settings")
    twin = SimDevice(apps=CORE_APPS)
    twin.set_state(device.get_state())
    assert np.array_equal(device.screenshot(), twin.screenshot())
    assert device.a11y_xml() == twin.a11y_xml()
    raw = make_adb_device({"serial": device.serial, "port": device.adb_port, "screencap": "raw"})
    assert np.array_equal(raw.screenshot(), twin.screenshot())


def test_input_and_apps(device: AdbDevice, served: AdbdServer) -> None:
    phone = served.phone
    device.open_app("com.mobilegym.settings")
    assert (device.current_app(), device.current_route()) == ("settings", "/")
    device.key("back")
    assert device.current_app() == "launcher"
    device.open_app("clock")
    device.key("home")
    device.key("recent")
    device.key("back")
    device.swipe(540, 1500, 540, 700, 200)
    device.drag(540, 700, 540, 1500)
    device.long_press(540, 1200)
    device.double_tap(540, 1200)
    assert phone.current_app() == device.current_app()
    device.launch("settings", "/about")
    assert (device.current_app(), device.current_route()) == ("settings", "/about")
    with pytest.raises(ValueError, match="unknown key"):
        device.key("volume")
    with pytest.raises(ValueError, match="unknown app"):
        device.open_app("nope")


def test_typing_unicode_and_clear(device: AdbDevice, served: AdbdServer) -> None:
    from .uitools import node, tap

    phone = served.phone
    device.open_app("settings")
    tap(phone, rid="about_entry")
    tap(phone, rid="device_name")
    tap(phone, rid="name_input")
    device.type_text("Pocket 手机", clear=True)
    assert node(phone, rid="name_input").text == "Pocket 手机"


def test_state_files_and_errors(device: AdbDevice, served: AdbdServer) -> None:
    device.set_state({"apps": {"settings": {"wifi": False}}})
    assert device.get_state()["apps"]["settings"]["wifi"] is False
    big = {"apps": {"settings": {"about": {"device_name": "x" * 20_000}}}}
    device.set_state(big)  # larger than a command line: pushed as a file
    assert served.phone.get_state()["apps"]["settings"]["about"]["device_name"] == "x" * 20_000
    with pytest.raises(ValueError, match="os"):
        device.set_state({"bogus": True})
    device.reset_state(3)
    assert device.get_state()["apps"]["settings"]["wifi"] is True
    device.push("/sdcard/Download/a.txt", b"abc")
    assert device.pull("/sdcard/Download/a.txt") == b"abc"
    with pytest.raises(FileNotFoundError):
        device.pull("/sdcard/none")


def test_stock_phone_lacks_the_state_capability(adb_server: AdbServer) -> None:
    plain = AdbdServer(SimDevice(apps=CORE_APPS), extensions=False).start()
    try:
        dev = AdbDevice(plain.serial, adb_port=adb_server.port)  # HOST:PORT: connected automatically
        assert dev.capabilities == {CAP_SHELL, CAP_FILES, CAP_LAUNCH}
        with pytest.raises(UnsupportedCapability, match="'state'"):
            dev.get_state()
        dev.open_app("com.mobilegym.settings")
        assert dev.current_app() == "com.mobilegym.settings"
        assert dev.current_route() == "com.mobilegym.settings/com.mobilegym.settings.MainActivity"
        dev.key("home")
        assert dev.current_app() == "launcher"
        with pytest.raises(UnsupportedCapability, match="'state'"):
            gym.make("MobileGym-v0", task="settings.ToggleWifi",
                     device={"serial": plain.serial, "port": adb_server.port}).reset(seed=0)
    finally:
        adb_server.cli("disconnect", plain.serial)
        plain.close()


def test_clear_errors_without_an_adb_server() -> None:
    started = time.monotonic()
    with pytest.raises(DeviceError, match="adb server .* is not reachable"):
        AdbDevice("127.0.0.1:5555", adb_port=free_port())
    with pytest.raises(ValueError, match="unknown ADB device setting"):
        make_adb_device({"serial": "x", "bogus": 1})
    assert time.monotonic() - started < 5


# ----------------------------------------------------------------------------- episodes
def _toggle_wifi(driver: Driver) -> None:
    driver.open_app("Settings")
    driver.tap(rid="network_entry")
    driver.tap(rid="wifi_row")
    driver.complete()


def test_settings_episode_through_adb(adb_server: AdbServer, served: AdbdServer) -> None:
    env = adb_env(adb_server, served, "settings.ToggleWifi")
    obs, info = env.reset(seed=1)
    assert np.array_equal(obs["screenshot"], served.phone.screenshot())
    assert obs["a11y"] == served.phone.a11y_xml()
    driver = Driver(env, obs, info)
    _toggle_wifi(driver)
    assert driver.done and driver.reward == 1.0
    assert driver.info["judge"]["success"] is True
    env.close()


def test_query_episode_in_text_mode(adb_server: AdbServer, served: AdbdServer) -> None:
    env = adb_env(adb_server, served, "settings.CheckDeviceModel", eval_mode="text")
    obs, info = env.reset(seed=0)
    driver = Driver(env, obs, info)
    driver.open_app("Settings")
    driver.tap(rid="about_entry")
    model = driver.find(rid="model")
    assert model is not None
    shown = env.unwrapped.device.get_state()["apps"]["settings"]["about"]["model"]  # this world's model
    answer = next(n.text for n in driver.nodes() if n.text == shown)
    driver.step({"type": "answer", "text": answer})
    driver.complete()
    assert driver.reward == 1.0, driver.info["judge"]
    env.close()


# ----------------------------------------------------------------------------- faults
def test_adb_server_killed_mid_episode(served: AdbdServer) -> None:
    server = AdbServer().start()
    try:
        server.connect(served.serial)
        env = gym.make("MobileGym-v0", task="settings.ToggleWifi",
                       device={"serial": served.serial, "port": server.port, "timeout": 5})
        env.reset(seed=0)
        server.kill()
        started = time.monotonic()
        with pytest.raises(DeviceError, match="adb server"):
            env.step({"type": "tap", "x": 540, "y": 1200})
        assert time.monotonic() - started < 5
        server.start()  # same port, the phone not connected yet: the device reconnects by itself
        obs, info = env.reset(seed=1)
        driver = Driver(env, obs, info)
        _toggle_wifi(driver)
        assert driver.reward == 1.0
    finally:
        server.kill()


def test_simulated_phone_killed_mid_episode(adb_server: AdbServer) -> None:
    adbd = serve_phone()
    port = adbd.port
    try:
        adb_server.connect(adbd.serial)
        env = gym.make("MobileGym-v0", task="settings.ToggleWifi",
                       device={"serial": adbd.serial, "port": adb_server.port, "timeout": 5, "retries": 1})
        env.reset(seed=0)
        adbd.close()
        started = time.monotonic()
        with pytest.raises(DeviceError):
            env.step({"type": "tap", "x": 540, "y": 1200})
        assert time.monotonic() - started < 10
        adbd = serve_phone(port)
        obs, info = env.reset(seed=2)
        driver = Driver(env, obs, info)
        _toggle_wifi(driver)
        assert driver.reward == 1.0
    finally:
        adb_server.cli("disconnect", adbd.serial)
        adbd.close()
