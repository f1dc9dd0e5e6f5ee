"""The Mail app: every screen renders cleanly, and its features work through the Phone (canonical world)."""
from __future__ import annotations

import pytest

from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .test_app_contacts import assert_screen_clean, texts
from .uitools import node, tap

APPS = ("mail", "contacts", "calendar", "settings")
SCREENS = ["/", "/search", "/compose", "/compose?mode=reply&thread=thread_06", "/compose?mode=reply_all&thread=thread_11",
           "/compose?mode=forward&thread=thread_11", "/compose?draft=draft_1", "/thread?id=thread_11",
           "/thread?id=thread_16", "/thread?id=gone"]


@pytest.fixture
def phone() -> Phone:
    return SimDevice(apps=APPS)


def mail(phone: Phone) -> dict:
    return phone.get_state()["apps"]["mail"]


def thread(phone: Phone, thread_id: str) -> dict | None:
    return next((t for t in mail(phone)["threads"] if t["id"] == thread_id), None)


def by_desc(phone: Phone, rid: str, desc: str) -> tuple[int, int]:
    found = [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid and n.desc == desc]
    assert found, f"no {rid} {desc!r} on {phone.current_route()}"
    return found[0].center


def type_into(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)


def drawer_to(phone: Phone, name: str) -> None:
    tap(phone, "open_drawer")
    phone.tap(*by_desc(phone, "drawer_item", name))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_screen_renders(language: str) -> None:
    phone = SimDevice(apps=APPS, language=language)
    for route in SCREENS:
        phone.reset_state()
        phone.launch("mail", route)
        assert phone.current_app() == "mail"
        assert_screen_clean(phone)
    phone.reset_state()
    phone.launch("mail", "/")
    tap(phone, "open_drawer")
    assert_screen_clean(phone)
    phone.launch("mail", "/thread?id=thread_11")
    tap(phone, "label_thread")
    assert_screen_clean(phone)
    phone.launch("mail", "/compose")
    type_into(phone, "to_input", "a")
    assert texts(phone, "suggestion_name")
    assert_screen_clean(phone)


def test_inbox_lists_inbox_threads_newest_first(phone: Phone) -> None:
    phone.open_app("mail")
    state = mail(phone)
    expected = [t["subject"] for t in sorted(state["threads"], key=lambda t: -t["messages"][-1]["time_ms"])
                if t["inbox"] and not t["trashed"]]
    shown = [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "thread_item"]
    assert shown == expected[:len(shown)] and len(shown) >= 5
    assert "Flash sale: 80% off today only" not in shown  # in the Trash


def test_opening_a_thread_marks_it_read_and_shows_attachments(phone: Phone) -> None:
    assert thread(phone, "thread_11")["unread"]
    phone.launch("mail", "/search")
    type_into(phone, "search_input", "budget")
    phone.tap(*by_desc(phone, "thread_item", "Q3 budget review"))
    assert phone.current_route() == "/thread?id=thread_11"
    assert not thread(phone, "thread_11")["unread"]
    assert texts(phone, "attachment_name") == ["Q3_budget_draft.xlsx"]
    assert texts(phone, "attachment_meta") == ["XLSX · 3.5 MB"]
    tap(phone, "mark_unread")
    assert thread(phone, "thread_11")["unread"] and phone.current_route() == "/search"


def test_star_from_the_list_and_from_the_thread(phone: Phone) -> None:
    phone.open_app("mail")
    first = node(phone, "thread_item")
    tid = next(t["id"] for t in mail(phone)["threads"] if t["subject"] == first.desc)
    tap(phone, "star_toggle")
    assert thread(phone, tid)["starred"] and phone.current_route() == "/"  # the star takes the tap, not the row
    phone.launch("mail", f"/thread?id={tid}")
    tap(phone, "star_thread")
    assert not thread(phone, tid)["starred"]


def test_archive_leaves_the_inbox_but_not_all_mail(phone: Phone) -> None:
    phone.launch("mail", "/thread?id=thread_06")
    tap(phone, "archive")
    assert thread(phone, "thread_06")["inbox"] is False
    assert "Kids' playdate" not in [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "thread_item"]
    phone.launch("mail", "/thread?id=thread_06")
    tap(phone, "move_to_inbox")
    assert thread(phone, "thread_06")["inbox"] is True


def test_delete_moves_to_trash_and_restore_brings_it_back(phone: Phone) -> None:
    phone.launch("mail", "/thread?id=thread_07")
    tap(phone, "delete")
    assert thread(phone, "thread_07")["trashed"]
    drawer_to(phone, "Trash")
    assert "Catching up" in [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "thread_item"]
    phone.tap(*by_desc(phone, "thread_item", "Catching up"))
    tap(phone, "restore")
    assert not thread(phone, "thread_07")["trashed"]


def test_emptying_the_trash_asks_first(phone: Phone) -> None:
    trashed = [t["id"] for t in mail(phone)["threads"] if t["trashed"]]
    kept = len(mail(phone)["threads"]) - len(trashed)
    phone.open_app("mail")
    drawer_to(phone, "Trash")
    tap(phone, "empty_trash")
    assert texts(phone, "alertTitle") == [f"Empty Trash ({len(trashed)})?"]
    tap(phone, "button2")
    assert all(thread(phone, i) for i in trashed)
    tap(phone, "empty_trash")
    tap(phone, "button1")
    assert all(thread(phone, i) is None for i in trashed) and len(mail(phone)["threads"]) == kept
    assert texts(phone, "empty") == ["Nothing in Trash"]


def test_delete_forever_from_a_trashed_thread_confirms(phone: Phone) -> None:
    phone.launch("mail", "/thread?id=thread_16")
    tap(phone, "delete_forever")
    tap(phone, "button2")
    assert thread(phone, "thread_16") is not None
    tap(phone, "delete_forever")
    tap(phone, "button1")
    assert thread(phone, "thread_16") is None


def test_labels_apply_on_ok_only_and_show_in_the_label_view(phone: Phone) -> None:
    phone.launch("mail", "/thread?id=thread_18")
    tap(phone, "label_thread")
    tap(phone, "label_option", "Receipts")
    tap(phone, "button2")
    assert thread(phone, "thread_18")["labels"] == []
    tap(phone, "label_thread")
    tap(phone, "label_option", "Receipts")
    tap(phone, "button1")
    assert thread(phone, "thread_18")["labels"] == ["Receipts"]
    assert "Receipts" in texts(phone, "label_chip")
    phone.key("back")
    drawer_to(phone, "Receipts")
    assert "Your Apple receipt #644287" in [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "thread_item"]


def test_multi_select_archives_and_deletes_together(phone: Phone) -> None:
    phone.open_app("mail")
    rows = [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == "thread_item"][:2]
    ids = [next(t["id"] for t in mail(phone)["threads"] if t["subject"] == r.desc) for r in rows]
    phone.long_press(*rows[0].center)
    phone.tap(*rows[1].center)
    assert texts(phone, "toolbar_title") == ["2 selected"]
    phone.key("back")  # Back ends the selection first
    assert texts(phone, "toolbar_title") == ["Inbox"] and phone.current_app() == "mail"
    phone.long_press(*rows[0].center)
    phone.tap(*rows[1].center)
    tap(phone, "delete_selected")
    assert all(thread(phone, i)["trashed"] for i in ids)


def test_compose_refuses_bad_addresses_and_sends_to_a_suggested_contact(phone: Phone) -> None:
    phone.launch("mail", "/compose")
    tap(phone, "send")
    assert phone.doc["os"]["toast"] == "Add at least one recipient"
    type_into(phone, "to_input", "not an address")
    tap(phone, "send")
    assert phone.doc["os"]["toast"] == "Invalid address: not an address"
    type_into(phone, "to_input", "Zoe")
    tap(phone, "suggestion_name", "Zoe Martin")
    assert node(phone, "to_input").text == "zoe.martin@gmail.com, "
    type_into(phone, "subject_input", "Yoga")
    type_into(phone, "body_input", "Class on Friday?")
    tap(phone, "send")
    sent = [t for t in mail(phone)["threads"] if t["subject"] == "Yoga"]
    assert len(sent) == 1 and not sent[0]["inbox"]
    message = sent[0]["messages"][0]
    assert message["to"] == [{"name": "Zoe Martin", "email": "zoe.martin@gmail.com"}] and message["body"] == "Class on Friday?"
    drawer_to(phone, "Sent")
    assert "Yoga" in [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "thread_item"]


def test_reply_goes_into_the_thread_to_the_sender(phone: Phone) -> None:
    before = thread(phone, "thread_11")
    phone.launch("mail", "/thread?id=thread_11")
    tap(phone, "reply")
    assert node(phone, "to_input").text == before["messages"][-1]["from"]["email"]
    assert node(phone, "subject_input").text == "Re: Q3 budget review"
    type_into(phone, "body_input", "Looks good")
    tap(phone, "send")
    after = thread(phone, "thread_11")
    assert len(after["messages"]) == len(before["messages"]) + 1
    assert after["messages"][-1]["to"] == [before["messages"][-1]["from"]] and after["messages"][-1]["body"] == "Looks good"


def test_forward_carries_the_attachment_unless_removed(phone: Phone) -> None:
    phone.launch("mail", "/compose?mode=forward&thread=thread_37")
    assert texts(phone, "attachment_name") == ["Offsite_agenda.docx"]
    type_into(phone, "to_input", "ben.okafor@gmail.com")
    tap(phone, "send")
    forwarded = thread(phone, "thread_37")["messages"][-1]
    assert [a["name"] for a in forwarded["attachments"]] == ["Offsite_agenda.docx"] and forwarded["quoted"]
    phone.launch("mail", "/compose?mode=forward&thread=thread_11")
    tap(phone, "remove_attachment")
    assert texts(phone, "attachment_name") == []


def test_drafts_saved_on_up_discarded_after_confirming(phone: Phone) -> None:
    phone.launch("mail", "/compose")
    type_into(phone, "body_input", "Half a thought")
    tap(phone, "navigate_up")
    drafts = mail(phone)["drafts"]
    assert len(drafts) == 2 and drafts[-1]["body"] == "Half a thought"
    phone.launch("mail", "/compose")
    type_into(phone, "subject_input", "Back key")
    phone.key("back")  # hides the keyboard
    phone.key("back")  # leaves, keeping the draft
    assert mail(phone)["drafts"][-1]["subject"] == "Back key" and phone.current_route() != "/compose"
    phone.launch("mail", "/compose?draft=draft_1")
    assert node(phone, "body_input").text == "Remember to ask about"
    tap(phone, "discard")
    tap(phone, "button2")
    assert any(d["id"] == "draft_1" for d in mail(phone)["drafts"])
    tap(phone, "discard")
    tap(phone, "button1")
    assert all(d["id"] != "draft_1" for d in mail(phone)["drafts"])


def test_sending_a_draft_removes_it(phone: Phone) -> None:
    phone.launch("mail", "/compose?draft=draft_1")
    tap(phone, "send")
    assert mail(phone)["drafts"] == []
    assert any(t["messages"][-1]["body"] == "Remember to ask about" for t in mail(phone)["threads"])


def test_search_covers_sender_subject_body_and_attachments_not_trash(phone: Phone) -> None:
    phone.launch("mail", "/search")
    for query, subject in [("Whole Foods", "Your Whole Foods receipt #761792"), ("offsite_agenda", "Team offsite agenda"),
                           ("UZRR8E", "Your flight to Boston is confirmed (UZRR8E)")]:
        type_into(phone, "search_input", query)
        assert subject in [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "thread_item"]
    type_into(phone, "search_input", "Flash sale")
    assert texts(phone, "no_results")


def test_chinese_ui() -> None:
    phone = SimDevice(apps=APPS, language="zh")
    phone.reset_state(3)
    phone.open_app("mail")
    assert texts(phone, "toolbar_title") == ["收件箱"]
    tap(phone, "open_drawer")
    names = [n.desc for n in parse_nodes(phone.a11y_xml()) if n.short_id == "drawer_item"]
    assert names[:6] == ["收件箱", "已加星标", "已发送", "草稿", "所有邮件", "已删除邮件"] and "收据" in names
