"""UI steps on Wallet that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

import re
from typing import Callable

from mobilegym.oracle import Driver, PlanError


AMOUNT = re.compile(r"^([+-]?)[$¥]([\d,]+\.\d\d)$")


def money(text: str) -> float:
    """"-$1,234.50" -> -1234.5."""
    found = AMOUNT.match(text)
    if found is None:
        raise PlanError(f"not an amount: {text!r}")
    value = float(found.group(2).replace(",", ""))
    return -value if found.group(1) == "-" else value


def amount_text(value: float) -> str:
    """An amount as a plan types or answers it: 1234.5 -> "1234.50"."""
    return f"{value:.2f}"


def transaction_rows(d: Driver, until: Callable[[str, float], bool] | None = None) -> list[tuple[str, float]]:
    """(counterparty, signed amount) of each row of the history list, newest first, scrolling down through it (only
    until a row meets ``until``, when given)."""
    seen: dict[str, tuple[str, float]] = {}
    while True:
        for n in d.nodes():
            if n.short_id == "transaction_item" and n.desc not in seen:
                who, amount, _date, _time = n.desc.rsplit(" ", 3)
                seen[n.desc] = (who, money(amount))
        rows = list(seen.values())
        if (until is not None and any(until(*row) for row in rows)) or not d.scroll(1):
            return rows


def open_wallet(d: Driver, tab: int | None = None) -> None:
    d.open_app("Wallet")
    if tab is not None:
        d.tap(rid=f"tab_{tab}")


def pin(d: Driver, code: str) -> None:
    """Type the passcode ``code`` on the Wallet's PIN pad."""
    for digit in code:
        d.tap(rid=f"pin_{digit}")


def send_money(d: Driver, recipient: str, amount: float, note: str = "", passcode: str = "", by_number: bool = False,
          finish: bool = True) -> None:
    """From the home screen: transfer ``amount`` to a contact (by name) or a typed number, with the passcode."""
    d.tap(rid="shortcut_transfer")
    d.type(recipient, rid="recipient_input")
    if not by_number:
        d.tap(rid="payee_item", desc=recipient)
    elif d.find(rid="new_recipient") is not None:
        d.tap(rid="new_recipient")
    else:  # the number is someone's in Contacts: the app offers the contact
        d.tap(rid="payee_item")
    d.type(amount_text(amount), rid="amount_input")
    if note:
        d.type(note, rid="note_input")
    d.tap(rid="continue_button")
    d.tap(rid="button1")
    pin(d, passcode or d.params["passcode"])
    if finish:
        d.complete()
