"""Scripted plans for the Wallet suite: an oracle and realistic mistakes per task."""
from __future__ import annotations

from mobilegym.oracle import Driver, PlanError, negative, plan

from ..chat.ui import ASKED, chat_amount as _chat_money, open_friend_chat, send_in_chat as _chat_send
from ..contacts.ui import collect
from .app import category_name, name_parts
from .ui import amount_text, money, open_wallet, pin, send_money, transaction_rows


def _wrong(code: str) -> str:
    """Another six-digit code (the last digit off by one)."""
    return code[:-1] + str((int(code[-1]) + 1) % 10)


def _filter(d: Driver, which: str, label: str) -> None:
    d.tap(rid=f"filter_{which}")
    d.tap(rid=f"{which}_option", text=label)


# --- cards ---------------------------------------------------------------------------------------------------

def _card_rows(d: Driver) -> list[tuple[str, bool]]:
    """(desc "bank last4", default) of every card on the Cards tab."""
    nodes = d.nodes()
    badges = [n.center[1] for n in nodes if n.short_id == "default_badge"]
    return [(n.desc, any(n.bounds[1] <= y <= n.bounds[3] for y in badges)) for n in nodes if n.short_id == "card_item"]


@plan("wallet.DefaultCardDigits")
def default_card_digits(d: Driver) -> None:
    open_wallet(d, 3)
    d.submit_answer([next(desc for desc, default in _card_rows(d) if default).rsplit(" ", 1)[1]])
    d.complete()


@negative("wallet.DefaultCardDigits", "reads a card that is not the default")
def default_card_digits_other(d: Driver) -> None:
    open_wallet(d, 3)
    d.submit_answer([next(desc for desc, default in _card_rows(d) if not default).rsplit(" ", 1)[1]])
    d.complete()


def _remove_card(d: Driver, desc: str, confirm: bool = True) -> None:
    open_wallet(d, 3)
    d.tap(rid="card_item", desc=desc)
    d.tap(rid="remove_card")
    d.tap(rid="button1" if confirm else "button2")
    d.complete()


@plan("wallet.RemoveCard")
def remove_card(d: Driver) -> None:
    _remove_card(d, f"{d.params['card']['bank']} {d.params['card']['last4']}")


@negative("wallet.RemoveCard", "removes another card")
def remove_other_card(d: Driver) -> None:
    open_wallet(d, 3)
    target = f"{d.params['card']['bank']} {d.params['card']['last4']}"
    _remove_card(d, next(desc for desc, _ in _card_rows(d) if desc != target))


@negative("wallet.RemoveCard", "cancels the confirmation")
def remove_card_cancelled(d: Driver) -> None:
    _remove_card(d, f"{d.params['card']['bank']} {d.params['card']['last4']}", confirm=False)


# --- transfers -----------------------------------------------------------------------------------------------


@plan("wallet.TransferToContact")
def transfer_to_contact(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    send_money(d, p["name"], p["amount"], p["note"])


@negative("wallet.TransferToContact", "types the amount one off")
def transfer_wrong_amount(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    send_money(d, p["name"], p["amount"] + 1, p["note"])


@negative("wallet.TransferToContact", "enters a wrong passcode and gives up")
def transfer_wrong_passcode(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    send_money(d, p["name"], p["amount"], p["note"], passcode=_wrong(p["passcode"]))


@negative("wallet.TransferToContact", "sends it twice")
def transfer_twice(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    send_money(d, p["name"], p["amount"], p["note"], finish=False)
    d.tap(rid="done_button")
    send_money(d, p["name"], p["amount"], p["note"])


@negative("wallet.TransferToContact", "pays a contact who shares their name")
def transfer_to_namesake(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    d.tap(rid="shortcut_transfer")
    others: list[str] = []
    for part in sorted(name_parts(p["name"])):
        d.type(part, rid="recipient_input")
        others = [n for n in d.collect("payee_item") if n != p["name"] and part in name_parts(n)]
        if others:
            break
    while d.route != "/":  # back to the home screen (the keyboard first)
        d.key("back")
    send_money(d, others[0], p["amount"], p["note"])


@negative("wallet.TransferToContact", "leaves out the note")
def transfer_no_note(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    send_money(d, p["name"], p["amount"])


def _pay_two(d: Driver, first: tuple[str, float], second: tuple[str, float]) -> None:
    open_wallet(d)
    send_money(d, first[0], first[1], d.params["note"], finish=False)
    d.tap(rid="done_button")
    send_money(d, second[0], second[1], d.params["note"])


@plan("wallet.PayTwoFriends")
def pay_two_friends(d: Driver) -> None:
    p = d.params
    _pay_two(d, (p["pair"]["a"], p["amount"]), (p["pair"]["b"], p["amount"]))


@negative("wallet.PayTwoFriends", "pays the first person twice")
def pay_first_friend_twice(d: Driver) -> None:
    p = d.params
    _pay_two(d, (p["pair"]["a"], p["amount"]), (p["pair"]["a"], p["amount"]))


@negative("wallet.PayTwoFriends", "sends the second person both shares")
def pay_second_friend_double(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    send_money(d, p["pair"]["b"], p["amount"] * 2, p["note"])


@negative("wallet.PayTwoFriends", "pays only the first person")
def pay_one_friend(d: Driver) -> None:
    p = d.params
    open_wallet(d)
    send_money(d, p["pair"]["a"], p["amount"], p["note"])


@plan("wallet.TransferToNumber")
def transfer_to_number(d: Driver) -> None:
    open_wallet(d)
    send_money(d, d.params["number"], d.params["amount"], by_number=True)


@negative("wallet.TransferToNumber", "mistypes the last digit")
def transfer_to_wrong_number(d: Driver) -> None:
    number = d.params["number"]
    open_wallet(d)
    send_money(d, number[:-1] + str((int(number[-1]) + 1) % 10), d.params["amount"], by_number=True)


@negative("wallet.TransferToNumber", "sends ten times the amount")
def transfer_to_number_too_much(d: Driver) -> None:
    open_wallet(d)
    send_money(d, d.params["number"], d.params["amount"] * 10, by_number=True)


def _last_sender(d: Driver) -> tuple[str, float]:
    """(name, amount) of the newest incoming transfer in the history."""
    _filter(d, "category", category_name("transfer", d.language))
    return next((who, amount) for who, amount in transaction_rows(d, lambda _, amount: amount > 0) if amount > 0)


@plan("wallet.RefundLastSender")
def refund_last_sender(d: Driver) -> None:
    open_wallet(d, 2)
    who, amount = _last_sender(d)
    d.tap(rid="tab_0")
    send_money(d, who, amount)


@negative("wallet.RefundLastSender", "refunds it twice")
def refund_twice(d: Driver) -> None:
    open_wallet(d, 2)
    who, amount = _last_sender(d)
    d.tap(rid="tab_0")
    send_money(d, who, amount, finish=False)
    d.tap(rid="done_button")
    send_money(d, who, amount)


@negative("wallet.RefundLastSender", "sends a little more back")
def refund_more(d: Driver) -> None:
    open_wallet(d, 2)
    who, amount = _last_sender(d)
    d.tap(rid="tab_0")
    send_money(d, who, amount + 1)


@negative("wallet.RefundLastSender", "enters a wrong passcode and gives up")
def refund_wrong_passcode(d: Driver) -> None:
    open_wallet(d, 2)
    who, amount = _last_sender(d)
    d.tap(rid="tab_0")
    send_money(d, who, amount, passcode=_wrong(d.params["passcode"]))


# --- bills ---------------------------------------------------------------------------------------------------

def _bill_groups(d: Driver) -> dict[str, list[tuple[str, float]]]:
    """Section header -> (bill name, amount) of each bill under it on the Bills tab."""
    groups: dict[str, list[tuple[str, float]]] = {}
    current = ""
    for n in d.nodes():
        if n.short_id == "section_header":
            current = n.text
            groups.setdefault(current, [])
        elif n.short_id == "bill_title":
            groups[current].append((n.text.split(" · ")[0], 0.0))
        elif n.short_id == "bill_amount":
            name, _ = groups[current][-1]
            groups[current][-1] = (name, money(n.text))
    return groups


def _pay_bill(d: Driver, name: str, passcode: str = "") -> None:
    """From the Bills tab: pay the bill, then go back to the list."""
    d.tap(rid="bill_item", desc=name)
    d.tap(rid="pay_bill")
    d.tap(rid="button1")
    pin(d, passcode or d.params["passcode"])
    if d.find(rid="done_button") is not None:
        d.tap(rid="done_button")


@plan("wallet.PayBill")
def pay_bill(d: Driver) -> None:
    open_wallet(d, 1)
    _pay_bill(d, d.params["bill"])
    d.complete()


@negative("wallet.PayBill", "pays another unpaid bill")
def pay_other_bill(d: Driver) -> None:
    open_wallet(d, 1)
    groups = _bill_groups(d)
    unpaid = [name for header, bills in groups.items() if header != d.t("Paid", "已缴") for name, _ in bills]
    _pay_bill(d, next(name for name in unpaid if name != d.params["bill"]))
    d.complete()


@negative("wallet.PayBill", "enters a wrong passcode and gives up")
def pay_bill_wrong_passcode(d: Driver) -> None:
    open_wallet(d, 1)
    _pay_bill(d, d.params["bill"], passcode=_wrong(d.params["passcode"]))
    d.complete()


@plan("wallet.PayBillAndReportBalance")
def pay_and_report(d: Driver) -> None:
    open_wallet(d, 1)
    _pay_bill(d, d.params["bill"])
    d.tap(rid="tab_0")
    d.submit_answer([amount_text(money(d.find(rid="balance_amount").text))])
    d.complete()


@negative("wallet.PayBillAndReportBalance", "reports the balance from before paying")
def pay_and_report_stale(d: Driver) -> None:
    open_wallet(d)
    before = money(d.find(rid="balance_amount").text)
    d.tap(rid="tab_1")
    _pay_bill(d, d.params["bill"])
    d.submit_answer([amount_text(before)])
    d.complete()


@plan("wallet.PayOverdueBills")
def pay_overdue(d: Driver) -> None:
    open_wallet(d, 1)
    for name, _ in _bill_groups(d)[d.t("Overdue", "已逾期")]:
        _pay_bill(d, name)
    d.complete()


@negative("wallet.PayOverdueBills", "pays every unpaid bill, due or not")
def pay_all_unpaid(d: Driver) -> None:
    open_wallet(d, 1)
    groups = _bill_groups(d)
    for name, _ in groups[d.t("Overdue", "已逾期")] + groups[d.t("Upcoming", "待缴")][:1]:
        _pay_bill(d, name)
    d.complete()


@negative("wallet.PayOverdueBills", "pays only the first overdue bill")
def pay_first_overdue(d: Driver) -> None:
    open_wallet(d, 1)
    _pay_bill(d, _bill_groups(d)[d.t("Overdue", "已逾期")][0][0])
    d.complete()


@plan("wallet.NextBillDue")
def next_bill_due(d: Driver) -> None:
    open_wallet(d, 1)
    name, amount = _bill_groups(d)[d.t("Upcoming", "待缴")][0]
    d.submit_answer([name, amount_text(amount)])
    d.complete()


@negative("wallet.NextBillDue", "names the first unpaid bill, which is overdue")
def next_bill_overdue(d: Driver) -> None:
    open_wallet(d, 1)
    name, amount = _bill_groups(d)[d.t("Overdue", "已逾期")][0]
    d.submit_answer([name, amount_text(amount)])
    d.complete()


# --- history -------------------------------------------------------------------------------------------------

@plan("wallet.LastPaymentAt")
def last_payment_at(d: Driver) -> None:
    open_wallet(d, 2)
    merchant = d.params["merchant"]
    rows = transaction_rows(d, lambda who, _: who == merchant)
    d.submit_answer([amount_text(-next(a for who, a in rows if who == merchant))])
    d.complete()


@negative("wallet.LastPaymentAt", "reads the row below it")
def last_payment_at_neighbour(d: Driver) -> None:
    open_wallet(d, 2)
    merchant = d.params["merchant"]
    rows = transaction_rows(d, lambda who, _: who == merchant)
    index = next(i for i, (who, _) in enumerate(rows) if who == merchant)
    d.submit_answer([amount_text(abs(rows[index + 1 if index + 1 < len(rows) else index - 1][1]))])
    d.complete()


def _month_spending(d: Driver) -> list[float]:
    open_wallet(d, 2)
    _filter(d, "month", d.params["month"])
    _filter(d, "category", category_name(d.params["category"], d.language))
    return [-a for _, a in transaction_rows(d) if a < 0]


@plan("wallet.SpendingLastMonth")
def spending_last_month(d: Driver) -> None:
    d.submit_answer([amount_text(sum(_month_spending(d)))])
    d.complete()


@negative("wallet.SpendingLastMonth", "reports the biggest payment instead of the total")
def spending_biggest(d: Driver) -> None:
    d.submit_answer([amount_text(max(_month_spending(d)))])
    d.complete()


@negative("wallet.SpendingLastMonth", "forgets the category filter")
def spending_every_category(d: Driver) -> None:
    open_wallet(d, 2)
    _filter(d, "month", d.params["month"])
    d.submit_answer([amount_text(sum(-a for _, a in transaction_rows(d) if a < 0))])
    d.complete()


# --- JSON tasks ----------------------------------------------------------------------------------------------

@plan("wallet.balance")
def balance(d: Driver) -> None:
    open_wallet(d)
    d.submit_answer([amount_text(money(d.find(rid="balance_amount").text))])
    d.complete()


@negative("wallet.balance", "reads the first upcoming bill's amount")
def balance_bill(d: Driver) -> None:
    open_wallet(d, 1)
    d.submit_answer([amount_text(next(a for bills in _bill_groups(d).values() for _, a in bills))])
    d.complete()


def _open_citi(d: Driver) -> None:
    open_wallet(d, 3)
    bank = d.t("Citi", "中信银行")
    d.tap(rid="card_item", desc=next(desc for desc, _ in _card_rows(d) if desc.rsplit(" ", 1)[0] == bank))


@plan("wallet.set_default_card")
def set_default_card(d: Driver) -> None:
    _open_citi(d)
    d.tap(rid="set_default")
    d.complete()


@negative("wallet.set_default_card", "opens the card and leaves without making it the default")
def set_default_card_viewed(d: Driver) -> None:
    _open_citi(d)
    d.key("back")
    d.complete()


@plan("wallet.buy_bitcoin")
def buy_bitcoin(d: Driver) -> None:
    open_wallet(d)
    d.abort("Wallet has no way to buy Bitcoin or any other cryptocurrency")


@negative("wallet.buy_bitcoin", "claims the purchase went through")
def buy_bitcoin_claims(d: Driver) -> None:
    open_wallet(d)
    d.complete()


# --- cross-app: Chat -> Wallet -> Chat -------------------------------------------------------------------------

def _chat_asks(d: Driver, name: str) -> list[float]:
    """The amounts the friend's Chat messages ask for, oldest first (the chat left open)."""
    open_friend_chat(d, name)
    d.scroll_to_top()
    return [_chat_money(n.text) for n in collect(d, "message_text") if ASKED.search(n.text)]


def _back_to_chat(d: Driver, name: str) -> None:
    """Chat again (it reopens where it was left): back to its tabs, then the chat with the friend."""
    d.open_app("Chat")
    for _ in range(4):
        if d.find(rid="tab_1") is not None:
            break
        d.key("back")
    d.tap(rid="tab_1")
    d.tap(rid="friend_item", desc=name)
    d.tap(rid="send_message")


def _pay_chat_ask(d: Driver, amount: float, reply: str | None, passcode: str = "") -> None:
    name = d.params["name"]
    open_wallet(d)
    send_money(d, name, amount, passcode=passcode, finish=False)
    if reply is not None:
        _back_to_chat(d, name)
        _chat_send(d, reply)
    d.complete()


@plan("wallet.PayChatAskInWallet")
def pay_chat_ask_in_wallet(d: Driver) -> None:
    asks = _chat_asks(d, d.params["name"])
    if not asks:
        raise PlanError("no amount asked for in the chat")
    _pay_chat_ask(d, asks[-1], d.params["reply"])


@negative("wallet.PayChatAskInWallet", "pays the older ask that was already settled")
def pay_chat_ask_old(d: Driver) -> None:
    _pay_chat_ask(d, _chat_asks(d, d.params["name"])[0], d.params["reply"])


@negative("wallet.PayChatAskInWallet", "pays in Wallet but never replies")
def pay_chat_ask_silent(d: Driver) -> None:
    _pay_chat_ask(d, _chat_asks(d, d.params["name"])[-1], None)


@negative("wallet.PayChatAskInWallet", "pays both asks at once, the settled one too")
def pay_chat_ask_both(d: Driver) -> None:
    asks = _chat_asks(d, d.params["name"])
    _pay_chat_ask(d, round(sum(asks), 2), d.params["reply"])
