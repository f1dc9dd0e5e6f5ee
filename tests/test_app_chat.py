"""The Chat app: every screen renders in both languages; messages send in one-to-one and group chats; a transfer
moves money only after the confirmation and the right passcode (a wrong one, a cancel or a small balance moves
nothing); a received transfer is accepted into the balance; chats are deleted only after confirming; groups are
created and renamed; moments are liked, commented and posted; generated worlds hold their invariants and agree
with Contacts. Tests that read fixed text use the canonical world."""
from __future__ import annotations

import time

import pytest

from mobilegym.envs.chat.world import ME
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.app import load_app
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.worldgen import World

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("chat", "contacts", "settings")
SEEDS = range(30)


def _phone(language: str = "en", seed: int | None = None) -> Phone:
    phone = SimDevice(apps=APPS, language=language, world="canonical" if seed is None else "generated")
    if seed is not None:
        phone.reset_state(seed)
    phone.open_app("chat")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["chat"]


def _nodes(phone: Phone, rid: str) -> list:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _tap_desc(phone: Phone, rid: str, desc: str) -> None:
    found = [n for n in _nodes(phone, rid) if n.desc == desc]
    assert found, f"no {rid} {desc!r} on {phone.current_route()}"
    phone.tap(*found[0].center)


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text)
    phone.key("back")


def _friend(phone: Phone, friend_id: str) -> dict:
    return next(f for f in _state(phone)["friends"] if f["id"] == friend_id)


def _direct(state: dict) -> dict:
    return next(c for c in state["chats"] if c["kind"] == "direct")


def _pin(phone: Phone, code: str) -> None:
    for digit in code:
        tap(phone, f"pin_{digit}")


def _start_transfer(phone: Phone, chat: dict, amount: str, note: str = "") -> None:
    phone.launch("chat", f"/chat?id={chat['id']}")
    tap(phone, "transfer_button")
    _type(phone, "amount_input", amount)
    if note:
        _type(phone, "note_input", note)
    tap(phone, "continue_button")


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    state = _state(phone)
    group = next(c for c in state["chats"] if c["kind"] == "group")
    direct = _direct(state)
    for route in ("/", "/contacts", "/groups", "/moments", "/moments/new", "/me", "/group/new",
                  f"/chat?id={group['id']}", f"/chat?id={direct['id']}", f"/chat/info?id={group['id']}",
                  f"/chat/info?id={direct['id']}", f"/chat/rename?id={group['id']}", "/friend?id=friend_1",
                  "/chat?id=nope", f"/transfer?chat={direct['id']}"):
        phone.launch("chat", route)
        assert_screen_ok(phone)
    _type(phone, "amount_input", "25")
    tap(phone, "continue_button")
    assert_screen_ok(phone)                                   # confirmation sheet
    tap(phone, "button1")
    assert_screen_ok(phone)                                   # PIN pad


def test_opening_a_chat_marks_it_read_and_sends_a_message() -> None:
    phone = _phone()
    state = _state(phone)
    chat = next(c for c in state["chats"] if c["unread"])
    friends = {f["id"]: f["name"] for f in state["friends"]}
    title = chat["name"] or friends[chat["members"][0]]
    assert _nodes(phone, "unread_badge")
    _tap_desc(phone, "chat_item", title)
    assert next(c for c in _state(phone)["chats"] if c["id"] == chat["id"])["unread"] == 0
    _type(phone, "message_input", "See you at 7")
    tap(phone, "send")
    after = next(c for c in _state(phone)["chats"] if c["id"] == chat["id"])
    assert after["messages"][-1]["text"] == "See you at 7" and after["messages"][-1]["sender"] == ME
    assert "See you at 7" in [n.text for n in _nodes(phone, "message_text")]
    tap(phone, "send")                                        # an empty draft sends nothing
    assert len(next(c for c in _state(phone)["chats"] if c["id"] == chat["id"])["messages"]) == len(after["messages"])


def test_group_messages_show_the_sender_and_the_group_has_no_transfer_button() -> None:
    phone = _phone()
    group = next(c for c in _state(phone)["chats"] if c["kind"] == "group")
    phone.launch("chat", f"/chat?id={group['id']}")
    senders = {n.text for n in _nodes(phone, "message_sender")}
    names = {f["name"] for f in _state(phone)["friends"]}
    assert senders and senders <= names
    assert not _nodes(phone, "transfer_button")


def test_transfer_needs_confirmation_and_the_right_passcode() -> None:
    phone = _phone()
    state = _state(phone)
    chat, passcode, balance = _direct(state), state["settings"]["passcode"], state["balance"]
    _start_transfer(phone, chat, "45.50", "Tickets")
    assert "$45.50" in node(phone, "confirm_amount").text
    tap(phone, "button2")                                     # cancel the sheet
    assert _state(phone)["balance"] == balance
    tap(phone, "continue_button")
    tap(phone, "button1")
    wrong = passcode[:-1] + str((int(passcode[-1]) + 1) % 10)
    _pin(phone, wrong)
    assert _nodes(phone, "pin_error") and _state(phone)["balance"] == balance
    _pin(phone, passcode)
    after = _state(phone)
    assert after["balance"] == round(balance - 45.5, 2)
    sent = next(c for c in after["chats"] if c["id"] == chat["id"])["messages"][-1]
    assert (sent["type"], sent["amount"], sent["note"], sent["status"], sent["sender"]) == ("transfer", 45.5, "Tickets",
                                                                                            "sent", ME)
    assert phone.current_route().startswith("/chat")
    assert "$45.50" in [n.text for n in _nodes(phone, "transfer_amount")]


def test_transfer_rejects_bad_amounts_and_a_small_balance() -> None:
    phone = _phone()
    chat = _direct(_state(phone))
    _start_transfer(phone, chat, "abc")
    assert _nodes(phone, "amount_error")
    phone.set_state({"apps": {"chat": {"balance": 10.0}}})
    _start_transfer(phone, chat, "20")
    assert _nodes(phone, "insufficient_text")
    tap(phone, "button1")
    assert _state(phone)["balance"] == 10.0


def test_accepting_a_received_transfer_adds_it_to_the_balance() -> None:
    phone = _phone()
    state = _state(phone)
    chat = _direct(state)
    pending = {"id": "msg_in", "sender": chat["members"][0], "type": "transfer", "text": "", "time_ms": phone.time_ms() - 60_000,
               "amount": 30.0, "note": "Lunch", "status": "pending"}
    phone.set_state({"apps": {"chat": {f"chats[id={chat['id']}]": {"messages": [*chat["messages"], pending]}}}})
    phone.launch("chat", f"/chat?id={chat['id']}")
    bubble = next(n for n in _nodes(phone, "transfer_bubble") if "$30.00" in n.desc)
    phone.tap(*bubble.center)
    tap(phone, "button2")                                     # cancel: nothing happens
    assert _state(phone)["balance"] == state["balance"]
    phone.tap(*bubble.center)
    tap(phone, "button1")
    after = _state(phone)
    assert after["balance"] == round(state["balance"] + 30, 2)
    assert next(c for c in after["chats"] if c["id"] == chat["id"])["messages"][-1]["status"] == "accepted"


def test_deleting_a_chat_asks_first() -> None:
    phone = _phone()
    chats = _state(phone)["chats"]
    first = _nodes(phone, "chat_item")[0]
    phone.long_press(*first.center)
    tap(phone, "button2")
    assert len(_state(phone)["chats"]) == len(chats)
    phone.long_press(*first.center)
    tap(phone, "button1")
    assert len(_state(phone)["chats"]) == len(chats) - 1
    assert first.desc not in [n.desc for n in _nodes(phone, "chat_item")]


def test_delete_from_chat_info_returns_to_the_list() -> None:
    phone = _phone()
    chat = _direct(_state(phone))
    phone.launch("chat", f"/chat?id={chat['id']}")
    tap(phone, "chat_info")
    tap(phone, "delete_chat")
    tap(phone, "button1")
    assert all(c["id"] != chat["id"] for c in _state(phone)["chats"])
    assert phone.current_route() == "/"


def test_create_and_rename_a_group() -> None:
    phone = _phone()
    before = len(_state(phone)["chats"])
    tap(phone, "new_group")
    names = [n.desc for n in _nodes(phone, "friend_check")][:3]
    _tap_desc(phone, "friend_check", names[0])
    tap(phone, "create_group")                                # one friend is not a group
    assert len(_state(phone)["chats"]) == before
    for name in names[1:]:
        _tap_desc(phone, "friend_check", name)
    tap(phone, "create_group")
    group = _state(phone)["chats"][-1]
    friends = {f["id"]: f["name"] for f in _state(phone)["friends"]}
    assert group["kind"] == "group" and sorted(friends[m] for m in group["members"]) == sorted(names)
    tap(phone, "chat_info")
    tap(phone, "group_name_row")
    tap(phone, "group_name_input")
    phone.type_text("Ski Trip")
    phone.key("back")
    tap(phone, "save_name")
    assert _state(phone)["chats"][-1]["name"] == "Ski Trip"


def test_like_comment_and_post_moments() -> None:
    phone = _phone()
    tap(phone, "tab_2")
    newest = max(_state(phone)["moments"], key=lambda m: m["time_ms"])
    was = ME in newest["likes"]
    tap(phone, "like_button")
    assert (ME in next(m for m in _state(phone)["moments"] if m["id"] == newest["id"])["likes"]) != was
    tap(phone, "comment_button")
    _type(phone, "comment_input", "Lovely")
    tap(phone, "send_comment")
    comments = next(m for m in _state(phone)["moments"] if m["id"] == newest["id"])["comments"]
    assert comments[-1]["author"] == ME and comments[-1]["text"] == "Lovely"
    tap(phone, "post_moment")
    tap(phone, "publish_moment")                              # nothing written: nothing posted
    count = len(_state(phone)["moments"])
    _type(phone, "moment_input", "Spring is here")
    tap(phone, "publish_moment")
    moments = _state(phone)["moments"]
    assert len(moments) == count + 1 and moments[-1]["author"] == ME and moments[-1]["text"] == "Spring is here"
    assert "Spring is here" == node(phone, "moment_text").text


def test_profile_opens_a_chat_and_offers_to_save_the_number() -> None:
    phone = _phone()
    tap(phone, "tab_1")
    name = node(phone, "friend_name").text
    _tap_desc(phone, "friend_item", name)
    assert node(phone, "profile_name").text == name
    tap(phone, "send_message")
    assert phone.current_route().startswith("/chat")
    phone.key("back")
    tap(phone, "save_contact")
    assert phone.current_app() == "contacts"


def test_chinese_labels() -> None:
    phone = _phone("zh", seed=3)
    assert node(phone, "tab_0").text == "微信" and node(phone, "tab_2").text == "朋友圈"
    tap(phone, "tab_3")
    assert node(phone, "balance_amount").text.startswith("¥")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_worlds_hold_their_invariants(language: str) -> None:
    app = load_app("chat")
    sizes = set()
    for seed in SEEDS:
        world = World(seed, language, load_app)
        state = app.generate(world)
        contacts = {(c["name"], c["phones"][0]["number"]) for c in world.app_state("contacts")["contacts"] if c["phones"]}
        names = [f["name"] for f in state["friends"]]
        assert len(names) == len(set(names)) and all((f["name"], f["phone"]) in contacts for f in state["friends"])
        direct = [c["members"][0] for c in state["chats"] if c["kind"] == "direct"]
        assert len(direct) == len(set(direct))
        groups = [c["name"] for c in state["chats"] if c["kind"] == "group"]
        assert len(groups) == len(set(groups))
        ends = [c["messages"][-1]["time_ms"] for c in state["chats"]]
        assert len(ends) == len(set(ends)) and max(ends) < world.time_ms
        assert len({m["time_ms"] for m in state["moments"]}) == len(state["moments"])
        for chat in state["chats"]:
            trailing = 0
            for message in reversed(chat["messages"]):
                if message["sender"] == ME:
                    break
                trailing += 1
            assert chat["unread"] <= trailing
        assert len(state["settings"]["passcode"]) == 6
        sizes.add((len(state["friends"]), len(state["chats"]), len(state["moments"])))
        assert state == app.generate(World(seed, language, load_app))
    assert len(sizes) > 5


def test_generate_is_fast() -> None:
    app = load_app("chat")
    worlds = [World(seed, "en", load_app) for seed in range(100)]
    for world in worlds:
        world.contacts()
    start = time.perf_counter()
    for world in worlds:
        app.generate(world)
    assert (time.perf_counter() - start) / len(worlds) < 0.001


def test_transactions_list_every_transfer_newest_first_with_its_sign() -> None:
    phone = _phone()
    state = _state(phone)
    friends = {f["id"]: f["name"] for f in state["friends"]}
    expected = sorted(((m["time_ms"], friends[c["members"][0]], m["sender"] == ME, m["amount"])
                       for c in state["chats"] if c["kind"] == "direct" for m in c["messages"] if m["type"] == "transfer"),
                      reverse=True)
    tap(phone, "tab_3")
    tap(phone, "transactions")
    rows = [n.desc.rsplit(" ", 3) for n in _nodes(phone, "txn_item")]
    assert [(name, amount) for name, amount, _, _ in rows] == [
        (name, f"{'-' if sent else '+'}${value:,.2f}") for _, name, sent, value in expected][:len(rows)]
    assert rows
