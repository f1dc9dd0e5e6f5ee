"""The Messages app's data in a generated world, and the text formats its service senders use.

Threads: chats with some of the saved contacts (one asks for a call back, one may mention a real
Calendar event), new numbers of people the owner has not saved (``world.strangers()``) introducing
themselves, spam, verification codes from a few services, parcel notices from carriers (exactly one
parcel out for delivery today, with a delivery window), and an appointment reminder. Which threads
are unread, and how many messages in each, vary with the seed; every message is older than
``world.now``. Imports nothing from the screens.
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Any

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS, WEEKDAY_ABBRS as WEEKDAYS_EN, WEEKDAYS, WEEKDAYS_ZH
from mobilegym.languages import LANGUAGES
from mobilegym.envs.contacts.numbers import number_key
from mobilegym.sim.clock import to_ms
from mobilegym.sim.worldgen import load_pool
from mobilegym.sim.worldgen.draws import choice, fill_digits, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__

# what the judge and the plans read out of texts (both languages)
CODE = re.compile(r"(?:verification code is|验证码为)\s*(\d{4,8})")
CODE_SERVICE = re.compile(r"^(?:(.+?): your verification code is|【(.+?)】.*验证码为)")
PARCEL = re.compile(r"(?:parcel|包裹)\s+([A-Z0-9][A-Z0-9-]{4,})\s")
OUT_FOR_DELIVERY = re.compile(r"is out for delivery|正在派送")
WINDOW = re.compile(r"between (\d{1,2}(?::\d{2})? [AP]M) and (\d{1,2}(?::\d{2})? [AP]M)|今天 (\d{1,2}:\d{2})-(\d{1,2}:\d{2})")


def pool(language: str) -> dict[str, Any]:
    """The Messages pools of a language."""
    return load_pool(PACKAGE, "pools", language)


def topics() -> list[str]:
    """Every chat topic word of both languages (a topic names exactly one chat of a world, or none)."""
    return [chat["topic"] for language in LANGUAGES for chat in pool(language)["chats"]]


def call_request_fragments() -> list[str]:
    """The words a contact uses to ask for a call back, per language."""
    return [pool(language)["call_request_fragment"] for language in LANGUAGES]


def intro_patterns() -> list[re.Pattern[str]]:
    """Patterns whose group 1 is the name a new number introduces itself with."""
    return [re.compile(pool(language)["intro_pattern"], re.IGNORECASE) for language in LANGUAGES]


def clock_text(language: str, hhmm: str) -> str:
    """"2 PM" / "2:30 PM" (English) or "14:00" (Chinese)."""
    if language == "zh":
        return hhmm
    hour, minute = map(int, hhmm.split(":"))
    suffix = "AM" if hour < 12 else "PM"
    twelve = hour % 12 or 12
    return f"{twelve} {suffix}" if minute == 0 else f"{twelve}:{minute:02d} {suffix}"


def delivery_text(language: str, carrier: str, tracking: str, start: str, end: str) -> str:
    """The out-for-delivery notice of a carrier with its window ("HH:MM" start and end)."""
    return pool(language)["out_for_delivery"].format(carrier=carrier, tracking=tracking,
                                                     start=clock_text(language, start), end=clock_text(language, end))


def date_text(language: str, day: dt.date) -> str:
    """"Thu, Mar 19" / "3月19日（周四）"."""
    if language == "zh":
        return f"{day.month}月{day.day}日（{WEEKDAYS_ZH[day.weekday()]}）"
    return f"{WEEKDAYS_EN[day.weekday()]}, {MONTHS[day.month - 1]} {day.day}"


SPREAD_STARTS = 20  # a spread delivery window starts on one of this many quarter hours


def delivery_window(rng: Any, now: dt.datetime, spread: Any = None) -> tuple[str, str]:
    """A delivery window later today, two to four hours long: it starts on the hour or half hour after now or,
    with ``spread`` (the task's answer draws), on one of SPREAD_STARTS quarter hours from noon (or the next hour)."""
    if spread is None:
        start = 2 * rng.randrange(max(now.hour + 1, 8) * 2, 18 * 2 + 1)  # in quarter hours
    else:
        first = min(max(now.hour + 1, 12), 16) * 4
        start = spread.choice(range(first, first + SPREAD_STARTS))
    end = min(start + 4 * randint(rng, 2, 4), 21 * 4)
    return f"{start // 4:02d}:{15 * (start % 4):02d}", f"{end // 4:02d}:{15 * (end % 4):02d}"


class _Thread:
    def __init__(self, kind: str, address: str) -> None:
        self.kind = kind
        self.address = address
        self.messages: list[dict[str, Any]] = []  # {"text", "time", "incoming"}
        self.unread = 0

    def add(self, text: str, moment: dt.datetime, incoming: bool) -> None:
        self.messages.append({"text": text, "time": moment.replace(second=0, microsecond=0), "incoming": incoming})

    @property
    def last(self) -> dt.datetime:
        return self.messages[-1]["time"]

    def trailing_incoming(self) -> int:
        count = 0
        for message in reversed(self.messages):
            if not message["incoming"]:
                break
            count += 1
        return count


def _lay_out(thread: _Thread, rng: Any, lines: list[tuple[bool, str]], end: dt.datetime, gap_max: int = 40) -> None:
    """Add ``lines`` so the last one is at ``end``, earlier ones a few minutes apart."""
    times = [end]
    for _ in lines[1:]:
        times.append(times[-1] - dt.timedelta(minutes=randint(rng, 1, gap_max)))
    for (incoming, text), moment in zip(lines, reversed(times)):
        thread.add(text, moment, incoming)


def _calendar_events(world: Any) -> list[dict[str, Any]]:
    """Timed events of the coming week from the world's Calendar (none when its generator is not ready)."""
    try:
        state = world.app_state("calendar")
    except Exception:  # noqa: BLE001 - Calendar may have no generator yet, or may read Messages itself
        return []
    out, today = [], world.today
    for event in state.get("events", []) if isinstance(state, dict) else []:
        try:
            day = dt.date.fromisoformat(event["date"])
        except (KeyError, TypeError, ValueError):
            continue
        if event.get("all_day") or not event.get("start") or not event.get("title"):
            continue
        if 0 < (day - today).days <= 7:
            out.append(event)
    return sorted(out, key=lambda e: (e["date"], e["start"], e["title"]))


def generate(world: Any) -> dict[str, Any]:
    """``{"conversations": [...]}`` for ``world`` (the schema of defaults.json)."""
    rng = world.rng("messages")
    lang = world.language
    p = read_pool(PACKAGE, "pools", lang)
    now = world.now
    contacts = [c for c in world.app_state("contacts")["contacts"] if c["phones"]]
    used = {number_key(ph["number"]) for c in contacts for ph in c["phones"]}
    used.update(number_key(s.mobile) for s in world.strangers())
    threads: list[_Thread] = []

    def free(address: str) -> str:
        """``address``, or one like it when a contact or another thread already uses that number."""
        number = address
        while len(number_key(number)) >= 7 and number_key(number) in used:
            number = number[:-2] + f"{randrange(rng, 100):02d}"
        used.add(number_key(number))
        return number

    def ago(low_min: int, high_min: int) -> dt.datetime:
        """A moment between ``low_min`` and ``high_min`` minutes ago, at a waking hour when it is not today."""
        moment = now - dt.timedelta(minutes=randint(rng, low_min, high_min))
        if moment.date() != now.date() and not 8 <= moment.hour < 23:
            moment = moment.replace(hour=randint(rng, 8, 22))
        return moment

    def fill(text: str) -> str:
        return text.format(place=choice(rng, p["places"]), day=choice(rng, p["days"]))

    def address_of(contact: dict[str, Any]) -> str:
        mobiles = [ph["number"] for ph in contact["phones"] if ph["type"] == "mobile"]
        if mobiles and rng.random() < 0.85:
            return mobiles[0]
        return choice(rng, contact["phones"])["number"]

    # --- chats with contacts -------------------------------------------------------------------
    order = list(range(len(contacts)))
    rng.shuffle(order)
    n_chats = min(len(contacts), randint(rng, 4, 13))
    chatting = [contacts[i] for i in order[:n_chats]]
    multi = [c for c in chatting if len(c["phones"]) >= 2]
    caller = choice(rng, multi) if multi else chatting[0]
    scripts = sample(rng, p["chats"], min(len(p["chats"]), len(chatting)))
    events = _calendar_events(world)
    mention = choice(rng, events) if events and len(chatting) >= 4 else None
    for contact in chatting:
        end = ago(20, 60 * 24 * 21)
        if contact is caller:
            lines = [(True, t) for t in choice(rng, p["call_requests"])]
            end = ago(30, 60 * 30)
            thread = _Thread("call", address_of(contact))
        elif mention is not None:
            day = dt.date.fromisoformat(mention["date"])
            weekday = (WEEKDAYS_ZH if lang == "zh" else WEEKDAYS)[day.weekday()]
            text = choice(rng, p["event_mentions"]).format(title=mention["title"], day=weekday,
                                                           time=clock_text(lang, mention["start"]))
            lines = [(True, text)] + ([(False, choice(rng, p["event_replies"]))] if rng.random() < 0.5 else [])
            end = ago(20, 60 * 24 * 2)
            thread = _Thread("event", address_of(contact))
            mention = None
        else:
            script = scripts.pop()
            lines = [(kind == "in", fill(text)) for kind, text in script["lines"]]
            thread = _Thread("contact", address_of(contact))
        _lay_out(thread, rng, lines, end)
        threads.append(thread)

    # --- new numbers: people not saved, spam ---------------------------------------------------
    for stranger in world.strangers():
        lines = [(True, t.format(name=stranger.name, where=choice(rng, p["intro_places"])))
                 for t in choice(rng, p["intros"])]
        thread = _Thread("stranger", stranger.mobile)
        _lay_out(thread, rng, lines, ago(15, 60 * 24 * 4), gap_max=3)
        threads.append(thread)
    for text in sample(rng, p["spam"], randint(rng, 0, 4)):
        for _ in range(50):
            number = fill_digits(rng, choice(rng, p["spam_numbers"]))
            if number_key(number) not in used:
                used.add(number_key(number))
                thread = _Thread("spam", number)
                thread.add(text, ago(60, 60 * 24 * 10), True)
                threads.append(thread)
                break

    # --- verification codes ------------------------------------------------------------------
    codes: set[str] = set()

    def code() -> str:
        while True:
            value = str(rng.randrange(10 ** 5, 10 ** 6)) if rng.random() < 0.85 else str(rng.randrange(1000, 10 ** 4))
            if value not in codes:
                codes.add(value)
                return value

    services = sample(rng, p["services"], randint(rng, 1, 5))
    for i, service in enumerate(services):
        thread = _Thread("service", service["address"])
        newest = ago(1, 25) if i == 0 else ago(60, 60 * 24 * 20)
        count = randint(rng, 1, 3)
        times = sorted([newest] + [newest - dt.timedelta(minutes=randint(rng, 60 * 5, 60 * 24 * 30)) for _ in range(count - 1)])
        for moment in times:
            thread.add(choice(rng, p["code_templates"]).format(service=service["name"], code=code()), moment, True)
        threads.append(thread)

    # --- parcels: one out for delivery today, older notices --------------------------------------
    carriers = sample(rng, p["carriers"], randint(rng, 1, 3))
    trackings: set[str] = set()

    def tracking(carrier: dict[str, Any]) -> str:
        while True:
            value = fill_digits(rng, carrier["tracking"])
            if value not in trackings:
                trackings.add(value)
                return value

    today_start = now.replace(hour=6, minute=0)
    for i, carrier in enumerate(carriers):
        thread = _Thread("carrier", free(carrier["address"]))
        older = randint(rng, 0 if i == 0 else 1, 2)
        moment = ago(60 * 24 * 3, 60 * 24 * 40)
        for _ in range(older):
            shipped_on = moment.date() + dt.timedelta(days=randint(rng, 1, 4))
            template = p["delivered"] if rng.random() < 0.6 or shipped_on >= now.date() else p["shipped"]
            when = (date_text(lang, moment.date()) if template == p["delivered"] else date_text(lang, shipped_on))
            thread.add(template.format(carrier=carrier["name"], tracking=tracking(carrier), when=when), moment, True)
            moment += dt.timedelta(days=randint(rng, 1, 6), minutes=randint(rng, 0, 600))
            if moment >= today_start:
                break
        if i == 0:
            start, end = delivery_window(rng, now)
            sent = max(today_start, now - dt.timedelta(minutes=randint(rng, 3, 150)))
            thread.add(delivery_text(lang, carrier["name"], tracking(carrier), start, end), sent, True)
        if thread.messages:
            threads.append(thread)

    # --- an appointment reminder --------------------------------------------------------------
    appointment = p["appointment"]
    left = (dt.date(world.today.year, 12, 31) - world.today).days
    day = world.today + dt.timedelta(days=randint(rng, min(1, left), min(14, left)))
    slot = rng.randrange(max(16, (now.hour + 2) * 2) if day == world.today else 16, 36)
    hhmm = f"{slot // 2:02d}:{30 * (slot % 2):02d}"
    when = hhmm if lang == "zh" else dt.datetime.strptime(hhmm, "%H:%M").strftime("%I:%M %p").lstrip("0")
    thread = _Thread("appointment", free(appointment["address"]))
    thread.add(appointment["text"].format(date=date_text(lang, day), time=when), ago(60 * 3, 60 * 24 * 3), True)
    threads.append(thread)

    for reminder in sample(rng, p["reminders"], randint(rng, 0, 2)):
        moment = ago(60 * 2, 60 * 24 * 6)
        due = date_text(lang, moment.date() + dt.timedelta(days=randint(rng, 3, 10)))
        thread = _Thread("reminder", free(reminder["address"]))
        thread.add(reminder["text"].format(date=due), moment, True)
        threads.append(thread)

    _mark_unread(threads, rng, p, now)
    return {"conversations": _to_state(threads, rng)}


def _mark_unread(threads: list[_Thread], rng: Any, p: dict[str, Any], now: dt.datetime) -> None:
    """Some threads unread: at least two contacts', a few others; one with several unread messages; and the
    newest message of any contact thread is one they sent (not the owner's reply)."""
    people = [t for t in threads if t.kind in ("contact", "call", "event")]

    def ack(thread: _Thread) -> None:
        gap = randint(rng, 1, 15)
        moment = min(thread.last + dt.timedelta(minutes=gap), now - dt.timedelta(minutes=1))
        thread.add(choice(rng, p["acks"]), max(moment, thread.last), True)

    latest = max(people, key=lambda t: t.last)
    if not latest.messages[-1]["incoming"]:
        ack(latest)
    others = [t for t in threads if t.kind not in ("contact", "call", "event")]
    total = randint(rng, 2, min(11, len(threads) - 2))  # threads with unread messages
    wanted = randint(rng, 2, min(total, len(people), 6))
    wanted = max(wanted, total - len(others))
    ending_in = [t for t in people if t.messages[-1]["incoming"]]
    chosen = sample(rng, ending_in, min(wanted, len(ending_in)))
    chosen += sample(rng, [t for t in people if t not in chosen], wanted - len(chosen))
    for thread in chosen:
        if not thread.messages[-1]["incoming"]:
            ack(thread)
        thread.unread = randint(rng, 1, thread.trailing_incoming())
    for thread in sample(rng, others, min(total - wanted, len(others))):
        thread.unread = randint(rng, 1, thread.trailing_incoming())
    if all(t.unread <= 1 for t in threads):
        thread = chosen[0]
        if thread.trailing_incoming() < 2:
            ack(thread)
        thread.unread = thread.trailing_incoming()


def _to_state(threads: list[_Thread], rng: Any) -> list[dict[str, Any]]:
    rng.shuffle(threads)
    conversations, n = [], 0
    for i, thread in enumerate(threads, 1):
        messages = []
        for message in sorted(thread.messages, key=lambda m: m["time"]):
            n += 1
            messages.append({"id": f"msg_{n:04d}", "text": message["text"], "time_ms": to_ms(message["time"]),
                             "incoming": message["incoming"]})
        conversations.append({"id": f"conv_{i:02d}", "address": thread.address, "unread": thread.unread,
                              "messages": messages})
    return conversations
