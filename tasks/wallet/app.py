"""Accessor for the Wallet app's state: balance, passcode, cards, bills and transactions; samplers and patches the
wallet tasks share."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.calendar_words import MONTHS
from mobilegym.envs.contacts.numbers import digits, new_number, number_key, same_number
from mobilegym.envs.wallet.money import CATEGORIES
from mobilegym.judge import BaseApp, normalize_text, sim_today
from mobilegym.languages import LANGUAGES
from mobilegym.sim.strings import translate
from mobilegym.sim.worldgen.pools import read_pool
from mobilegym.judge.result import Check, check

from ..chat.app import same_amount
from ..contacts.app import NEW_PEOPLE, NEW_PEOPLE_ZH, Contacts, chinese_world

WALLET_PAYMENT_CHANGES = ["wallet.balance", "wallet.transactions[+]"]  # one payment or transfer out of the balance
WALLET_PAY_BILL_CHANGES = [*WALLET_PAYMENT_CHANGES, "wallet.bills[name={bill}].paid", "wallet.bills[name={bill}].paid_on"]
WALLET_PAY_BILLS_CHANGES = ["wallet.balance", "wallet.transactions[+*]", "wallet.bills[*].paid", "wallet.bills[*].paid_on"]
WALLET_DEFAULT_CARD_CHANGES = ["wallet.cards[*].default"]
WALLET_REMOVE_CARD_CHANGES = ["wallet.cards[-id={card.id}]"]
TRANSFER_AMOUNTS = {"en": (15, 20, 25.5, 32, 40, 45.75, 60, 75, 88, 120), "zh": (50, 66, 88, 100, 128.5, 200, 260, 300, 520, 666)}
TRANSFER_NOTES = {"en": ("Dinner last night", "Concert tickets", "Thanks for the ride", "Half of the groceries",
                         "Birthday present", "Football tickets"),
                  "zh": ("昨晚的饭钱", "演唱会门票", "谢谢你送我回家", "买菜的一半", "生日礼物", "球赛门票")}
SPEND_CATEGORIES = ("dining", "groceries", "shopping", "transport")
NEW_BANKS = {"en": ("Citi", "Capital One", "PNC"), "zh": ("中信银行", "交通银行", "浦发银行")}
MIN_UNPAID_BILLS = 2  # PayBill, PayBillAndReportBalance: unpaid bills, at least (tasks.prepare_unpaid_bills)
MIN_OVERDUE_BILLS, MIN_UPCOMING_BILLS = 2, 1  # PayOverdueBills: overdue / unpaid not yet due (tasks.prepare_due_bills)
MIN_MONTH_PAYMENTS, MIN_OTHER_MONTH_PAYMENTS = 2, 1  # SpendingLastMonth: the category's payments last month / in others
MIN_EARLIER_SENDERS = 1  # RefundLastSender: earlier transfers in from someone else (prepare_state_with_earlier_sender)
REFUND_AMOUNTS = (35, 48.5, 60, 120)
MIN_NEAR_NUMBERS = 1  # TransferToNumber: contacts whose number differs in the last two digits only (see near_numbers)
MIN_NAMESAKES = 1  # TransferToContact: other contacts sharing a name with the payee (prepare_state_with_namesake)
RELATIONS = frozenset(r[0] for lang in LANGUAGES  # "Mom", "妈妈": names without a first name or surname
                      for r in read_pool("mobilegym.sim.worldgen", "people", lang)["relations"])
NAMESAKE_SHOPS = {"en": "{name}'s Diner", "zh": "{name}家常菜"}  # the namesake of a relative ("Mom's Diner")


def chinese_name(name: str) -> bool:
    return "\u4e00" <= name[:1] <= "\u9fff"


def name_parts(name: str) -> set[str]:
    """What a name shares with a namesake: its words ("Mom's Diner": mom, diner), a Chinese name's surname (its
    first character)."""
    return {name[0]} if chinese_name(name) else set(name.casefold().replace("'s ", " ").split())


def new_contact(contact_id: str, name: str, number: str) -> dict[str, Any]:
    """A patch saving a contact with one mobile number."""
    return {"apps": {"contacts": {"contacts[]": {
        "id": contact_id, "name": name, "phones": [{"type": "mobile", "number": number}], "email": "", "company": "",
        "birthday": "", "notes": "", "favorite": False}}}}


def same_note(expected: str, actual: str) -> bool:
    """Equal up to case, spacing and surrounding punctuation."""
    strip = " .!?。！？"
    return normalize_text(expected).strip(strip) == normalize_text(actual).strip(strip)


def last_month(today: dt.date) -> str:
    """"2026-02" for a day in March 2026."""
    return (today.replace(day=1) - dt.timedelta(days=1)).isoformat()[:7]


def month_label(month: str, language: str) -> str:
    """"2026-02" -> "February 2026" / "2026年2月" (as the history's month filter shows it)."""
    year, number = int(month[:4]), int(month[5:7])
    return f"{year}年{number}月" if language == "zh" else f"{MONTHS[number - 1]} {year}"


class Wallet(BaseApp):
    """Balance, cards, bills and transactions."""

    def balance(self) -> float:
        return self.require(".balance")

    def cards(self) -> list[dict[str, Any]]:
        return self.require(".cards")

    def default_card(self) -> dict[str, Any]:
        return self.find(".cards", default=True)

    def bills(self) -> list[dict[str, Any]]:
        return self.require(".bills")

    def bill(self, name: str) -> dict[str, Any]:
        return self.find(".bills", name=name)

    def transactions(self) -> list[dict[str, Any]]:
        """Every transaction, oldest first."""
        return sorted(self.require(".transactions"), key=lambda t: (t["date"], t["time"], t["id"]))

    def overdue(self, today: dt.date) -> list[dict[str, Any]]:
        """Unpaid bills whose due date has passed."""
        return [b for b in self.bills() if not b["paid"] and b["due"] < today.isoformat()]

    def upcoming(self, today: dt.date) -> list[dict[str, Any]]:
        """Unpaid bills not yet overdue, soonest first."""
        return sorted((b for b in self.bills() if not b["paid"] and b["due"] >= today.isoformat()), key=lambda b: b["due"])

    def new_transactions(self) -> list[dict[str, Any]]:
        """Transactions that were not there at the start."""
        before = {t["id"] for t in self.initial(".transactions")}
        return [t for t in self.require(".transactions") if t["id"] not in before]

    def last_received(self) -> dict[str, Any]:
        """The most recent transfer someone sent to the wallet."""
        received = [t for t in self.transactions() if t["kind"] == "transfer_in"]
        if not received:
            raise ValueError("wallet: no transfer was ever received")
        return received[-1]

    def last_payment_at(self, merchant: str) -> dict[str, Any]:
        paid = [t for t in self.transactions() if t["kind"] == "payment" and t["counterparty"] == merchant]
        if not paid:
            raise ValueError(f"wallet: nothing was ever paid at {merchant}")
        return paid[-1]

    def spent(self, category: str, month: str) -> float:
        """What the payments of a category in a month (YYYY-MM) came to."""
        return round(-sum(t["amount"] for t in self.transactions()
                          if t["category"] == category and t["date"].startswith(month) and t["amount"] < 0), 2)

    # --- checks ---------------------------------------------------------------------------------------------

    def check_balance(self, expected: float) -> Check:
        return check("balance", expected, self.balance(), same_amount(self.balance(), expected))

    def check_transfer(self, who: str, phone: str, amount: float, note: str | None = None) -> list[Check]:
        """One new transaction, a transfer of ``amount`` to ``phone`` (with ``note``), taken off the balance."""
        new = self.new_transactions()
        txn = new[0] if len(new) == 1 else None
        got = lambda key: txn[key] if txn else None  # noqa: E731
        checks = [check("new transactions", 1, len(new), len(new) == 1),
                  check(f"transfer to {who}", phone, got("phone"),
                        txn is not None and txn["kind"] == "transfer_out" and same_number(txn["phone"], phone)),
                  check("amount sent", -amount, got("amount"), same_amount(got("amount"), -amount))]
        if note is not None:
            checks.append(check("note", note, got("note"), txn is not None and same_note(note, txn["note"])))
        return [*checks, self.check_balance(round(self.initial(".balance") - amount, 2))]

    def check_transfers(self, people: list[tuple[str, str]], amount: float, note: str) -> list[Check]:
        """One new transfer of ``amount`` with ``note`` to each (name, number) of ``people``, and nothing else."""
        new = self.new_transactions()
        checks = [check("new transactions", len(people), len(new), len(new) == len(people))]
        for name, phone in people:
            sent = [t for t in new if t["kind"] == "transfer_out" and same_number(t["phone"], phone)]
            right = [t for t in sent if same_amount(t["amount"], -amount) and same_note(note, t["note"])]
            checks.append(check(f"{amount:.2f} with the note to {name}", 1,
                                [(t["amount"], t["note"]) for t in sent], len(sent) == len(right) == 1))
        return [*checks, self.check_balance(round(self.initial(".balance") - amount * len(people), 2))]

    def check_bills_paid(self, paid: list[dict[str, Any]]) -> list[Check]:
        """Exactly the bills ``paid`` (as they were at the start) were paid, each once, from the balance."""
        now = {b["id"]: b for b in self.bills()}
        wanted = {b["id"] for b in paid}
        paid_now = {b["id"]: now[b["id"]]["paid"] if b["id"] in now else "deleted" for b in self.initial(".bills")}
        checks = [check(f"bill {b['name']} paid", b["id"] in wanted, paid_now[b["id"]], paid_now[b["id"]] is (b["id"] in wanted))
                  for b in self.initial(".bills") if not b["paid"]]
        new = self.new_transactions()
        settled = sorted(t["bill_id"] for t in new if t["kind"] == "bill")
        checks.append(check("bill payments", sorted(wanted), settled, settled == sorted(wanted) and len(new) == len(wanted)))
        amounts = {b["id"]: b["amount"] for b in paid}
        actual = {t.get("bill_id"): -t["amount"] for t in new}
        checks.append(check("amounts paid", amounts, actual, len(new) == len(amounts) and actual.keys() == amounts.keys()
                            and all(same_amount(actual[k], v) for k, v in amounts.items())))
        return [*checks, self.check_balance(round(self.initial(".balance") - sum(amounts.values()), 2))]

    # --- samplers -------------------------------------------------------------------------------------------

    @staticmethod
    def sample_passcode(rng: random.Random, state: dict[str, Any]) -> str:
        """The wallet's passcode (the owner tells the agent)."""
        return state["settings"]["passcode"]

    @staticmethod
    def sample_amount(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> float:
        return float(rng.choice(TRANSFER_AMOUNTS[os_state.get("language", "en")]))

    @staticmethod
    def sample_note(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        return rng.choice(TRANSFER_NOTES[os_state.get("language", "en")])

    @staticmethod
    def sample_two_friends(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """Two people the wallet has sent money to or received money from (their names as the history shows them)."""
        people = sorted({t["counterparty"] for t in state["transactions"] if t["kind"].startswith("transfer")})
        if len(people) < 2:
            raise ValueError("wallet: fewer than two people in the history")
        first, second = sorted(rng.sample(people, 2))  # one order per pair: the same two people are one target
        return {"a": first, "b": second}

    @staticmethod
    def sample_unpaid_bill(rng: random.Random, state: dict[str, Any]) -> str:
        unpaid = [b["name"] for b in state["bills"] if not b["paid"]]
        if not unpaid:
            raise ValueError("wallet: no unpaid bill")
        return rng.choice(unpaid)

    @staticmethod
    def sample_other_card(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A card that is not the default (its id, bank and last four digits)."""
        others = [c for c in state["cards"] if not c["default"]]
        if not others:
            raise ValueError("wallet: every card is the default")
        card = rng.choice(others)
        return {"id": card["id"], "bank": card["bank"], "last4": card["last4"]}

    @staticmethod
    def sample_merchant(rng: random.Random, state: dict[str, Any]) -> str:
        """A merchant the wallet paid, whose last payment differs from every other merchant's by a cent or more."""
        last: dict[str, float] = {}
        for t in sorted(state["transactions"], key=lambda t: (t["date"], t["time"], t["id"])):
            if t["kind"] == "payment":
                last[t["counterparty"]] = -t["amount"]
        apart = [m for m, v in last.items() if all(abs(v - w) >= 0.01 for n, w in last.items() if n != m)]
        if not apart:
            raise ValueError("wallet: no merchant was paid")
        return rng.choice(sorted(apart))

    @staticmethod
    def sample_last_month(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """Last month as the history's month filter names it."""
        return month_label(last_month(sim_today(os_state)), os_state.get("language", "en"))

    @staticmethod
    def sample_new_number(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A number of the phone's region that the wallet never paid or was paid by."""
        return new_number(rng, os_state.get("language"), (t["phone"] for t in state["transactions"]))

    # --- patches --------------------------------------------------------------------------------------------

    @staticmethod
    def patch(changes: dict[str, Any]) -> dict[str, Any]:
        return {"apps": {"wallet": changes}}

    @staticmethod
    def free_due_dates(state: dict[str, Any], days: range, today: dt.date, keep: set[str] = frozenset()) -> list[str]:
        """Due dates ``days`` from today that no bill (but those in ``keep``) falls due on."""
        taken = {b["due"] for b in state["bills"] if b["id"] not in keep}
        return [d for d in ((today + dt.timedelta(days=n)).isoformat() for n in days) if d not in taken]

    @staticmethod
    def unpaid_patch(bill: dict[str, Any], due: str | None = None) -> dict[str, Any]:
        """A bill made unpaid (due on ``due`` when given)."""
        return {f"bills[id={bill['id']}]": {"paid": False, "paid_on": "", **({"due": due} if due else {})}}

    @staticmethod
    def free_time(state: dict[str, Any], day: str, start: int = 12) -> str:
        """A minute of ``day`` from ``start`` o'clock on that no transaction has."""
        taken = {t["time"] for t in state["transactions"] if t["date"] == day}
        return next(f"{h:02d}:{m:02d}" for h in range(start, 23) for m in (7, 23, 41, 53)
                    if f"{h:02d}:{m:02d}" not in taken)

    @staticmethod
    def transfer_in(txn_id: str, day: str, time: str, person: dict[str, Any], amount: float) -> dict[str, Any]:
        """A transfer a contact sent to the wallet, as the history keeps it."""
        return {"id": txn_id, "date": day, "time": time, "kind": "transfer_in", "phone": person["phones"][0]["number"],
                "note": "", "method": "balance", "bill_id": "", "counterparty": person["name"], "category": "transfer",
                "amount": float(amount)}

    @staticmethod
    def earlier_senders(state: dict[str, Any]) -> list[dict[str, Any]]:
        """Transfers in before the last one, from someone else and of another amount."""
        received = [t for t in Wallet(state).transactions() if t["kind"] == "transfer_in"]
        last = received[-1] if received else None
        return [t for t in received[:-1] if t["counterparty"] != last["counterparty"]
                and not same_amount(t["amount"], last["amount"])]

    @staticmethod
    def prepare_state_with_earlier_sender(state: dict[str, Any], people: list[dict[str, Any]], rng: random.Random
                                          ) -> dict[str, Any] | None:
        """A patch adding a transfer in from another contact (another amount, days before the last one) until
        MIN_EARLIER_SENDERS earlier senders rival the last; None when they do."""
        if len(Wallet.earlier_senders(state)) >= MIN_EARLIER_SENDERS:
            return None
        last = Wallet(state).last_received()
        person = rng.choice([p for p in people if p["phones"] and p["name"] != last["counterparty"]])
        day = (dt.date.fromisoformat(last["date"]) - dt.timedelta(days=rng.randint(2, 6))).isoformat()
        amount = rng.choice([a for a in REFUND_AMOUNTS if not same_amount(a, last["amount"])])
        return Wallet.patch({"transactions[]": Wallet.transfer_in("txn_in_before", day, Wallet.free_time(state, day),
                                                                  person, amount)})

    @staticmethod
    def near_numbers(contacts: dict[str, Any], number: str) -> list[dict[str, Any]]:
        """The contacts whose first number (the one the transfer list shows) is ``number`` but for its last two
        digits."""
        key = number_key(number)
        return [c for c in contacts["contacts"] if c["phones"] and not same_number(c["phones"][0]["number"], number)
                and number_key(c["phones"][0]["number"])[:-2] == key[:-2]]

    @staticmethod
    def prepare_state_with_near_number(contacts: dict[str, Any], number: str, rng: random.Random
                                       ) -> dict[str, Any] | None:
        """A patch saving a new contact whose number is ``number`` with other last two digits until
        MIN_NEAR_NUMBERS contacts are such near misses; None when they are."""
        if len(Wallet.near_numbers(contacts, number)) >= MIN_NEAR_NUMBERS:
            return None
        taken = {c["name"] for c in contacts["contacts"]}
        used = {number_key(p["number"]) for c in contacts["contacts"] for p in c["phones"]}
        name = rng.choice([n for n in (NEW_PEOPLE_ZH if chinese_world(contacts) else NEW_PEOPLE) if n not in taken])
        tail = digits(number)[-2:]
        near = next(n for n in (number[:-2] + f"{(int(tail) + k) % 100:02d}" for k in rng.sample(range(11, 90), 79))
                    if number_key(n) not in used)
        return new_contact("contact_near", name, near)

    @staticmethod
    def namesakes(contacts: dict[str, Any], name: str) -> list[dict[str, Any]]:
        """The other contacts with a number who share a word of ``name`` (a Chinese name's surname)."""
        parts = name_parts(name)
        return [c for c in contacts["contacts"] if c["phones"] and c["name"] != name and parts & name_parts(c["name"])]

    @staticmethod
    def prepare_state_with_namesake(contacts: dict[str, Any], name: str, rng: random.Random) -> dict[str, Any] | None:
        """A patch saving a contact who shares ``name``'s first name (a Chinese name's surname; a relative's: a
        shop named after them) until MIN_NAMESAKES contacts are namesakes; None when they are."""
        if len(Wallet.namesakes(contacts, name)) >= MIN_NAMESAKES:
            return None
        taken = {c["name"] for c in contacts["contacts"]}
        if name in RELATIONS:
            names = [NAMESAKE_SHOPS["zh" if chinese_name(name) else "en"].format(name=name)]
        elif chinese_name(name):
            names = [name[0] + n[1:] for n in NEW_PEOPLE_ZH if n[0] != name[0]]
        else:
            names = [f"{name.split()[0]} {n.split()[-1]}" for n in NEW_PEOPLE if n.split()[-1] != name.split()[-1]]
        fresh = [n for n in names if n not in taken]
        return new_contact("contact_namesake", rng.choice(fresh), Contacts.fresh_number(rng, contacts))

    @staticmethod
    def payment(txn_id: str, date: str, time: str, counterparty: str, category: str, amount: float,
                method: str) -> dict[str, Any]:
        """A card payment at a merchant, as the history keeps it."""
        return {"id": txn_id, "date": date, "time": time, "kind": "payment", "phone": "", "note": "", "method": method,
                "bill_id": "", "counterparty": counterparty, "category": category, "amount": -amount}


def category_name(category: str, language: str) -> str:
    """A category as the Wallet shows it in ``language`` (from the wallet's catalog)."""
    return translate("mobilegym.envs.wallet", language, CATEGORIES[category])


def category_label(category: str, language: str) -> str:
    name = category_name(category, language)
    return name if language == "zh" else name.lower()
