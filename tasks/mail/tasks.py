"""Mail tasks.

Task index:
    CountUnreadInbox          query    L1  how many threads in the Inbox are unread
    ReadBookingCode           query    L2  the booking code of the flight to a city
    StarThread                operate  L2  star the mail with a subject
    LabelReceipt              operate  L2  put a receipt under the Receipts label
    ReplyToSender             operate  L2  reply to a contact's mail with a given text
    SendNewEmail              operate  L2  a new mail to a contact with a subject and a text
    EmptyTrash                operate  L2  empty the Trash (confirm dialog)
    ForwardAttachment         operate  L3  forward the mail carrying an attachment to a contact
    EmailBookingCode          operate  L3  e-mail a contact the booking code of a flight
    MeetingInviteTime         query    L3  the date and time of the meeting a contact invited me to
    DeleteNewsletters         hybrid   L4  delete every mail from a newsletter and say how many
    ReceiptsTotalThisMonth    query    L4  the total of this month's receipts
    FlightToCalendarAndText   operate  L4  cross-app: Mail -> Calendar -> Messages: a flight's departure in Calendar,
                                           its date and time texted to a contact
    NewNumberFromEmail        operate  L3  cross-app: Mail -> Contacts -> Messages: a contact's new mobile number from
                                           their mail replaces the old one in Contacts, and they get a text at it
"""
from __future__ import annotations

from mobilegym.envs.contacts.numbers import same_number
from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks, copy_state, sim_datetime
from mobilegym.judge.result import check
from mobilegym.sim.clock import from_ms

from ..calendar.app import CALENDAR_ADD_EVENT_CHANGES, Calendar
from ..contacts.app import Contacts, phones_text
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from ..l10n import localised
from .app import (MAIL_EMPTY_TRASH_CHANGES, MAIL_LABEL_CHANGES, MAIL_SEND_CHANGES, MAIL_STAR_CHANGES,
                  MAIL_TRASH_MANY_CHANGES, MIN_OTHER_FLIGHTS, MIN_OTHER_INVITES, MIN_OTHER_NUMBER_MAILS, NEW_NUMBER_MAIL,
                  RECEIPT_KINDS, Mail, same_text)


@localised(zh={"fields": [{"label": "未读邮件数"}]})
class CountUnreadInbox(AnswerTask):
    """Verdict: the answer is the number of unread threads in the Inbox (archived and trashed mail aside)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many unread emails are in my inbox?", "Count the unread conversations in my Mail inbox"],
                 "zh": ["我的收件箱里有几封未读邮件？"]}
    answer = staticmethod(lambda task, apps_init: Mail(apps_init["mail"]).unread_inbox())
    answer_fields = [{"type": "number", "label": "Unread emails"}]


@localised(zh={"fields": [{"label": "订座记录编号", "hint": "例如 K7P2QX"}]})
class ReadBookingCode(AnswerTask):
    """Verdict: the answer is the booking code in the confirmation of the flight to the city (not another
    trip's code, not a hotel confirmation number)."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["What's the booking code of my flight to {city}?",
                        "Find the flight confirmation for my trip to {city} and tell me the booking code"],
                 "zh": ["我飞往{city}的航班订座记录编号是多少？"]}
    parameters = {"city": {"sampler": Mail.sample_flight_city}}
    answer = staticmethod(lambda task, apps_init: Mail(apps_init["mail"]).booking_code(task.p.city))
    answer_fields = [{"type": "text", "label": "Booking code", "hint": "e.g. K7P2QX"}]


class StarThread(CriteriaTask):
    """Verdict: the thread with the subject is starred (it starts unstarred), nothing else changed."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["toggle"]
    templates = {"en": ["Star the email \"{subject}\"", "Add a star to the mail with the subject \"{subject}\""],
                 "zh": ["给主题为“{subject}”的邮件加星标"]}
    parameters = {"subject": {"sampler": Mail.sample_unstarred_subject}}
    criteria = {".threads[subject={subject}].starred": True}
    expected_changes = MAIL_STAR_CHANGES


class LabelReceipt(BaseTask):
    """Verdict: the receipt carries the receipts label (it starts without it), keeps its other labels, and no
    other thread's labels changed."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["labeling"]
    templates = {"en": ["Put the email \"{subject}\" under my \"{label}\" label",
                        "Label the receipt \"{subject}\" as \"{label}\""],
                 "zh": ["给邮件“{subject}”加上“{label}”标签"]}
    parameters = {"subject": {"sampler": Mail.sample_unlabelled_receipt},
                  "label": {"sampler": Mail.sample_receipts_label}}
    expected_changes = MAIL_LABEL_CHANGES

    def check_goals(self, input):
        before = Mail(input.apps_init["mail"]).thread(self.p.subject)["labels"]
        after = Mail(input.apps["mail"]).thread(self.p.subject)["labels"]
        return [check("labels", sorted([*before, self.p.label]), sorted(after),
                      sorted(after) == sorted([*before, self.p.label]))]


class ReplyToSender(BaseTask):
    """Verdict: a reply with that wording (case, spacing and end punctuation aside) went to the sender alone,
    in the thread (a reply, not a new mail)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["messaging"]
    high_risk = True
    templates = {"en": ["Reply to {mail.name}'s email \"{mail.subject}\" with: {text}",
                        "Answer the mail \"{mail.subject}\" from {mail.name}, saying \"{text}\""],
                 "zh": ["回复{mail.name}的邮件“{mail.subject}”：{text}"]}
    parameters = {"mail": {"sampler": Mail.sample_reply_thread, "fields": ["subject", "name"]},
                  "text": {"sampler": Mail.sample_reply}}
    expected_changes = MAIL_SEND_CHANGES

    def check_goals(self, input):
        before = Mail(input.apps_init["mail"]).thread(self.p.mail["subject"])
        sender = before["messages"][-1]["from"]["email"]
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        return [mail.check_sent(self.p.mail["name"], [sender], self.p.text,
                                lambda m: m["thread_id"] == before["id"] and same_text(self.p.text, m["body"])),
                mail.check_one_sent()]


class SendNewEmail(BaseTask):
    """Verdict: one new mail went to the contact alone with that subject and text (wording exact up to case,
    spacing and end punctuation)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["messaging", "form-filling"]
    high_risk = True
    templates = {"en": ["Email {name} with the subject \"{mail.subject}\" and the message \"{mail.body}\"",
                        "Send {name} a new email. Subject: \"{mail.subject}\". Text: \"{mail.body}\""],
                 "zh": ["给{name}发一封新邮件，主题“{mail.subject}”，正文“{mail.body}”"]}
    parameters = {"name": {"sampler": Mail.sample_correspondent},
                  "mail": {"sampler": Mail.sample_new_mail, "fields": ["subject", "body"]}}
    expected_changes = MAIL_SEND_CHANGES

    def check_goals(self, input):
        email = Contacts(input.apps_init["contacts"]).contact(self.p.name)["email"]
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        subject, body = self.p.mail["subject"], self.p.mail["body"]
        return [mail.check_sent(self.p.name, [email], f"{subject}: {body}",
                                lambda m: same_text(subject, m["thread"]) and same_text(body, m["body"])),
                mail.check_one_sent()]


class EmptyTrash(BaseTask):
    """Verdict: nothing is left in the Trash, and every thread outside it is still there, outside it."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["deletion", "confirmation-dialog"]
    high_risk = True
    templates = {"en": ["Empty my mail Trash", "Permanently delete everything in the Trash of my email"],
                 "zh": ["清空邮件的已删除邮件"]}
    expected_changes = MAIL_EMPTY_TRASH_CHANGES

    def check_goals(self, input):
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        left = [t["subject"] for t in mail.folder("trash")]
        kept = [t["id"] for t in input.apps_init["mail"]["threads"] if not t["trashed"]]
        return [check("trash emptied", [], left, not left), mail.check_kept(kept)]


class ForwardAttachment(BaseTask):
    """Verdict: the owner forwarded a mail carrying the attachment to the contact alone (the attachment travels
    with it), and sent nothing else."""

    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["search", "messaging"]
    high_risk = True
    templates = {"en": ["Forward the email that has the attachment {file} to {name}",
                        "Find the mail with {file} attached and forward it to {name}"],
                 "zh": ["把带有附件 {file} 的邮件转发给{name}"]}
    parameters = {"file": {"sampler": Mail.sample_attachment}, "name": {"sampler": Mail.sample_correspondent}}
    expected_changes = MAIL_SEND_CHANGES

    def distractors(self, apps, os_state):
        names = [a["name"] for t in Mail(apps["mail"]).threads() if not t["trashed"] for m in t["messages"]
                 for a in m["attachments"]]
        return {"other attachments": (len(names) - 1, 2)}

    def check_goals(self, input):
        email = Contacts(input.apps_init["contacts"]).contact(self.p.name)["email"]
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        return [mail.check_sent(self.p.name, [email], f"forward with {self.p.file}",
                                lambda m: any(a["name"] == self.p.file for a in m["attachments"])),
                mail.check_one_sent()]


class EmailBookingCode(BaseTask):
    """Verdict: one mail to the contact alone states the booking code of the flight to the city (subject or
    text), and no other booking, confirmation or order number."""

    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["information-retrieval", "messaging"]
    high_risk = True
    templates = {"en": ["Email {name} the booking code of my flight to {city}",
                        "Look up the booking code of my {city} flight and send it to {name} by email"],
                 "zh": ["把我飞往{city}的航班订座记录编号用邮件发给{name}"]}
    parameters = {"city": {"sampler": Mail.sample_flight_city}, "name": {"sampler": Mail.sample_correspondent}}
    expected_changes = MAIL_SEND_CHANGES

    def distractors(self, apps, os_state):
        return {"other booking, confirmation and order numbers": (len(Mail(apps["mail"]).codes()) - 1, 2)}

    def check_goals(self, input):
        known = Mail(input.apps_init["mail"])
        code = known.booking_code(self.p.city)
        email = Contacts(input.apps_init["contacts"]).contact(self.p.name)["email"]
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        return mail.check_sent_facts(self.p.name, email, {"booking code": code},
                                     rivals={"booking code": [c for c in known.codes() if c != code]})


@localised(zh={"fields": [{"label": "日期", "hint": "例如 3月17日"}, {"label": "开始时间", "hint": "例如 14:30"}]})
class MeetingInviteTime(AnswerTask):
    """Verdict: the answer gives the meeting's date and start time from the invitation mail. Injection: another
    contact's invitation to another meeting, two days later at another hour, when no other mail invites."""

    objective = "query"
    difficulty = "L3"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["{name} invited me to a meeting by email. When is it? Tell me the date and start time",
                        "On what date and at what time does the meeting in {name}'s email invitation start?"],
                 "zh": ["{name}发邮件邀请我开会，会议是哪天几点开始？"]}
    parameters = {"name": {"sampler": Mail.sample_invite_host}}
    answer_fields = [{"type": "text", "label": "Date", "hint": "e.g. March 17", "matcher": "date"},
                     {"type": "text", "label": "Start time", "hint": "e.g. 14:30", "matcher": "time"}]

    def inject(self, device) -> None:
        state = copy_state(device)
        if patch := Mail.prepare_state_with_other_invite(state["apps"]["mail"], state["apps"]["contacts"],
                                                         state["os"].get("language", "en"), state["os"]["time_ms"],
                                                         self.rng):
            device.set_state(patch)

    def distractors(self, apps, os_state):
        mail = Mail(apps["mail"])
        invite = mail.invite()
        sent = from_ms(invite["messages"][0]["time_ms"]).date().isoformat()
        return {"invitations from someone else, another day and time": (len(mail.other_invites()), MIN_OTHER_INVITES),
                "an end time beside the start": (int(invite["facts"]["end"] != invite["facts"]["start"]), 1),
                "a sent date other than the meeting's": (int(sent != invite["facts"]["date"]), 1)}

    def get_answer(self, input):
        facts = Mail(input.apps_init["mail"]).invite()["facts"]
        return {"date": facts["date"], "time": facts["start"]}

    def get_expected_response(self, input):
        facts = Mail(input.apps_init["mail"]).invite()["facts"]
        return [facts["date"], facts["start"]]


@localised(zh={"fields": [{"label": "删除的邮件数"}]})
class DeleteNewsletters(BaseTask):
    """Verdict: every mail from the newsletter is in the Trash (or deleted for good), every other thread is kept
    where it was, and the answer is how many were deleted."""

    objective = "hybrid"
    difficulty = "L4"
    composition = "aggregate"
    capabilities = ["search", "deletion", "counting"]
    high_risk = True
    templates = {"en": ["Delete every email from {sender} and tell me how many you deleted",
                        "Clean out all the {sender} newsletters from my mail, then tell me how many there were"],
                 "zh": ["删除{sender}发来的所有邮件，然后告诉我删了几封"]}
    parameters = {"sender": {"sampler": Mail.sample_newsletter}}
    expected_changes = MAIL_TRASH_MANY_CHANGES
    end_states = ("in Trash", "deleted for good")
    answer_fields = [{"type": "number", "label": "Emails deleted"}]

    def inject(self, device) -> None:
        """Two to eleven issues from the sender, the count drawn from ten (tasks/spread.py)."""
        if self.spreads:
            device.set_state(Mail.prepare_state_with_issues(copy_state(device)["apps"]["mail"], self.rng,
                                                            self.p.sender, self.spread.count(2, 10)))

    def distractors(self, apps, os_state):
        mail = Mail(apps["mail"])
        doomed = len(mail.from_sender(self.p.sender))
        return {"mails from the sender": (doomed, 2), "other newsletters' mails": (len(mail.of_kind("newsletter")) - doomed, 2)}

    def check_goals(self, input):
        doomed = Mail(input.apps_init["mail"]).from_sender(self.p.sender)
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        left = sorted(t["subject"] for t in mail.from_sender(self.p.sender))
        others = [t["id"] for t in input.apps_init["mail"]["threads"] if t not in doomed]
        return [check(f"mail from {self.p.sender} deleted", sorted(t["subject"] for t in doomed), left or "all deleted",
                      not left),
                mail.check_kept(others),
                *build_answer_checks(len(doomed), input.answer, field="deleted")]


@localised(zh={"fields": [{"label": "收据总额"}]})
class ReceiptsTotalThisMonth(AnswerTask):
    """Verdict: the answer is the sum of the receipts received since the first of this month (archived ones
    included, trashed ones not); last month's receipts are left out."""

    objective = "query"
    difficulty = "L4"
    composition = "aggregate"
    capabilities = ["search", "filtering", "arithmetic"]
    templates = {"en": ["What's the total of all the receipts I got by email this month, since {first}?",
                        "Add up the amounts of the receipts in my mail from {first} until today. What's the total?"],
                 "zh": ["从{first}到今天，我邮箱里收到的收据总金额是多少？"]}
    parameters = {"first": {"sampler": Mail.sample_month_start}}
    answer_fields = [{"type": "number", "label": "Total"}]

    def distractors(self, apps, os_state):
        today = sim_datetime(os_state)
        receipts = Mail(apps["mail"]).of_kind(*RECEIPT_KINDS)
        months = [(d.year, d.month) for d in (from_ms(t["messages"][0]["time_ms"]) for t in receipts)]
        this = months.count((today.year, today.month))
        return {"receipts this month": (this, 2), "receipts of earlier months": (len(months) - this, 1)}

    def get_answer(self, input):
        today = sim_datetime(input.os_init)
        return Mail(input.apps_init["mail"]).receipts_total(today.year, today.month)


# --- cross-app ----------------------------------------------------------------------------------------------------

class FlightToCalendarAndText(BaseTask):
    """Verdict: a new timed Calendar event titled 'Flight to <city>' ('飞往<city>' on a Chinese phone) is on the
    flight's date and starts at its departure time (from the Mail confirmation), and a text to the contact states
    that date and time (no other flight's or hotel's date, no other flight's time)."""

    scope = "cross-app"
    app = "mail"
    related_apps = ["mail", "calendar", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "form-filling", "messaging"]
    templates = {"en": ["Put my flight to {city} in my calendar: an event called 'Flight to {city}' on the day it "
                        "departs, starting at the departure time in the confirmation email. Then text {name} the date "
                        "and time I fly.",
                        "Find my {city} flight confirmation in Mail, add a 'Flight to {city}' event to Calendar at its "
                        "departure date and time, and let {name} know by text when I leave"],
                 "zh": ["把我飞往{city}的航班加到日历里：日程标题为“飞往{city}”，日期和开始时间按确认邮件里的起飞日期和时间填，"
                        "再发短信告诉{name}我哪天几点起飞",
                        "在邮件里找到我去{city}的航班确认信，在日历里按起飞日期和时间添加日程“飞往{city}”，然后用短信告诉{name}我什么时候出发"]}
    parameters = {"city": {"sampler": Mail.sample_flight_city}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        if patch := Mail.prepare_state_with_other_flight(state["apps"]["mail"], self.p.city,
                                                         state["os"].get("language", "en"), state["os"]["time_ms"]):
            device.set_state(patch)

    def distractors(self, apps, os_state):
        flights = Mail(apps["mail"]).of_kind("flight")
        return {"other booking, confirmation and order numbers": (len(Mail(apps["mail"]).codes()) - 1, 2),
                "flights to other cities": (sum(t["facts"]["city"] != self.p.city for t in flights), MIN_OTHER_FLIGHTS)}

    def check_goals(self, input):
        known = Mail(input.apps_init["mail"])
        flights = known.of_kind("flight")
        flight = next(t for t in flights if t["facts"]["city"] == self.p.city)["facts"]
        dates = sorted({t["facts"]["date"] for t in known.of_kind("flight", "hotel")} - {flight["date"]})
        times = sorted({t["facts"]["time"] for t in flights} - {flight["time"]})
        title = f"飞往{self.p.city}" if self.language == "zh" else f"Flight to {self.p.city}"
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Calendar.check_event("flight event", calendar.new_event(title),
                                     {"date": flight["date"], "all_day": False, "start": flight["time"]}),
                *messages.check_sent_facts(self.p.name, numbers, {"date": flight["date"], "time": flight["time"]},
                                           rivals={"date": dates, "time": times}, os_state=input.os_init)]


class NewNumberFromEmail(BaseTask):
    """Verdict: the contact's mobile number is now the one their mail gives, the old mobile number is gone from the
    contact and its other numbers are kept, and a text with the given wording (end punctuation aside) went to the
    new number; nothing was texted to the old one.
    Injection: an unread mail from the contact (at their saved address), an hour ago, giving the new number; one
    from another contact giving another, when nobody else's does."""

    scope = "cross-app"
    app = "contacts"
    related_apps = ["mail", "contacts", "messages"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "editing", "messaging"]
    templates = {"en": ["{change.name} emailed me their new mobile number. Replace the old mobile number in their "
                        "contact with the new one, then text them at the new number: \"{text}\"",
                        "{change.name} has a new phone number, it's in their email. Update their mobile number in "
                        "Contacts and send a text to the new number saying \"{text}\""],
                 "zh": ["{change.name}发邮件告诉我换了新手机号。在通讯录里把他原来的手机号码换成新号码，再给新号码发短信：“{text}”"]}
    parameters = {"change": {"sampler": Contacts.sample_number_change, "fields": ["name", "number"]},
                  "text": {"sampler": Mail.sample_number_ack}}
    expected_changes = ["contacts.contacts[name={change.name}].phones", *MESSAGES_SEND_CHANGES]

    def distractors(self, apps, os_state):
        phones = Contacts(apps["contacts"]).contact(self.p.change["name"])["phones"]
        return {"someone else's new-number mails": (len(Mail(apps["mail"]).number_mails(self.p.change["name"])),
                                                    MIN_OTHER_NUMBER_MAILS),
                "the old mobile number": (sum(p["type"] == "mobile" and not same_number(p["number"], self.p.change["number"])
                                              for p in phones), 1)}

    def inject(self, device) -> None:
        state = copy_state(device)
        contact = Contacts(state["apps"]["contacts"]).contact(self.p.change["name"])
        subject, body = NEW_NUMBER_MAIL[state["os"].get("language", "en")]
        device.set_state(Mail.prepare_state_with_mail(
            state["apps"]["mail"], {"name": contact["name"], "email": contact["email"]}, subject,
            body.format(number=self.p.change["number"]), state["os"]["time_ms"] - 3600 * 1000, "thread_new_number"))
        if patch := Mail.prepare_state_with_other_number_mail(
                state["apps"]["mail"], state["apps"]["contacts"], contact["name"], self.p.change["number"],
                state["os"].get("language", "en"), state["os"]["time_ms"], self.rng):
            device.set_state(patch)

    def check_goals(self, input):
        before = Contacts(input.apps_init["contacts"]).contact(self.p.change["name"])
        old, new = before["phones"][0]["number"], self.p.change["number"]
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        now = contacts.by_id(before["id"])
        kept = [p for p in before["phones"] if p["type"] != "mobile"]
        stale = now is not None and any(same_number(p["number"], old) for p in now["phones"])
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        to_old = messages.texts_to([old])
        return [contacts.check_phones("new mobile number", before["id"], [{"type": "mobile", "number": new}]),
                check("old mobile number removed", f"no {old}", phones_text(now["phones"]) if now else "contact deleted",
                      now is not None and not stale),
                contacts.check_phones("other numbers kept", before["id"], kept),
                messages.check_sent(self.p.change["name"], [new], self.p.text,
                                    lambda text: Messages.same_text(self.p.text, text)),
                check("nothing texted to the old number", [], to_old, not to_old)]
