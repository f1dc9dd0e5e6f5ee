"""What the Mail screens and the task accessors share: which threads a folder or label shows, recipients."""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

FOLDERS = ("inbox", "starred", "sent", "drafts", "all", "trash")
EMAIL = re.compile(r"[^@\s,;<>]+@[^@\s,;<>]+\.[^@\s,;<>]+")


def newest_first(threads: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(threads, key=lambda t: -t["messages"][-1]["time_ms"])


def is_sent(thread: Mapping[str, Any], me: str) -> bool:
    """Whether the owner wrote a message in the thread."""
    return any(m["from"]["email"].casefold() == me.casefold() for m in thread["messages"])


def folder_threads(state: Mapping[str, Any], folder: str) -> list[dict[str, Any]]:
    """The threads a system folder or a custom label shows, newest first (Trash only in "trash"; drafts are
    not threads: "drafts" shows none)."""
    me = state["account"]["email"]
    kept = [t for t in state["threads"] if not t["trashed"]]
    if folder == "inbox":
        chosen = [t for t in kept if t["inbox"]]
    elif folder == "starred":
        chosen = [t for t in kept if t["starred"]]
    elif folder == "sent":
        chosen = [t for t in kept if is_sent(t, me)]
    elif folder == "all":
        chosen = kept
    elif folder == "trash":
        chosen = [t for t in state["threads"] if t["trashed"]]
    elif folder == "drafts":
        chosen = []
    else:
        chosen = [t for t in kept if folder in t["labels"]]
    return newest_first(chosen)


def find_thread(state: Mapping[str, Any], thread_id: Any) -> dict[str, Any] | None:
    return next((t for t in state["threads"] if t["id"] == thread_id), None)


def thread_labels(thread: Mapping[str, Any], inbox: str, trash: str) -> list[str]:
    """The chips a thread shows: Inbox or Trash, then its custom labels."""
    head = [trash] if thread["trashed"] else [inbox] if thread["inbox"] else []
    return head + list(thread["labels"])


def parse_recipients(text: str, contacts: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, str]], list[str]]:
    """The people a recipient field names (comma or semicolon separated addresses, or contacts' exact names) and
    the entries that are neither."""
    people: list[dict[str, str]] = []
    bad: list[str] = []
    for entry in (e.strip() for e in re.split(r"[,;]", text)):
        if not entry:
            continue
        contact = next((c for c in contacts if c["name"].casefold() == entry.casefold()
                        or c["email"].casefold() == entry.casefold()), None)
        if contact is not None:
            person = {"name": contact["name"], "email": contact["email"]}
        elif EMAIL.fullmatch(entry):
            person = {"name": entry, "email": entry}
        else:
            bad.append(entry)
            continue
        if all(p["email"].casefold() != person["email"].casefold() for p in people):
            people.append(person)
    return people, bad


def recipients_text(people: Sequence[Mapping[str, str]]) -> str:
    return ", ".join(p["email"] for p in people)


def reply_recipients(thread: Mapping[str, Any], me: str, everyone: bool) -> tuple[list[dict[str, str]],
                                                                                   list[dict[str, str]]]:
    """(to, cc) of a reply to the thread's last message: its sender (or, to the owner's own message, its
    recipients); with ``everyone`` also the other recipients, the owner left out."""
    last = thread["messages"][-1]
    mine = last["from"]["email"].casefold() == me.casefold()
    to = list(last["to"]) if mine else [last["from"]]
    cc: list[dict[str, str]] = []
    if everyone:
        to += [] if mine else [p for p in last["to"] if p["email"].casefold() != me.casefold()]
        cc = [p for p in last["cc"] if p["email"].casefold() != me.casefold()]
    seen: list[str] = []
    unique = []
    for person in to:
        if person["email"].casefold() not in seen:
            seen.append(person["email"].casefold())
            unique.append(person)
    return unique, [p for p in cc if p["email"].casefold() not in seen]
