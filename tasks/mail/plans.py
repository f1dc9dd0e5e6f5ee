"""Scripted plans for the Mail suite: one oracle per task and realistic mistakes."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS
from mobilegym.oracle import Driver, alternative, negative, plan

from ..contacts.ui import collect, compose, edit_phone, open_contact
from .ui import bodies, flight_code, open_mail, open_subject, other_code, pick_recipient, search, send_new
from ..messages.ui import new_chat
from ..cross_app.ui import add_event, short_date, spoken_date
from ..calendar.ui import today

INVITE = re.compile(r"on (\w{3}, \w{3} \d{1,2}), (\d{2}:\d{2}) to (\d{2}:\d{2})|时间：(\d{1,2}月\d{1,2}日)（周.）\s*(\d{2}:\d{2})至(\d{2}:\d{2})")
AMOUNT = re.compile(r"(?:Total charged|实付金额)[:：]\s*[$¥]([\d,]+\.\d{2})")
PLACED = re.compile(r"(?:placed on \w{3}, (\w{3}) \d{1,2}|下单时间 (\d{1,2})月)")


# --- helpers ---------------------------------------------------------------------------------------------------


def go_to(d: Driver, en: str, zh: str) -> None:
    """Show a folder or label through the navigation drawer."""
    open_mail(d)
    d.tap(rid="open_drawer")
    d.tap(rid="drawer_item", desc=d.t(en, zh))


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# --- CountUnreadInbox ------------------------------------------------------------------------------------------

def _drawer_count(d: Driver, en: str, zh: str) -> int:
    open_mail(d)
    d.tap(rid="open_drawer")
    row = d.find(rid="drawer_item", desc=d.t(en, zh))
    count = next((n.text for n in d.nodes() if n.short_id == "drawer_count" and _inside(n.bounds, row.bounds)), "")
    d.key("back")  # closes the drawer
    return int(count or 0)


@plan("mail.CountUnreadInbox")
def count_unread_inbox(d: Driver) -> None:
    d.submit_answer([_drawer_count(d, "Inbox", "收件箱")])


@negative("mail.CountUnreadInbox", "counts every thread in the inbox")
def count_inbox_threads(d: Driver) -> None:
    open_mail(d)
    d.submit_answer([len(collect(d, "thread_item"))])


# --- ReadBookingCode -------------------------------------------------------------------------------------------

@plan("mail.ReadBookingCode")
def read_booking_code(d: Driver) -> None:
    d.submit_answer([flight_code(d, d.params["city"])])


@negative("mail.ReadBookingCode", "gives the hotel confirmation number (or another code)")
def read_hotel_code(d: Driver) -> None:
    code = flight_code(d, d.params["city"])
    d.submit_answer([other_code(d, d.params["city"], code)])


# --- StarThread ------------------------------------------------------------------------------------------------

@plan("mail.StarThread")
def star_thread(d: Driver) -> None:
    open_subject(d, d.params["subject"])
    d.tap(rid="star_thread")


@negative("mail.StarThread", "stars the mail above it in the inbox instead")
def star_other(d: Driver) -> None:
    open_mail(d)
    other = next(n.desc for n in d.nodes() if n.short_id == "thread_item" and n.desc != d.params["subject"])
    d.tap(rid="thread_item", desc=other)
    d.tap(rid="star_thread")


@negative("mail.StarThread", "marks it unread instead")
def star_marks_unread(d: Driver) -> None:
    open_subject(d, d.params["subject"])
    d.tap(rid="mark_unread")


# --- LabelReceipt ----------------------------------------------------------------------------------------------

def _label(d: Driver, label: str, apply: bool = True) -> None:
    open_subject(d, d.params["subject"])
    d.tap(rid="label_thread")
    d.tap(rid="label_option", text=label)
    d.tap(rid="button1" if apply else "button2")


@plan("mail.LabelReceipt")
def label_receipt(d: Driver) -> None:
    _label(d, d.params["label"])


@negative("mail.LabelReceipt", "ticks the label, then cancels")
def label_receipt_cancel(d: Driver) -> None:
    _label(d, d.params["label"], apply=False)


@negative("mail.LabelReceipt", "picks the Travel label")
def label_receipt_travel(d: Driver) -> None:
    _label(d, d.t("Travel", "旅行"))


# --- ReplyToSender ---------------------------------------------------------------------------------------------

@plan("mail.ReplyToSender")
def reply_to_sender(d: Driver) -> None:
    open_subject(d, d.params["mail"]["subject"])
    d.tap(rid="reply")
    d.type(d.params["text"], rid="body_input")
    d.tap(rid="send")


@negative("mail.ReplyToSender", "writes a new mail instead of replying")
def reply_as_new_mail(d: Driver) -> None:
    send_new(d, d.params["mail"]["name"], d.params["mail"]["subject"], d.params["text"])


@negative("mail.ReplyToSender", "types the reply and leaves it as a draft")
def reply_left_as_draft(d: Driver) -> None:
    open_subject(d, d.params["mail"]["subject"])
    d.tap(rid="reply")
    d.type(d.params["text"], rid="body_input")
    d.tap(rid="navigate_up")


# --- SendNewEmail ----------------------------------------------------------------------------------------------

@plan("mail.SendNewEmail")
def send_new_email(d: Driver) -> None:
    send_new(d, d.params["name"], d.params["mail"]["subject"], d.params["mail"]["body"])


@negative("mail.SendNewEmail", "puts the text in the subject and leaves the body empty")
def send_new_email_no_body(d: Driver) -> None:
    send_new(d, d.params["name"], d.params["mail"]["body"], "")


# --- EmptyTrash ------------------------------------------------------------------------------------------------

@plan("mail.EmptyTrash")
def empty_trash(d: Driver) -> None:
    go_to(d, "Trash", "已删除邮件")
    d.tap(rid="empty_trash")
    d.tap(rid="button1")


@negative("mail.EmptyTrash", "cancels the confirmation")
def empty_trash_cancel(d: Driver) -> None:
    go_to(d, "Trash", "已删除邮件")
    d.tap(rid="empty_trash")
    d.tap(rid="button2")


@negative("mail.EmptyTrash", "deletes only the first mail in the Trash for good")
def empty_trash_one(d: Driver) -> None:
    go_to(d, "Trash", "已删除邮件")
    first = d.find(rid="thread_item")
    d.long_press(rid="thread_item", desc=first.desc)
    d.tap(rid="delete_selected")
    d.tap(rid="button1")
    if d.find(rid="thread_item") is None:  # it was the only one: also trash an inbox mail, as a careless user might
        go_to(d, "Inbox", "收件箱")
        d.long_press(rid="thread_item", desc=d.find(rid="thread_item").desc)
        d.tap(rid="delete_selected")


# --- ForwardAttachment -----------------------------------------------------------------------------------------

def _forward(d: Driver, keep_attachment: bool = True) -> None:
    search(d, d.params["file"])
    d.tap(rid="thread_item", desc=d.find(rid="thread_item").desc)
    d.tap(rid="forward")
    pick_recipient(d, "to_input", d.params["name"])
    if not keep_attachment:
        d.tap(rid="remove_attachment")
    d.tap(rid="send")


@plan("mail.ForwardAttachment")
def forward_attachment(d: Driver) -> None:
    _forward(d)


@negative("mail.ForwardAttachment", "removes the attachment before sending")
def forward_without_attachment(d: Driver) -> None:
    _forward(d, keep_attachment=False)


# --- EmailBookingCode ------------------------------------------------------------------------------------------

def _mail_code(d: Driver, code: str) -> None:
    city = d.params["city"]
    send_new(d, d.params["name"], d.t(f"Flight to {city}", f"飞往{city}的航班"),
             d.t(f"The booking code of my flight to {city} is {code}.", f"我飞往{city}的航班订座记录编号是 {code}。"))


@plan("mail.EmailBookingCode")
def email_booking_code(d: Driver) -> None:
    _mail_code(d, flight_code(d, d.params["city"]))


@negative("mail.EmailBookingCode", "sends the hotel confirmation number (or another code)")
def email_hotel_code(d: Driver) -> None:
    code = flight_code(d, d.params["city"])
    _mail_code(d, other_code(d, d.params["city"], code))


# --- MeetingInviteTime -----------------------------------------------------------------------------------------

def _invite(d: Driver, other: bool = False) -> tuple[str, str, str]:
    """(date, start, end) of the host's invitation (``other``: of another sender's)."""
    search(d, d.params["name"])
    stem = d.t("Invitation:", "邀请：")
    mine = [n.desc for n in d.nodes() if n.short_id == "thread_item" and n.desc.startswith(stem)]
    if other:
        search(d, stem)
        mine = [n.desc for n in d.nodes() if n.short_id == "thread_item" and n.desc not in mine]
    d.tap(rid="thread_item", desc=mine[0])
    found = next(m for text in bodies(d) for m in [INVITE.search(text)] if m)
    return (found.group(1), found.group(2), found.group(3)) if found.group(1) else \
        (found.group(4), found.group(5), found.group(6))


@plan("mail.MeetingInviteTime")
def meeting_invite_time(d: Driver) -> None:
    day, start, _ = _invite(d)
    d.submit_answer([day, start])


@negative("mail.MeetingInviteTime", "reads someone else's invitation")
def meeting_invite_other(d: Driver) -> None:
    day, start, _ = _invite(d, other=True)
    d.submit_answer([day, start])


@negative("mail.MeetingInviteTime", "gives the end time")
def meeting_invite_end(d: Driver) -> None:
    day, _, end = _invite(d)
    d.submit_answer([day, end])


# --- DeleteNewsletters -----------------------------------------------------------------------------------------

def _delete_from(d: Driver, sender: str, limit: int | None = None) -> int:
    """Search the sender, select each of their threads (a long press, then taps) and delete them together."""
    search(d, sender)
    chosen = _select_from(d, sender, limit)
    if chosen:
        d.tap(rid="delete_selected")
    return len(chosen)


def _select_from(d: Driver, sender: str, limit: int | None = None) -> list[str]:
    """Select every thread of the open list from ``sender`` (a long press, then taps); their descs."""
    chosen: list[str] = []
    for _ in range(60):
        if limit is not None and len(chosen) >= limit:
            break
        nodes = d.nodes()
        senders = [n for n in nodes if n.short_id == "thread_sender"]
        row = next((n for n in nodes if n.short_id == "thread_item" and not n.selected and n.desc not in chosen
                    and any(s.text == sender and _inside(s.bounds, n.bounds) for s in senders)), None)
        if row is not None:
            (d.tap if chosen else d.long_press)(rid="thread_item", desc=row.desc)
            chosen.append(row.desc)
        elif not d.scroll(1):
            break
    return chosen


@plan("mail.DeleteNewsletters")
def delete_newsletters(d: Driver) -> None:
    d.submit_answer([_delete_from(d, d.params["sender"])])


@alternative("mail.DeleteNewsletters", "deleted for good")
def delete_newsletters_forever(d: Driver) -> None:
    count = _delete_from(d, d.params["sender"])
    d.key("back")
    go_to(d, "Trash", "已删除邮件")
    if _select_from(d, d.params["sender"]):
        d.tap(rid="delete_selected")
        d.tap(rid="button1")
    d.submit_answer([count])


@negative("mail.DeleteNewsletters", "right deletions, miscounted")
def delete_newsletters_miscount(d: Driver) -> None:
    d.submit_answer([_delete_from(d, d.params["sender"]) + 1])


@negative("mail.DeleteNewsletters", "leaves one behind, right count")
def delete_newsletters_partial(d: Driver) -> None:
    search(d, d.params["sender"])
    total = sum(1 for n in collect(d, "thread_item"))
    _delete_from(d, d.params["sender"], limit=total - 1)
    d.submit_answer([total])


# --- ReceiptsTotalThisMonth ------------------------------------------------------------------------------------

def _receipts(d: Driver) -> list[tuple[int, float]]:
    """(month, amount) of every receipt the search shows (the month from "placed on")."""
    search(d, d.t("receipt #", "电子收据"))
    out = []
    for row in collect(d, "thread_snippet"):
        amount, placed = AMOUNT.search(row.text), PLACED.search(row.text)
        if amount and placed:
            month = MONTHS.index(placed.group(1)) + 1 if placed.group(1) else int(placed.group(2))
            out.append((month, float(amount.group(1).replace(",", ""))))
    return out


def _this_month(d: Driver) -> int:
    first = d.params["first"]
    return int(first.split("月")[0]) if "月" in first else MONTHS.index(first[:3]) + 1


@plan("mail.ReceiptsTotalThisMonth")
def receipts_total(d: Driver) -> None:
    month = _this_month(d)
    d.submit_answer([round(sum(a for m, a in _receipts(d) if m == month), 2)])


@negative("mail.ReceiptsTotalThisMonth", "adds last month's receipts too")
def receipts_total_all(d: Driver) -> None:
    d.submit_answer([round(sum(a for _, a in _receipts(d)), 2)])


# --- JSON tasks ------------------------------------------------------------------------------------------------

def _trash_rows(d: Driver) -> int:
    go_to(d, "Trash", "已删除邮件")
    return len(collect(d, "thread_item"))


@plan("mail.count_trash")
def count_trash(d: Driver) -> None:
    d.submit_answer([_trash_rows(d)])


@negative("mail.count_trash", "counts the banner above the list as a mail too")
def count_trash_off_by_one(d: Driver) -> None:
    d.submit_answer([_trash_rows(d) + 1])


def _open_lease(d: Driver) -> None:
    open_subject(d, d.t("Lease renewal notice", "续租通知"))


@plan("mail.archive_lease_notice")
def archive_lease_notice(d: Driver) -> None:
    _open_lease(d)
    d.tap(rid="archive")


@negative("mail.archive_lease_notice", "deletes it instead of archiving")
def archive_lease_deleted(d: Driver) -> None:
    _open_lease(d)
    d.tap(rid="delete")


@plan("mail.schedule_send")
def schedule_send(d: Driver) -> None:
    open_mail(d)
    d.tap(rid="compose")
    d.abort("Mail has no scheduled send: a message can only be sent now or kept as a draft.")


@negative("mail.schedule_send", "sends the mail right away and calls it done")
def schedule_send_now(d: Driver) -> None:
    open_mail(d)
    d.tap(rid="compose")
    d.type(d.t("Pay the rent", "交房租"), rid="subject_input")
    d.type(d.t("Reminder: pay the rent today.", "提醒：今天交房租。"), rid="body_input")
    d.type("me@example.com", rid="to_input")
    d.tap(rid="send")
    d.complete()


# --- FlightToCalendarAndText -----------------------------------------------------------------------------------

DEPARTS = re.compile(r"departs on (\w{3}, \w{3} \d{1,2}) at (\d{2}:\d{2})|于(\d{1,2}月\d{1,2}日)（周.）\s*(\d{2}:\d{2})起飞")


def _departure(d: Driver) -> tuple[dt.date, str]:
    """(date, "HH:MM") of the flight to the task's city, read in its confirmation."""

    now = today(d)
    flight_code(d, d.params["city"])
    found = next(m for text in bodies(d) for m in [DEPARTS.search(text)] if m)
    label, hhmm = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
    return short_date(label, now), hhmm


def _flight_event_and_text(d: Driver, day: dt.date, hhmm: str, text: bool = True, all_day: bool = False) -> None:

    city = d.params["city"]
    end = f"{int(hhmm[:2]) + 1:02d}{hhmm[2:]}"
    add_event(d, d.t(f"Flight to {city}", f"飞往{city}"), day, None if all_day else hhmm, None if all_day else end)
    if text:
        compose(d, d.params["name"], d.t(f"My flight to {city} leaves on {spoken_date(d, day)} at {hhmm}",
                                         f"我{spoken_date(d, day)} {hhmm}起飞去{city}"))
    d.complete()


@plan("mail.FlightToCalendarAndText")
def flight_to_calendar_and_text(d: Driver) -> None:
    _flight_event_and_text(d, *_departure(d))


@negative("mail.FlightToCalendarAndText", "puts the flight on the day before")
def flight_to_calendar_day_before(d: Driver) -> None:
    day, hhmm = _departure(d)
    _flight_event_and_text(d, day - dt.timedelta(days=1), hhmm)


@negative("mail.FlightToCalendarAndText", "adds the event but never texts")
def flight_to_calendar_no_text(d: Driver) -> None:
    _flight_event_and_text(d, *_departure(d), text=False)


@negative("mail.FlightToCalendarAndText", "an all-day event without the departure time")
def flight_to_calendar_all_day(d: Driver) -> None:
    _flight_event_and_text(d, *_departure(d), all_day=True)


# --- NewNumberFromEmail ----------------------------------------------------------------------------------------

NEW_NUMBER = re.compile(r"(?:number is|号码是)\s*(\+?\d[\d -]*\d)")


def _new_number(d: Driver, other: bool = False) -> str:
    """The new mobile number the contact's mail gives (``other``: someone else's mail)."""
    subject, name = d.t("My new phone number", "我换手机号了"), d.params["change"]["name"]
    if other:
        search(d, subject)
        senders = [n.text for n in d.nodes() if n.short_id == "thread_sender" and n.text != name]
        d.tap(rid="thread_sender", text=senders[0])
    else:
        search(d, name)
        d.tap(rid="thread_item", desc=subject)
    return next(m.group(1) for text in bodies(d) for m in [NEW_NUMBER.search(text)] if m)


def _set_mobile(d: Driver, number: str, keep_old: bool = False) -> None:
    """On the contact's edit form: the number in the first (mobile) slot, or in a new mobile slot."""

    name, slot = d.params["change"]["name"], 0
    if keep_old:
        open_contact(d, name)
        slot = len([n for n in d.nodes() if n.short_id == "phone_item"])
    edit_phone(d, name, slot, number, "mobile")


@plan("mail.NewNumberFromEmail")
def new_number_from_email(d: Driver) -> None:

    number = _new_number(d)
    _set_mobile(d, number)
    new_chat(d, number, d.params["text"])
    d.complete()


@negative("mail.NewNumberFromEmail", "adds the new number beside the old one instead of replacing it")
def new_number_kept_old(d: Driver) -> None:

    number = _new_number(d)
    _set_mobile(d, number, keep_old=True)
    new_chat(d, number, d.params["text"])
    d.complete()


@negative("mail.NewNumberFromEmail", "texts them first, at the old number, then updates the contact")
def new_number_texts_old(d: Driver) -> None:
    number = _new_number(d)
    compose(d, d.params["change"]["name"], d.params["text"])
    _set_mobile(d, number)
    d.complete()


@negative("mail.NewNumberFromEmail", "takes the number from someone else's mail")
def new_number_from_other_mail(d: Driver) -> None:
    number = _new_number(d, other=True)
    _set_mobile(d, number)
    new_chat(d, number, d.params["text"])
    d.complete()


@negative("mail.NewNumberFromEmail", "updates the contact but never texts")
def new_number_no_text(d: Driver) -> None:
    _set_mobile(d, _new_number(d))
    d.complete()
