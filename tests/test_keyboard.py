"""The on-screen keyboard (sim.ime): shown while a field has the focus, its keys in the tree as Gboard's are,
typing through its keys the same as the ``type`` action, the numeric pad, its action key and back."""
from __future__ import annotations

import numpy as np
import pytest

from mobilegym.screen_text import Node, parse_nodes
from mobilegym.sim import ime, suggestions, ui
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.system_ui import NAV_H, STATUS_H

from .uitools import node, tap

PKG = ime.IME_PACKAGE


def keys(phone: Phone) -> list[Node]:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.package == PKG and n.clickable]


def key(phone: Phone, desc: str) -> Node:
    found = [n for n in keys(phone) if n.desc == desc]
    assert found, f"no key {desc!r}; keys: {[n.desc for n in keys(phone)]}"
    return found[0]


def press(phone: Phone, desc: str) -> None:
    phone.tap(*key(phone, desc).center)


def type_by_keys(phone: Phone, text: str) -> None:
    """Type ``text`` on the keyboard as a user would: shift for capitals, the symbol pages for the rest,
    and back to the letters at the end."""
    for char in text:
        if char == " ":
            press(phone, "Space")
            continue
        for _ in range(3):  # letters -> symbols -> more symbols -> letters
            shown = {n.desc for n in keys(phone)}
            if char in shown or ("Shift" in shown and char.swapcase() in shown):
                break
            press(phone, next(s for s in ("More symbols", "Letter keyboard", "Symbol keyboard") if s in shown))
        if char not in {n.desc for n in keys(phone)}:
            press(phone, "Shift")
        press(phone, char)
    if "Letter keyboard" in {n.desc for n in keys(phone)}:
        press(phone, "Letter keyboard")


def name_dialog(phone: Phone) -> None:
    """Settings > About phone > Device name: a dialog with one text field (submitting saves)."""
    phone.launch("settings", "/about")
    tap(phone, rid="device_name")


def alarm_form(phone: Phone) -> None:
    phone.launch("clock", "/alarm/edit")


@pytest.fixture
def phone() -> Phone:
    return SimDevice(apps=("settings", "clock", "answer_sheet"), tick_ms=0)


def test_focus_shows_the_keyboard_above_the_navigation_bar_and_resizes_the_screen(phone: Phone) -> None:
    alarm_form(phone)
    assert keys(phone) == []
    form_before = node(phone, rid="alarm_form").bounds
    tap(phone, rid="label_input")
    assert node(phone, rid="label_input").focused
    root = next(n for n in parse_nodes(phone.a11y_xml()) if n.package == PKG)
    width, height = phone.screen_size
    kb_h = ime.keyboard_height(phone.size_dp[1])
    nav_top = round((phone.size_dp[1] - NAV_H) * phone.density)
    assert root.bounds == (0, round((phone.size_dp[1] - NAV_H - kb_h) * phone.density), width, nav_top)
    form = node(phone, rid="alarm_form").bounds
    assert form[1] == form_before[1] and form[3] <= root.bounds[1] < form_before[3]  # resized, not covered
    assert round(STATUS_H * phone.density) <= form[1]


def test_keys_are_flat_frame_layouts_with_gboard_ids(phone: Phone) -> None:
    alarm_form(phone)
    tap(phone, rid="label_input")
    found = keys(phone)
    ids = {n.short_id for n in found}
    assert {f"key_pos_0_{i}" for i in range(10)} | {f"key_pos_1_{i}" for i in range(9)} <= ids
    assert {f"key_pos_2_{i}" for i in range(1, 8)} | {"key_pos_shift", "key_pos_del", "key_pos_space",
                                                    "key_pos_ime_action", "key_pos_switch_to_symbol"} <= ids
    assert all(n.cls == "android.widget.FrameLayout" and n.text == "" and n.resource_id.startswith(f"{PKG}:id/")
               for n in found)
    assert [n.desc for n in found if n.short_id.startswith("key_pos_0_")] == list("qwertyuiop")
    assert key(phone, "Shift").short_id == "key_pos_shift" and key(phone, "Delete").short_id == "key_pos_del"
    # the IME window comes after the app window, and the app keeps its focused field
    packages = [n.package for n in parse_nodes(phone.a11y_xml())]
    assert packages.index(PKG) > packages.index("com.mobilegym.clock")
    assert node(phone, rid="label_input").focused


@pytest.mark.parametrize("text", ["Hello, World 42!", "a.b@c_d (x/y) = {1}; ~π £5 ✓"])
def test_typing_through_keys_equals_typing_with_type(text: str) -> None:
    by_keys, by_type = SimDevice(tick_ms=0), SimDevice(tick_ms=0)
    for phone in (by_keys, by_type):
        name_dialog(phone)
        tap(phone, rid="name_input")
    type_by_keys(by_keys, text)
    by_type.type_text(text)
    assert node(by_keys, rid="name_input").text == f"MobileGym Phone{text}"
    assert by_keys.get_state() == by_type.get_state()
    assert by_keys.a11y_xml() == by_type.a11y_xml()
    assert np.array_equal(by_keys.screenshot(), by_type.screenshot())


def test_shift_is_one_shot_and_a_long_press_locks_it(phone: Phone) -> None:
    alarm_form(phone)
    tap(phone, rid="label_input")
    press(phone, "Shift")
    assert key(phone, "Shift").selected and key(phone, "A").short_id == "key_pos_1_0"
    press(phone, "A")
    press(phone, "b")
    phone.long_press(*key(phone, "Shift").center)
    press(phone, "C")
    press(phone, "D")
    press(phone, "Shift")
    press(phone, "e")
    assert node(phone, rid="label_input").text == "AbCDe"
    phone.long_press(*key(phone, "q").center)  # the digit in the corner of a top-row key
    assert node(phone, rid="label_input").text == "AbCDe1"


def test_backspace_deletes_the_last_character(phone: Phone) -> None:
    alarm_form(phone)
    tap(phone, rid="label_input")
    type_by_keys(phone, "abc")
    press(phone, "Delete")
    assert node(phone, rid="label_input").text == "ab"
    for _ in range(3):
        press(phone, "Delete")
    assert node(phone, rid="label_input").text == ""


def test_number_fields_get_the_numeric_pad(phone: Phone) -> None:
    phone.set_state({"apps": {"answer_sheet": {"fields": [{"type": "number"}, {"type": "text"}]}}})
    phone.open_app("answer_sheet")
    tap(phone, rid="field_0_input")
    descs = [n.desc for n in keys(phone)]
    assert descs == ["1", "2", "3", "-", "4", "5", "6", "Space", "7", "8", "9", "Delete", ",", "0", ".", "Next"]
    for desc in ("-", "1", "2", ",", ".", "5", ".", "Delete", "7"):
        press(phone, desc)
    assert phone.doc["apps"]["answer_sheet"]["answers"]["0"] == "-12.7"  # what the field lets through
    press(phone, "Next")
    assert node(phone, rid="field_1_input").focused
    assert key(phone, "q").short_id == "key_pos_0_0" and key(phone, "Done")


def sheet_form(phone: Phone, fields: int = 3) -> None:
    phone.set_state({"apps": {"answer_sheet": {"fields": [{"type": "text"}] * fields}}})
    phone.open_app("answer_sheet")


def test_action_key_next_moves_the_focus_and_done_closes_the_keyboard(phone: Phone) -> None:
    sheet_form(phone)
    tap(phone, rid="field_0_input")
    assert key(phone, "Next").short_id == "key_pos_ime_action"
    press(phone, "Next")
    assert node(phone, rid="field_1_input").focused
    press(phone, "Next")
    assert node(phone, rid="field_2_input").focused
    press(phone, "Done")
    assert keys(phone) == [] and phone.doc["os"]["focus"] is None


def test_action_key_runs_the_fields_enter_behaviour(phone: Phone) -> None:
    name_dialog(phone)
    tap(phone, rid="name_input")
    phone.type_text("Pixel", clear=True)
    press(phone, "Done")  # the dialog's field submits on enter: saves the name
    assert phone.doc["apps"]["settings"]["about"]["device_name"] == "Pixel"
    assert keys(phone) == []


def test_back_hides_the_keyboard_before_navigating(phone: Phone) -> None:
    alarm_form(phone)
    route = phone.current_route()
    tap(phone, rid="label_input")
    type_by_keys(phone, "hi")
    tap(phone, rid="back")
    assert keys(phone) == [] and phone.doc["os"]["focus"] is None and phone.current_route() == route
    assert node(phone, rid="label_input").text == "hi"
    tap(phone, rid="back")
    assert phone.current_route() != route


def test_symbol_pages_and_language_key(phone: Phone) -> None:
    alarm_form(phone)
    tap(phone, rid="label_input")
    assert key(phone, "Space") and key(phone, ",")
    press(phone, "Symbol keyboard")
    assert [n.desc for n in keys(phone) if n.short_id.startswith("key_pos_0_")] == list("1234567890")
    press(phone, "More symbols")
    assert key(phone, "π")
    press(phone, "Letter keyboard")
    press(phone, "Switch input language")
    assert phone.doc["os"]["ime"]["language"] == "zh"
    press(phone, "，")
    press(phone, "a")
    press(phone, "。")
    assert node(phone, rid="label_input").text == "，a。"  # letters stay Latin: no pinyin composition
    press(phone, "Switch input language")
    assert key(phone, ",")


def labels(phone: Phone) -> dict[str, str]:
    """The drawn label of each key shown, by resource-id (labels are drawn, not in the tree)."""
    board = next(w.root for w in phone.frame().windows if w.kind == "ime")
    return {k.rid: k.label for row in board.rows for k in row}


def test_a_chinese_phone_labels_the_keys_as_chinese_gboard_does() -> None:
    phone = SimDevice(apps=("settings", "clock", "answer_sheet"), tick_ms=0, language="zh")
    sheet_form(phone, 2)
    tap(phone, rid="field_0_input")
    by_id = {n.short_id: n.desc for n in keys(phone)}
    assert [by_id[f"key_pos_0_{i}"] for i in range(10)] == list("qwertyuiop")  # the keys stay QWERTY
    assert (by_id["key_pos_del"], by_id["key_pos_space"], by_id["key_pos_ime_action"]) == ("删除", "空格", "下一步")
    assert (by_id["key_pos_switch_to_symbol"], by_id["key_pos_language_switch"]) == ("符号键盘", "切换输入语言")
    assert (labels(phone)["key_pos_space"], labels(phone)["key_pos_language_switch"]) == ("中文", "中")
    press(phone, "切换输入语言")
    assert (labels(phone)["key_pos_space"], labels(phone)["key_pos_language_switch"]) == ("英语", "英")
    press(phone, "符号键盘")
    assert key(phone, "更多符号") and key(phone, "字母键盘")
    assert labels(phone)["key_pos_switch_to_alpha"] == "返回"
    press(phone, "字母键盘")
    tap(phone, rid="field_1_input")
    assert key(phone, "完成").short_id == "key_pos_ime_action"
    english = SimDevice(apps=("settings", "clock", "answer_sheet"), tick_ms=0)
    sheet_form(english, 2)
    tap(english, rid="field_0_input")
    assert key(english, "Delete") and key(english, "Next")  # an English phone keeps English labels


def test_a_new_field_opens_on_the_letters_page(phone: Phone) -> None:
    sheet_form(phone, 2)
    tap(phone, rid="field_0_input")
    press(phone, "Symbol keyboard")
    tap(phone, rid="field_1_input")
    assert key(phone, "q") and phone.doc["os"]["ime"]["page"] == "letters"


def test_focused_field_is_scrolled_above_the_keyboard() -> None:
    phone = SimDevice(width=360, height=640, apps=("settings", "clock", "answer_sheet"), tick_ms=0)
    phone.set_state({"apps": {"answer_sheet": {"fields": [{"type": "text"}] * 6}}})
    phone.open_app("answer_sheet")
    field = node(phone, rid="field_4_input")
    phone.tap(*field.center)
    kb_top = next(n for n in parse_nodes(phone.a11y_xml()) if n.package == PKG).bounds[1]
    moved = node(phone, rid="field_4_input")
    assert moved.focused and moved.bounds[3] <= kb_top and moved.bounds[1] < field.bounds[1]


def test_dark_theme_keyboard(phone: Phone) -> None:
    alarm_form(phone)
    tap(phone, rid="label_input")
    light = phone.screenshot()
    phone.set_state({"apps": {"settings": {"dark_mode": True}}})
    dark = phone.screenshot()
    y = int((phone.size_dp[1] - NAV_H - 20) * phone.density * phone.render_scale)
    assert tuple(light[y, 2]) == ime.LIGHT.background and tuple(dark[y, 2]) == ime.DARK.background


def test_keyboard_is_deterministic_and_survives_snapshots(phone: Phone) -> None:
    alarm_form(phone)
    tap(phone, rid="label_input")
    press(phone, "Shift")
    snap = phone.snapshot()
    shot, tree = phone.screenshot(), phone.a11y_xml()
    press(phone, "Symbol keyboard")
    phone.restore(snap)
    assert np.array_equal(phone.screenshot(), shot) and phone.a11y_xml() == tree
    other = SimDevice(apps=("settings", "clock", "answer_sheet"), tick_ms=0)
    alarm_form(other)
    tap(other, rid="label_input")
    press(other, "Shift")
    assert other.a11y_xml() == tree and np.array_equal(other.screenshot(), shot)


def test_bad_keyboard_state_reads_as_the_default(phone: Phone) -> None:
    phone.set_state({"os": {"ime": {"page": "nope", "shift": 3, "language": "fr"}}})
    alarm_form(phone)
    tap(phone, rid="label_input")
    assert key(phone, "q") and key(phone, "Space")
    with pytest.raises(ValueError, match="ime_action"):
        ui.TextField("f", "", lambda v: None, ime_action="jump")


def test_fields_declare_their_action_key() -> None:
    phone = SimDevice(apps=("messages", "notes", "settings"), tick_ms=0)
    phone.launch("messages", "/search")
    tap(phone, rid="search_input")
    type_by_keys(phone, "hi")
    assert key(phone, "Search").short_id == "key_pos_ime_action"
    press(phone, "Search")  # filters live: the action key just closes the keyboard
    assert keys(phone) == [] and node(phone, rid="search_input").text == "hi"
    phone.launch("notes", "/note")
    tap(phone, rid="note_body")  # multi-line: Enter types a new line
    type_by_keys(phone, "a")
    press(phone, "Enter")
    type_by_keys(phone, "b")
    assert node(phone, rid="note_body").text == "a\nb"


def candidates(phone: Phone) -> list[Node]:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.package == PKG and n.short_id == ime.SUGGESTION_ID]


def test_the_suggestion_strip_completes_the_word_being_typed(phone: Phone) -> None:
    alarm_form(phone)
    tap(phone, rid="label_input")
    strip = [n for n in parse_nodes(phone.a11y_xml()) if n.package == PKG and n.short_id == ime.STRIP_ID]
    assert strip and not candidates(phone)  # nothing typed: an empty strip
    for char in "hello me":
        press(phone, "Space" if char == " " else char)
    assert node(phone, rid="label_input").text == "hello me"
    shown = candidates(phone)
    assert [n.desc for n in shown] == ["meeting", "me", "message"]  # left to right: the best in the middle
    assert all(n.clickable and n.bounds[1] >= strip[0].bounds[1] and n.bounds[3] <= strip[0].bounds[3]
               for n in shown)
    assert shown[0].bounds[2] <= shown[1].bounds[0] and shown[1].bounds[2] <= shown[2].bounds[0]
    phone.tap(*shown[0].center)
    assert node(phone, rid="label_input").text == "hello meeting "  # the word replaced, a space after it
    assert not candidates(phone)
    phone.type_text("Th", False)
    assert sorted(n.desc for n in candidates(phone)) == ["That", "The", "This"]  # a typed capital stays
    phone.type_text("qz", False)
    assert not candidates(phone)  # no listed word starts with "Thqz"


def test_no_suggestions_for_numbers_and_the_strip_is_cheap(phone: Phone) -> None:
    phone.set_state({"apps": {"answer_sheet": {"fields": [{"type": "number"}, {"type": "text"}]}}})
    phone.open_app("answer_sheet")
    tap(phone, rid="field_0_input")
    phone.type_text("12", False)
    assert not candidates(phone)
    assert suggestions.suggest("to") == ("to", "tomorrow", "today")  # the most common first, the word itself too
    assert suggestions.current_word("买了 milk") == "milk" and suggestions.current_word("call 2") == ""
    assert suggestions.apply("see you tom", "tomorrow") == "see you tomorrow "
    assert suggestions.suggest("") == () and suggestions.suggest("'") == ()
    suggestions.suggest.cache_clear()
    for _ in range(3):
        suggestions.suggest("mee")
    assert suggestions.suggest.cache_info().hits == 2
