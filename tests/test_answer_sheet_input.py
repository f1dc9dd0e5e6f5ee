"""Number fields hold what Android's numeric keyboard types: digits, one decimal point, a leading minus."""
from __future__ import annotations

import pytest

from mobilegym.oracle import plans_for, run_plan
from mobilegym.sim import ui
from mobilegym.sim.input_types import append_typed, check_input_type

from .test_judge_e2e import Driver

TYPED = [("12°", "12"), ("12 °C", "12"), ("48%", "48"), ("11 km/h", "11"), ("-3.5", "-3.5"), ("3-4", "34"),
         ("1.2.3", "1.23"), ("0, 1, 2, ..., 120", "012.120"), ("四", ""), ("１２", ""), ("−5", "5")]


@pytest.mark.parametrize("typed, kept", TYPED)
def test_number_input_keeps_what_a_numeric_keyboard_types(typed: str, kept: str) -> None:
    assert append_typed("number", "", typed) == kept
    assert append_typed("text", "", typed) == typed


def test_number_input_appends_one_key_at_a_time() -> None:
    assert append_typed("number", "1.5", ".25") == "1.525"
    assert append_typed("number", "7", "-2") == "72"
    assert append_typed("number", "", "--2") == "-2"


def test_unknown_input_type_is_a_named_error() -> None:
    with pytest.raises(ValueError, match="input_type must be one of 'text', 'number'"):
        check_input_type("phone-ish")
    with pytest.raises(ValueError, match="input_type"):
        ui.TextField("f", "", lambda v: None, input_type="digits")


@pytest.fixture(scope="module")
def sheet() -> Driver:
    driver = Driver("clock.CountAlarms", obs_parts=("a11y", "instruction"))
    driver.step({"type": "open_app", "app": "answer_sheet"})
    return driver


@pytest.mark.parametrize("typed, kept", TYPED[:4] + [("0, 1, 2, ..., 120", "012.120")])
def test_typing_into_the_answer_sheet_number_field(sheet: Driver, typed: str, kept: str) -> None:
    sheet.tap("field_0_input")
    sheet.step({"type": "type", "text": typed, "clear": True})
    assert sheet.state()["apps"]["answer_sheet"]["answers"]["0"] == kept
    node = sheet.nodes("field_0_input")[0]
    assert node.text == kept and node.cls == "android.widget.EditText"


def test_text_fields_keep_every_character() -> None:
    driver = Driver("clock.AlarmTime", obs_parts=("a11y",))
    driver.step({"type": "open_app", "app": "answer_sheet"})
    driver.tap("field_0_input")
    driver.step({"type": "type", "text": "7.15 °C -1"})
    assert driver.state()["apps"]["answer_sheet"]["answers"]["0"] == "7.15 °C -1"


@pytest.mark.parametrize("task_id", ["clock.CountAlarms", "weather.CityConditionsNow", "weather.TemperatureDifference",
                                     "weather.FahrenheitHighTomorrow", "notes.count_pinned_notes",
                                     "settings.storage_used"])
def test_oracles_still_fill_number_fields(task_id: str) -> None:
    driver = Driver(task_id, obs_parts=("a11y",), apps=None)
    oracle = next(p for p in plans_for(task_id) if p.expect_success)
    for seed in (0, 1):
        reward, info, _ = run_plan(driver.env, task_id, oracle, seed)
        assert reward == 1.0 and info["judge"]["eval_path"] != "text", info["judge"]["checks"]
