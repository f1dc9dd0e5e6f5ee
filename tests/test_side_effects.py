"""Side effects that harm the user fail the task; view state and warn mode only make it unclean.

Adversaries act through the oracle plans, and change the phone with ``device.set_state`` patches
just before the plan's final ``complete``/``abort`` (docs/phone.md, "phone.set_state").
"""
from __future__ import annotations

from typing import Any, Callable

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import PyTaskRef, TaskError, default_registry
from mobilegym.judge.grounded import ANSWER_SHEET
from mobilegym.judge.state.diff import ItemStep, KeyStep, diff
from mobilegym.judge.json.validate import TaskFileError
from mobilegym.judge.json.task import load_json_task
from mobilegym.judge.python.tasks import BaseTask
from mobilegym.oracle import plans_for, run_plan
from mobilegym.device.sim import SimDevice

REGISTRY = default_registry()
TASK_IDS = sorted(REGISTRY.refs)
Hook = Callable[[Any], None]


class BeforeTheEnd(gym.Wrapper):
    """Runs ``hook(env.unwrapped)`` just before the agent's complete or abort."""

    def __init__(self, env: gym.Env, hook: Hook) -> None:
        super().__init__(env)
        self.hook = hook

    def step(self, action: dict[str, Any]):
        if action.get("type") in ("complete", "abort"):
            self.hook(self.env.unwrapped)
        return self.env.step(action)


@pytest.fixture(scope="module")
def envs() -> dict[str, gym.Env]:
    return {mode: gym.make("MobileGym-v0", task=TASK_IDS, obs_parts=("a11y",), side_effects=mode)
            for mode in ("strict", "warn")}


@pytest.fixture(scope="module")
def canonical() -> gym.Env:
    """Strict judging on the canonical world, for tests that name its items (the Gym alarm is alarm_2)."""
    return gym.make("MobileGym-v0", task=["clock.AddAlarm", "clock.ToggleAlarm", "clock.sync_alarms_to_watch"],
                    obs_parts=("a11y",), world="canonical")


def oracle(env: gym.Env, task_id: str, hook: Hook, seed: int = 0) -> dict[str, Any]:
    """The judge's verdict on the task's oracle plan with ``hook`` run before its last action."""
    plan = next(p for p in plans_for(task_id) if p.expect_success)
    reward, info, _ = run_plan(BeforeTheEnd(env, hook), task_id, plan, seed)
    judge = info["judge"]
    assert judge["error"] is None, judge["error"]
    assert reward == judge["score"]
    return judge


def failing(judge: dict[str, Any]) -> list[str]:
    return [c["field"] for c in judge["checks"] if not c["passed"]]


def harmful(judge: dict[str, Any]) -> list[str]:
    """The failing side-effect checks (the task's own checks may fail too)."""
    return [f for f in failing(judge) if f.startswith("side_effect")]


def patch(env: Any, app: str, changes: dict[str, Any]) -> None:
    env.device.set_state({"apps": {app: changes}})


# --- the user's data ---------------------------------------------------------------------------

def untouched_victim(env: Any, app: str) -> tuple[dict[str, Any], str] | None:
    """A deleting patch for an item (or value) of ``app`` that is the same now as at the start, and
    the path the judge names it by; None when the app has none."""
    before = env.episode.initial.copy()[0].get(app)
    now = env.device.get_state()["apps"].get(app)
    if not isinstance(before, dict) or not isinstance(now, dict):
        return None
    for key in sorted(now):
        items, was = now[key], before.get(key)
        if not isinstance(items, list) or not isinstance(was, list) or not items:
            continue
        if all(isinstance(i, dict) and "id" in i for i in items):
            same = [i for i in items if i in was]
            if same:
                return {f"{key}[id={same[-1]['id']}]": None}, f"apps.{app}.{key}[id={same[-1]['id']}] removed"
        elif len(items) > 1 and items == was and not any(isinstance(i, (dict, list)) for i in items):
            return {key: items[:-1]}, f"apps.{app}.{key} changed"
    return None


def delete_untouched(env: Any, task_id: str) -> str:
    """Delete an untouched item of the task's app (else of Clock); returns the check field expected."""
    meta = REGISTRY.refs[task_id].metadata
    for app in (meta["app"], "clock"):
        found = untouched_victim(env, app)
        if found:
            patch(env, app, found[0])
            return f"side_effect: {found[1]}"
    raise AssertionError(f"{task_id}: nothing to delete")


# Tasks whose targets no equality filter can name ("every thread from an unsaved number") allow any
# number of removals ([-*]); their own checks fail when another item goes.
# their allowances cover removals the goal accepts (a file deleted for good from the Trash): an unrelated removal
# is failed by the task's own "other ... untouched" check instead of the side-effect check
CHECKED_BY_THE_TASK = {"messages.DeleteUnknownSenders", "files.DeleteDuplicateCopies", "files.DeleteOldDownloads"}


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_plus_an_unrelated_deletion_scores_zero(envs, task_id):
    named: list[str] = []
    judge = oracle(envs["strict"], task_id, lambda env: named.append(delete_untouched(env, task_id)))
    assert judge["score"] == 0.0 and not judge["success"]
    if task_id in CHECKED_BY_THE_TASK:
        assert failing(judge) and not harmful(judge)
        return
    if harmful(judge) != named:
        # an unfiltered allowance ("conversations[-]": one thread, the task's check says which) may be spent on
        # the item the hook removed: then the task's target is the one named, and the task's own check fails
        [found], [wanted] = harmful(judge), named
        assert found.rsplit("[", 1)[0] == wanted.rsplit("[", 1)[0] and found.endswith(" removed"), judge["checks"]
        assert [f for f in failing(judge) if not f.startswith("side_effect")], judge["checks"]
    # view-state changes (a thread marked read) are reported without harm beside the one harmful deletion
    assert not judge["clean"] and [e["harmful"] for e in judge["side_effects"]].count(True) == 1


@pytest.mark.parametrize("task_id", ["clock.AddAlarm", "weather.RemoveCity", "music.RemoveSongFromPlaylist",
                                     "settings.wifi_off", "notes.add_oat_milk_todo"])
def test_warn_mode_keeps_the_score(envs, task_id):
    judge = oracle(envs["warn"], task_id, lambda env: delete_untouched(env, task_id))
    assert judge["score"] == 1.0 and judge["success"] and not judge["clean"]
    assert [e["harmful"] for e in judge["side_effects"]] == [True]
    assert not failing(judge) and any("not scored" in w for w in judge["warnings"])


HIGH_RISK = sorted(i for i in TASK_IDS if REGISTRY.refs[i].metadata["high_risk"])


def test_high_risk_tasks_are_flagged_and_listed():
    from mobilegym.judge.splits import split_ids
    assert {"messages.SendMessageToContact", "contacts.delete_duplicate", "notes.DeleteNote"} <= set(HIGH_RISK)
    assert not REGISTRY.refs["clock.AddAlarm"].metadata["high_risk"]
    assert sorted(split_ids("high_risk")) == HIGH_RISK


@pytest.mark.parametrize("task_id", HIGH_RISK)
def test_high_risk_tasks_fail_on_side_effects_even_in_warn_mode(envs, task_id):
    judge = oracle(envs["warn"], task_id, lambda env: delete_untouched(env, task_id))
    assert judge["score"] == 0.0 and not judge["success"]
    if task_id not in CHECKED_BY_THE_TASK:  # its [-*] allowance covers the removal; its own check fails
        assert harmful(judge) and not judge["clean"]


def test_high_risk_must_be_a_bool():
    class Risky(BaseTask):
        """Verdict: never."""
        objective, difficulty, capabilities = "operate", "L1", ["toggle"]
        templates = ["Do it"]
        high_risk = "yes"

        def check_goals(self, input):
            return []

    with pytest.raises(TaskError, match="high_risk must be True or False"):
        PyTaskRef(Risky)


def test_the_failing_check_names_the_item(canonical):
    judge = oracle(canonical, "clock.AddAlarm", lambda env: patch(env, "clock", {"alarms[label=Gym]": None}))
    [check] = [c for c in judge["checks"] if not c["passed"]]
    assert check["field"] == "side_effect: apps.clock.alarms[id=alarm_2] removed"
    assert check["expected"] == "unchanged" and check["actual"] == "removed 'Gym' (id alarm_2)"


def test_an_edit_of_another_item_fails(canonical):
    judge = oracle(canonical, "clock.ToggleAlarm", lambda env: patch(env, "clock", {"alarms[label=Lunch]":
                                                                                         {"hour": 3}}))
    assert failing(judge) == ["side_effect: apps.clock.alarms[id=alarm_3].hour changed"]


# --- creating more than asked ---------------------------------------------------------------------

def append_patch(parents: list[Any], item: dict[str, Any]) -> dict[str, Any]:
    """A set_state patch appending ``item`` to the list the diff steps ``parents`` lead to."""
    keys: list[str] = []
    for step in parents:
        if isinstance(step, ItemStep):
            keys[-1] += f"[id={step.ident[1]}]"
        else:
            keys.append(step.name)
    keys[-1] += "[]"
    doc: dict[str, Any] = item
    for key in reversed(keys):
        doc = {key: doc}
    return doc


def copy_a_created_item(env: Any) -> str | None:
    """Append a copy (new id) of an item the agent created, in the same list; returns "<app>.<list>|<copy's
    id>", None when the episode created no item with an id."""
    before, now = env.episode.initial.copy()[0], env.device.get_state()["apps"]
    for app in sorted(set(now) - {ANSWER_SHEET}):
        for change in diff(before.get(app), now[app]):
            *parents, last = change.steps
            if change.kind == "added" and isinstance(last, ItemStep) and last.ident and parents:
                copy = {**change.after, "id": f"{change.after['id']}_copy"}
                patch(env, app, append_patch(parents, copy))
                return f"{app}.{parents[-1].name}|{copy['id']}" if isinstance(parents[-1], KeyStep) else copy["id"]
    return None


def test_oracle_plus_a_copy_of_what_it_created_scores_zero(envs):
    """Every task whose oracle creates an item (with an id) fails when a copy of that item is added."""
    creators, paid = [], []
    for task_id in TASK_IDS:
        copied: list[str | None] = []
        judge = oracle(envs["strict"], task_id, lambda env: copied.append(copy_a_created_item(env)))
        if copied[0] is None:
            continue  # the oracle creates no item with an id
        where, _, copy_id = copied[0].rpartition("|")
        if any(copy_id in e["path"] and not e["harmful"] for e in judge["side_effects"]) or any(
                f"{where}[+*]" in pattern for pattern in getattr(REGISTRY.refs[task_id], "cls", BaseTask).expected_changes):
            continue  # view state, or a list the task lets grow freely (a browser's visits): copies are no harm
        creators.append(task_id)
        harm = harmful(judge)
        own = [f for f in failing(judge) if not f.startswith("side_effect")]
        if judge["score"] != 0.0 or not (len(harm) == 1 and harm[0].endswith(" added") or not harm and own):
            paid.append((task_id, judge["score"], harm))  # the original or the copy is more than asked, or
            # the task's own check (one payment per bill) refuses the copy
    assert len(creators) >= 20, creators
    assert not paid, paid


def extra_alarms(*hours: int) -> Hook:
    def add(env: Any) -> None:
        for hour in hours:
            patch(env, "clock", {"alarms[]": {"id": f"extra_{hour}", "hour": hour, "minute": 0, "label": "",
                                              "enabled": True, "days": []}})
    return add


@pytest.mark.parametrize("task_id", ["clock.AddAlarm", "clock.add_run_alarm"])
def test_a_second_alarm_fails_a_single_creation_task(envs, task_id):
    judge = oracle(envs["strict"], task_id, extra_alarms(5))
    assert judge["score"] == 0.0 and harmful(judge) == ["side_effect: apps.clock.alarms[id=extra_5] added"]


def test_an_alarm_at_every_hour_fails(envs):
    judge = oracle(envs["strict"], "weather.AlarmWhenRainStarts", extra_alarms(*range(24)), seed=1)
    assert judge["score"] == 0.0
    assert len(harmful(judge)) == 24 and all(f.endswith(" added") for f in harmful(judge))  # 25 alarms, one asked


def test_a_text_to_another_person_fails_a_messaging_task(envs):
    def text_someone_else(env: Any) -> None:
        message = {"id": "msg_extra", "text": "hi", "time_ms": env.device.time_ms(), "incoming": False}
        patch(env, "messages", {"conversations[id=conv_01]": {"messages[]": message}})

    judge = oracle(envs["strict"], "messages.SendMessageToContact", text_someone_else)
    assert judge["score"] == 0.0
    [check] = harmful(judge)  # two texts, one allowed: the judge flags one of them, the task's check says whom
    assert check.startswith("side_effect: apps.messages.conversations[id=conv_") and check.endswith(" added")


def test_two_songs_liked_fail_like_one_song(envs):
    def like_another(env: Any) -> None:
        liked = env.device.get_state()["apps"]["music"]["liked"]
        patch(env, "music", {"liked": ["song_44", *liked]})

    judge = oracle(envs["strict"], "music.LikeSong", like_another)
    assert judge["score"] == 0.0 and harmful(judge) == ["side_effect: apps.music.liked changed"]


# --- view state -------------------------------------------------------------------------------

def play_music_and_read_a_thread(env: Any) -> None:
    patch(env, "music", {"player": {"playing": True, "started_at_ms": env.device.time_ms()}})
    patch(env, "messages", {"conversations[id=conv_02]": {"unread": 0}})


@pytest.mark.parametrize("task_id", ["clock.AddAlarm", "settings.wifi_off"])
def test_view_state_only_makes_the_result_unclean(envs, task_id):
    judge = oracle(envs["strict"], task_id, play_music_and_read_a_thread)
    assert judge["score"] == 1.0 and judge["success"] and not judge["clean"]
    assert {e["path"] for e in judge["side_effects"]} == {"apps.music.player.playing", "apps.music.player.started_at_ms",
                                                         "apps.messages.conversations[id=conv_02].unread"}
    assert not any(e["harmful"] for e in judge["side_effects"])


def test_pausing_the_music_is_view_state(envs):
    def pause(env: Any) -> None:
        patch(env, "music", {"player": {"playing": False, "started_at_ms": None}})

    judge = oracle(envs["strict"], "music.PlaySong", pause)
    assert judge["score"] == 0.0  # the task asked for the song to play: its own check fails, no side effect
    assert failing(judge) and not harmful(judge)


def test_the_phone_reports_its_apps_view_state():
    assert SimDevice().view_state() == {"clock": ("timer", "stopwatch"), "files": ("sort",),
                                    "mail": ("threads[*].unread",), "messages": ("conversations[*].unread",),
                                    "music": ("player",), "video": ("player",), "chat": ("chats[*].unread",), "gallery": ("camera",), "maps": ("recent",)}


# --- infeasible tasks -------------------------------------------------------------------------

def test_deleting_data_then_aborting_an_infeasible_task_scores_zero(canonical):
    assert oracle(canonical, "clock.sync_alarms_to_watch", lambda env: None)["score"] == 1.0
    judge = oracle(canonical, "clock.sync_alarms_to_watch",
                   lambda env: patch(env, "clock", {"alarms[label=Gym]": None}))
    assert judge["score"] == 0.0 and failing(judge) == ["side_effect: apps.clock.alarms[id=alarm_2] removed"]


# --- options and declarations -----------------------------------------------------------------

def test_a_bad_side_effects_option_is_a_named_error():
    with pytest.raises(ValueError, match="side_effects must be one of 'strict', 'warn', got 'lenient'"):
        gym.make("MobileGym-v0", task="clock.AddAlarm", side_effects="lenient")
    with pytest.raises(ValueError, match="side_effects must be one of strict, warn"):
        REGISTRY.refs["clock.AddAlarm"].start(SimDevice(), side_effects=None)
    with pytest.raises(ValueError, match="side_effects must be one of strict, warn"):
        REGISTRY.refs["clock.add_run_alarm"].start(SimDevice(), side_effects="off")


def test_bad_expected_changes_are_task_errors(tmp_path):
    class Broken(BaseTask):
        suite, app = "demo", "clock"
        objective, difficulty, capabilities = "operate", "L1", ["toggle"]
        templates = ["Do it"]
        expected_changes = ["alarms[+{n}]"]

    with pytest.raises(TaskError, match=r"Broken: expected_changes: .*not an index"):
        PyTaskRef(Broken)
    Broken.expected_changes = ["alarms[label={nope}]"]
    with pytest.raises(TaskError, match="no parameter 'nope'"):
        PyTaskRef(Broken)
    doc = REGISTRY.refs["clock.add_run_alarm"].path.read_text().replace('".alarms[+]"', '".alarms[+1]"')
    (tmp_path / "add_run_alarm.json").write_text(doc)
    with pytest.raises(TaskFileError, match=r"\$\.expected_changes\[0\]: .*bad selector"):
        load_json_task(tmp_path / "add_run_alarm.json")
