"""A Chinese phone: every oracle plan still scores 1, instructions and AnswerSheet fields read as Chinese, and the
apps' screens show no English UI words.

"No English" means no run of Latin letters that is not data: a value on the phone (a name, a song title, an e-mail,
a brand, a password), a unit, or a proper noun Chinese phones write in Latin letters. Each allowance below says why.
"""
from __future__ import annotations

import re
from typing import Any, Iterator
from urllib.parse import urlencode

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import TaskError, default_registry
from mobilegym.judge.grounded import ANSWER_SHEET, SHEET_LABELS
from mobilegym.judge.python.tasks import AnswerTask, BaseTask
from mobilegym.oracle import plans_for, run_plan
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.app import installed_apps
from mobilegym.sim.clock import from_ms
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone, ScreenError
from mobilegym.envs.l10n import in_language
from mobilegym.tasks.l10n import localised

from .apptools import assert_screen_ok

REGISTRY = default_registry()
TASK_IDS = sorted(REGISTRY.refs)
SEEDS = (0, 1)  # world seeds the plans run on
LATIN = re.compile(r"[A-Za-z][A-Za-z'&.\-]*[A-Za-z]|[A-Za-z]")  # a Latin word
RUN = re.compile(r"[A-Za-z]{3,}")  # what an instruction may hold only as data: three or more Latin letters

# Latin words a Chinese phone or instruction writes as they are, with why.
PROPER = {
    "WLAN": "the name zh-CN Android gives Wi-Fi",
    "Wi-Fi": "network names and the notes' labels keep the brand (家里 Wi-Fi 密码)",
    "NFC": "the technology's name in Chinese too",
    "GB": "storage unit", "MB": "storage / file size unit", "kB": "storage unit", "KB": "file size unit", "°C": "temperature unit", "°F": "temperature unit", "km/h": "wind unit",
    "m/s": "wind unit", "mph": "wind unit (the task asks for it)",
    "Android": "the system's name (Android 版本)",
    "YYYY-MM-DD": "date format the date fields take", "HH:MM": "time format the time fields take",
    "HH": "hint of the hour box", "MM": "hint of the minute box",
    "name@example.com": "example address in the e-mail field",
    "MG-1": "example model in the AnswerSheet hint", "MU": "example airline code in the AnswerSheet hint",
    "C": "the dentist's text asks to reply C",
}
# State fields that are keys the screens translate, not data shown as stored.
ENUM_KEYS = {"id", "calendar", "days", "type", "font_size", "condition", "wind_dir", "unit", "wind_unit", "repeat",
             "color", "context", "address"}
# The phone's own chrome (mobilegym/sim: navigation bar, app bar, switches, recents) is translated there, not here.
SYSTEM_CHROME = {"Back": "返回", "Home": "主屏幕", "Overview": "概览", "Navigate up": "转到上一层级", "ON": "开启",
                 "OFF": "关闭", "Recent apps": "最近使用的应用", "Clear all": "全部清除", "No recent items": "近期没有任何内容"}


def _strings(value: Any, key: str = "") -> Iterator[str]:
    """Every data string of a state document (not the enum fields the screens translate, nor an English name
    stored beside its Chinese one: a city's ``name`` next to ``name_zh``)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in ENUM_KEYS and not (key == "calendars" and k == "name") and f"{k}_zh" not in value:
                yield from _strings(v, k)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, key)
    elif isinstance(value, str):
        yield value


def _allowed(data: Iterator[str] | list[str]) -> list[str]:
    """Data strings and proper nouns, longest first (so a name is taken out before a word inside it)."""
    return sorted({*PROPER, *data} - {""}, key=len, reverse=True)


def _foreign(text: str, allowed: list[str], pattern: re.Pattern[str] = LATIN) -> list[str]:
    """The Latin words of ``text`` that are neither data nor allowed proper nouns (``allowed`` from _allowed); a
    text that is part of one data string (a note's first line) is data."""
    if any(text in item for item in allowed):
        return []
    text = re.sub(r"(?<=\d)[A-Z](?![A-Za-z])", " ", text)  # a code's letter after its digits: seat 02车11A号
    for item in allowed:
        if item in text:
            text = text.replace(item, " ")
    text = re.sub(r"\S+@\S+", " ", text)  # e-mail addresses and @domains
    return pattern.findall(text)


# --- oracle plans ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def envs() -> dict[str, gym.Env]:
    return {mode: gym.make("MobileGym-v0", task=TASK_IDS, eval_mode=mode, obs_parts=("a11y",), language="zh")
            for mode in ("grounded", "text")}


def _answers(task_id: str) -> bool:
    meta = REGISTRY.refs[task_id].metadata
    return meta.get("objective") in ("query", "hybrid") or bool(meta.get("has_answer_fields"))


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_oracle_plan_scores_one_on_a_chinese_phone(envs, task_id: str) -> None:
    oracle = next(p for p in plans_for(task_id) if p.expect_success)
    runs = [("grounded", seed) for seed in SEEDS] + ([("text", SEEDS[0])] if _answers(task_id) else [])
    for mode, seed in runs:
        reward, info, _ = run_plan(envs[mode], task_id, oracle, seed)
        assert reward == 1.0 and info["task_error"] is None, (mode, seed, info.get("judge"))


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_negative_plans_score_zero_on_a_chinese_phone(envs, task_id: str) -> None:
    for negative in (p for p in plans_for(task_id) if not p.expect_success):
        reward, info, _ = run_plan(envs["grounded"], task_id, negative, SEEDS[0])
        assert reward == 0.0 and info["task_error"] is None, (negative.name, info.get("judge"))


# --- instructions and AnswerSheet fields -------------------------------------------------------------------------

def _episodes(task_id: str) -> Iterator[tuple[Any, list[str]]]:
    """(episode, data strings of its phone) on three seeds of a Chinese phone."""
    phone = SimDevice(language="zh")
    for seed in range(3):
        episode = REGISTRY.refs[task_id].start(phone, seed=seed, eval_mode="grounded", language="zh")
        yield episode, _allowed(_strings(list(phone.get_state()["apps"].values())))


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_the_chinese_instruction_has_no_english(task_id: str) -> None:
    for episode, data in _episodes(task_id):
        assert re.search(r"[\u4e00-\u9fff]", episode.instruction), episode.instruction
        foreign = _foreign(episode.instruction, data, RUN)
        assert not foreign, f"{episode.instruction!r}: {foreign}"


QUOTED = re.compile(r"“([^”]*)”|《([^》]*)》|\"([^\"]*)\"")


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_what_the_chinese_instruction_quotes_is_chinese(task_id: str) -> None:
    """A quoted text is what the agent types or looks for: it reads Chinese unless the phone's world held it
    before the task set up its own data (a title from the library, a proper noun), so a task cannot ask a
    Chinese phone to type an English literal its evaluator compares with."""
    phone = SimDevice(language="zh")
    for seed in range(3):
        phone.reset_state(seed)
        world = _allowed(_strings(list(phone.get_state()["apps"].values())))
        episode = REGISTRY.refs[task_id].start(phone, seed=seed, eval_mode="text", language="zh")
        quoted = ["".join(groups) for groups in QUOTED.findall(episode.instruction)]
        foreign = [q for q in quoted if _foreign(q, world, RUN)]
        assert not foreign, f"{episode.instruction!r} quotes {foreign}"


def test_the_answer_sheet_has_one_name_on_a_chinese_phone() -> None:
    """The grounded instruction, the launcher and the sheet's own title all call it 答题卡."""
    name = SHEET_LABELS["zh"]
    phone = SimDevice(language="zh")
    episode = REGISTRY.refs["settings.storage_used"].start(phone, seed=0, eval_mode="grounded", language="zh")
    assert f"打开{name}应用" in episode.instruction and "AnswerSheet" not in episode.instruction
    phone.key("home")
    home = [n.text or n.desc for n in parse_nodes(phone.a11y_xml())]
    phone.launch(ANSWER_SHEET)
    sheet = [t for n in parse_nodes(phone.a11y_xml()) for t in (n.text, n.desc)]
    assert name in home and name in sheet
    assert not [t for t in home + sheet if "Answer" in t], [t for t in home + sheet if "Answer" in t]


PY_TASKS = [t for t in TASK_IDS if hasattr(REGISTRY.refs[t], "cls")]


@pytest.mark.parametrize("task_id", PY_TASKS)
def test_every_python_task_has_chinese_templates_and_fields(task_id: str) -> None:
    cls: type[BaseTask] = REGISTRY.refs[task_id].cls
    assert isinstance(cls.templates, dict) and cls.templates.get("zh"), "no zh templates"
    if cls.answer_fields is not None:
        assert "fields" in getattr(cls, "translations", {}).get("zh", {}), "answer fields have no zh labels"
    for episode, data in _episodes(task_id):
        for field in episode.fields:
            shown = " ".join([field["label"], field.get("hint", ""), *field.get("options", [])])
            assert not _foreign(shown, data, RUN), field


def test_json_answer_fields_are_chinese() -> None:
    fields = [f for t in TASK_IDS if not hasattr(REGISTRY.refs[t], "cls")
              for f in REGISTRY.refs[t].sheet_fields("zh")[1]]
    shown = [" ".join([f["label"], f.get("hint", ""), *f.get("options", [])]) for f in fields]
    assert shown and not [text for text in shown if _foreign(text, _allowed([]), RUN)], shown


# --- screens ------------------------------------------------------------------------------------------------------

def _routes(phone: Phone, app_id: str) -> Iterator[str]:
    """Every screen of the app, with the first id (or today's date) that makes a route show something."""
    app = installed_apps([app_id])[app_id]
    state = phone.get_state()["apps"][app_id]
    ids = [items[0]["id"] for items in state.values()
           if isinstance(items, list) and items and isinstance(items[0], dict) and "id" in items[0]]
    today = from_ms(phone.get_state()["os"]["time_ms"]).date().isoformat()
    for path in sorted(app.screens):
        options = [{}, *({"id": i} for i in ids), {"date": today}]
        for params in options:
            route = f"{path}?{urlencode(params)}" if params else path
            try:
                phone.reset_state(phone.world_seed)
                phone.launch(app_id, route)
            except ScreenError:
                continue
            yield route
            break


def _english_ui_words(phone: Phone, app_id: str, where: str, allowed: list[str]) -> list[str]:
    """The app's node texts and descriptions on screen that hold English words."""
    return [f"{app_id} {where} #{node.short_id}: {text!r} has {foreign}"
            for node in parse_nodes(phone.a11y_xml()) if node.package.endswith(f".{app_id}")
            for text in (node.text, node.desc)
            for foreign in [_foreign(text, allowed)] if foreign]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("app_id", sorted(installed_apps()))
def test_chinese_screens_show_no_english_ui_words(app_id: str, seed: int) -> None:
    phone = SimDevice(language="zh")
    phone.reset_state(seed)
    allowed = _allowed(_strings(list(phone.get_state()["apps"].values())))
    shown = 0
    for route in _routes(phone, app_id):
        shown += 1
        assert_screen_ok(phone)
        assert not _english_ui_words(phone, app_id, route, allowed)
    assert shown >= 1


@pytest.mark.parametrize("app_id", sorted(installed_apps()))
def test_chinese_dialogs_and_menus_show_no_english_ui_words(app_id: str) -> None:
    """What one tap or long press on each of a screen's controls opens (dialogs, menus, pickers, chips, the
    next screen) reads Chinese too."""
    phone = SimDevice(language="zh")
    phone.reset_state(SEEDS[0])
    allowed = _allowed(_strings(list(phone.get_state()["apps"].values())))
    found: list[str] = []
    for route in list(_routes(phone, app_id)):
        phone.reset_state(phone.world_seed)
        phone.launch(app_id, route)
        controls = [(n.short_id or n.text or n.desc, n.center) for n in parse_nodes(phone.a11y_xml())
                    if n.clickable and n.package.endswith(f".{app_id}")]
        for name, (x, y) in controls:
            for gesture in (phone.tap, phone.long_press):
                phone.reset_state(phone.world_seed)
                phone.launch(app_id, route)
                gesture(x, y)
                found += _english_ui_words(phone, app_id, f"{route} {gesture.__name__} {name}", allowed)
    assert not found, "\n".join(found)


def _texts(phone: Phone) -> set[str]:
    return {t for n in parse_nodes(phone.a11y_xml()) for t in (n.text, n.desc) if t}


def test_the_system_chrome_is_chinese() -> None:
    """The navigation bar, the app bar's up button, switches, the launcher's date and recents speak Chinese."""
    phone = SimDevice(language="zh")
    phone.reset_state(0)
    phone.launch("settings", "/network")
    shown = _texts(phone)
    assert {"返回", "主屏幕", "概览", "转到上一层级"} <= shown and shown & {"开启", "关闭"}, shown
    phone.key("home")
    launcher = _texts(phone)
    assert any(re.fullmatch(r"\d{1,2}月\d{1,2}日 星期[一二三四五六日]", t) for t in launcher), launcher
    phone.key("recent")
    recents = _texts(phone)
    assert {"最近使用的应用", "全部清除", "设置"} <= recents, recents
    phone.tap(*next(n.center for n in parse_nodes(phone.a11y_xml()) if n.short_id == "clear_all"))
    phone.key("recent")
    seen = shown | launcher | recents | _texts(phone)
    assert "近期没有任何内容" in seen
    assert not seen & set(SYSTEM_CHROME), seen & set(SYSTEM_CHROME)


def test_the_system_chrome_is_english_on_an_english_phone() -> None:
    phone = SimDevice(language="en")
    phone.reset_state(0)
    phone.launch("settings", "/network")
    assert {"Back", "Home", "Overview", "Navigate up"} <= _texts(phone)
    assert not _texts(phone) & set(SYSTEM_CHROME.values())


# --- the localisation helpers -------------------------------------------------------------------------------------

def test_preparer_texts_pick_the_phone_language() -> None:
    assert in_language({"en": "Gym", "zh": "健身"}, "zh") == "健身"
    assert in_language("Gym", "zh") == "Gym"
    with pytest.raises(ValueError, match="alarm label .* no 'zh' entry"):
        in_language({"en": "Gym"}, "zh", "alarm label")


class _Probe(AnswerTask):
    objective = "query"
    difficulty = "L1"
    capabilities = ["toggle"]
    templates = {"en": ["{mode} it"], "zh": ["{mode}它"]}
    parameters = {"mode": {"type": "bool", "values": {"turn on": True, "turn off": False}},
                  "line": {"sampler": lambda rng, state: {"type": "work"}, "fields": ["type"]}}
    answer = 1
    answer_fields = [{"type": "number", "label": "Count of {mode}", "hint": "e.g. 3"}]


def test_localised_tasks_read_in_the_phone_language() -> None:
    cls = localised(zh={"labels": {"mode": {True: "打开", False: "关闭"}, "line.type": {"work": "工作"}},
                        "fields": [{"label": "{mode}的数量", "hint": "例如 3"}]})(type("Probe", (_Probe,), {}))
    task = cls(language="zh")
    task.bind({"mode": True, "line": {"type": "work"}}, {"mode": "turn on", "line": {"type": "work"}}, "{mode}它")
    assert task.description == "打开它" and task.display["line"] == {"type": "工作"}
    assert task.sheet_spec()[1] == [{"type": "number", "label": "打开的数量", "hint": "例如 3"}]
    english = cls(language="en")
    english.bind({"mode": False, "line": {"type": "work"}}, {"mode": "turn off", "line": {"type": "work"}}, "{mode} it")
    assert english.description == "turn off it" and english.sheet_spec()[1][0]["label"] == "Count of turn off"


@pytest.mark.parametrize("table, message", [
    ({"labels": {"nope": {}}}, "no parameter 'nope'"),
    ({"labels": {"mode": {True: "打开"}}}, "must cover exactly its values"),
    ({"labels": {"line.kind": {}}}, "no field 'kind'"),
    ({"fields": []}, "each of its 1 answer fields"),
    ({"fields": [{"label": "数量"}]}, "exactly the hint/options"),
    ({"colour": {}}, "not \\['colour'\\]"),
])
def test_a_translation_that_does_not_fit_the_task_is_refused(table: dict, message: str) -> None:
    with pytest.raises(TaskError, match=message):
        localised(zh=table)(type("Probe", (_Probe,), {}))


def test_a_drawn_value_without_a_label_is_a_task_error() -> None:
    cls = localised(zh={"labels": {"line.type": {"home": "住宅"}}})(type("Probe", (_Probe,), {}))
    with pytest.raises(TaskError, match="no zh label for line.type = 'work'"):
        cls(language="zh").bind({"mode": True, "line": {"type": "work"}}, {"mode": "turn on", "line": {"type": "work"}},
                                "{mode}")
