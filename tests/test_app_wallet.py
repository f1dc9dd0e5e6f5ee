"""The Wallet app: every screen renders cleanly in both languages; a transfer and a bill payment move money only
after the confirmation and the right passcode; a wrong passcode, a cancel or a balance too small moves nothing;
history filters by month and category; the default card can be changed and a card removed; generated worlds
hold their invariants and vary. Tests that read fixed text use the canonical world."""
from __future__ import annotations

import datetime as dt

import pytest

from mobilegym.envs.wallet.world import MAX_TRANSACTIONS, MIN_TRANSACTIONS
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.app import load_app
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.worldgen import World

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("wallet", "contacts", "settings")


def _phone(language: str = "en", seed: int | None = None) -> Phone:
    phone = SimDevice(apps=APPS, language=language, world="canonical" if seed is None else "generated")
    if seed is not None:
        phone.reset_state(seed)
    phone.open_app("wallet")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["wallet"]


def _texts(phone: Phone, rid: str) -> list[str]:
    return [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _tap_desc(phone: Phone, rid: str, desc: str) -> None:
    found = [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid and n.desc == desc]
    assert found, f"no {rid} {desc!r} on {phone.current_route()}"
    phone.tap(*found[0].center)


def _pin(phone: Phone, code: str) -> None:
    for digit in code:
        tap(phone, f"pin_{digit}")


def _start_transfer(phone: Phone, name: str, amount: str, note: str = "") -> None:
    tap(phone, "shortcut_transfer")
    tap(phone, "recipient_input")
    phone.type_text(name.split()[0])
    phone.key("back")
    _tap_desc(phone, "payee_item", name)
    tap(phone, "amount_input")
    phone.type_text(amount)
    if note:
        tap(phone, "note_input")
        phone.type_text(note)
    phone.key("back")
    tap(phone, "continue_button")


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    for route in ("/", "/bills", "/bill?id=bill_2", "/history", "/transaction?id=txn_3", "/cards", "/card?id=card_1",
                  "/transfer", "/transfer/amount?phone=%2B1+415-555-0132&name=Alice+Chen"):
        phone.launch("wallet", route)
        assert_screen_ok(phone)
    tap(phone, "amount_input")
    phone.type_text("25")
    phone.key("back")
    tap(phone, "continue_button")
    assert_screen_ok(phone)                                   # confirmation sheet
    tap(phone, "button1")
    assert_screen_ok(phone)                                   # PIN pad
    phone.launch("wallet", "/history")
    tap(phone, "filter_month")
    assert_screen_ok(phone)                                   # month dialog
    phone.launch("wallet", "/card?id=card_1")
    tap(phone, "remove_card")
    assert_screen_ok(phone)                                   # remove dialog


def test_transfer_moves_money_after_confirmation_and_passcode() -> None:
    phone = _phone()
    before = _state(phone)
    _start_transfer(phone, "Alice Chen", "25.50", "Lunch")
    assert _texts(phone, "confirm_amount") == ["$25.50"]
    assert "Alice Chen (+1 415-555-0132)" in _texts(phone, "confirm_value")
    tap(phone, "button1")
    _pin(phone, before["settings"]["passcode"])
    after = _state(phone)
    new = [t for t in after["transactions"] if t not in before["transactions"]]
    assert len(new) == 1
    assert {k: new[0][k] for k in ("kind", "counterparty", "phone", "amount", "note", "category")} == {
        "kind": "transfer_out", "counterparty": "Alice Chen", "phone": "+1 415-555-0132", "amount": -25.5,
        "note": "Lunch", "category": "transfer"}
    assert after["balance"] == round(before["balance"] - 25.5, 2)
    assert _texts(phone, "success_title") == ["Transfer successful"]
    tap(phone, "done_button")
    assert phone.current_route() == "/"


def test_wrong_passcode_moves_nothing_and_says_so() -> None:
    phone = _phone()
    before = _state(phone)
    _start_transfer(phone, "Ben Okafor", "40")
    tap(phone, "button1")
    wrong = "000000" if before["settings"]["passcode"] != "000000" else "111111"
    _pin(phone, wrong)
    assert _texts(phone, "pin_error") == ["Wrong passcode. Try again."]
    assert _state(phone) == before
    _pin(phone, before["settings"]["passcode"][:3])
    tap(phone, "pin_delete")
    assert node(phone, "pin_dots").desc == "2 of 6 digits entered"
    tap(phone, "button2")
    assert _state(phone) == before
    assert phone.current_route().startswith("/transfer/amount")


def test_cancel_on_the_sheet_and_bad_amounts_move_nothing() -> None:
    phone = _phone()
    before = _state(phone)
    _start_transfer(phone, "Alice Chen", "10")
    tap(phone, "button2")
    assert _state(phone) == before
    tap(phone, "amount_input")
    phone.type_text("0", clear=True)
    phone.key("back")
    tap(phone, "continue_button")
    assert _texts(phone, "amount_error") == ["Enter an amount, e.g. 25.50"]
    tap(phone, "amount_input")
    phone.type_text("12.345", clear=True)
    phone.key("back")
    tap(phone, "continue_button")
    assert _texts(phone, "amount_error")
    assert _state(phone) == before


def test_insufficient_balance_is_an_error_dialog() -> None:
    phone = _phone()
    phone.set_state({"apps": {"wallet": {"balance": 20.0}}})
    before = _state(phone)
    _start_transfer(phone, "Alice Chen", "20.01")
    assert _texts(phone, "alertTitle") == ["Insufficient balance"]
    tap(phone, "button1")
    assert _state(phone) == before
    assert not _texts(phone, "alertTitle")


def test_transfer_to_a_typed_number() -> None:
    phone = _phone()
    before = _state(phone)
    tap(phone, "shortcut_transfer")
    tap(phone, "recipient_input")
    phone.type_text("+1 212-555-0199")
    tap(phone, "new_recipient")
    assert _texts(phone, "recipient_name") == ["+1 212-555-0199"]
    tap(phone, "amount_input")
    phone.type_text("5")
    phone.key("back")
    tap(phone, "continue_button")
    tap(phone, "button1")
    _pin(phone, before["settings"]["passcode"])
    new = _state(phone)["transactions"][-1]
    assert (new["counterparty"], new["phone"], new["amount"]) == ("+1 212-555-0199", "+1 212-555-0199", -5.0)


def test_typing_a_contacts_number_offers_the_contact() -> None:
    phone = _phone()
    tap(phone, "shortcut_transfer")
    tap(phone, "recipient_input")
    phone.type_text("415-555-0132")
    assert not _texts(phone, "new_recipient")
    assert _texts(phone, "payee_name") == ["Alice Chen"]


def test_paying_a_bill_marks_it_paid_and_records_it() -> None:
    phone = _phone()
    before = _state(phone)
    tap(phone, "shortcut_bills")
    _tap_desc(phone, "bill_item", "Internet")
    tap(phone, "pay_bill")
    tap(phone, "button1")
    _pin(phone, before["settings"]["passcode"])
    after = _state(phone)
    bill = next(b for b in after["bills"] if b["name"] == "Internet")
    assert bill["paid"] and bill["paid_on"] == "2026-03-16"
    assert after["balance"] == round(before["balance"] - bill["amount"], 2)
    txn = after["transactions"][-1]
    assert (txn["kind"], txn["bill_id"], txn["counterparty"], txn["amount"]) == ("bill", bill["id"], bill["biller"],
                                                                                  -bill["amount"])
    assert _texts(phone, "success_title") == ["Payment successful"]
    phone.key("back")
    phone.launch("wallet", f"/bill?id={bill['id']}")
    assert not _texts(phone, "pay_bill")


def test_a_bill_larger_than_the_balance_cannot_be_paid() -> None:
    phone = _phone()
    phone.set_state({"apps": {"wallet": {"balance": 50.0}}})
    before = _state(phone)
    phone.launch("wallet", "/bill?id=bill_4")               # the rent, $2,130.00
    tap(phone, "pay_bill")
    assert _texts(phone, "alertTitle") == ["Insufficient balance"]
    assert _state(phone) == before


def test_history_filters_by_month_and_category() -> None:
    phone = _phone()
    txns = _state(phone)["transactions"]
    tap(phone, "tab_2")
    assert _texts(phone, "result_count") == [f"{len(txns)} transactions"]
    tap(phone, "filter_month")
    tap(phone, "month_option", text="February 2026")
    tap(phone, "filter_category")
    tap(phone, "category_option", text="Dining")
    wanted = [t for t in txns if t["date"].startswith("2026-02") and t["category"] == "dining"]
    assert _texts(phone, "result_count") == [f"{len(wanted)} transaction{'s' if len(wanted) != 1 else ''}"]
    assert _texts(phone, "filter_month") == ["February 2026"] and _texts(phone, "filter_category") == ["Dining"]
    tap(phone, "filter_category")
    tap(phone, "category_option", text="All categories")
    assert _texts(phone, "filter_category") == ["All categories"]


def test_set_default_card_and_remove_a_card() -> None:
    phone = _phone()
    tap(phone, "tab_3")
    _tap_desc(phone, "card_item", "PNC 7156")
    tap(phone, "set_default")
    assert [c["default"] for c in _state(phone)["cards"]] == [True, False, False]
    assert not _texts(phone, "set_default")
    phone.key("back")
    assert node(phone, "default_badge")
    _tap_desc(phone, "card_item", "Wells Fargo 1645")
    tap(phone, "remove_card")
    tap(phone, "button2")
    assert len(_state(phone)["cards"]) == 3
    tap(phone, "remove_card")
    tap(phone, "button1")
    assert [c["id"] for c in _state(phone)["cards"]] == ["card_1", "card_2"]
    assert phone.current_route() == "/cards"


def test_removing_the_default_card_makes_another_the_default() -> None:
    phone = _phone()
    phone.launch("wallet", "/card?id=card_2")
    tap(phone, "remove_card")
    tap(phone, "button1")
    assert [(c["id"], c["default"]) for c in _state(phone)["cards"]] == [("card_1", True), ("card_3", False)]


def test_chinese_world_pays_in_yuan() -> None:
    phone = _phone("zh", seed=4)
    state = _state(phone)
    assert state["currency"] == "CNY"
    assert _texts(phone, "balance_amount")[0].startswith("¥")
    tap(phone, "tab_1")
    assert any("到期" in n.text or "缴清" in n.text or "逾期" in n.text for n in parse_nodes(phone.a11y_xml()))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_worlds_hold_their_invariants(language: str) -> None:
    for seed in range(12):
        world = World(seed, language, load_app)
        state = world.app_state("wallet")
        cards, bills, txns = state["cards"], state["bills"], state["transactions"]
        assert 1 <= len(cards) <= 3 and sum(c["default"] for c in cards) == 1
        assert len({c["bank"] for c in cards}) == len(cards) == len({c["last4"] for c in cards})
        assert 3 <= len(bills) <= 8 and len({b["name"] for b in bills}) == len(bills) == len({b["due"] for b in bills})
        assert MIN_TRANSACTIONS <= len(txns) - sum(b["paid"] for b in bills) <= MAX_TRANSACTIONS
        assert len({(t["date"], t["time"]) for t in txns}) == len(txns)
        now = f"{world.today.isoformat()} {world.now:%H:%M}"
        assert all(f"{t['date']} {t['time']}" < now for t in txns)
        assert all(round(t["amount"], 2) == t["amount"] and (t["amount"] > 0) == (t["kind"] == "transfer_in")
                   for t in txns)
        names = {c["name"] for c in world.app_state("contacts")["contacts"]}
        assert all(t["counterparty"] in names for t in txns if t["kind"].startswith("transfer"))
        assert all(b["paid_on"] <= world.today.isoformat() for b in bills if b["paid"])
        assert state["currency"] == {"en": "USD", "zh": "CNY"}[language] and len(state["settings"]["passcode"]) == 6
        last_month = (world.today.replace(day=1) - dt.timedelta(days=1)).isoformat()[:7]
        assert any(t["date"].startswith(last_month) for t in txns)


def test_worlds_differ() -> None:
    states = [World(seed, "en", load_app).app_state("wallet") for seed in range(5)]
    assert len({s["settings"]["passcode"] for s in states}) == 5
    assert len({s["balance"] for s in states}) == 5


@pytest.mark.parametrize("language,seed", [("en", 148), ("zh", 280)])
def test_a_morning_with_few_free_minutes_today_moves_history_to_the_day_before(language: str, seed: int) -> None:
    """These worlds wake at about 07:00: today has a minute or two for the history, the rest goes earlier."""
    world = World(seed, language, load_app)
    moments = [(t["date"], t["time"]) for t in world.app_state("wallet")["transactions"]]
    assert len(set(moments)) == len(moments) and world.now.hour == 7


def test_reselecting_the_current_tab_leaves_the_screen_working() -> None:
    """A tab tapped again keeps its screen; the next taps still act on it (they once reached a replaced entry)."""
    phone = _phone()
    tap(phone, "tab_2")
    tap(phone, "tab_2")
    tap(phone, "filter_month")
    assert phone.doc["os"]["stacks"]["wallet"][-1]["local"].get("choosing") == "month"
    assert node(phone, "button2")  # the month dialog is open
