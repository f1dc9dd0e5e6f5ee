"""Bad input of every kind gets a named error (InvalidAction, TaskError, ValueError naming the argument,
ScreenError, AppError) and never leaves a broken phone: actions, typed text, env options, routes, app
handlers, the Python ecosystem (pickle, deepcopy, async vector envs, FlattenObservation, specs) and downloads
(allow_hosts)."""
from __future__ import annotations

import copy
import http.server
import json
import pickle
import threading
import xml.etree.ElementTree as ET

import cloudpickle
import gymnasium as gym
import numpy as np
import pytest
from PIL import ImageFont

import mobilegym  # noqa: F401
from mobilegym.actions import CoordinateSpace, InvalidAction, parse_action
from mobilegym.env import MobileGymEnv, UnicodeText
from mobilegym.judge import TaskError
from mobilegym.judge.json import setup_actions
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx
from mobilegym.sim.ui import fonts
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import AppError, Phone, ScreenError
from mobilegym.wrappers import SB3_ENV_ID, make_sb3_env
from tests.uitools import CORE_APPS

COORDS = CoordinateSpace("pixels", (1080, 2400))
SMALL = dict(task="home.OpenApp", apps=CORE_APPS, render_scale=0.1)


# actions ----------------------------------------------------------------------------------
@pytest.mark.parametrize("action", [
    {"type": "tap", "x": None, "y": 5},
    {"type": "open_app", "app": None},
    {"type": "key", "key": None},
    {"type": "swipe", "x": 1, "y": 1, "x2": None, "y2": 3},
    {"type": "long_press", "x": 1, "y": 1, "duration_ms": None},
    {"type": "type", "text": None},
    {"type": "type", "text": "a", "clear": None},
    {"type": "tap", "x": 10 ** 400, "y": 5},
    {"type": "wait", "seconds": -(10 ** 400)},
    {"type": "tap", "x": np.float64("nan"), "y": 5},
    {"type": "tap", "x": True, "y": 5},
    {"type": ["tap"], "x": 1, "y": 1},
    {"type": {"tap": 1}},
    {"type": "key", "key": ["back"]},
    {"type": "tap", "x": 1, "y": 1, 3: 4, "z": 0},
    {"type": "type", "text": "a\ud800"},
    {"type": "open_app", "app": "\udfff"},
])
def test_malformed_actions_are_invalid_never_a_raw_error(action: dict) -> None:
    with pytest.raises(InvalidAction):
        parse_action(action, COORDS)
    env = MobileGymEnv(invalid_action="noop", obs_parts=("a11y",), **SMALL)
    assert not env.action_space.contains(action)
    env.reset(seed=0)
    before = env.device.get_state()
    _, _, _, _, info = env.step(action)
    assert "last_action_error" in info
    after = env.device.get_state()
    assert after["apps"] == before["apps"] and after["os"]["route"] == before["os"]["route"]


def test_null_is_still_fine_where_the_schema_defaults_to_null() -> None:
    assert parse_action({"type": "type", "text": "hi", "x": None, "y": None}, COORDS).args["x"] is None
    assert parse_action({"type": "complete", "text": None}, COORDS).type == "complete"


# typed text -------------------------------------------------------------------------------
def _focus_first_field(phone: Phone) -> ui.TextField:
    fields = [v for v in phone.frame().content.walk() if isinstance(v, ui.TextField)]
    assert fields, f"no text field on {phone.current_route()}"
    x, y, w, h = fields[0].frame
    phone.tap(int((x + w / 2) * phone.density), int((y + h / 2) * phone.density))
    assert phone.doc["os"]["focus"] == fields[0].focus_key
    return fields[0]


def _field_phone() -> Phone:
    phone = SimDevice(apps=["contacts", "settings"], world="canonical", render_scale=0.2)
    phone.launch("contacts", "/edit")
    return phone


@pytest.mark.parametrize("text", ["\r", "a\r\nb", "\u2029", "\u2028", "\x85", "\x1c\x1d\x1e", "\x0b\x0c",
                                  "\x00\x07\x1b\x7f\x9f", "\ufffe\uffff", "\u202e\u200d\ufeff", "\U000e0041\U0010fffd"])
def test_typing_control_and_separator_characters_keeps_the_phone_working(text: str) -> None:
    phone = _field_phone()
    _focus_first_field(phone)
    phone.type_text(text)
    for _ in range(3):  # the phone keeps taking input, drawing and exporting a well-formed tree
        phone.key("delete")
        phone.screenshot()
        root = ET.fromstring(phone.a11y_xml().encode("utf-8"))
        assert root.tag == "hierarchy"
    phone.type_text("ok")
    assert "ok" in phone.a11y_xml()


def test_typed_text_keeps_what_a_keyboard_types() -> None:
    phone = _field_phone()
    field = _focus_first_field(phone)
    phone.type_text("a\r\nb\rc\u2029d\x00e\x1bf\ud800g\th", clear=True)
    value = next(v for v in phone.frame().content.walk() if isinstance(v, ui.TextField)
                 and v.focus_key == field.focus_key).value
    assert value == "a\nb\nc\nd" + "efg\th"


def test_the_tree_stays_well_formed_whatever_the_data_holds() -> None:
    phone = SimDevice(apps=["contacts", "settings"], world="canonical")
    phone.launch("contacts")
    contacts = phone.get_state()["apps"]["contacts"]["contacts"]
    contacts[0]["name"] = "bad\x00\x01\x1b\ud800\uffff name\r\t"
    phone.set_state({"apps": {"contacts": {"contacts": contacts}}})
    xml = phone.a11y_xml()
    root = ET.fromstring(xml.encode("utf-8"))
    texts = [n.get("text") for n in root.iter("node")]
    assert any(t.startswith("bad") and "name\r\t" in t for t in texts)
    phone.screenshot()


@pytest.mark.parametrize("char", ["w", "ж"])  # a plain line (widths summed) and one raqm shapes
def test_a_ten_thousand_character_word_is_laid_out_in_short_pieces(monkeypatch: pytest.MonkeyPatch, char: str) -> None:
    measured: list[str] = []  # every line measured, either way
    shape, add_up = ImageFont.FreeTypeFont.getlength, fonts._plain_length
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getlength",
                        lambda self, text, *a, **k: measured.append(text) or shape(self, text, *a, **k))
    monkeypatch.setattr(fonts, "_plain_length", lambda line, bold: measured.append(line) or add_up(line, bold))
    fonts._cached_width.cache_clear()  # every piece is measured here, not found from an earlier test
    phone = _field_phone()
    field = _focus_first_field(phone)
    phone.type_text(char * 10_000)
    phone.screenshot()
    phone.type_text("x")
    phone.screenshot()
    shown = next(v for v in phone.frame().content.walk()
                 if isinstance(v, ui.TextField) and v.focus_key == field.focus_key)
    assert shown.value == char * 10_000 + "x" and shown._lines[0].endswith("…")
    pieces = [len(text) for text in measured if char * 2 in text]  # of the word (not the keyboard's labels)
    assert 0 < max(pieces) <= fonts.LINE_CHARS and len(pieces) < 100  # was a quadratic ellipsis over 10,000
    assert fonts.ellipsize(char * 10_000, 14, False, 100).endswith("…")


def test_ellipsize_keeps_the_longest_prefix_that_fits() -> None:
    for text in ("Wednesday morning alarm", "A" * 40, "星期三早上的闹钟" * 3):
        for width in (10, 50, 80, 120):
            cut = fonts.ellipsize(text, 14, False, width)
            assert fonts.text_width(cut, 14) <= width or cut == "…"
            if cut != text and len(cut) <= len(text):
                longer = text[:len(cut)] + "…"  # one more character no longer fits
                assert fonts.text_width(longer, 14) > width


# env options ------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs, words", [
    (dict(tick_ms=-1000), "tick_ms"), (dict(tick_ms="abc"), "tick_ms"), (dict(tick_ms=float("nan")), "tick_ms"),
    (dict(tick_ms=True), "tick_ms"), (dict(shuffle_launcher="yes"), "shuffle_launcher"),
    (dict(apps="clock"), "apps"), (dict(apps=[3]), "apps"), (dict(max_steps=True), "max_steps"),
    (dict(max_steps=0), "max_steps"), (dict(screen_size=(100_000, 100_000)), "screen_size"),
    (dict(screen_size=(True, 2400)), "screen_size"), (dict(render_scale=True), "render_scale"),
])
def test_bad_env_options_are_value_errors_naming_the_option(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        MobileGymEnv(**{**SMALL, **kwargs})


def test_good_env_options_still_work() -> None:
    env = MobileGymEnv(**{**SMALL, "tick_ms": 0, "max_steps": np.int64(3), "shuffle_launcher": np.bool_(True),
                          "screen_size": (720, 1600), "apps": ("settings", "clock", "clock")})
    env.reset(seed=1)
    assert env.max_steps == 3 and sorted(env.device.apps) == ["clock", "settings"]


def test_a_task_whose_apps_are_not_installed_is_a_task_error() -> None:
    with pytest.raises(TaskError, match="clock.CountAlarms needs clock"):
        MobileGymEnv("clock.CountAlarms", apps=[])
    with pytest.raises(TaskError, match="answer_sheet"):  # grounded questions are answered in the AnswerSheet
        MobileGymEnv("clock.CountAlarms", apps=["clock"])
    MobileGymEnv("clock.CountAlarms", apps=["clock"], eval_mode="text")


# the phone --------------------------------------------------------------------------------
@pytest.mark.parametrize("app, route", [("clock", "/alarm/edit?id=bogus"), ("weather", "/city?id=bogus"),
                                        ("calendar", "/day?date=x"), ("clock", "/no/such/screen")])
def test_launching_a_route_the_app_cannot_show_is_refused_and_changes_nothing(app: str, route: str) -> None:
    phone = SimDevice(world="canonical", render_scale=0.2)
    phone.launch("settings")
    before = phone.get_state()
    with pytest.raises(ScreenError, match=app):
        phone.launch(app, route)
    assert phone.get_state() == before
    phone.tap(540, 1200)
    phone.key("back")
    ET.fromstring(phone.a11y_xml().encode("utf-8"))


def test_a_failing_app_handler_rolls_the_phone_back(monkeypatch: pytest.MonkeyPatch) -> None:
    phone = SimDevice(apps=["clock", "settings"], world="canonical", render_scale=0.2)
    clock = phone.apps["clock"]

    def boom_screen(ctx):  # a screen whose button changes state half-way, then fails
        def press() -> None:
            ctx.state["alarms"].clear()
            ctx.local["draft"] = "half"
            ctx.os["seq"] += 1
            raise KeyError("bug")

        return ui.Scaffold(ui.Column([ui.Button("Boom", press, rid="boom", height=2000)]))

    monkeypatch.setitem(clock.screens, "/boom", boom_screen)
    phone.launch("clock", "/boom")
    before = phone.get_state()
    assert before["apps"]["clock"]["alarms"]
    with pytest.raises(AppError, match="KeyError"):
        phone.tap(540, 1200)
    assert phone.get_state() == before
    phone.key("back")  # and it goes on
    assert phone.current_route() == "/alarms"


def test_a_failing_handler_rolls_back_every_app_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A handler that changes ANOTHER app's state (through a Ctx of that app) and then fails leaves both apps
    as they were; a change made by an earlier input that succeeded stays."""
    phone = SimDevice(apps=["clock", "settings"], world="canonical", render_scale=0.2)
    fail = {"now": False}

    def cross_screen(ctx: Ctx) -> ui.Scaffold:
        settings = Ctx(ctx.phone, ctx.phone.apps["settings"], ctx.entry)

        def press() -> None:
            settings.state["wifi"] = not settings.state["wifi"]
            settings.state.setdefault("log", []).append("pressed")
            ctx.state["alarms"].pop()
            if fail["now"]:
                raise RuntimeError("bug after touching two apps")

        return ui.Scaffold(ui.Column([ui.Button("Cross", press, rid="cross", height=2000)]))

    monkeypatch.setitem(phone.apps["clock"].screens, "/cross", cross_screen)
    phone.launch("clock", "/cross")
    phone.tap(540, 1200)  # succeeds: both apps changed, and the change stays
    after_first = phone.get_state()
    assert after_first["apps"]["settings"]["log"] == ["pressed"]
    fail["now"] = True
    with pytest.raises(AppError, match="bug after touching two apps"):
        phone.tap(540, 1200)
    assert phone.get_state() == after_first
    assert not phone.world_doc.in_input


def test_the_navigation_bar_back_button_is_one_back_key() -> None:
    keyed, tapped = (SimDevice(apps=["clock", "settings"], world="canonical") for _ in range(2))
    for phone in (keyed, tapped):
        phone.launch("clock", "/alarm/edit")
    keyed.key("back")
    back = next(n for n in ET.fromstring(tapped.a11y_xml()).iter("node") if n.get("content-desc") == "Back")
    (x0, y0), (x1, y1) = (tuple(map(int, p.split(","))) for p in back.get("bounds")[1:-1].split("]["))
    tapped.tap((x0 + x1) // 2, (y0 + y1) // 2)
    assert tapped.get_state() == keyed.get_state()  # same screen, and the clock ticked once


def test_phone_wait_refuses_what_is_not_a_time() -> None:
    phone = SimDevice(apps=["settings"])
    for bad in (float("nan"), -1, float("inf"), "5", True):
        with pytest.raises(ValueError, match="seconds|negative"):
            phone.wait(bad)


# the Python ecosystem -----------------------------------------------------------------------
def _same_run(a: gym.Env, b: gym.Env) -> None:
    for action in ({"type": "tap", "x": 540, "y": 1200}, {"type": "key", "key": "back"}):
        oa, ob = a.step(action)[0], b.step(action)[0]
        assert oa["a11y"] == ob["a11y"] and np.array_equal(oa["screenshot"], ob["screenshot"])


@pytest.mark.parametrize("clone", [lambda e: pickle.loads(pickle.dumps(e)),
                                   lambda e: cloudpickle.loads(cloudpickle.dumps(e)), copy.deepcopy],
                         ids=["pickle", "cloudpickle", "deepcopy"])
def test_an_env_pickles_and_deep_copies_mid_episode(clone) -> None:
    env = gym.make("MobileGym-v0", **SMALL)
    env.reset(seed=3)
    env.step({"type": "open_app", "app": "clock"})
    twin = clone(env)
    _same_run(env, twin)


def test_text_spaces_flatten_and_cross_processes() -> None:
    space = UnicodeText(64)
    text = "<hierarchy a='1'>é 星 😀\x00</hierarchy>"
    assert gym.spaces.utils.unflatten(space, gym.spaces.utils.flatten(space, text)) == text
    with pytest.warns(UserWarning, match="flattening MobileGym's observation"):  # it works, and says it is huge
        flat = gym.wrappers.FlattenObservation(gym.make("MobileGym-v0", **SMALL))
    obs, _ = flat.reset(seed=0)
    assert flat.observation_space.contains(obs)
    vec = gym.make_vec("MobileGym-v0", num_envs=2, vectorization_mode="async", **SMALL)
    try:
        obs, _ = vec.reset(seed=0)
        assert obs["a11y"][0].startswith("<?xml") and obs["a11y"][1].startswith("<?xml")
        first = obs["a11y"][0]
        obs, *_ = vec.step([{"type": "open_app", "app": "clock"}] * 2)
        assert "com.mobilegym.clock" in obs["a11y"][0] and obs["a11y"][0] != first
        assert obs["screenshot"].shape == (2, 240, 108, 3)
    finally:
        vec.close()


def test_make_sb3_env_has_a_spec_that_makes_it_again() -> None:
    env = make_sb3_env("home.OpenApp", apps=CORE_APPS, max_steps=4)
    assert env.spec is not None and env.spec.id == SB3_ENV_ID and env.spec.kwargs["max_steps"] == 4
    again = gym.make(env.spec)
    assert again.observation_space == env.observation_space
    assert gym.make(SB3_ENV_ID, task="home.OpenApp", apps=CORE_APPS).spec.id == SB3_ENV_ID


# downloads --------------------------------------------------------------------------------
class _Files(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802  (http.server's name)
        body = b"milk\neggs\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def file_server(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """A local HTTP server; downloads are off unless a test allows 127.0.0.1, and cached under tmp_path."""
    monkeypatch.delenv(setup_actions.ALLOW_HOSTS_ENV, raising=False)
    monkeypatch.setenv(setup_actions.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(setup_actions, "ALLOWED_HOSTS", [])
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _download_task(tmp_path, url: str) -> str:
    doc = {"id": "fetch_list", "instruction": "Nothing to do.", "related_apps": ["settings"],
           "config": [{"type": "push_file", "parameters": {"path": "/sdcard/Download/list.txt", "url": url}}],
           "evaluator": {"func": "check_include_exclude",
                         "result": {"type": "device_file", "path": "/sdcard/Download/list.txt"},
                         "expected": {"type": "rule", "value": {"include": ["eggs"], "exclude": []}}},
           "metadata": {"difficulty": "L1", "objective": "operate"}}
    path = tmp_path / "fetch_list.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_allow_hosts_lets_one_environment_download_and_no_one_else(tmp_path, file_server: str) -> None:
    task = _download_task(tmp_path, f"{file_server}/list.txt")
    small = dict(obs_parts=("instruction",), apps=CORE_APPS, render_scale=0.1)
    with pytest.raises(TaskError, match=r"downloads from '127.0.0.1' are off.*allow_hosts=\['127.0.0.1'\]"):
        MobileGymEnv(task, **small).reset(seed=0)
    env = MobileGymEnv(task, allow_hosts=["127.0.0.1"], **small)
    env.reset(seed=0)
    assert env.device.pull("/sdcard/Download/list.txt") == b"milk\neggs\n"
    _, reward, *_ = env.step({"type": "complete"})
    assert reward == 1.0
    assert setup_actions.host_permission("127.0.0.1") is None  # allowed while that env set up, not after


def test_download_hosts_is_scoped_to_its_block_and_thread() -> None:
    seen: list[str | None] = []
    with setup_actions.download_hosts(["example.org"]):
        with setup_actions.download_hosts(["*.cdn.net"]):
            assert setup_actions.host_permission("img.cdn.net") == "wildcard"
        assert setup_actions.host_permission("example.org") == "explicit"
        assert setup_actions.host_permission("img.cdn.net") is None
        other = threading.Thread(target=lambda: seen.append(setup_actions.host_permission("example.org")))
        other.start()
        other.join()
    assert seen == [None] and setup_actions.host_permission("example.org") is None


@pytest.mark.parametrize("hosts", ["example.org", [3], [""], ["a b"], ["a.org,b.org"], 5])
def test_bad_allow_hosts_is_a_value_error_naming_it(hosts: object) -> None:
    with pytest.raises(ValueError, match="allow_hosts"):
        MobileGymEnv(allow_hosts=hosts, **SMALL)
