"""The Wallet of a generated world: a balance, one to three bank cards (one of them the default), three to eight
bills due around the phone's date (some paid, some overdue) and 20 to 60 past transactions over the last 75 days:
card payments at merchants from the pools beside this file, transfers to and from the people saved in Contacts,
and the bills already paid. A Chinese world pays in yuan at Chinese merchants, an English one in dollars.

Invariants tasks rely on: card banks and last four digits are unique and exactly one card is the default; bill
names are unique and no two bills fall due on the same day; no two transactions share a date and time; amounts
have two decimals (payments and transfers out are negative); a transfer's ``phone`` is the person's number.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
MIN_CARDS, MAX_CARDS = 1, 3
MIN_BILLS, MAX_BILLS = 3, 8
MIN_TRANSACTIONS, MAX_TRANSACTIONS = 20, 60
HISTORY_DAYS = 75  # transactions reach this far back (the whole of last month, always)
DUE_FROM, DUE_TO = -12, 27  # bills fall due this many days around today
KIND_WEIGHTS = (("payment", 70), ("transfer_out", 12), ("transfer_in", 18))
FIRST_MINUTE, LAST_MINUTE = 7 * 60, 23 * 60


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (read only)."""
    return load_pool(PACKAGE, "pools", language)


def money(value: float) -> float:
    """An amount rounded to cents."""
    return round(value + 0.0, 2)


def draw_amount(rng: random.Random, low: float, high: float) -> float:
    """An amount in [low, high] with cents (whole amounts above 1000, as rent is)."""
    value = rng.uniform(low, high)
    return float(round(value)) if low >= 1000 else money(value)


def hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def make_cards(rng: random.Random, pool: dict[str, Any]) -> list[dict[str, Any]]:
    banks = sample(rng, pool["banks"], randint(rng, MIN_CARDS, MAX_CARDS))
    digits = sample(rng, range(1000, 10000), len(banks))
    default = randrange(rng, len(banks))
    return [{"id": f"card_{i + 1}", "bank": bank, "kind": choice(rng, ("debit", "credit")), "last4": str(digits[i]),
             "default": i == default} for i, bank in enumerate(banks)]


def make_bills(rng: random.Random, pool: dict[str, Any], today: dt.date,
               cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kinds = sample(rng, pool["bills"], randint(rng, MIN_BILLS, MAX_BILLS))
    offsets = sample(rng, range(DUE_FROM, DUE_TO + 1), len(kinds))
    bills = []
    for i, (kind, offset) in enumerate(zip(kinds, offsets), 1):
        due = today + dt.timedelta(days=offset)
        credit = [c["bank"] for c in cards if c["kind"] == "credit"] or pool["banks"]
        biller = choice(rng, kind["billers"] or credit)
        paid = rng.random() < (0.5 if offset < 0 else 0.2)
        paid_on = min(today, due - dt.timedelta(days=randint(rng, 0, 5))) if paid else None
        bills.append({"id": f"bill_{i}", "name": kind["name"], "biller": biller, "category": kind["category"],
                      "account": str(randint(rng, 1000, 9999)), "amount": draw_amount(rng, *kind["amount"]),
                      "due": due.isoformat(), "paid": paid, "paid_on": paid_on.isoformat() if paid_on else ""})
    return bills


class _Moments:
    """Distinct (date, minute) pairs of the history, drawn before the phone's time."""

    def __init__(self, rng: random.Random, now: dt.datetime) -> None:
        self.rng = rng
        self.days = [(now.date() - dt.timedelta(days=n)).isoformat() for n in range(HISTORY_DAYS + 2)]
        self.today_last = min(LAST_MINUTE, now.hour * 60 + now.minute - 1)
        self.taken: set[tuple[str, int]] = set()

    def _last(self, index: int) -> int:
        """The last minute a moment of day ``index`` may take (today: before the phone's time)."""
        return self.today_last if index == 0 else LAST_MINUTE

    def _full(self, index: int) -> bool:
        last = self._last(index)
        free = last - FIRST_MINUTE + 1
        return free <= 0 or sum(1 for when, _ in self.taken if when == self.days[index]) >= free

    def draw(self, day: str | None = None) -> tuple[str, int]:
        """A free moment (on ``day`` when given; a day whose minutes are all gone, or today before 07:00, gives way
        to the day before)."""
        rng = self.rng
        for _ in range(200):
            when = day or self.days[randrange(rng, HISTORY_DAYS + 1)]
            index = self.days.index(when) if when in self.days else 1
            while index + 1 < len(self.days) and self._full(index):
                index += 1  # every minute of the day is taken (today may have only a few): the day before
            when, last = self.days[index], self._last(index)
            key = (when, FIRST_MINUTE + randrange(rng, last - FIRST_MINUTE + 1))
            if key not in self.taken:
                self.taken.add(key)
                return key
        raise RuntimeError("wallet: no free minute left in the history")


def make_transactions(rng: random.Random, pool: dict[str, Any], now: dt.datetime, people: list[dict[str, Any]],
                      cards: list[dict[str, Any]], bills: list[dict[str, Any]]) -> list[dict[str, Any]]:
    moments = _Moments(rng, now)
    rows: list[tuple[str, int, dict[str, Any]]] = []
    categories = sorted(pool["merchants"])
    total = sum(w for _, w in KIND_WEIGHTS)
    for _ in range(randint(rng, MIN_TRANSACTIONS, MAX_TRANSACTIONS)):
        roll = rng.random() * total
        kind = "payment" if not people or roll < KIND_WEIGHTS[0][1] else (
            "transfer_out" if roll < KIND_WEIGHTS[0][1] + KIND_WEIGHTS[1][1] else "transfer_in")
        date, minute = moments.draw()
        if kind == "payment":
            category = choice(rng, categories)
            row = {"kind": kind, "phone": "", "note": "", "method": choice(rng, cards)["id"], "bill_id": "",
                   "counterparty": choice(rng, pool["merchants"][category]), "category": category,
                   "amount": -draw_amount(rng, *pool["spend"][category])}
        else:
            person = people[randrange(rng, len(people))]
            value = draw_amount(rng, *pool["transfer"])
            row = {"kind": kind, "phone": person["phones"][0]["number"], "note": choice(rng, pool["notes"]),
                   "method": "balance", "bill_id": "", "counterparty": person["name"], "category": "transfer",
                   "amount": value if kind == "transfer_in" else -value}
        rows.append((date, minute, row))
    for bill in bills:
        if bill["paid"]:
            date, minute = moments.draw(bill["paid_on"])
            rows.append((date, minute, {"kind": "bill", "phone": "", "note": "", "method": "balance",
                                        "bill_id": bill["id"], "counterparty": bill["biller"], "category": "bills",
                                        "amount": -bill["amount"]}))
    rows.sort(key=lambda r: (r[0], r[1]))
    return [{"id": f"txn_{i}", "date": date, "time": hhmm(minute), **row}
            for i, (date, minute, row) in enumerate(rows, 1)]


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("wallet")
    pool = read_pool(PACKAGE, "pools", world.language)
    people = [c for c in world.app_state("contacts")["contacts"] if c["phones"]]
    cards = make_cards(rng, pool)
    bills = make_bills(rng, pool, world.today, cards)
    return {"balance": money(rng.uniform(*pool["balance"])), "currency": pool["currency"],
            "settings": {"passcode": f"{randrange(rng, 10 ** 6):06d}"},
            "cards": cards, "bills": bills,
            "transactions": make_transactions(rng, pool, world.now, people, cards, bills)}
