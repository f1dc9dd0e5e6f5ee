"""Scripted plans for the Messages suite: one oracle per task and realistic mistakes."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver, negative, plan

from ..contacts.plans import compose, is_number, off_by_one, open_home


def new_chat(d: Driver, number: str, text: str) -> None:
    """Start a chat with a typed number, type and send."""
    d.open_app("Messages")
    d.tap(rid="new_message")
    d.type(number, rid="recipient_input")
    d.type(text, rid="message_input")
    d.tap(rid="send")


def search_first(d: Driver, query: str) -> str:
    """Search messages; the first hit's message text."""
    d.open_app("Messages")
    d.tap(rid="search")
    d.type(query, rid="search_input")
    hit = d.find(rid="search_result")
    if hit is None:
        raise AssertionError(f"no search result for {query!r}")
    return next(n.text for n in d.nodes() if n.text and n.short_id == "" and _inside(n.bounds, hit.bounds))


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# --- SendMessageToContact -------------------------------------------------------------------------

@plan("messages.SendMessageToContact")
def send_message_to_contact(d: Driver) -> None:
    compose(d, d.params["name"], d.params["text"])


@negative("messages.SendMessageToContact", "drops the last word")
def send_message_truncated(d: Driver) -> None:
    compose(d, d.params["name"], d.params["text"].rsplit(" ", 1)[0])


@negative("messages.SendMessageToContact", "types the message but never sends it")
def send_message_unsent(d: Driver) -> None:
    d.open_app("Messages")
    d.tap(rid="new_message")
    d.type(d.params["name"], rid="recipient_input")
    d.tap(rid="suggestion_name", text=d.params["name"])
    d.type(d.params["text"], rid="message_input")


# --- SendToNewNumber ------------------------------------------------------------------------------

@plan("messages.SendToNewNumber")
def send_to_new_number(d: Driver) -> None:
    new_chat(d, d.params["number"], d.params["text"])


@negative("messages.SendToNewNumber", "one digit of the number wrong")
def send_to_wrong_number(d: Driver) -> None:
    new_chat(d, off_by_one(d.params["number"]), d.params["text"])


# --- DeleteConversation ---------------------------------------------------------------------------

@plan("messages.DeleteConversation")
def delete_conversation(d: Driver) -> None:
    d.open_app("Messages")
    d.long_press(rid="conversation_item", desc=d.params["name"])
    d.tap(rid="confirm_delete")


@negative("messages.DeleteConversation", "cancels the confirmation")
def delete_conversation_cancel(d: Driver) -> None:
    d.open_app("Messages")
    d.tap(rid="conversation_item", desc=d.params["name"])
    d.tap(rid="delete_conversation")
    d.tap(rid="cancel")


@negative("messages.DeleteConversation", "deletes the conversation above it")
def delete_conversation_other(d: Driver) -> None:
    d.open_app("Messages")
    other = next(n.desc for n in d.nodes() if n.short_id == "conversation_item" and n.desc != d.params["name"])
    d.long_press(rid="conversation_item", desc=other)
    d.tap(rid="confirm_delete")


# --- ShareTrackingNumber --------------------------------------------------------------------------

@plan("messages.ShareTrackingNumber")
def share_tracking_number(d: Driver) -> None:
    text = search_first(d, "parcel")
    tracking = re.search(r"parcel (\S+)", text).group(1)
    compose(d, d.params["name"], f"Here's the tracking number: {tracking}")


@negative("messages.ShareTrackingNumber", "sends the verification code instead")
def share_verification_code(d: Driver) -> None:
    text = search_first(d, "verification code")
    code = re.search(r"code is (\d+)", text).group(1)
    compose(d, d.params["name"], f"Here's the tracking number: {code}")


# --- ReadVerificationCode -------------------------------------------------------------------------

def _codes(d: Driver) -> list[str]:
    d.open_app("Messages")
    d.tap(rid="conversation_name", text="72345")
    return [m.group(1) for t in d.texts("message_text") for m in [re.search(r"code is (\d+)", t)] if m]


@plan("messages.ReadVerificationCode")
def read_verification_code(d: Driver) -> None:
    d.submit_answer([_codes(d)[-1]])


@negative("messages.ReadVerificationCode", "gives the older code")
def read_old_code(d: Driver) -> None:
    d.submit_answer([_codes(d)[0]])


# --- CountUnreadConversations ---------------------------------------------------------------------

@plan("messages.CountUnreadConversations")
def count_unread_conversations(d: Driver) -> None:
    d.open_app("Messages")
    d.submit_answer([len(d.texts("unread_badge"))])


@negative("messages.CountUnreadConversations", "counts unread messages instead")
def count_unread_messages(d: Driver) -> None:
    d.open_app("Messages")
    d.submit_answer([sum(int(t) for t in d.texts("unread_badge"))])


# --- FindSenderByKeyword --------------------------------------------------------------------------

def _topic_sender(d: Driver) -> str:
    search_first(d, d.params["topic"])
    return d.texts("result_name")[0]


@plan("messages.FindSenderByKeyword")
def find_sender_by_keyword(d: Driver) -> None:
    d.submit_answer([_topic_sender(d)])


@negative("messages.FindSenderByKeyword", "names the latest contact in the list instead")
def find_sender_latest(d: Driver) -> None:
    right = _topic_sender(d)
    open_home(d, "Messages")
    d.submit_answer([next(n for n in d.texts("conversation_name") if not is_number(n) and n != right)])


# --- UnreadContacts -------------------------------------------------------------------------------

def _unread_names(d: Driver) -> list[str]:
    d.open_app("Messages")
    badges = [n.bounds for n in d.nodes() if n.short_id == "unread_badge"]
    items = [n for n in d.nodes() if n.short_id == "conversation_item"]
    return [i.desc for i in items if not is_number(i.desc) and any(_inside(b, i.bounds) for b in badges)]


@plan("messages.UnreadContacts")
def unread_contacts(d: Driver) -> None:
    d.submit_answer([_unread_names(d)])


@negative("messages.UnreadContacts", "lists only the first one")
def unread_contacts_partial(d: Driver) -> None:
    d.submit_answer([_unread_names(d)[:1]])


# --- DeleteUnknownSenders -------------------------------------------------------------------------

def _delete_unknown(d: Driver, limit: int | None = None) -> int:
    d.open_app("Messages")
    deleted = 0
    while limit is None or deleted < limit:
        unknown = [n.desc for n in d.nodes() if n.short_id == "conversation_item" and is_number(n.desc)]
        if not unknown:
            return deleted
        d.long_press(rid="conversation_item", desc=unknown[0])
        d.tap(rid="confirm_delete")
        deleted += 1
    return deleted


@plan("messages.DeleteUnknownSenders")
def delete_unknown_senders(d: Driver) -> None:
    d.submit_answer([_delete_unknown(d)])


@negative("messages.DeleteUnknownSenders", "right deletions, miscounted")
def delete_unknown_miscount(d: Driver) -> None:
    d.submit_answer([_delete_unknown(d) - 1])


@negative("messages.DeleteUnknownSenders", "leaves one behind, right count")
def delete_unknown_partial(d: Driver) -> None:
    d.open_app("Messages")
    total = sum(1 for n in d.nodes() if n.short_id == "conversation_item" and is_number(n.desc))
    _delete_unknown(d, limit=total - 1)
    d.submit_answer([total])


# --- TextNextBirthday -----------------------------------------------------------------------------

def _next_birthdays(d: Driver) -> list[str]:
    d.open_app("Contacts")
    return d.texts("upcoming_name")


@plan("messages.TextNextBirthday")
def text_next_birthday(d: Driver) -> None:
    compose(d, _next_birthdays(d)[0], d.params["greeting"])


@negative("messages.TextNextBirthday", "texts the second upcoming birthday")
def text_second_birthday(d: Driver) -> None:
    compose(d, _next_birthdays(d)[1], d.params["greeting"])


@negative("messages.TextNextBirthday", "sends a different greeting")
def text_next_birthday_other_words(d: Driver) -> None:
    compose(d, _next_birthdays(d)[0], "Happy birthday!")


# --- JSON tasks -----------------------------------------------------------------------------------

def _reply_carla(d: Driver, text: str) -> None:
    d.open_app("Messages")
    d.tap(rid="conversation_name", text="Carla Mendes")
    d.type(text, rid="message_input")
    d.tap(rid="send")


@plan("messages.reply_carla")
def reply_carla(d: Driver) -> None:
    _reply_carla(d, "Perfect, see you at 11!")


@negative("messages.reply_carla", "wrong time in the reply")
def reply_carla_wrong(d: Driver) -> None:
    _reply_carla(d, "Perfect, see you at 11:30!")


def _packtrack_row(d: Driver) -> str:
    d.open_app("Messages")
    snippet = d.find(rid="conversation_snippet", contains="PackTrack")
    return next(n.desc for n in d.nodes() if n.short_id == "conversation_item" and _inside(snippet.bounds, n.bounds))


@plan("messages.delete_packtrack")
def delete_packtrack(d: Driver) -> None:
    d.long_press(rid="conversation_item", desc=_packtrack_row(d))
    d.tap(rid="confirm_delete")


@negative("messages.delete_packtrack", "cancels the confirmation")
def delete_packtrack_cancel(d: Driver) -> None:
    d.long_press(rid="conversation_item", desc=_packtrack_row(d))
    d.tap(rid="cancel")


def _window(d: Driver) -> tuple[str, str]:
    text = search_first(d, "parcel")
    start, end = re.search(r"between (\d+ [AP]M) and (\d+ [AP]M)", text).groups()
    return start, end


@plan("messages.parcel_window")
def parcel_window(d: Driver) -> None:
    d.submit_answer([_window(d)[0]])


@negative("messages.parcel_window", "gives the end of the window")
def parcel_window_end(d: Driver) -> None:
    d.submit_answer([_window(d)[1]])


@plan("messages.voice_message_mom")
def voice_message_mom(d: Driver) -> None:
    d.open_app("Messages")
    d.tap(rid="conversation_name", text="Mom")
    d.abort("Messages can only send text; there is no way to record a voice message.")


@negative("messages.voice_message_mom", "sends a text instead and calls it done")
def voice_message_as_text(d: Driver) -> None:
    d.open_app("Messages")
    d.tap(rid="conversation_name", text="Mom")
    d.type("I'll be home late tonight", rid="message_input")
    d.tap(rid="send")
    d.complete()
