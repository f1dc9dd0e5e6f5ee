"""Accessor for the Mail app's state: the account, custom labels, threads (messages, attachments, flags) and
drafts."""
from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, Callable, Mapping, Sequence

from mobilegym.calendar_words import MONTHS as MONTHS_EN
from mobilegym.envs.contacts.numbers import same_number
from mobilegym.envs.mail.model import folder_threads
from mobilegym.envs.mail.world import CODE_CHARS, date_text, pools
from mobilegym.judge import BaseApp, normalize_text
from mobilegym.judge.answers import fact_checks
from mobilegym.judge.result import check
from mobilegym.sim.clock import from_ms

from ..contacts.app import Contacts


# one e-mail: a new thread, or a message added to a thread (the check says to whom and what); opening threads
# marks them read (view state)
MAIL_SEND_CHANGES = ["mail.threads[+] | mail.threads[*].messages[+]"]
MAIL_STAR_CHANGES = ["mail.threads[subject={subject}].starred"]
MAIL_LABEL_CHANGES = ["mail.threads[subject={subject}].labels"]
MAIL_TRASH_MANY_CHANGES = ["mail.threads[*].trashed", "mail.threads[-*]"]  # the check says which threads
MAIL_EMPTY_TRASH_CHANGES = ["mail.threads[-*trashed=true]"]
RECEIPT_KINDS = ("receipt",)
CODE_KINDS = ("flight", "hotel")
DAY_MS = 24 * 3600 * 1000
MIN_OTHER_FLIGHTS = 1  # FlightToCalendarAndText: flights to other cities, at least (prepare_state_with_other_flight)
MIN_OTHER_INVITES = 1  # MeetingInviteTime: others' invitations, another day and time (prepare_state_with_other_invite)
MIN_OTHER_NUMBER_MAILS = 1  # NewNumberFromEmail: someone else's new-number mails (prepare_state_with_other_number_mail)
# texts tasks ask to send, in the phone's language
REPLIES = {"en": ("Thanks, that works for me!", "Sounds good, see you then.", "Got it, thank you!",
                  "Sorry, I can't make it this time."),
           "zh": ("谢谢，我这边没问题！", "好的，到时见。", "收到，谢谢！", "抱歉，这次去不了了。")}
NEW_MAILS = {"en": (("Lunch next week", "Are you free for lunch on Wednesday?"),
                    ("Quick favour", "Could you send me the photos from the weekend?"),
                    ("Book recommendation", "I just finished a great novel, I think you'd love it."),
                    ("Catch-up call", "Do you have time for a call on Friday afternoon?")),
             "zh": (("下周一起吃午饭", "周三中午有空一起吃饭吗？"),
                    ("帮个小忙", "能把周末的照片发给我吗？"),
                    ("好书推荐", "我刚读完一本很棒的小说，你一定会喜欢。"),
                    ("约个电话", "周五下午有时间通个电话吗？"))}
# a contact's mail announcing a new mobile number, and the texts a task asks to send it
NEW_NUMBER_MAIL = {"en": ("My new phone number", "Hi! Just a heads-up: I've switched phones, and my new mobile number is "
                                                 "{number}. The old one stops working at the end of the week. Cheers!"),
                   "zh": ("我换手机号了", "你好！跟你说一声：我换了手机，新的手机号码是 {number}，旧号码这周末就停用了。")}
NEW_NUMBER_ACKS = {"en": ("Got your new number, thanks!", "Saved your new number. This is me!",
                          "New number saved, talk soon!"),
                   "zh": ("收到你的新号码了，谢谢！", "新号码已经存好了，这是我的号码。", "新号码存好了，回头聊！")}


def same_text(expected: str, actual: str) -> bool:
    """Equal up to case, spacing and surrounding punctuation."""
    strip = " .!?。！？"
    return normalize_text(expected).strip(strip) == normalize_text(actual).strip(strip)


class Mail(BaseApp):
    """Threads, their messages and flags."""

    def me(self) -> str:
        return self.require(".account.email").casefold()

    def threads(self) -> list[dict[str, Any]]:
        return self.require(".threads")

    def folder(self, folder: str) -> list[dict[str, Any]]:
        """The threads a folder or label shows (see the app's model)."""
        return folder_threads(self.state, folder)

    def thread(self, subject: str) -> dict[str, Any]:
        """The thread with a subject; raises ValueError when there is none."""
        return self.find(".threads", subject=subject)

    def of_kind(self, *kinds: str) -> list[dict[str, Any]]:
        """Threads not in the Trash whose generator kind is one of ``kinds``."""
        return [t for t in self.threads() if t["kind"] in kinds and not t["trashed"]]

    def from_sender(self, name: str) -> list[dict[str, Any]]:
        """Threads outside the Trash with a message from ``name``."""
        return [t for t in self.threads() if not t["trashed"] and any(m["from"]["name"] == name for m in t["messages"])]

    def sent_since_start(self) -> list[dict[str, Any]]:
        """Messages the owner sent during the task (each with its thread's subject, ``thread``, and ``thread_id``)."""
        before = {m["id"] for t in self.initial(".threads") for m in t["messages"]}
        return [{**m, "thread": t["subject"], "thread_id": t["id"]} for t in self.threads() for m in t["messages"]
                if m["id"] not in before and m["from"]["email"].casefold() == self.me()]

    def unread_inbox(self) -> int:
        return sum(t["unread"] for t in self.folder("inbox"))

    def booking_code(self, city: str) -> str:
        """The booking code of the flight to ``city``."""
        found = [t for t in self.of_kind("flight") if t["facts"]["city"] == city]
        if len(found) != 1:
            raise ValueError(f"mail: {len(found)} flights to {city!r}, expected one")
        return found[0]["facts"]["code"]

    def codes(self) -> list[str]:
        """Every booking, confirmation and order number the mail shows (rivals of a shared code)."""
        out = [t["facts"]["code"] for t in self.threads() if t["kind"] in CODE_KINDS]
        out += [t["subject"].rsplit("#", 1)[1] for t in self.threads() if t["kind"] in RECEIPT_KINDS]
        return out

    def receipts_total(self, year: int, month: int) -> float:
        """The sum of the receipts (outside the Trash) received in a month."""
        amounts = [t["facts"]["amount"] for t in self.of_kind(*RECEIPT_KINDS)
                   if (lambda d: (d.year, d.month) == (year, month))(from_ms(t["messages"][0]["time_ms"]))]
        if not amounts:
            raise ValueError(f"mail: no receipt in {year}-{month:02d}")
        return round(sum(amounts), 2)

    def invite(self) -> dict[str, Any]:
        """The meeting invitation thread."""
        found = self.of_kind("invite")
        if len(found) != 1:
            raise ValueError(f"mail: {len(found)} meeting invitations, expected one")
        return found[0]

    def other_invites(self) -> list[dict[str, Any]]:
        """Threads outside the Trash but the invitation that invite to a meeting on another day at another time."""
        facts = self.invite()["facts"]
        return [t for t in self.threads() if t["kind"] != "invite" and not t["trashed"] and t["facts"].get("start")
                and t["facts"]["date"] != facts["date"] and t["facts"]["start"] != facts["start"]]

    def number_mails(self, sender: str) -> list[dict[str, Any]]:
        """Threads outside the Trash announcing a new number (NEW_NUMBER_MAIL's subject) from others than ``sender``."""
        subjects = {subject for subject, _ in NEW_NUMBER_MAIL.values()}
        return [t for t in self.threads() if not t["trashed"] and t["subject"] in subjects
                and all(m["from"]["name"] != sender for m in t["messages"])]

    # --- checks -------------------------------------------------------------------------------

    def check_sent(self, who: str, emails: Sequence[str], expected: str,
                   accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """A message the owner sent during the task went to exactly ``emails`` (To and Cc together) and is accepted
        by ``accept``."""
        wanted = sorted(e.casefold() for e in emails)
        sent = self.sent_since_start()
        ok = any(sorted(p["email"].casefold() for p in m["to"] + m["cc"]) == wanted and accept(m) for m in sent)
        actual = "; ".join(f"to {', '.join(p['email'] for p in m['to'] + m['cc'])}: {m['thread']!r} {m['body']!r} "
                           f"{[a['name'] for a in m['attachments']]}" for m in sent) or "nothing sent"
        return check(f"e-mail to {who}", expected, actual, ok)

    def check_one_sent(self) -> dict[str, Any]:
        """Exactly one message was sent."""
        count = len(self.sent_since_start())
        return check("messages sent", 1, count, count == 1)

    def check_sent_facts(self, who: str, email: str, facts: Mapping[str, Any], *,
                         rivals: Mapping[str, Sequence[str]] | None = None) -> list[dict[str, Any]]:
        """A message went to ``email`` alone, and what it says (subject and body) states every fact and no rival."""
        sent = [m for m in self.sent_since_start()
                if [p["email"].casefold() for p in m["to"] + m["cc"]] == [email.casefold()]]
        text = "\n".join(f"{m['thread']}\n{m['body']}" for m in sent)
        return [check(f"e-mail to {who}", "one e-mail", len(sent), len(sent) == 1),
                *fact_checks(text, facts, rivals=rivals)]

    def check_kept(self, ids: Sequence[str]) -> dict[str, Any]:
        """Every thread in ``ids`` is still there, outside the Trash when it was outside it before."""
        before = {t["id"]: t["trashed"] for t in self.initial(".threads")}
        now = {t["id"]: t["trashed"] for t in self.threads()}
        lost = sorted(i for i in ids if i not in now or now[i] != before[i])
        return check("other threads kept", [], lost, not lost)

    # --- samplers -----------------------------------------------------------------------------

    @staticmethod
    def sample_unstarred_subject(rng: random.Random, state: dict[str, Any]) -> str:
        """The subject of a thread outside the Trash that is not starred."""
        subjects = [t["subject"] for t in state["threads"] if not t["trashed"] and not t["starred"] and t["subject"]]
        if not subjects:
            raise ValueError("mail: every thread is starred")
        return rng.choice(subjects)

    @staticmethod
    def sample_unlabelled_receipt(rng: random.Random, state: dict[str, Any]) -> str:
        """The subject of a receipt without the receipts label."""
        label = state["labels"][2]
        subjects = [t["subject"] for t in state["threads"]
                    if t["kind"] in RECEIPT_KINDS and not t["trashed"] and label not in t["labels"]]
        if not subjects:
            raise ValueError("mail: every receipt is labelled")
        return rng.choice(subjects)

    @staticmethod
    def sample_receipts_label(rng: random.Random, state: dict[str, Any]) -> str:
        """The receipts label of the world ("Receipts" / "收据")."""
        return state["labels"][2]

    @staticmethod
    def sample_flight_city(rng: random.Random, state: dict[str, Any]) -> str:
        """A city exactly one flight confirmation goes to."""
        cities = [t["facts"]["city"] for t in state["threads"] if t["kind"] == "flight" and not t["trashed"]]
        unique = [c for c in cities if cities.count(c) == 1]
        if not unique:
            raise ValueError("mail: no flight confirmation")
        return rng.choice(unique)

    @staticmethod
    def sample_attachment(rng: random.Random, state: dict[str, Any]) -> str:
        """The name of a work attachment (names are unique in a world)."""
        names = [a["name"] for t in state["threads"] if t["kind"] == "work" and not t["trashed"]
                 for m in t["messages"] for a in m["attachments"]]
        if not names:
            raise ValueError("mail: no work attachment")
        return rng.choice(names)

    @staticmethod
    def sample_reply_thread(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A personal thread whose last message a contact sent: {subject, name}."""
        me = state["account"]["email"].casefold()
        found = [{"subject": t["subject"], "name": t["messages"][-1]["from"]["name"]} for t in state["threads"]
                 if t["kind"] == "personal" and not t["trashed"] and t["messages"][-1]["from"]["email"].casefold() != me]
        if not found:
            raise ValueError("mail: no personal thread ends with a contact's message")
        return rng.choice(found)

    @staticmethod
    def prepare_state_with_issues(state: Mapping[str, Any], rng: random.Random, sender: str,
                                  target: int) -> dict[str, Any]:
        """A patch leaving ``target`` of ``sender``'s newsletter issues out of the Trash: some deleted for good,
        or older issues added, numbered and dated before the oldest, two days apart."""
        from ..spread import fit_count

        mine = Mail(dict(state)).from_sender(sender)
        oldest = min(mine, key=lambda t: t["messages"][0]["time_ms"])
        number = re.search(r"(\d+)(?!.*\d)", oldest["subject"])

        def add(k: int, threads: list[dict[str, Any]]) -> dict[str, Any] | None:
            if number is None or int(number.group(1)) - k - 1 < 1:
                return None
            n = int(number.group(1)) - k - 1
            subject = oldest["subject"][:number.start()] + str(n) + oldest["subject"][number.end():]
            message = {**oldest["messages"][0], "id": f"msg_issue_{k + 1}",
                       "time_ms": oldest["messages"][0]["time_ms"] - (k + 1) * 2 * DAY_MS}
            return {**oldest, "id": f"thread_issue_{k + 1}", "subject": subject, "messages": [message],
                    "unread": rng.random() < 0.5, "starred": False}

        ids = {t["id"] for t in mine}
        threads = fit_count(list(state["threads"]), lambda t: t["id"] in ids or t["id"].startswith("thread_issue_"),
                            target, rng, drop=lambda t: None, add=add)
        return {"apps": {"mail": {"threads": threads}}}

    @staticmethod
    def sample_newsletter(rng: random.Random, state: dict[str, Any]) -> str:
        """The name of a newsletter sender."""
        names = sorted({t["messages"][0]["from"]["name"] for t in state["threads"]
                        if t["kind"] == "newsletter" and not t["trashed"]})
        if not names:
            raise ValueError("mail: no newsletter")
        return rng.choice(names)

    @staticmethod
    def sample_invite_host(rng: random.Random, state: dict[str, Any]) -> str:
        """Who sent the meeting invitation."""
        hosts = [t["messages"][0]["from"]["name"] for t in state["threads"] if t["kind"] == "invite"]
        if len(hosts) != 1:
            raise ValueError(f"mail: {len(hosts)} meeting invitations, expected one")
        return hosts[0]

    @staticmethod
    def sample_reply(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        return rng.choice(REPLIES[os_state.get("language", "en")])

    @staticmethod
    def sample_new_mail(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        subject, body = rng.choice(NEW_MAILS[os_state.get("language", "en")])
        return {"subject": subject, "body": body}

    @staticmethod
    def sample_correspondent(rng: random.Random, state: dict[str, Any]) -> str:
        """Someone the owner e-mails with (a contact from the Contacts app: their address is saved there)."""
        me = state["account"]["email"].casefold()
        names = sorted({p["name"] for t in state["threads"] if t["kind"] in ("personal", "work", "sent", "invite")
                        for m in t["messages"] for p in [m["from"], *m["to"]] if p["email"].casefold() != me})
        if not names:
            raise ValueError("mail: nobody to write to")
        return rng.choice(names)

    @staticmethod
    def sample_number_ack(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A text confirming a new number was saved, in the phone's language."""
        return rng.choice(NEW_NUMBER_ACKS[os_state.get("language", "en")])

    @staticmethod
    def sample_month_start(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """The first day of the phone's month, as the instruction says it ("March 1" / "3月1日")."""
        today = from_ms(os_state["time_ms"]).date()
        if os_state.get("language") == "zh":
            return f"{today.month}月1日"
        return f"{MONTHS_EN[today.month - 1]} 1"

    # --- set-up -------------------------------------------------------------------------------

    @staticmethod
    def prepare_state_with_mail(mail: Mapping[str, Any], sender: Mapping[str, str], subject: str, body: str,
                                time_ms: int, thread_id: str) -> dict[str, Any]:
        """A patch adding an unread personal thread in the Inbox: one mail from ``sender`` {name, email} to the
        owner."""
        me = {"name": mail["account"]["name"], "email": mail["account"]["email"]}
        message = {"id": f"msg_{thread_id}", "from": dict(sender), "to": [me], "cc": [], "body": body,
                   "time_ms": time_ms, "attachments": []}
        thread = {"id": thread_id, "kind": "personal", "subject": subject, "labels": [], "inbox": True,
                  "trashed": False, "unread": True, "starred": False, "messages": [message], "facts": {}}
        return {"apps": {"mail": {"threads[]": thread}}}

    @staticmethod
    def prepare_state_with_other_flight(mail: Mapping[str, Any], city: str, language: str,
                                        now_ms: int) -> dict[str, Any] | None:
        """A patch adding a flight confirmation (sent a day ago) to another city, three days after the flight to
        ``city`` at another departure time, when fewer than MIN_OTHER_FLIGHTS flights go elsewhere; None when
        enough do."""
        flights = [t for t in mail["threads"] if t["kind"] == "flight" and not t["trashed"]]
        if sum(t["facts"]["city"] != city for t in flights) >= MIN_OTHER_FLIGHTS:
            return None
        p, mine = pools(language), next(t["facts"] for t in flights if t["facts"]["city"] == city)
        taken = {t["facts"]["city"] for t in mail["threads"] if t["kind"] in CODE_KINDS}
        other = next(c for c in p["destinations"] if c not in taken)
        known = set(Mail(mail).codes())
        booking = next(c for c in ("".join(CODE_CHARS[(n * 7 + k * 11) % len(CODE_CHARS)] for k in range(6))
                                   for n in range(1, 99)) if c not in known)
        day = dt.date.fromisoformat(mine["date"]) + dt.timedelta(days=3)
        hhmm = "19:15" if mine["time"] == "06:45" else "06:45"
        airline = p["airlines"][0]
        me = {"name": mail["account"]["name"], "email": mail["account"]["email"]}
        body = p["flight_body"].format(code=booking, airline=airline["name"], date=date_text(language, day), time=hhmm)
        stem = "行程单" if language == "zh" else "Itinerary"
        message = {"id": "msg_other_flight", "from": {"name": airline["name"], "email": airline["email"]}, "to": [me],
                   "cc": [], "body": body, "time_ms": now_ms - 24 * 3600 * 1000,
                   "attachments": [{"name": f"{stem}_{booking}.pdf", "format": "PDF", "size_kb": 212}]}
        subject = p["flight_subject"].format(city=other, code=booking)
        thread = {"id": "thread_other_flight", "kind": "flight", "subject": subject, "labels": [], "inbox": True, "trashed": False, "unread": False, "starred": False,
                  "messages": [message], "facts": {"city": other, "code": booking, "date": day.isoformat(), "time": hhmm}}
        return {"apps": {"mail": {"threads[]": thread}}}

    @staticmethod
    def prepare_state_with_other_invite(mail: Mapping[str, Any], contacts: Mapping[str, Any], language: str,
                                        now_ms: int, rng: random.Random) -> dict[str, Any] | None:
        """A patch adding another contact's invitation (five hours ago) to another meeting two days after the
        invitation's, at another hour, when fewer than MIN_OTHER_INVITES rival it; None when enough do."""
        if len(Mail(mail).other_invites()) >= MIN_OTHER_INVITES:
            return None
        invite = Mail(mail).invite()
        facts, host = invite["facts"], invite["messages"][0]["from"]["email"].casefold()
        people = [c for c in contacts["contacts"]
                  if c["email"] and c["email"].casefold() not in (host, mail["account"]["email"].casefold())]
        sender = rng.choice(people)
        p = pools(language)
        hour = int(facts["start"][:2]) + (2 if int(facts["start"][:2]) <= 14 else -3)
        day = dt.date.fromisoformat(facts["date"]) + dt.timedelta(days=2)
        other = {"title": rng.choice([t for t in p["invite_titles"] if t != facts["title"]]), "date": day.isoformat(),
                 "start": f"{hour:02d}:00", "end": f"{hour + 1:02d}:00"}
        fields = {**other, "date": date_text(language, day)}
        patch = Mail.prepare_state_with_mail(mail, {"name": sender["name"], "email": sender["email"]},
                                             p["invite_subject"].format(**fields), p["invite_body"].format(**fields),
                                             now_ms - 5 * 3600 * 1000, "thread_other_invite")
        patch["apps"]["mail"]["threads[]"]["facts"] = other
        return patch

    @staticmethod
    def prepare_state_with_other_number_mail(mail: Mapping[str, Any], contacts: Mapping[str, Any], sender: str,
                                             number: str, language: str, now_ms: int,
                                             rng: random.Random) -> dict[str, Any] | None:
        """A patch adding another contact's mail (six hours ago) announcing another new number than ``number``,
        when fewer than MIN_OTHER_NUMBER_MAILS others than ``sender`` did; None when enough did."""
        if len(Mail(mail).number_mails(sender)) >= MIN_OTHER_NUMBER_MAILS:
            return None
        other = rng.choice([c for c in contacts["contacts"] if c["email"] and c["name"] != sender])
        while same_number(new := Contacts.fresh_number(rng, contacts), number):
            pass
        subject, body = NEW_NUMBER_MAIL[language]
        return Mail.prepare_state_with_mail(mail, {"name": other["name"], "email": other["email"]}, subject,
                                            body.format(number=new), now_ms - 6 * 3600 * 1000, "thread_other_number")
