"""The Files app: every screen renders; browsing, sorting, new folders, rename, move, copy, the Trash, search,
sharing and multi-select work through the UI, and refuse what a file manager refuses."""
from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from mobilegym.envs.files import ops
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.strings import translate

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("files", "messages", "contacts", "settings")


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("files")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["files"]


def _file(phone: Phone, file_id: str) -> dict | None:
    return ops.file_by_id(_state(phone), file_id)


def _nodes(phone: Phone, rid: str) -> list:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _tap_desc(phone: Phone, rid: str, desc: str) -> None:
    phone.tap(*next(n for n in _nodes(phone, rid) if n.desc == desc).center)


def _row(phone: Phone, name: str):
    return next(n for n in _nodes(phone, "file_item") if n.desc.startswith(f"{name} · "))


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)


def _open(phone: Phone, *parts: str) -> None:
    tap(phone, "storage_entry")
    for part in parts:
        _tap_desc(phone, "folder_item", part)


def _menu(phone: Phone, name: str, action: str) -> None:
    _tap_desc(phone, "file_menu", f"More options for {name}")
    tap(phone, action)


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                   # browse
    for key in ("downloads", "images", "videos", "audio", "documents"):
        tap(phone, f"category_{key}")
        assert_screen_ok(phone)                               # a category
        phone.key("back")
    tap(phone, "trash_entry")
    assert_screen_ok(phone)                                   # trash
    tap(phone, "trash_item")
    assert_screen_ok(phone)                                   # restore / delete dialog
    tap(phone, "button3")
    assert_screen_ok(phone)                                   # delete forever confirmation
    tap(phone, "button2")
    tap(phone, "empty_trash")
    assert_screen_ok(phone)                                   # empty trash confirmation
    tap(phone, "button2")
    phone.key("back")
    tap(phone, "storage_entry")
    assert_screen_ok(phone)                                   # root folder
    _tap_desc(phone, "folder_item", "Download")
    assert_screen_ok(phone)                                   # a folder with files
    for action in ("menu_rename", "menu_share", "menu_delete"):
        tap(phone, "file_menu")
        assert_screen_ok(phone)                               # file menu
        tap(phone, action)
        assert_screen_ok(phone)                               # rename / share / trash dialogs
        tap(phone, "button2")
    tap(phone, "sort")
    assert_screen_ok(phone)                                   # sort dialog
    tap(phone, "button2")
    tap(phone, "new_folder")
    assert_screen_ok(phone)                                   # new folder dialog
    tap(phone, "button2")
    phone.long_press(*node(phone, "file_item").center)
    assert_screen_ok(phone)                                   # selection bar
    tap(phone, "move_selected")
    assert_screen_ok(phone)                                   # destination picker
    phone.key("back")                                         # leaving the picker ends the selection
    tap(phone, "file_item")
    assert_screen_ok(phone)                                   # file details
    phone.key("back")
    _tap_desc(phone, "path_segment", ops.leaf("") or ("Internal storage" if language == "en" else "内部存储"))
    _tap_desc(phone, "folder_item", "Alarms")
    assert_screen_ok(phone)                                   # an empty folder
    phone.launch("files", "/search")
    _type(phone, "search_input", "pdf")
    assert_screen_ok(phone)                                   # search results


def test_browsing_the_path_bar_and_details() -> None:
    phone = _phone()
    _open(phone, "DCIM", "Camera")
    assert [n.text for n in _nodes(phone, "path_segment")] == ["Internal storage", "DCIM", "Camera"]
    assert node(phone, "toolbar_title").text == "Camera"
    _tap_desc(phone, "path_segment", "Internal storage › DCIM")
    assert phone.current_route() == "/folder?dir=DCIM"
    assert [n.desc for n in _nodes(phone, "folder_item")] == ["Camera"]
    phone.launch("files", "/file?id=file_26")
    assert node(phone, "file_title").text == "Lease agreement.pdf"
    assert node(phone, "file_size").text == "3.4 MB (3,363,786 bytes)"
    assert node(phone, "file_modified").text == "January 4, 2026, 20:10"
    assert node(phone, "file_location").text == "Internal storage › Download"
    assert node(phone, "file_type").text == "Document (PDF)"


def _in_chinese(text: str, **fields: Any) -> str:
    """What a Chinese phone's ``ctx.t`` gives for a Files text."""
    return translate(ops.__package__, "zh", text, fields=fields)


def test_rows_show_size_and_a_date_relative_to_the_clock() -> None:
    phone = _phone()
    _open(phone, "Download")
    assert _row(phone, "Bank statement March.pdf").desc == "Bank statement March.pdf · 387 kB · Yesterday"
    phone.set_state({"apps": {"files": {"files[id=file_19]": {"modified": "2026-03-16 08:12"}}}})
    assert _row(phone, "Bank statement March.pdf").desc.endswith("· Today, 08:12")
    assert _row(phone, "Boarding pass Chicago.pdf").desc.endswith("· Dec 25, 2025")
    today = dt.date(2026, 3, 16)
    assert ops.date_text(_in_chinese, "2026-03-09 08:35", today) == "3月9日"
    assert [ops.size_text(s) for s in (812, 245_400, 86_140_000, 1_270_000_000)] == ["812 B", "245 kB", "86.1 MB", "1.27 GB"]


def test_sort_by_size_and_date_is_kept() -> None:
    phone = _phone()
    _open(phone, "Download")
    tap(phone, "sort")
    tap(phone, "sort_size")
    assert _state(phone)["sort"] == "size"
    assert node(phone, "file_name").text == "Photos Lisbon.zip"
    tap(phone, "sort")
    tap(phone, "sort_date")
    assert node(phone, "file_name").text == "Bank statement March.pdf"
    phone.key("back")
    _tap_desc(phone, "folder_item", "Documents")
    assert _state(phone)["sort"] == "date" and node(phone, "file_name").text == "Farid Haddad contract.pdf"


def test_rename_validates_and_renames() -> None:
    phone = _phone()
    _open(phone, "Download")
    _menu(phone, "Insurance card.pdf", "menu_rename")
    assert node(phone, "rename_input").text == "Insurance card.pdf"
    _type(phone, "rename_input", "Concert tickets.pdf")       # taken in this folder
    tap(phone, "button1")
    assert "already exists" in node(phone, "toast").text and _file(phone, "file_20")["name"] == "Insurance card.pdf"
    _type(phone, "rename_input", "a/b.pdf")
    tap(phone, "button1")
    assert _file(phone, "file_20")["name"] == "Insurance card.pdf"
    _type(phone, "rename_input", "   ")
    tap(phone, "button1")
    assert node(phone, "toast").text == "Enter a name"
    _type(phone, "rename_input", "Health insurance card.pdf")
    tap(phone, "button1")
    assert _file(phone, "file_20")["name"] == "Health insurance card.pdf" and not _nodes(phone, "rename_input")


def test_new_folder_then_move_and_copy_through_the_picker() -> None:
    phone = _phone()
    _open(phone, "Documents")
    tap(phone, "new_folder")
    _type(phone, "folder_name_input", "Invoices")
    tap(phone, "button1")
    assert "Documents/Invoices" in ops.folder_paths(_state(phone))
    tap(phone, "new_folder")
    _type(phone, "folder_name_input", "invoices")              # names are case-insensitive, as on Android
    tap(phone, "button1")
    assert "already exists" in node(phone, "toast").text
    tap(phone, "button2")
    phone.key("back")
    _tap_desc(phone, "folder_item", "Download")
    _menu(phone, "Invoice_Zoom_2026-02.pdf", "menu_move")
    _tap_desc(phone, "dest_folder", "Documents")
    _tap_desc(phone, "dest_folder", "Invoices")
    assert [n.text for n in _nodes(phone, "dest_segment")] == ["Internal storage", "Documents", "Invoices"]
    tap(phone, "confirm_pick")
    assert _file(phone, "file_16")["folder"] == "Documents/Invoices"
    assert phone.current_route() == "/folder?dir=Download" and node(phone, "toast").text == "Moved 1 item to Invoices"
    _menu(phone, "Concert tickets.pdf", "menu_copy")
    tap(phone, "confirm_pick")                                # into Internal storage itself
    copy = next(f for f in _state(phone)["files"] if f["folder"] == "" and f["name"] == "Concert tickets.pdf")
    assert copy["size"] == _file(phone, "file_17")["size"] and copy["id"] != "file_17"
    _menu(phone, "Concert tickets.pdf", "menu_copy")
    _tap_desc(phone, "dest_folder", "Download")
    tap(phone, "confirm_pick")                                # a copy beside the original gets a number
    assert [f["name"] for f in ops.files_in(_state(phone), "Download") if f["name"].startswith("Concert")] == \
        ["Concert tickets.pdf", "Concert tickets (1).pdf"]


def test_moving_onto_a_name_the_folder_has_is_refused() -> None:
    phone = _phone()
    phone.set_state({"apps": {"files": {"files[id=file_25]": {"name": "Resume Gemma Chen.pdf"}}}})
    phone.launch("files", "/file?id=file_25")
    tap(phone, "move_file")
    _tap_desc(phone, "dest_folder", "Documents")
    tap(phone, "confirm_pick")
    assert "already exists" in node(phone, "toast").text and _file(phone, "file_25")["folder"] == "Download"
    assert phone.current_route().startswith("/pick")


def test_trash_confirm_cancel_restore_and_empty() -> None:
    phone = _phone()
    _open(phone, "Download")
    _menu(phone, "Lease agreement.pdf", "menu_delete")
    assert node(phone, "alertTitle").text == "Move 1 file to Trash?"
    tap(phone, "button2")
    assert not _file(phone, "file_26")["trashed"]
    _menu(phone, "Lease agreement.pdf", "menu_delete")
    tap(phone, "button1")
    assert _file(phone, "file_26")["trashed"] and _file(phone, "file_26")["trashed_at"] == "2026-03-16 09:00"
    assert not any(n.desc.startswith("Lease agreement.pdf") for n in _nodes(phone, "file_item"))
    phone.launch("files", "/trash")
    assert [n.desc for n in _nodes(phone, "trash_item")][0] == "Lease agreement.pdf"
    _tap_desc(phone, "trash_item", "Lease agreement.pdf")
    assert node(phone, "trash_origin").text == "Internal storage › Download"
    tap(phone, "button1")
    assert not _file(phone, "file_26")["trashed"] and _file(phone, "file_26")["folder"] == "Download"
    trashed = [f["id"] for f in _state(phone)["files"] if f["trashed"]]
    assert trashed
    tap(phone, "empty_trash")
    tap(phone, "button2")
    assert all(_file(phone, i) for i in trashed)
    tap(phone, "empty_trash")
    tap(phone, "button1")
    assert not any(_file(phone, i) for i in trashed) and _file(phone, "file_26") is not None
    assert node(phone, "empty").text == "Trash is empty"


def test_restoring_beside_a_file_of_the_same_name_numbers_it() -> None:
    phone = _phone()
    phone.set_state({"apps": {"files": {"files[id=file_41]": {"name": "The Old Man and the Sea.epub"}}}})
    phone.launch("files", "/trash")
    _tap_desc(phone, "trash_item", "The Old Man and the Sea.epub")
    tap(phone, "button1")
    assert _file(phone, "file_40")["name"] == "The Old Man and the Sea (1).epub"


def test_multi_select_moves_and_deletes_several() -> None:
    phone = _phone()
    _open(phone, "Download")
    phone.long_press(*_row(phone, "Invoice_Spotify_2026-03.pdf").center)
    phone.tap(*_row(phone, "Invoice_Zoom_2026-02.pdf").center)
    assert node(phone, "toolbar_title").text == "2 selected" and not _nodes(phone, "file_menu")
    phone.tap(*_row(phone, "Invoice_Zoom_2026-02.pdf").center)    # taps toggle while selecting
    assert node(phone, "toolbar_title").text == "1 selected"
    phone.tap(*_row(phone, "Invoice_Zoom_2026-02.pdf").center)
    tap(phone, "move_selected")
    assert node(phone, "toolbar_title").text == "Move 2 items to"
    _tap_desc(phone, "dest_folder", "Books")
    tap(phone, "confirm_pick")
    assert _file(phone, "file_15")["folder"] == _file(phone, "file_16")["folder"] == "Books"
    assert node(phone, "toolbar_title").text == "Download"     # the selection ended with the move
    phone.long_press(*_row(phone, "Concert tickets.pdf").center)
    phone.tap(*_row(phone, "Insurance card.pdf").center)
    tap(phone, "delete_selected")
    assert node(phone, "alertTitle").text == "Move 2 files to Trash?"
    tap(phone, "button1")
    assert _file(phone, "file_17")["trashed"] and _file(phone, "file_20")["trashed"]
    assert not _file(phone, "file_23")["trashed"]


def test_search_and_categories() -> None:
    phone = _phone()
    tap(phone, "search")
    _type(phone, "search_input", "INVOICE")
    assert node(phone, "result_count").text == "3 results"
    assert [n.text for n in _nodes(phone, "file_name")] == ["Invoice template.docx", "Invoice_Spotify_2026-03.pdf",
                                                             "Invoice_Zoom_2026-02.pdf"]
    assert _row(phone, "Invoice template.docx").desc.startswith("Invoice template.docx · Download · ")
    phone.launch("files", "/category?kind=audio")
    names = [n.text for n in _nodes(phone, "file_name")]
    assert "Podcast episode 7.mp3" in names and all(n.endswith(".mp3") for n in names)
    assert node(phone, "category_summary").text.startswith(f"{len(names)} files · ")


def _share_to_first_contact(phone: Phone) -> str:
    """Share file_17 into Messages and pick the first contact as the recipient; their name."""
    phone.launch("files", "/file?id=file_17")
    tap(phone, "share_file")
    tap(phone, "share_messages")
    name = phone.get_state()["apps"]["contacts"]["contacts"][0]["name"]
    _type(phone, "recipient_input", name)
    phone.tap(*next(n for n in _nodes(phone, "contact_suggestion") if name in n.desc).center)
    return name


def _sent(phone: Phone, before: set[str]) -> list[dict]:
    """The messages sent since ``before`` (message ids)."""
    return [m for c in phone.get_state()["apps"]["messages"]["conversations"] for m in c["messages"]
            if not m["incoming"] and m["id"] not in before]


def _ids(phone: Phone) -> set[str]:
    return {m["id"] for c in phone.get_state()["apps"]["messages"]["conversations"] for m in c["messages"]}


def test_share_to_messages_attaches_the_file_and_sends_it_without_a_text() -> None:
    phone = _phone()
    before = _ids(phone)
    _share_to_first_contact(phone)
    assert phone.current_app() == "messages" and phone.current_route().startswith("/compose")
    assert [n.desc for n in _nodes(phone, "message_attachment")] == ["Concert tickets.pdf"]
    assert node(phone, "message_input").text == ""  # the file is attached, not written into the text
    tap(phone, "send")
    assert [(m["text"], m["attachments"]) for m in _sent(phone, before)] == [("", ["Concert tickets.pdf"])]
    assert "Concert tickets.pdf" in [n.desc for n in _nodes(phone, "message_attachment")]  # the thread shows it
    phone.key("back")
    assert any("📎 Concert tickets.pdf" in n.text for n in parse_nodes(phone.a11y_xml()))  # the list's preview


def test_a_removed_attachment_is_not_sent_and_an_empty_message_is_refused() -> None:
    phone = _phone()
    before = _ids(phone)
    _share_to_first_contact(phone)
    tap(phone, "remove_attachment")
    assert not _nodes(phone, "message_attachment")
    tap(phone, "send")
    assert phone.current_route().startswith("/compose") and not _sent(phone, before)
    assert "Type a message first" in phone.a11y_xml()


def test_chinese_screens() -> None:
    phone = _phone("zh")
    assert node(phone, "toolbar_title").text == "文件"
    assert node(phone, "category_downloads").desc == "下载内容"
    tap(phone, "storage_entry")
    assert node(phone, "toolbar_title").text == "内部存储"
    _tap_desc(phone, "folder_item", "Download")
    _tap_desc(phone, "file_menu", "“Insurance card.pdf”的更多选项")
    tap(phone, "menu_delete")
    assert node(phone, "alertTitle").text == "将 1 个文件移至回收站？"
    tap(phone, "button1")
    assert node(phone, "toast").text == "已移至回收站"


def test_missing_things_show_a_message_not_a_crash() -> None:
    phone = _phone()
    phone.launch("files", "/file?id=nope")
    assert node(phone, "empty").text == "This file is no longer here"
    phone.launch("files", "/folder?dir=Nowhere")
    assert node(phone, "empty").text == "This folder no longer exists"
    phone.launch("files", "/category?kind=nope")
    assert node(phone, "empty").text == "No such category"
