"""Scripted plans for the Messages suite: one oracle per task and realistic mistakes."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.oracle import Driver, negative, plan

from mobilegym.envs.messages.world import CODE, PARCEL, WINDOW

from ..contacts.ui import collect, compose, is_number, off_by_one, open_home, t
from .ui import inside, new_chat, open_search_hit, search_first
from ..weather.ui import set_alarm
from ..video.ui import open_library, title_of
from ..maps.ui import minutes_of, mode_minutes, route_to


def out_for_delivery(d: Driver) -> str:
    """The text of the parcel out for delivery today."""
    return search_first(d, t(d, "out for delivery", "正在派送"))


def conversation_rows(d: Driver) -> list[tuple[str, int]]:
    """(name, unread count) of every conversation, down the whole list (from the top: a fresh episode)."""
    open_home(d, "Messages")
    rows: dict[str, int] = {}
    for _ in range(40):
        nodes = d.nodes()
        badges = [n for n in nodes if n.short_id == "unread_badge"]
        for item in (n for n in nodes if n.short_id == "conversation_item"):
            badge = next((b for b in badges if inside(b.bounds, item.bounds)), None)
            if item.desc not in rows or badge is not None:
                rows[item.desc] = int(badge.text) if badge is not None else 0
        if not d.scroll(1):
            break
    return list(rows.items())


# --- SendMessageToContact -------------------------------------------------------------------------

@plan("messages.SendMessageToContact")
def send_message_to_contact(d: Driver) -> None:
    compose(d, d.params["name"], d.params["text"])


def _drop_last_word(text: str) -> str:
    """The text without its last word (Chinese has no spaces: its last two characters before the end mark)."""
    return text.rsplit(" ", 1)[0] if text.isascii() else text.rstrip("。！？")[:-2]


@negative("messages.SendMessageToContact", "drops the last word")
def send_message_truncated(d: Driver) -> None:
    compose(d, d.params["name"], _drop_last_word(d.params["text"]))


@negative("messages.SendMessageToContact", "types the message but never sends it")
def send_message_unsent(d: Driver) -> None:
    open_home(d, "Messages")
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

def delete_selected(d: Driver) -> None:
    """Delete the conversations selected in the list: the top bar's delete, then confirm."""
    d.tap(rid="delete_selected")
    d.tap(rid="button1")


@plan("messages.DeleteConversation")
def delete_conversation(d: Driver) -> None:
    open_home(d, "Messages")
    d.long_press(rid="conversation_item", desc=d.params["name"])
    delete_selected(d)


@negative("messages.DeleteConversation", "cancels the confirmation")
def delete_conversation_cancel(d: Driver) -> None:
    open_home(d, "Messages")
    d.tap(rid="conversation_item", desc=d.params["name"])
    d.tap(rid="delete_conversation")
    d.tap(rid="button2")


def _another_conversation(d: Driver) -> str:
    """The name of the first conversation on screen that is not the task's."""
    return next(n.desc for n in d.nodes() if n.short_id == "conversation_item" and n.desc != d.params["name"])


@negative("messages.DeleteConversation", "deletes the conversation above it")
def delete_conversation_other(d: Driver) -> None:
    open_home(d, "Messages")
    other = _another_conversation(d)
    d.long_press(rid="conversation_item", desc=other)
    delete_selected(d)


@negative("messages.DeleteConversation", "selects it, then taps the one above too and deletes both")
def delete_conversation_and_other(d: Driver) -> None:
    open_home(d, "Messages")
    other = _another_conversation(d)
    d.long_press(rid="conversation_item", desc=d.params["name"])
    d.tap(rid="conversation_item", desc=other)
    delete_selected(d)


@negative("messages.DeleteConversation", "selects it, then closes the selection")
def delete_conversation_close_selection(d: Driver) -> None:
    open_home(d, "Messages")
    d.long_press(rid="conversation_item", desc=d.params["name"])
    d.tap(rid="close_selection")


# --- ShareTrackingNumber --------------------------------------------------------------------------

@plan("messages.ShareTrackingNumber")
def share_tracking_number(d: Driver) -> None:
    tracking = PARCEL.search(out_for_delivery(d)).group(1)
    compose(d, d.params["name"], t(d, f"Here's the tracking number: {tracking}", f"快递单号：{tracking}"))


@negative("messages.ShareTrackingNumber", "sends the verification code instead")
def share_verification_code(d: Driver) -> None:
    text = search_first(d, t(d, "verification code", "验证码"))
    code = CODE.search(text).group(1)
    compose(d, d.params["name"], t(d, f"Here's the tracking number: {code}", f"快递单号：{code}"))


# --- ReadVerificationCode -------------------------------------------------------------------------

def _codes(d: Driver, service: str) -> list[str]:
    """The codes in the service's thread, oldest first."""
    open_search_hit(d, t(d, f"{service}: your verification code", f"【{service}】"))
    return [m.group(1) for text in d.texts("message_text") for m in [CODE.search(text)] if m]


@plan("messages.ReadVerificationCode")
def read_verification_code(d: Driver) -> None:
    d.submit_answer([_codes(d, d.params["service"])[-1]])


@negative("messages.ReadVerificationCode", "gives an older code, or another service's")
def read_old_code(d: Driver) -> None:
    codes = _codes(d, d.params["service"])
    if len(codes) < 2:
        text = search_first(d, t(d, "verification code", "验证码"))
        other = CODE.search(text).group(1)
        codes = [other if other != codes[-1] else off_by_one(other), codes[-1]]
    d.submit_answer([codes[0]])


# --- CountUnreadConversations ---------------------------------------------------------------------

@plan("messages.CountUnreadConversations")
def count_unread_conversations(d: Driver) -> None:
    d.submit_answer([sum(1 for _, unread in conversation_rows(d) if unread)])


@negative("messages.CountUnreadConversations", "counts unread messages instead")
def count_unread_messages(d: Driver) -> None:
    d.submit_answer([sum(unread for _, unread in conversation_rows(d))])


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
    rows = collect(d, "conversation_item", stop=lambda found: any(not is_number(n.desc) and n.desc != right
                                                                  for n in found))
    d.submit_answer([next(n.desc for n in rows if not is_number(n.desc) and n.desc != right)])


# --- UnreadContacts -------------------------------------------------------------------------------

def _unread_names(d: Driver) -> list[str]:
    return [name for name, unread in conversation_rows(d) if unread and not is_number(name)]


@plan("messages.UnreadContacts")
def unread_contacts(d: Driver) -> None:
    d.submit_answer([_unread_names(d)])


@negative("messages.UnreadContacts", "lists only the first one")
def unread_contacts_partial(d: Driver) -> None:
    d.submit_answer([_unread_names(d)[:1]])


# --- DeleteUnknownSenders -------------------------------------------------------------------------

def _delete_unknown(d: Driver, limit: int | None = None) -> int:
    """Walk down the list once selecting every thread shown under a number (at most ``limit``): a long press
    on the first, a tap on the others; then delete them together."""
    open_home(d, "Messages")
    d.scroll_to_top()
    chosen = 0
    for _ in range(60):
        if limit is not None and chosen >= limit:
            break
        unknown = next((n for n in d.nodes() if n.short_id == "conversation_item" and is_number(n.desc)
                        and not n.selected), None)
        if unknown is not None:
            if chosen:
                d.tap(rid="conversation_item", desc=unknown.desc)
            else:
                d.long_press(rid="conversation_item", desc=unknown.desc)
            chosen += 1
        elif not d.scroll(1):
            break
    if chosen:
        delete_selected(d)
    return chosen


def _unknown_count(d: Driver) -> int:
    return sum(1 for name, _ in conversation_rows(d) if is_number(name))


@plan("messages.DeleteUnknownSenders")
def delete_unknown_senders(d: Driver) -> None:
    d.submit_answer([_delete_unknown(d)])


@negative("messages.DeleteUnknownSenders", "right deletions, miscounted")
def delete_unknown_miscount(d: Driver) -> None:
    d.submit_answer([_delete_unknown(d) - 1])


@negative("messages.DeleteUnknownSenders", "leaves one behind, right count")
def delete_unknown_partial(d: Driver) -> None:
    total = _unknown_count(d)
    _delete_unknown(d, limit=total - 1)
    d.submit_answer([total])


# --- TextNextBirthday -----------------------------------------------------------------------------

def _next_birthdays(d: Driver) -> list[str]:
    open_home(d, "Contacts")
    return d.texts("upcoming_name")


@plan("messages.TextNextBirthday")
def text_next_birthday(d: Driver) -> None:
    compose(d, _next_birthdays(d)[0], d.params["greeting"])


@negative("messages.TextNextBirthday", "texts the second upcoming birthday")
def text_second_birthday(d: Driver) -> None:
    compose(d, _next_birthdays(d)[1], d.params["greeting"])


@negative("messages.TextNextBirthday", "sends a different greeting")
def text_next_birthday_other_words(d: Driver) -> None:
    compose(d, _next_birthdays(d)[0], d.t("Happy birthday!", "生日快乐！"))


# --- JSON tasks -----------------------------------------------------------------------------------

def _reply_carla(d: Driver, text: str) -> None:
    open_search_hit(d, d.t("Carla Mendes", "蔡佳琳"))
    d.type(text, rid="message_input")
    d.tap(rid="send")


@plan("messages.reply_carla")
def reply_carla(d: Driver) -> None:
    _reply_carla(d, d.t("Perfect, see you at 11!", "太好了，11点见！"))


@negative("messages.reply_carla", "wrong time in the reply")
def reply_carla_wrong(d: Driver) -> None:
    _reply_carla(d, d.t("Perfect, see you at 11:30!", "太好了，11点半见！"))


def _open_packtrack(d: Driver) -> None:
    open_search_hit(d, d.t("PackTrack", "顺丰速运"))
    d.tap(rid="delete_conversation")


@plan("messages.delete_packtrack")
def delete_packtrack(d: Driver) -> None:
    _open_packtrack(d)
    d.tap(rid="button1")


@negative("messages.delete_packtrack", "cancels the confirmation")
def delete_packtrack_cancel(d: Driver) -> None:
    _open_packtrack(d)
    d.tap(rid="button2")


def _window(d: Driver) -> tuple[str, str]:
    found = WINDOW.search(out_for_delivery(d))
    start, end = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
    return start, end


@plan("messages.parcel_window")
def parcel_window(d: Driver) -> None:
    d.submit_answer([_window(d)[0]])


@negative("messages.parcel_window", "gives the end of the window")
def parcel_window_end(d: Driver) -> None:
    d.submit_answer([_window(d)[1]])


@plan("messages.voice_message_mom")
def voice_message_mom(d: Driver) -> None:
    open_home(d, "Messages")
    d.abort("Messages can only send text; there is no way to record a voice message.")


@negative("messages.voice_message_mom", "sends a text instead and calls it done")
def voice_message_as_text(d: Driver) -> None:
    open_home(d, "Messages")
    rows = collect(d, "conversation_item", stop=lambda found: any(not is_number(n.desc) for n in found))
    d.tap(rid="conversation_item", desc=next(n.desc for n in rows if not is_number(n.desc)))
    d.type(d.t("I'll be home late tonight", "我今晚会晚点回家"), rid="message_input")
    d.tap(rid="send")
    d.complete()


# --- AnswerLastWatchedQuestion ------------------------------------------------------------------------

def _question(d: Driver) -> str:
    """The contact's latest text, read in their thread."""
    open_home(d, "Messages")
    d.tap(rid="conversation_item", desc=d.params["name"])
    return [n.text for n in collect(d, "message_text")][-1]


def _history_titles(d: Driver) -> list[str]:
    open_library(d, "history_entry")
    return d.texts("video_title")


@plan("messages.AnswerLastWatchedQuestion")
def answer_last_watched(d: Driver) -> None:
    question = _question(d)
    if "last video" not in question and "最后一个视频" not in question:
        raise AssertionError(f"not the question: {question!r}")
    compose(d, d.params["name"], _history_titles(d)[0])


@negative("messages.AnswerLastWatchedQuestion", "answers with the second video of the history")
def answer_second_watched(d: Driver) -> None:
    _question(d)
    compose(d, d.params["name"], _history_titles(d)[1])


@negative("messages.AnswerLastWatchedQuestion", "answers with the first video of Watch later")
def answer_watch_later(d: Driver) -> None:
    _question(d)
    open_library(d, "watch_later_entry")
    history = _history_titles(d)
    open_library(d, "watch_later_entry")
    later = [title_of(n.desc) for n in collect(d, "video_item")]
    compose(d, d.params["name"], next(x for x in later if x != history[0]))


# --- MeetupTransitReplyAlarm ----------------------------------------------------------------------------

MEETUP = (re.compile(r"meet at (?P<place>.+) tomorrow at (?P<time>\d+:\d\d [ap]m)\?"),
          re.compile(r"明天(?P<time>\d+:\d\d)在(?P<place>.+)见面好吗"))


def _meetup(d: Driver) -> tuple[str, dt.time]:
    """(place, time) the contact's latest text proposes."""
    found = next(m for m in (p.search(_question(d)) for p in MEETUP) if m)
    said = found.group("time")
    return found.group("place"), dt.datetime.strptime(said, "%I:%M %p" if "m" in said else "%H:%M").time()


def _meetup_reply(d: Driver, mode: str = "transit", at_meeting: bool = False, reply: bool = True) -> None:
    place, meet = _meetup(d)
    route_to(d, place)
    took = mode_minutes(d)[mode]
    leave = dt.datetime.combine(dt.date(2000, 1, 1), meet) - dt.timedelta(minutes=0 if at_meeting else minutes_of(took))
    set_alarm(d, leave.hour, leave.minute)
    if reply:
        compose(d, d.params["name"], d.t(f"Sounds good! It takes me {took} by transit to get there",
                                         f"好啊！我坐公交过去要{took}"))


@plan("messages.MeetupTransitReplyAlarm")
def meetup_transit_reply_alarm(d: Driver) -> None:
    _meetup_reply(d)


@negative("messages.MeetupTransitReplyAlarm", "uses the driving time")
def meetup_drive(d: Driver) -> None:
    _meetup_reply(d, mode="drive")


@negative("messages.MeetupTransitReplyAlarm", "sets the alarm at the meeting time")
def meetup_alarm_at_meeting(d: Driver) -> None:
    _meetup_reply(d, at_meeting=True)


@negative("messages.MeetupTransitReplyAlarm", "sets the alarm but never replies")
def meetup_no_reply(d: Driver) -> None:
    _meetup_reply(d, reply=False)
