"""Setup actions (including push_file over a local HTTP server) and getters of JSON tasks."""
from __future__ import annotations

import http.server
import threading
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from mobilegym.device.base import CAP_FILES, CAP_LAUNCH, CAP_SHELL, CAP_STATE, DeviceError
from mobilegym.judge.json import setup_actions
from mobilegym.judge.errors import TaskError
from mobilegym.judge.json.getters import GETTERS, GetterContext, get
from mobilegym.judge.json.setup_actions import SETUP_ACTIONS, SetupContext, fetch, run_setup
from mobilegym.sim.app import load_app
from tests.test_json_fakes import ALL_CAPS, FakeDevice


class Server(http.server.ThreadingHTTPServer):
    """Serves ``routes``: path -> list of (status, body), one per request; the last one repeats.
    Status 0 trickles the body, one byte every 0.1 s (a slow server)."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, list[tuple[int, bytes]]] = {}
        self.hits: dict[str, int] = {}

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


class Handler(http.server.BaseHTTPRequestHandler):
    server: Server

    def do_GET(self) -> None:  # noqa: N802
        count = self.server.hits.get(self.path, 0)
        self.server.hits[self.path] = count + 1
        plan = self.server.routes.get(self.path, [(404, b"missing")])
        status, body = plan[min(count, len(plan) - 1)]
        if status == 0:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:  # the client gave up
                pass
            return
        if status in (301, 302):
            self.send_response(status)
            self.send_header("Location", body.decode())
            self.end_headers()
            return
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server(monkeypatch):
    """A local HTTP server on 127.0.0.1, which downloads may use (the host is allowed explicitly)."""
    monkeypatch.setenv(setup_actions.ALLOW_HOSTS_ENV, "127.0.0.1")
    srv = Server()
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(setup_actions.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(setup_actions, "RETRY_DELAY_S", 0.0)
    monkeypatch.delenv(setup_actions.ALLOW_HOSTS_ENV, raising=False)  # downloads off unless a test allows hosts
    monkeypatch.delenv(setup_actions.DEADLINE_ENV, raising=False)
    monkeypatch.setattr(setup_actions, "ALLOWED_HOSTS", [])


def run(device, *actions, task_dir=Path(".")):
    run_setup(SetupContext(device, task_dir), list(actions))


# ---------------------------------------------------------------- setup actions

def test_every_documented_setup_action_is_registered():
    assert set(SETUP_ACTIONS) == {"set_state", "reset_app", "open_app", "go_home", "advance_time", "sleep",
                                  "push_file", "execute", "launch", "prepare"}


def test_set_state_patches_the_document():
    device = FakeDevice()
    run(device, {"type": "set_state", "parameters": {"patch": {"apps": {"clock": {"alarms[id=a1]": {"enabled": False},
                                                                                  "alarms[]": {"id": "a2"}}}}}})
    assert device.doc["apps"]["clock"]["alarms"] == [
        {"id": "a1", "time": "07:30", "enabled": False, "label": "Work"}, {"id": "a2"}]


def test_set_state_rejected_patch_is_a_task_error():
    with pytest.raises(TaskError, match=r"config\[0\] \(set_state\): set_state patch rejected: no item \[id=zz\]"):
        run(FakeDevice(), {"type": "set_state", "parameters": {"patch": {"apps": {"clock": {"alarms[id=zz]": None}}}}})


def test_state_actions_need_the_state_capability():
    device = FakeDevice(frozenset({CAP_FILES}))
    with pytest.raises(TaskError, match="set_state needs the device capability 'state'"):
        run(device, {"type": "set_state", "parameters": {"patch": {}}})


def test_reset_app_restores_the_apps_defaults_only():
    device = FakeDevice()
    device.doc["apps"]["clock"] = {"alarms": [], "extra": 1}
    run(device, {"type": "reset_app", "parameters": {"app": "clock"}})
    assert device.doc["apps"]["clock"] == load_app("clock").defaults()
    assert device.doc["apps"]["settings"]["darkMode"] is False
    with pytest.raises(TaskError, match="unknown app 'nope'"):
        run(device, {"type": "reset_app", "parameters": {"app": "nope"}})


def test_reset_app_on_a_shell_device_clears_the_package():
    device = FakeDevice(frozenset({CAP_SHELL}))
    run(device, {"type": "reset_app", "parameters": {"app": "clock"}},
        {"type": "reset_app", "parameters": {"app": "com.android.deskclock"}})
    assert [c for c in device.calls if c[0] == "shell"] == [
        ("shell", "pm clear com.mobilegym.clock"), ("shell", "pm clear com.android.deskclock")]
    with pytest.raises(TaskError, match="reset_app needs the device capability 'shell'"):
        run(FakeDevice(frozenset()), {"type": "reset_app", "parameters": {"app": "clock"}})


def test_open_app_go_home_and_time():
    device = FakeDevice()
    start = device.time_ms()
    run(device, {"type": "open_app", "parameters": {"app": "clock"}},
        {"type": "advance_time", "parameters": {"seconds": 90}},
        {"type": "sleep", "parameters": {"seconds": 1.5}},
        {"type": "go_home"})
    assert device.calls[1:] == [("open_app", "clock"), ("wait", 90.0), ("wait", 1.5), ("key", "home")]
    assert device.time_ms() == start + 91_500


def test_device_refusals_become_task_errors_but_device_failures_do_not():
    with pytest.raises(TaskError, match=r"config\[0\] \(open_app\): ValueError: unknown app 'mail'"):
        run(FakeDevice(), {"type": "open_app", "parameters": {"app": "mail"}})
    device = FakeDevice()
    device.wait = lambda seconds: (_ for _ in ()).throw(DeviceError("usb unplugged"))
    with pytest.raises(DeviceError, match="usb unplugged"):
        run(device, {"type": "sleep", "parameters": {"seconds": 1}})


def test_execute_runs_a_shell_command():
    device = FakeDevice()
    run(device, {"type": "execute", "parameters": {"command": "settings put global wifi_on 0"}})
    assert device.calls[-1] == ("shell", "settings put global wifi_on 0")
    with pytest.raises(TaskError, match="execute needs the device capability 'shell'"):
        run(FakeDevice(frozenset({CAP_STATE})), {"type": "execute", "parameters": {"command": "ls"}})


def test_launch_opens_a_route():
    device = FakeDevice()
    run(device, {"type": "launch", "parameters": {"app": "clock", "route": "/alarm/edit?id=a1"}})
    assert device.calls[-1] == ("launch", "clock", "/alarm/edit?id=a1")
    assert device.current_route() == "/alarm/edit?id=a1"


def test_launch_needs_a_device_that_can_open_routes():
    with pytest.raises(TaskError, match="launch needs the device capability 'launch', which FakeDevice does not have"):
        run(FakeDevice(ALL_CAPS - {CAP_LAUNCH}), {"type": "launch", "parameters": {"app": "clock", "route": "/alarms"}})


def test_unknown_setup_action():
    with pytest.raises(TaskError, match="unknown setup action 'format_disk'"):
        run(FakeDevice(), {"type": "format_disk"})


def test_push_file_inline_and_base64():
    device = FakeDevice()
    run(device, {"type": "push_file", "parameters": {"path": "/sdcard/Download/a.txt", "content": "héllo"}},
        {"type": "push_file", "parameters": {"path": "/storage/emulated/0/b.bin", "content_base64": "AAEC"}})
    assert device.files == {"/sdcard/Download/a.txt": "héllo".encode(), "/storage/emulated/0/b.bin": b"\x00\x01\x02"}


def test_push_file_needs_the_files_capability():
    with pytest.raises(TaskError, match="push_file needs the device capability 'files'"):
        run(FakeDevice(frozenset({CAP_STATE})), {"type": "push_file", "parameters": {"path": "/sdcard/a", "content": ""}})


@pytest.mark.parametrize("path", ["/etc/passwd", "/sdcard/../etc/passwd", "sdcard/a.txt", "/sdcardx/a", "/data/data/x"])
def test_push_file_refuses_paths_outside_the_allowed_folders(path):
    with pytest.raises(TaskError, match="device path"):
        run(FakeDevice(), {"type": "push_file", "parameters": {"path": path, "content": "x"}})


def test_push_file_from_a_local_file_url(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "note.txt").write_text("from disk")
    device = FakeDevice()
    run(device, {"type": "push_file", "parameters": {"path": "/sdcard/note.txt", "url": "file:assets/note.txt"}},
        task_dir=tmp_path)
    assert device.files["/sdcard/note.txt"] == b"from disk"


def test_file_urls_cannot_leave_the_task_folder(tmp_path):
    (tmp_path / "secret.txt").write_text("no")
    task_dir = tmp_path / "suite"
    task_dir.mkdir()
    for url in ("file:../secret.txt", f"file://{tmp_path}/secret.txt"):
        with pytest.raises(TaskError, match="outside the task folder"):
            fetch(url, task_dir)


@pytest.mark.parametrize("url", ["ftp://example.com/a", "javascript:alert(1)", "data:text/plain,hi", "/etc/passwd"])
def test_other_url_schemes_are_refused(url):
    with pytest.raises(TaskError, match="scheme"):
        fetch(url, Path("."))


def test_download_is_cached_by_uuid5(server, tmp_path):
    server.routes["/a.txt"] = [(200, b"payload")]
    url = server.url("/a.txt")
    device = FakeDevice()
    action = {"type": "push_file", "parameters": {"path": "/sdcard/a.txt", "url": url}}
    run(device, action)
    run(device, action)
    assert device.files["/sdcard/a.txt"] == b"payload"
    assert server.hits["/a.txt"] == 1
    cached = tmp_path / "cache" / "downloads" / str(uuid.uuid5(uuid.NAMESPACE_URL, url))
    assert cached.read_bytes() == b"payload"


def test_download_retries_then_succeeds(server):
    server.routes["/flaky"] = [(500, b"down"), (503, b"down"), (200, b"third time")]
    assert fetch(server.url("/flaky"), Path(".")) == b"third time"
    assert server.hits["/flaky"] == 3


def test_download_gives_up_after_three_attempts(server):
    server.routes["/dead"] = [(500, b"down")]
    with pytest.raises(TaskError, match="could not download .*attempt 1.*attempt 2.*attempt 3"):
        fetch(server.url("/dead"), Path("."))
    assert server.hits["/dead"] == 3


def test_oversized_downloads_are_refused(server, monkeypatch):
    monkeypatch.setattr(setup_actions, "MAX_DOWNLOAD_BYTES", 10)
    server.routes["/big"] = [(200, b"x" * 11)]
    with pytest.raises(TaskError, match="over the 10-byte download limit"):
        fetch(server.url("/big"), Path("."))
    assert server.hits["/big"] == 1


def test_redirects_to_other_schemes_are_refused(server):
    server.routes["/hop"] = [(302, b"ftp://127.0.0.1/passwd")]
    server.routes["/ok"] = [(302, server.url("/a").encode())]
    server.routes["/a"] = [(200, b"moved")]
    with pytest.raises(TaskError, match="not http"):
        fetch(server.url("/hop"), Path("."))
    assert fetch(server.url("/ok"), Path(".")) == b"moved"


# ---------------------------------------------------------------- getters

def ctx(device=None, *, answer=None, initial=None, last_action=None):
    device = device or FakeDevice()
    return GetterContext(device=device, task_dir=Path("."), default_app="clock",
                         initial_state=initial, answer=answer, last_action=last_action)


def test_every_documented_getter_is_registered():
    assert set(GETTERS) == {"app_state", "os_state", "a11y_tree", "current_app", "current_route", "screenshot",
                            "answer", "rule", "device_file", "device_shell"}


def test_app_state_paths():
    c = ctx()
    assert get(c, {"type": "app_state", "path": ".alarms[id=a1].time"}) == "07:30"
    assert get(c, {"type": "app_state", "path": "settings:.wifi"}) is True
    assert get(c, {"type": "app_state", "app": "settings", "path": ".bluetooth"}) is False
    assert get(c, {"type": "app_state", "path": ".alarms[id=zz].time"}) is None
    assert get(c, {"type": "app_state", "path": ".alarms[*].label"}) == ["Work"]
    with pytest.raises(TaskError, match="no app 'nope'"):
        get(c, {"type": "app_state", "path": "nope:.x"})


def test_app_state_initial_reads_the_state_after_setup():
    device = FakeDevice()
    initial = device.get_state()
    device.doc["apps"]["clock"]["alarms"] = []
    c = ctx(device, initial=initial)
    assert get(c, {"type": "app_state", "path": ".alarms[0].id", "initial": True}) == "a1"
    assert get(c, {"type": "app_state", "path": ".alarms[0].id"}) is None


def test_app_state_count_counts_the_items_equal_to_a_value():
    device = FakeDevice()
    device.doc["apps"]["clock"]["alarms"][0]["enabled"] = False
    device.doc["apps"]["clock"]["alarms"] += [{"id": "a2", "enabled": True}, {"id": "a3", "enabled": 1}]
    c = ctx(device)
    assert get(c, {"type": "app_state", "path": ".alarms[*].enabled", "count": True}) == 1  # 1 is no true
    assert get(c, {"type": "app_state", "path": ".alarms[*].enabled", "count": False}) == 1
    assert get(c, {"type": "app_state", "path": ".alarms[*].id", "count": "a9"}) == 0
    with pytest.raises(TaskError, match="with count: the path must give a list"):
        get(c, {"type": "app_state", "path": ".alarms[id=a1].enabled", "count": True})


def test_os_state():
    c = ctx()
    assert get(c, {"type": "os_state", "path": ".time_ms"}) == 1773651600000
    assert get(c, {"type": "os_state", "path": "wifi"}) is True


def test_state_getters_need_the_state_capability():
    c = ctx(FakeDevice(frozenset({CAP_SHELL})))
    with pytest.raises(TaskError, match="app_state needs the device capability 'state'"):
        get(c, {"type": "app_state", "path": ".x"})
    with pytest.raises(TaskError, match="os_state with initial=true needs"):
        get(c, {"type": "os_state", "path": ".x", "initial": True})


def test_screen_getters():
    device = FakeDevice()
    device.doc["os"].update(foreground="clock", route="/alarm/edit?id=a1")
    c = ctx(device)
    assert 'checked="true"' in get(c, {"type": "a11y_tree"})
    assert get(c, {"type": "current_app"}) == "clock"
    assert get(c, {"type": "current_route"}) == "/alarm/edit?id=a1"
    assert get(c, {"type": "current_route", "without_query": True}) == "/alarm/edit"
    shot = get(c, {"type": "screenshot"})
    assert isinstance(shot, np.ndarray) and shot.shape == (200, 100, 3)


def test_answer_rule_and_null():
    c = ctx(answer="3 alarms")
    assert get(c, {"type": "answer"}) == "3 alarms"
    assert get(ctx(), {"type": "answer"}) is None
    assert get(c, {"type": "rule", "value": {"include": ["a"]}}) == {"include": ["a"]}
    assert get(c, None) is None


def test_device_file():
    device = FakeDevice()
    device.files["/sdcard/out.json"] = b'{"ok": true}'
    device.files["/sdcard/bad.json"] = b"{"
    c = ctx(device)
    assert get(c, {"type": "device_file", "path": "/sdcard/out.json"}) == '{"ok": true}'
    assert get(c, {"type": "device_file", "path": "/sdcard/out.json", "as": "json"}) == {"ok": True}
    assert get(c, {"type": "device_file", "path": "/sdcard/bad.json", "as": "json"}) is None
    assert get(c, {"type": "device_file", "path": "/sdcard/out.json", "as": "base64"}) == "eyJvayI6IHRydWV9"
    assert get(c, {"type": "device_file", "path": "/sdcard/missing.txt"}) is None
    with pytest.raises(TaskError, match="outside the allowed folders"):
        get(c, {"type": "device_file", "path": "/data/system/users.xml"})
    with pytest.raises(TaskError, match="device_file needs the device capability 'files'"):
        get(ctx(FakeDevice(frozenset({CAP_STATE}))), {"type": "device_file", "path": "/sdcard/out.json"})


def test_device_shell():
    device = FakeDevice()
    device.shell_outputs["settings get global wifi_on"] = "0\n"
    assert get(ctx(device), {"type": "device_shell", "command": "settings get global wifi_on"}) == "0"
    with pytest.raises(TaskError, match="device_shell needs the device capability 'shell'"):
        get(ctx(FakeDevice(frozenset({CAP_STATE}))), {"type": "device_shell", "command": "ls"})


def test_unknown_getter():
    with pytest.raises(TaskError, match="unknown getter 'vm_file'"):
        get(ctx(), {"type": "vm_file"})


# ---------------------------------------------------------------- prepare

@pytest.fixture()
def labelled_alarm(monkeypatch):
    """A test preparer on the Clock app: an alarm whose label comes from the seeded random stream."""
    def alarm(prep, label_prefix):
        return {"apps": {"clock": {"alarms[]": {"id": "prep", "time": "06:00", "enabled": True,
                                               "label": f"{label_prefix}{prep.rng.randrange(10**6)}"}}}}
    monkeypatch.setitem(load_app("clock").preparers, "test_alarm", alarm)


def _prepared_label(seed: str) -> str:
    device = FakeDevice()
    run_setup(SetupContext(device, Path("."), seed),
              [{"type": "prepare", "parameters": {"app": "clock", "with": "test_alarm", "args": {"label_prefix": "L"}}}])
    return device.doc["apps"]["clock"]["alarms"][-1]["label"]


def test_prepare_applies_the_preparers_patch_seeded_by_task_and_episode(labelled_alarm):
    assert _prepared_label("t|1") == _prepared_label("t|1")
    assert _prepared_label("t|1") != _prepared_label("t|2")
    assert _prepared_label("t|1").startswith("L")


@pytest.fixture()
def spread_alarm(monkeypatch):
    """A test preparer labelling an alarm with the task's spread draw ("none" without draws)."""
    def alarm(prep):
        label = "none" if prep.spread is None else str(prep.spread.count(1, 8))
        return {"apps": {"clock": {"alarms[]": {"id": "prep", "time": "06:00", "enabled": True, "label": label}}}}
    monkeypatch.setitem(load_app("clock").preparers, "test_spread", alarm)


def _spread_label(**ctx) -> str:
    device = FakeDevice()
    run_setup(SetupContext(device, Path("."), "t|0", **ctx),
              [{"type": "prepare", "parameters": {"app": "clock", "with": "test_spread"}}])
    return device.doc["apps"]["clock"]["alarms"][-1]["label"]


def test_prepare_hands_the_task_spread_draws_over_the_reset_seeds(spread_alarm):
    drawn = [_spread_label(task_id="t.T", spread_seed=seed, spreads=True) for seed in range(8)]
    assert sorted(drawn) == [str(n) for n in range(1, 9)]  # each value once in a block of eight seeds
    assert _spread_label(task_id="t.T", spread_seed=3, spreads=False) == "none"  # the canonical phone keeps its facts
    assert _spread_label() == "none"


def test_a_json_task_spreads_on_generated_worlds_and_not_on_the_canonical_phone():
    from mobilegym.judge import default_registry
    from mobilegym.device.sim import SimDevice

    task = default_registry().refs["files.trash_count"]
    counts = []
    for seed in range(12):
        phone = SimDevice(270, 600)
        task.start(phone, seed=seed, eval_mode="text", spread_seed=seed)
        counts.append(sum(f["trashed"] for f in phone.get_state()["apps"]["files"]["files"]))
    assert sorted(counts) == list(range(1, 13))
    canonical = SimDevice(270, 600, world="canonical")
    before = [f["id"] for f in canonical.get_state()["apps"]["files"]["files"] if f["trashed"]]
    task.start(canonical, seed=0, eval_mode="text", spread_seed=5)
    assert [f["id"] for f in canonical.get_state()["apps"]["files"]["files"] if f["trashed"]] == before


def test_prepare_unknown_preparer_is_a_task_error_naming_the_known_ones(labelled_alarm):
    with pytest.raises(TaskError, match=r"app 'clock' has no preparer 'nope'; it has: .*test_alarm"):
        run(FakeDevice(), {"type": "prepare", "parameters": {"app": "clock", "with": "nope"}})


def test_prepare_needs_the_prepare_capability(labelled_alarm):
    with pytest.raises(TaskError, match="prepare needs the device capability 'prepare'"):
        run(FakeDevice(frozenset({CAP_FILES})), {"type": "prepare", "parameters": {"app": "clock", "with": "test_alarm",
                                                                                   "args": {"label_prefix": ""}}})


def test_prepare_with_bad_arguments_is_a_task_error(labelled_alarm):
    with pytest.raises(TaskError, match=r"config\[0\] \(prepare\): TypeError"):
        run(FakeDevice(), {"type": "prepare", "parameters": {"app": "clock", "with": "test_alarm", "args": {"x": 1}}})


# ---------------------------------------------------------------- download policy

def test_downloads_are_off_by_default(server, monkeypatch):
    monkeypatch.delenv(setup_actions.ALLOW_HOSTS_ENV)
    server.routes["/a"] = [(200, b"data")]
    with pytest.raises(TaskError, match=r"downloads from '127.0.0.1' are off: allow the host with \$MOBILEGYM_ALLOW_HOSTS"):
        run(FakeDevice(), {"type": "push_file", "parameters": {"path": "/sdcard/a", "url": server.url("/a")}})
    assert server.hits == {}


def test_hosts_are_allowed_by_the_environment_a_parameter_or_code(server, monkeypatch):
    monkeypatch.delenv(setup_actions.ALLOW_HOSTS_ENV)
    for path in ("/a", "/b", "/c"):  # distinct URLs: no cache hits
        server.routes[path] = [(200, b"data")]
    assert fetch(server.url("/a"), Path("."), allow_hosts=["127.0.0.1"]) == b"data"
    monkeypatch.setenv(setup_actions.ALLOW_HOSTS_ENV, "example.org, 127.0.0.1")
    assert fetch(server.url("/b"), Path(".")) == b"data"
    monkeypatch.delenv(setup_actions.ALLOW_HOSTS_ENV)
    setup_actions.allow_download_hosts("127.0.0.1")
    assert fetch(server.url("/c"), Path(".")) == b"data"
    assert server.hits == {"/a": 1, "/b": 1, "/c": 1}


@pytest.mark.parametrize("host,entries,expected", [
    ("example.org", ["example.org"], "explicit"),
    ("EXAMPLE.org.", ["example.org"], "explicit"),
    ("cdn.example.org", ["*.example.org"], "wildcard"),
    ("example.org", ["*.example.org"], "wildcard"),
    ("badexample.org", ["*.example.org"], None),
    ("anything.net", ["*"], "wildcard"),
    ("::1", ["[::1]"], "explicit"),
    ("10.0.0.1", ["10.0.0.2"], None),
    ("example.org", [], None),
])
def test_host_permission(host, entries, expected):
    assert setup_actions.host_permission(host, entries) == expected


@pytest.mark.parametrize("url", ["http://127.0.0.1:{port}/a", "http://localhost:{port}/a", "http://10.1.2.3:{port}/a",
                                 "http://169.254.169.254:{port}/a", "http://[::1]:{port}/a",
                                 "http://[::ffff:127.0.0.1]:{port}/a", "http://0.0.0.0:{port}/a"])
def test_wildcards_never_reach_loopback_private_or_link_local_addresses(server, monkeypatch, url):
    monkeypatch.setenv(setup_actions.ALLOW_HOSTS_ENV, "*, *.localhost")
    server.routes["/a"] = [(200, b"data")]
    with pytest.raises(TaskError, match="loopback, private and link-local addresses are refused unless the host is listed"):
        fetch(url.format(port=server.server_address[1]), Path("."))
    assert server.hits == {}


def test_redirects_to_hosts_not_allowed_are_refused(server):
    server.routes["/hop"] = [(302, f"http://localhost:{server.server_address[1]}/a".encode())]
    server.routes["/a"] = [(200, b"data")]
    with pytest.raises(TaskError, match="downloads from 'localhost' are off"):
        fetch(server.url("/hop"), Path("."))
    assert server.hits == {"/hop": 1}


def test_a_slow_server_hits_the_total_deadline(server, monkeypatch):
    monkeypatch.setattr(setup_actions, "DOWNLOAD_DEADLINE_S", 1.0)
    server.routes["/slow"] = [(0, b"x" * 1000)]  # one byte per 0.1 s: 100 s in all
    start = time.monotonic()
    with pytest.raises(TaskError, match=r"config\[0\] \(push_file\): downloading .* took longer than the 1 s deadline"):
        run(FakeDevice(), {"type": "push_file", "parameters": {"path": "/sdcard/a", "url": server.url("/slow")}})
    assert time.monotonic() - start < 2.5
    assert server.hits["/slow"] == 1  # not retried past the deadline


def test_the_deadline_covers_every_attempt_and_comes_from_the_environment(server, monkeypatch):
    monkeypatch.setenv(setup_actions.DEADLINE_ENV, "0.5")
    monkeypatch.setattr(setup_actions, "RETRY_DELAY_S", 0.4)
    server.routes["/dead"] = [(500, b"down")]
    start = time.monotonic()
    with pytest.raises(TaskError, match=r"0.5 s deadline \(\$MOBILEGYM_DOWNLOAD_DEADLINE\)"):
        fetch(server.url("/dead"), Path("."))
    assert time.monotonic() - start < 1.5
    monkeypatch.setenv(setup_actions.DEADLINE_ENV, "soon")
    with pytest.raises(TaskError, match="must be a positive number of seconds"):
        fetch(server.url("/dead?2"), Path("."))
