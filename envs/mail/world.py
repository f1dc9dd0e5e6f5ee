"""The Mail app's data in a generated world: an inbox of threads from the world's contacts and services.

Threads: chats with contacts who have an e-mail address (Contacts' addresses), work mail with attachments,
receipts (several this month, each with its total), flight and hotel confirmations with booking codes,
newsletters (a few senders, several issues each), one meeting invitation that quotes a real Calendar event
when there is one, mail the owner sent, drafts, and spam in the Trash. Subjects and attachment names are
unique in a world; what is unread, starred, labelled or archived varies with the seed. Generator facts the
judge reads (a receipt's total, a booking code, the invite's date) sit in a thread's ``facts``. Imports
nothing from the screens.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS, WEEKDAY_ABBRS as WEEKDAYS_EN, WEEKDAYS_ZH
from mobilegym.sim.clock import from_ms, to_ms
from mobilegym.sim.worldgen import World
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # booking codes avoid 0/O and 1/I
MAX_THREADS = 40


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (shared: read only)."""
    return read_pool(PACKAGE, "pools", language)


def date_text(language: str, day: dt.date) -> str:
    """"Thu, Mar 19" / "3月19日（周四）"."""
    if language == "zh":
        return f"{day.month}月{day.day}日（{WEEKDAYS_ZH[day.weekday()]}）"
    return f"{WEEKDAYS_EN[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}"


def money(language: str, amount: float) -> str:
    """"$23.50" / "¥23.50"."""
    return f"{'¥' if language == 'zh' else '$'}{amount:,.2f}"


def _person(name: str, email: str) -> dict[str, str]:
    return {"name": name, "email": email}


class _Builder:
    """Collects threads with unique subjects and attachment names."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.rng = world.rng("mail")
        self.lang = world.language
        self.me = _person(world.owner.name, world.owner.email)
        self.threads: list[dict[str, Any]] = []
        self.subjects: set[str] = set()
        self.files: set[str] = set()
        self.n_messages = 0

    def ago(self, low_min: int, high_min: int) -> int:
        """A moment ``low_min``..``high_min`` minutes before now, at a waking hour unless it is today."""
        now = self.world.now
        moment = now - dt.timedelta(minutes=randint(self.rng, low_min, high_min))
        if moment.date() != now.date() and not 7 <= moment.hour < 23:
            moment = moment.replace(hour=randint(self.rng, 7, 22))
        return to_ms(moment.replace(second=0, microsecond=0))

    def message(self, sender: dict[str, str], to: list[dict[str, str]], body: str, time_ms: int,
                attachments: list[dict[str, Any]] | None = None, cc: list[dict[str, str]] | None = None) -> dict[str, Any]:
        self.n_messages += 1
        return {"id": f"msg_{self.n_messages:04d}", "from": sender, "to": to, "cc": cc or [], "body": body,
                "time_ms": time_ms, "attachments": attachments or []}

    def attachment(self, stem: str, kind: str) -> dict[str, Any]:
        name = f"{stem}.{kind.lower()}"
        n = 2
        while name in self.files:
            name = f"{stem}_{n}.{kind.lower()}"
            n += 1
        self.files.add(name)
        size = randint(self.rng, 40, 4800) if kind in ("PDF", "DOCX", "XLSX") else randint(self.rng, 300, 9000)
        return {"name": name, "format": kind, "size_kb": size}

    def add(self, kind: str, subject: str, messages: list[dict[str, Any]], *, labels: list[str] | None = None,
            inbox: bool = True, trashed: bool = False, unread: bool = False, starred: bool = False,
            facts: dict[str, Any] | None = None) -> dict[str, Any] | None:
        if subject in self.subjects:
            return None
        self.subjects.add(subject)
        thread = {"kind": kind, "subject": subject, "labels": labels or [], "inbox": inbox, "trashed": trashed,
                  "unread": unread, "starred": starred, "messages": sorted(messages, key=lambda m: m["time_ms"]),
                  "facts": facts or {}}
        self.threads.append(thread)
        return thread


def _contacts_with_email(world: World) -> list[dict[str, Any]]:
    return [c for c in world.app_state("contacts")["contacts"] if c["email"]]


def _invite_event(world: World) -> dict[str, Any] | None:
    """A timed Calendar event one to ten days ahead (a work one when there is one), or None."""
    try:
        events = world.app_state("calendar")["events"]
    except Exception:  # noqa: BLE001 - no Calendar installed in this phone
        return None
    found = [e for e in events if not e.get("all_day") and e.get("start") and e.get("end")
             and 1 <= (dt.date.fromisoformat(e["date"]) - world.today).days <= 10]
    work = [e for e in found if e.get("calendar") in ("Work", "工作")]
    chosen = sorted(work or found, key=lambda e: (e["date"], e["start"], e["id"]))
    return chosen[0] if chosen else None


def generate(world: World) -> dict[str, Any]:
    """``{"account", "labels", "threads", "drafts"}`` for ``world`` (the schema of defaults.json)."""
    b = _Builder(world)
    rng, lang, p, me = b.rng, b.lang, pools(world.language), b.me
    people = _contacts_with_email(world)
    labels = list(p["labels"]) + sample(rng, p["extra_labels"], randint(rng, 0, 2))
    work_label, travel_label, receipts_label = p["labels"]

    def who(contact: dict[str, Any]) -> dict[str, str]:
        return _person(contact["name"], contact["email"])

    # --- personal threads with contacts ---------------------------------------------------------
    order = list(range(len(people)))
    rng.shuffle(order)
    chatting = [people[i] for i in order[:randint(rng, min(3, len(people)), min(len(people), 9))]]
    scripts = sample(rng, p["personal"], min(len(chatting), len(p["personal"])))
    if scripts and all(s["lines"][-1][0] == "out" for s in scripts):  # someone is waiting for a reply
        scripts[0] = choice(rng, [s for s in p["personal"] if s["lines"][-1][0] == "in"])
    for contact, script in zip(chatting, scripts):
        end = b.ago(30, 60 * 24 * 25)
        lines = script["lines"]
        messages = []
        for i, (direction, text) in enumerate(lines):
            moment = end - (len(lines) - 1 - i) * randint(rng, 20, 300) * 60_000
            sender, to = (who(contact), [me]) if direction == "in" else (me, [who(contact)])
            attachments = [b.attachment(world.t("Photo", "照片") + f"_{randint(rng, 1000, 9999)}", "JPG")] \
                if "photo" in script["subject"].casefold() or "照片" in script["subject"] else []
            messages.append(b.message(sender, to, text, moment, attachments))
        b.add("personal", script["subject"], messages, unread=lines[-1][0] == "in" and rng.random() < 0.45,
              starred=rng.random() < 0.2, inbox=rng.random() < 0.9)

    # --- work mail with attachments ---------------------------------------------------------------
    colleagues = [c for c in people if c["company"]] or people
    for item in sample(rng, p["work"], randint(rng, 2, 6)):
        sender = who(choice(rng, colleagues))
        cc = [who(c) for c in sample(rng, colleagues, min(len(colleagues), randint(rng, 0, 2)))
              if c["email"] != sender["email"]]
        msg = b.message(sender, [me], item["body"], b.ago(60, 60 * 24 * 30), [b.attachment(item["file"], item["type"])],
                        cc=cc)
        b.add("work", item["subject"], [msg], labels=[work_label] if rng.random() < 0.6 else [],
              unread=rng.random() < 0.4, starred=rng.random() < 0.25, inbox=rng.random() < 0.85)

    # --- receipts: some this month, some last month ------------------------------------------------
    month_start = world.now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    since_start = int((world.now - month_start).total_seconds() // 60)
    merchants = p["merchants"]
    n_this, n_before = randint(rng, 2, 5), randint(rng, 1, 4)
    for i in range(n_this + n_before):
        merchant = choice(rng, merchants)
        if i < n_this:
            moment = b.ago(5, max(6, since_start - 5))
        else:
            moment = to_ms(month_start - dt.timedelta(minutes=randint(rng, 60, 60 * 24 * 25)))
        amount = round(randint(rng, 300, 25000) / 100, 2)
        order_no = str(randint(rng, 100000, 999999))
        when = date_text(lang, from_ms(moment).date())
        body = p["receipt_body"].format(what=merchant["what"], order=order_no, date=when, amount=money(lang, amount))
        msg = b.message(_person(merchant["name"], merchant["email"]), [me], body, moment)
        b.add("receipt", p["receipt_subject"].format(merchant=merchant["name"], order=order_no), [msg],
              labels=[receipts_label] if i and rng.random() < 0.5 else [], unread=rng.random() < 0.3,
              inbox=rng.random() < 0.9, facts={"merchant": merchant["name"], "amount": amount})

    # --- travel: flights with booking codes, a hotel -----------------------------------------------
    codes: set[str] = set()

    def code() -> str:
        while True:
            value = "".join(choice(rng, CODE_CHARS) for _ in range(6))
            if value not in codes:
                codes.add(value)
                return value

    cities = sample(rng, p["destinations"], randint(rng, 1, 3))
    for city in cities:
        airline = choice(rng, p["airlines"])
        booking, day = code(), world.today + dt.timedelta(days=randint(rng, 3, 40))
        hhmm = f"{randint(rng, 6, 21):02d}:{choice(rng, (0, 15, 30, 45)):02d}"
        body = p["flight_body"].format(code=booking, airline=airline["name"], date=date_text(lang, day), time=hhmm)
        msg = b.message(_person(airline["name"], airline["email"]), [me], body, b.ago(60 * 6, 60 * 24 * 20),
                        [b.attachment(world.t("Itinerary", "行程单") + f"_{booking}", "PDF")])
        b.add("flight", p["flight_subject"].format(city=city, code=booking), [msg],
              labels=[travel_label] if rng.random() < 0.6 else [], unread=rng.random() < 0.3,
              starred=rng.random() < 0.3, facts={"city": city, "code": booking, "date": day.isoformat(), "time": hhmm})
        if rng.random() < 0.5:
            hotel = choice(rng, p["hotels"])
            confirmation = str(randint(rng, 10 ** 7, 10 ** 8 - 1))
            body = p["hotel_body"].format(hotel=hotel["name"], city=city, code=confirmation, date=date_text(lang, day))
            msg = b.message(_person(hotel["name"], hotel["email"]), [me], body, b.ago(60 * 6, 60 * 24 * 20))
            b.add("hotel", p["hotel_subject"].format(hotel=hotel["name"], city=city), [msg],
                  labels=[travel_label] if rng.random() < 0.5 else [], unread=rng.random() < 0.3,
                  facts={"city": city, "code": confirmation, "date": day.isoformat()})

    # --- a meeting invitation (a real Calendar event when there is one) ----------------------------
    event = _invite_event(world)
    if event is not None:
        title, day, start, end = event["title"], dt.date.fromisoformat(event["date"]), event["start"], event["end"]
    else:
        title = choice(rng, p["invite_titles"])
        day = world.today + dt.timedelta(days=randint(rng, 1, 10))
        hour = randint(rng, 9, 16)
        start, end = f"{hour:02d}:{choice(rng, (0, 30)):02d}", f"{hour + 1:02d}:00"
    if people:
        host = who(choice(rng, colleagues))
        fields = {"title": title, "date": date_text(lang, day), "start": start, "end": end}
        msg = b.message(host, [me], p["invite_body"].format(**fields), b.ago(60, 60 * 24 * 3))
        b.add("invite", p["invite_subject"].format(**fields), [msg], unread=rng.random() < 0.6,
              facts={"title": title, "date": day.isoformat(), "start": start, "end": end})

    # --- mail the owner sent ----------------------------------------------------------------------
    for item in sample(rng, p["sent"], randint(rng, 1, 3)):
        if not people:
            break
        msg = b.message(me, [who(choice(rng, people))], item["body"], b.ago(60 * 3, 60 * 24 * 20))
        b.add("sent", item["subject"], [msg], inbox=False)

    # --- the Trash: spam and old promotions ---------------------------------------------------------
    trash = randint(rng, 1, 8)
    for item in sample(rng, p["spam"], randint(rng, 1, min(3, trash))):
        msg = b.message(_person(item["name"], item["email"]), [me], item["body"], b.ago(60 * 24, 60 * 24 * 25))
        b.add("spam", item["subject"], [msg], inbox=False, trashed=True)
    while sum(t["trashed"] for t in b.threads) < trash:
        merchant = choice(rng, merchants)
        pct = randint(rng, 1, 9) * 10
        msg = b.message(_person(merchant["name"], merchant["email"]), [me],
                        world.t(f"Save {pct}% this week on selected items.", f"本周精选商品{10 - pct // 10}折优惠。"),
                        b.ago(60 * 24, 60 * 24 * 25))
        b.add("promotion", world.t(f"{merchant['name']} deals: {pct}% off", f"{merchant['name']}优惠：全场{10 - pct // 10}折"),
              [msg], inbox=False, trashed=True)

    # --- newsletters: a few senders, two to seven issues each, 40 threads at most --------------------------------------
    letters = sample(rng, p["newsletters"], randint(rng, 2, 3))
    room = MAX_THREADS - len(b.threads)
    for i, letter in enumerate(letters):
        first = randint(rng, 20, 300)
        issues = min(randint(rng, 2, 7), room - 2 * (len(letters) - 1 - i))
        room -= issues
        for n in range(issues):
            msg = b.message(_person(letter["name"], letter["email"]), [me], p["newsletter_body"],
                            b.ago(60 * 24 * 2 * n + 30, 60 * 24 * 2 * n + 60 * 40))
            b.add("newsletter", letter["subject"].format(n=first + issues - 1 - n), [msg], unread=rng.random() < 0.5,
                  inbox=rng.random() < 0.85)

    # --- drafts ---------------------------------------------------------------------------------
    drafts = []
    for i, item in enumerate(sample(rng, p["drafts"], randint(rng, 0, 2)), 1):
        to = choice(rng, people)["email"] if people and rng.random() < 0.7 else ""
        drafts.append({"id": f"draft_{i}", "to": to, "cc": "", "subject": item["subject"], "body": item["body"],
                       "time_ms": b.ago(60 * 2, 60 * 24 * 10), "thread_id": None, "attachments": []})

    threads = b.threads
    rng.shuffle(threads)
    threads.sort(key=lambda t: -t["messages"][-1]["time_ms"])
    for i, thread in enumerate(threads, 1):
        thread["id"] = f"thread_{i:02d}"
    return {"account": me, "labels": labels, "threads": [_ordered(t) for t in threads], "drafts": drafts}


def _ordered(thread: dict[str, Any]) -> dict[str, Any]:
    """The thread with ``id`` first (as defaults.json writes it)."""
    return {"id": thread["id"], **{k: v for k, v in thread.items() if k != "id"}}
