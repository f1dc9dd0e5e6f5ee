"""The Messages app: every screen renders cleanly, and its features work through the Phone."""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.oracle import Driver
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .test_app_contacts import APPS, assert_screen_clean, texts
from .uitools import node, tap

SCREENS = ["/", "/search", "/compose", "/compose?to=%2B1+415-555-0132", "/thread?id=conv_01", "/thread?id=conv_11",
           "/thread?id=gone"]


@pytest.fixture
def phone() -> Phone:
    return SimDevice(apps=APPS)


def conversations(phone: Phone) -> list[dict]:
    return phone.get_state()["apps"]["messages"]["conversations"]


def conv(phone: Phone, conv_id: str) -> dict:
    return next(c for c in conversations(phone) if c["id"] == conv_id)


def long_press(phone: Phone, rid: str, desc: str) -> None:
    target = next(n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid and n.desc == desc)
    phone.long_press(*target.center)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_screen_renders(language: str) -> None:
    phone = SimDevice(apps=APPS, language=language)
    for route in SCREENS:
        phone.reset_state()
        phone.launch("messages", route)
        assert phone.current_app() == "messages"
        assert_screen_clean(phone)
    phone.reset_state()
    phone.launch("messages", "/thread?id=conv_01")
    tap(phone, "delete_conversation")
    assert_screen_clean(phone)
    phone.launch("messages", "/compose")
    tap(phone, "recipient_input")
    phone.type_text("a")
    assert_screen_clean(phone)


def test_list_newest_first_with_names_badges_and_times(phone: Phone) -> None:
    phone.open_app("messages")
    names = texts(phone, "conversation_name")
    assert names[:3] == ["72345", "Ben Okafor", "Alice Chen"]
    assert "+1 347-555-0183" in names  # an unsaved number shows as the number
    assert texts(phone, "conversation_time")[:5] == ["08:55", "08:42", "08:31", "07:30", "Yesterday"]
    assert texts(phone, "unread_badge") == ["1", "1", "1", "1", "2"]
    assert "You: Will do, thanks Tom." in texts(phone, "conversation_snippet")


def test_opening_a_thread_marks_it_read_and_sending_appends(phone: Phone) -> None:
    phone.open_app("messages")
    tap(phone, "conversation_name", "Alice Chen")
    assert conv(phone, "conv_01")["unread"] == 0
    assert node(phone, "thread_address").text == "+1 415-555-0132"
    assert texts(phone, "day_header") == ["Yesterday", "Today"]
    tap(phone, "send")
    assert node(phone, "toast").text == "Type a message first"
    tap(phone, "message_input")
    phone.type_text("Sure, here it is")
    now = phone.time_ms()
    tap(phone, "send")
    last = conv(phone, "conv_01")["messages"][-1]
    assert last["text"] == "Sure, here it is" and last["incoming"] is False and last["time_ms"] >= now
    assert texts(phone, "message_text")[-1] == "Sure, here it is"
    field = node(phone, "message_input")
    assert (field.text, field.hint) == ("", "Text message")  # the draft is cleared: the hint shows


def test_compose_to_a_contact_appends_to_the_existing_conversation(phone: Phone) -> None:
    phone.open_app("messages")
    tap(phone, "new_message")
    tap(phone, "recipient_input")
    phone.type_text("carl")
    assert texts(phone, "suggestion_name") == ["Carla Mendes", "Carla Mendes"]
    tap(phone, "suggestion_name", "Carla Mendes")
    assert node(phone, "recipient_name").text == "Carla Mendes · +1 510-555-0176"
    tap(phone, "message_input")
    phone.type_text("See you Sunday")
    tap(phone, "send")
    assert phone.current_route() == "/thread?id=conv_09"
    assert conv(phone, "conv_09")["messages"][-1]["text"] == "See you Sunday"
    assert len(conversations(phone)) == 12


def test_compose_to_a_new_number_or_a_typed_name(phone: Phone) -> None:
    phone.launch("messages", "/compose")
    tap(phone, "recipient_input")
    phone.type_text("hello?")
    tap(phone, "message_input")
    phone.type_text("Hi")
    tap(phone, "send")
    assert node(phone, "toast").text == "Choose a contact or enter a number"
    tap(phone, "recipient_input")
    phone.type_text("(929) 555-0101", clear=True)
    tap(phone, "send")
    new = conversations(phone)[-1]
    assert new["address"] == "(929) 555-0101" and new["unread"] == 0 and new["messages"][0]["text"] == "Hi"
    assert phone.current_route() == f"/thread?id={new['id']}"
    phone.launch("messages", "/compose")
    tap(phone, "recipient_input")
    phone.type_text("wei zhang")
    tap(phone, "message_input")
    phone.type_text("Ni hao")
    tap(phone, "send")
    assert conversations(phone)[-1]["address"] == "+86 138 5555 0188"


def test_long_press_selects_and_deletes_the_selection_and_from_the_thread(phone: Phone) -> None:
    phone.open_app("messages")
    long_press(phone, "conversation_item", "Tom Becker")
    assert phone.current_route() == "/" and node(phone, "toolbar_title").text == "1 selected"
    assert [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "conversation_item" and n.selected] == \
        ["Tom Becker"]
    tap(phone, "conversation_name", "Mom")                 # while selecting, a tap selects
    assert node(phone, "toolbar_title").text == "2 selected" and phone.current_route() == "/"
    tap(phone, "conversation_name", "Mom")                 # ... and a second tap deselects
    assert node(phone, "toolbar_title").text == "1 selected"
    tap(phone, "close_selection")
    assert node(phone, "toolbar_title").text == "Messages"
    tap(phone, "conversation_name", "Mom")                 # out of selection, a tap opens the thread
    assert phone.current_route().startswith("/thread")
    phone.key("back")
    long_press(phone, "conversation_item", "Tom Becker")
    tap(phone, "conversation_name", "Mom")
    tap(phone, "delete_selected")
    assert node(phone, "alertTitle").text == "Delete 2 conversations?"
    tap(phone, "button2")
    assert len(conversations(phone)) == 12 and node(phone, "toolbar_title").text == "2 selected"
    tap(phone, "conversation_name", "Mom")
    tap(phone, "delete_selected")
    assert node(phone, "alertTitle").text == "Delete 1 conversation?"
    tap(phone, "button1")
    assert all(c["id"] != "conv_10" for c in conversations(phone))
    assert node(phone, "toolbar_title").text == "Messages" and node(phone, "toast").text == "Conversation deleted"
    tap(phone, "conversation_name", "Mom")
    tap(phone, "delete_conversation")
    tap(phone, "button1")
    assert phone.current_route() == "/" and len(conversations(phone)) == 10


def test_back_ends_the_selection_before_it_leaves_the_app() -> None:
    phone = SimDevice(apps=APPS)
    phone.open_app("messages")
    long_press(phone, "conversation_item", "Tom Becker")
    tap(phone, "conversation_name", "Mom")
    tap(phone, "delete_selected")
    phone.key("back")                                      # closes the dialog, keeps the selection
    assert node(phone, "toolbar_title").text == "2 selected"
    phone.key("back")                                      # ends the selection, as Google Messages does
    assert phone.current_route() == "/" and node(phone, "toolbar_title").text == "Messages"
    assert not [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "conversation_item" and n.selected]
    assert len(conversations(phone)) == 12
    phone.key("back")                                      # now back leaves the app
    assert phone.get_state()["os"]["foreground"] == "launcher"


def test_multi_select_in_chinese() -> None:
    phone = SimDevice(apps=APPS, language="zh")
    phone.open_app("messages")
    first, second = [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "conversation_item"][:2]
    long_press(phone, "conversation_item", first)
    long_press(phone, "conversation_item", second)
    assert node(phone, "toolbar_title").text == "已选择 2 项"
    assert_screen_clean(phone)
    tap(phone, "delete_selected")
    assert node(phone, "alertTitle").text == "删除 2 个对话？"
    assert_screen_clean(phone)
    tap(phone, "button1")
    assert node(phone, "toast").text == "已删除 2 个对话"
    assert len(conversations(phone)) == 10


def test_search_finds_messages_and_opens_the_thread(phone: Phone) -> None:
    phone.launch("messages", "/search")
    tap(phone, "search_input")
    phone.type_text("DINNER")
    assert texts(phone, "result_name") == ["Alice Chen", "Mom"]
    tap(phone, "result_name", "Alice Chen")
    assert phone.current_route() == "/thread?id=conv_01" and conv(phone, "conv_01")["unread"] == 0


def test_unknown_sender_can_be_saved_as_a_contact(phone: Phone) -> None:
    phone.open_app("messages")
    tap(phone, "conversation_name", "+1 347-555-0183")
    assert conv(phone, "conv_11")["unread"] == 0
    tap(phone, "add_contact")
    assert phone.current_app() == "contacts"
    assert node(phone, "phone_0_input").text == "+1 347-555-0183"
    tap(phone, "name_input")
    phone.type_text("Nora Quinn")
    tap(phone, "save_contact")
    phone.open_app("messages")
    assert node(phone, "toolbar_title").text == "Nora Quinn"  # the thread now shows the saved name


# --- generated worlds -------------------------------------------------------------------------------

def _world(seed: int, language: str):
    from mobilegym.sim.app import load_app
    from mobilegym.sim.worldgen import World

    return World(seed, language, load_app)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_messages_keep_the_invariants_tasks_rely_on(language: str) -> None:
    import random

    from mobilegym.envs.contacts.numbers import number_key, same_number
    from mobilegym.envs.messages.world import OUT_FOR_DELIVERY, topics
    from mobilegym.sim.clock import from_ms, to_ms
    from mobilegym.tasks.messages.app import Messages

    for seed in range(60):
        world = _world(seed, language)
        people = world.app_state("contacts")["contacts"]
        convs = world.app_state("messages")["conversations"]
        messages = Messages(world.app_state("messages"))

        def owner(address: str):
            return next((c for c in people if any(same_number(address, p["number"]) for p in c["phones"])), None)

        assert all(sum(1 for c in convs if any(same_number(c["address"], p["number"]) for p in person["phones"])) <= 1
                   for person in people), "a contact with two threads"
        keys = [number_key(c["address"]) for c in convs]
        assert len(keys) == len(set(keys)), "two threads with one number"
        assert all(m["time_ms"] < to_ms(world.now) for c in convs for m in c["messages"])
        assert all([m["time_ms"] for m in c["messages"]] == sorted(m["time_ms"] for m in c["messages"]) for c in convs)
        today = [m for c in convs for m in c["messages"] if OUT_FOR_DELIVERY.search(m["text"])]
        assert len(today) == 1 and from_ms(today[0]["time_ms"]).date() == world.today
        assert owner(messages.call_request_sender()) is not None
        unread = [c for c in convs if c["unread"]]
        assert all(c["unread"] <= sum(1 for _ in c["messages"]) and c["messages"][-1]["incoming"] for c in unread)
        assert sum(1 for c in unread if owner(c["address"])) >= 2
        assert any(c["unread"] >= 2 for c in unread)
        saved = [(m["time_ms"], m["incoming"]) for c in convs if owner(c["address"]) for m in c["messages"]]
        assert max(saved)[1], "the newest message of a saved contact's thread is the owner's"
        for topic in topics():  # a topic word is only ever said in a chat with a saved contact
            assert all(owner(c["address"]) for c in convs if any(topic.casefold() in m["text"].casefold()
                                                                  for m in c["messages"]))
        name = Messages.sample_introduced_sender(random.Random(seed), world.app_state("messages"))
        assert owner(messages.sender_of(name)) is None and name in [p.name for p in world.strangers()]
        service = Messages.sample_code_service(random.Random(seed), world.app_state("messages"))
        assert messages.verification_code(service).isdigit()
        assert messages.tracking_number() in today[0]["text"]
        if language == "en":
            assert any("Sunrise Dental" in m["text"] for c in convs for m in c["messages"])


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_world_screens_render(language: str) -> None:
    phone = SimDevice(apps=APPS, language=language)
    for seed in (0, 1, 2):
        phone.reset_state(seed)
        convs = conversations(phone)
        longest = max(convs, key=lambda c: sum(len(m["text"]) for m in c["messages"]))
        for route in ("/", "/search", f"/thread?id={longest['id']}"):
            phone.launch("messages", route)
            assert_screen_clean(phone)


def test_message_preparers_work_in_canonical_and_generated_worlds() -> None:
    import random

    from mobilegym.envs.messages import APP
    from mobilegym.envs.messages.world import OUT_FOR_DELIVERY
    from mobilegym.sim.app import Prep

    for world, seed in (("canonical", None), ("generated", 4), ("generated", 5)):
        phone = SimDevice(apps=APPS, world=world)
        phone.reset_state(seed)
        phone.set_state(APP.preparers["parcel_today"](Prep(phone.get_state(), random.Random(1), "en"),
                                                      id="conv_delivery", message_id="msg_delivery"))
        today = [m for c in conversations(phone) for m in c["messages"] if OUT_FOR_DELIVERY.search(m["text"])]
        assert len(today) == 1 and today[0]["id"] == "msg_delivery" and today[0]["window"]["start"] < today[0]["window"]["end"]
        phone.set_state(APP.preparers["carrier"](Prep(phone.get_state(), random.Random(1), "en"), name="PackTrack",
                                                 id="conv_packtrack"))
        assert [c["id"] for c in conversations(phone) if "PackTrack" in c["messages"][0]["text"]] == ["conv_packtrack"]
        phone.set_state(APP.preparers["chat"](Prep(phone.get_state(), random.Random(1), "en"), name="Carla Mendes",
                                              contact_id="contact_carla", id="conv_brunch", topic="brunch"))
        assert len(conv(phone, "conv_brunch")["messages"]) == 3


def test_scripted_driver_never_taps_through_the_floating_button() -> None:
    """A row's time that starts under the ✎ button is scrolled clear before the Driver taps it."""
    env = gym.make("MobileGym-v0", task="messages.reply_carla", obs_parts=("a11y",), world="canonical")
    obs, info = env.reset(seed=0)
    driver = Driver(env, obs, info)
    driver.open_app("Messages")
    fab, target = driver.find(rid="new_message"), driver.find(rid="conversation_time", text="Wed")
    assert fab is not None and target is not None
    x1, y1, x2, y2 = fab.bounds
    assert x1 <= target.center[0] < x2 and y1 <= target.center[1] < y2
    driver.tap(rid="conversation_time", text="Wed")
    assert driver.route.startswith("/thread") and driver.find(rid="toolbar_title").text == "Grace Liu"
