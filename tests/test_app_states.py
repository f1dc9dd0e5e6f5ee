"""doc["apps"] loads (and, on a generated world, generates) each app's state only when it is read."""
from __future__ import annotations

import json
import marshal
import pickle

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.jsoncopy import copy_doc
from mobilegym.sim.app import installed_apps, load_app
from mobilegym.app_states import AppStates
from mobilegym.sim.worldgen import World, world_image

STATES = {"b": {"x": [1, 2]}, "a": {"y": "z"}, "c": {}}


def make() -> tuple[AppStates, list[str]]:
    """AppStates over STATES in the order b, a, c, and the list of apps loaded so far."""
    loads: list[str] = []

    def source(app: str):
        def load() -> bytes:
            loads.append(app)
            return marshal.dumps(STATES[app], 2)
        return load
    return AppStates(["b", "a", "c"], {app: source(app) for app in STATES}), loads


def test_an_app_is_loaded_when_first_read_and_only_then():
    apps, loads = make()
    assert "a" in apps and "nope" not in apps and len(apps) == 3 and loads == []
    assert apps["a"] == {"y": "z"} and apps["a"] is apps["a"] and loads == ["a"]
    assert apps.is_read("a") and not apps.is_read("b") and apps.source("b") is not None
    assert apps.get("nope", 7) == 7 and loads == ["a"]
    with pytest.raises(KeyError):
        apps["nope"]


def test_iteration_follows_the_install_order_whatever_was_read_first():
    apps, loads = make()
    apps["c"]
    assert list(apps) == ["b", "a", "c"] and list(apps.keys()) == ["b", "a", "c"]
    assert [k for k, _ in apps.items()] == ["b", "a", "c"] and sorted(loads) == ["a", "b", "c"]
    assert dict(apps) == STATES and {**apps} == STATES


def test_writes_and_deletes_keep_the_order_and_the_unread_apps():
    apps, loads = make()
    apps["d"] = {"new": True}
    apps["b"] = {"replaced": 1}
    del apps["a"]
    assert list(apps) == ["b", "c", "d"] and loads == [] and apps["b"] == {"replaced": 1}
    assert apps.pop("c") == {} and apps.pop("c", None) is None and list(apps) == ["b", "d"]
    apps.setdefault("e", {"k": 1})
    assert list(apps) == ["b", "d", "e"]
    with pytest.raises(KeyError):
        del apps["a"]


def test_copies_are_private_and_leave_unread_apps_unread():
    apps, loads = make()
    apps["a"]["y"] = "changed"
    doc = {"os": {"time_ms": 1}, "apps": apps}
    twin = copy_doc(doc)
    assert isinstance(twin["apps"], AppStates) and not twin["apps"].is_read("b")
    twin["apps"]["a"]["y"] = "twin"
    twin["apps"]["b"]["x"].append(3)
    assert apps["a"]["y"] == "changed" and apps["b"] == {"x": [1, 2]} and twin["os"] == doc["os"]


def test_equality_json_and_pickle_see_every_app():
    apps, _ = make()
    assert apps == STATES and STATES == apps and apps != {**STATES, "c": {"other": 1}}
    assert json.dumps(apps, sort_keys=True) == json.dumps(STATES, sort_keys=True)
    again = pickle.loads(pickle.dumps({"apps": apps}))["apps"]
    assert type(again) is dict and again == STATES


def test_a_source_that_fails_leaves_the_app_unread():
    def broken() -> bytes:
        raise RuntimeError("generator failed")
    apps = AppStates(["a"], {"a": broken})
    with pytest.raises(RuntimeError, match="generator failed"):
        apps["a"]
    assert "a" in apps and not apps.is_read("a")


def test_an_app_outside_the_install_order_is_refused():
    with pytest.raises(ValueError, match="install order"):
        AppStates(["a"], {"b": lambda: b""})


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generation_does_not_depend_on_the_order_apps_are_asked_for(language):
    apps = sorted(installed_apps())
    for seed in (3, 11):
        forward = World(seed, language, load_app)
        backward = World(seed, language, load_app)
        first = {app: marshal.dumps(forward.app_state(app), 2) for app in apps}
        second = {app: marshal.dumps(backward.app_state(app), 2) for app in reversed(apps)}
        assert first == second


def test_a_reset_generates_only_the_apps_the_episode_reads():
    env = gym.make("MobileGym-v0", task="clock.AddAlarm", obs_parts=("a11y",))
    env.reset(seed=1234)
    image = world_image(env.unwrapped.device.world_seed, "en", tuple(env.unwrapped.device.apps))
    generated = image.generated
    assert "clock" in generated and "shop" not in generated and "music" not in generated, generated
    env.step({"type": "tap", "x": 10, "y": 10})
    result = env.unwrapped.episode.evaluate()
    assert result.error is None and "shop" not in image.generated


def test_get_state_is_every_app_in_plain_dicts_and_copy_state_stays_lazy():
    from mobilegym.device.sim import SimDevice

    phone = SimDevice()
    phone.reset_state(5)
    lazy = phone.copy_state()["apps"]
    assert isinstance(lazy, AppStates) and not lazy.is_read("music")
    state = phone.get_state()
    assert type(state["apps"]) is dict and set(state["apps"]) == set(phone.apps)
    # JSON's C encoder reads a dict's own storage: the plain copy carries every app to it
    assert set(json.loads(json.dumps(state))["apps"]) == set(phone.apps)
    assert json.loads(json.dumps(lazy.plain())) == state["apps"]
    # the whole-state copy leaves the phone's own apps unread, so its later copies stay small
    assert not phone.doc["apps"].is_read("music") and not lazy.is_read("music")
