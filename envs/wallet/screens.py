"""Wallet screens: home, transfer (recipient, amount), bills, history with filters, transaction detail, cards."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.envs.contacts.numbers import digits, is_dialable, same_number
from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import payflow
from .app import APP
from .money import amount_text, card_text, category_text, due_text, long_date, month_text, short_date, CATEGORIES

TABS = [("/", "Home"), ("/bills", "Bills"), ("/history", "History"), ("/cards", "Cards")]  # the catalog's "tabs" context
CARD_KINDS = {"debit": "Debit card", "credit": "Credit card"}
RECENT = 5  # transactions on the home screen
UPCOMING = 3  # unpaid bills on the home screen
MIN_NUMBER_DIGITS = 7  # a typed recipient with this many digits can be paid as a number


def _tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    return ui.Tabs([ctx.t(label, context="tabs") for _, label in TABS], index, lambda i: ctx.replace(TABS[i][0]), rid_prefix="tab")


def _header(text: str, rid: str = "section_header") -> ui.View:
    return inset(ui.Text(text, size=13, bold=True, color="primary", height=32, rid=rid), MARGIN)


def _find(items: list[dict[str, Any]], item_id: Any, what: str) -> dict[str, Any]:
    found = next((i for i in items if i["id"] == item_id), None)
    if found is None:
        raise KeyError(f"wallet: no {what} {item_id!r}")
    return found


def newest_first(transactions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(transactions, key=lambda t: (t["date"], t["time"], t["id"]), reverse=True)


def unpaid_by_due(bills: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted((b for b in bills if not b["paid"]), key=lambda b: (b["due"], b["name"]))


def _transaction_row(ctx: Ctx, txn: dict[str, Any]) -> ui.View:
    when = f"{short_date(ctx, txn['date'])} {txn['time']} · {category_text(ctx, txn['category'])}"
    amount = amount_text(ctx.state, txn["amount"], signed=True)
    return ui.ListItem(txn["counterparty"], subtitle=when, trailing=ui.Text(amount, size=15, bold=txn["amount"] > 0,
                                                                             rid="transaction_amount"),
                       title_rid="transaction_title", rid="transaction_item",
                       desc=f"{txn['counterparty']} {amount} {txn['date']} {txn['time']}",
                       on_click=lambda t=txn: ctx.navigate("/transaction", id=t["id"]))


def _bill_row(ctx: Ctx, bill: dict[str, Any], rid: str = "bill_item") -> ui.View:
    return ui.ListItem(f"{bill['name']} · {bill['biller']}", subtitle=due_text(ctx, bill),
                       trailing=ui.Text(amount_text(ctx.state, bill["amount"]), size=15, rid="bill_amount"),
                       title_rid="bill_title", rid=rid, desc=bill["name"],
                       on_click=lambda b=bill: ctx.navigate("/bill", id=b["id"]))


@APP.screen("/")
def home(ctx: Ctx) -> ui.Scaffold:
    state = ctx.state
    shortcuts = [("shortcut_transfer", "Transfer", "/transfer"), ("shortcut_bills", "Pay bills", "/bills"),
                 ("shortcut_history", "History", "/history"), ("shortcut_cards", "Cards", "/cards")]
    rows: list[ui.View | None] = [
        inset(ui.Card([ui.Text(ctx.t("Balance"), size=14, color="muted"),
                       ui.Text(amount_text(state, state["balance"]), size=32, bold=True, rid="balance_amount")]),
              MARGIN - 12, MARGIN - 12),
        ui.Row([ui.Button(ctx.t(label), lambda p=path: ctx.navigate(p), style="outlined", flex=1, rid=rid)
                for rid, label, path in shortcuts], gap=6, pad=8),
    ]
    upcoming = unpaid_by_due(state["bills"])[:UPCOMING]
    if upcoming:
        rows.append(_header(ctx.t("Upcoming bills")))
        rows += [_bill_row(ctx, bill, rid="upcoming_bill") for bill in upcoming]
    rows.append(_header(ctx.t("Recent transactions")))
    recent = newest_first(state["transactions"])[:RECENT]
    rows += [_transaction_row(ctx, t) for t in recent]
    if not recent:
        rows.append(ui.Text(ctx.t("No transactions yet"), color="muted", align="center", height=96,
                            rid="empty"))
    rows.append(ui.Row([ui.Spacer(flex=1), ui.Button(ctx.t("See all"), lambda: ctx.replace("/history"),
                                                     style="text", rid="see_all")], pad=8))
    return ui.Scaffold(ui.ScrollList(rows, rid="home_list", gap=4), top=ui.TopBar(ctx.t("Wallet")),
                       bottom=_tabs(ctx, "/"))


# --- transfer --------------------------------------------------------------------------------------------------

def _contacts(ctx: Ctx) -> list[dict[str, Any]]:
    """The people saved in Contacts who have a number (read from the Contacts app, when installed)."""
    people = ctx.phone.doc["apps"].get("contacts", {}).get("contacts", [])
    return sorted((c for c in people if c["phones"]), key=lambda c: c["name"].casefold())


@APP.screen("/transfer")
def transfer(ctx: Ctx) -> ui.Scaffold:
    query = ctx.local.get("query", "").strip()
    text, wanted = query.casefold(), digits(query)
    people = [c for c in _contacts(ctx)
              if not query or text in c["name"].casefold()
              or (len(wanted) >= 3 and wanted in digits(c["phones"][0]["number"]))]
    rows: list[ui.View | None] = []
    numeric = is_dialable(query) and len(wanted) >= MIN_NUMBER_DIGITS
    if numeric and not any(same_number(c["phones"][0]["number"], query) for c in people):
        rows.append(ui.ListItem(ctx.t("Send to {query}", query=query),
                                subtitle=ctx.t("Not in your contacts"), rid="new_recipient", desc=query,
                                on_click=lambda: ctx.navigate("/transfer/amount", phone=query)))
    rows.append(_header(ctx.t("Contacts")))
    rows += [ui.ListItem(c["name"], subtitle=c["phones"][0]["number"], title_rid="payee_name", rid="payee_item",
                         desc=c["name"], on_click=lambda c=c: ctx.navigate("/transfer/amount", phone=c["phones"][0]["number"],
                                                                          name=c["name"]))
             for c in people]
    if not people:
        rows.append(ui.Text(ctx.t("No matching contacts"), color="muted", align="center", height=96,
                            rid="no_results"))
    field = ctx.field("recipient_input", "query", hint=ctx.t("Name or phone number"), ime_action="search")
    body = ui.Column([ui.Row([field], pad=12), ui.ScrollList(rows, rid="payee_list")])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Transfer"), on_back=ctx.back))


def parse_amount(text: str) -> float | None:
    """A typed amount as a number of cents-precision, or None when it is not a positive amount."""
    try:
        value = float(text)
    except ValueError:
        return None
    if value <= 0 or round(value, 2) != value:
        return None
    return value


@APP.screen("/transfer/amount")
def transfer_amount(ctx: Ctx) -> ui.Scaffold:
    phone = ctx.params["phone"]
    name = ctx.params.get("name", "")
    local = ctx.local
    amount = parse_amount(local.get("amount", "").strip())

    def go_on() -> None:
        if amount is None:
            local["error"] = True
            return
        local["error"] = False
        payflow.start(ctx, amount)

    def pay() -> None:
        txn = payflow.record(ctx, kind="transfer_out", counterparty=name or phone, phone=phone, category="transfer",
                             amount=-amount, note=local.get("note", "").strip())
        ctx.back()
        ctx.replace("/transaction", id=txn["id"], done="1")

    rows: list[ui.View | None] = [
        ui.ListItem(name or phone, subtitle=phone if name else ctx.t("Not in your contacts"),
                    title_rid="recipient_name", rid="recipient"),
        ui.Text(ctx.t("Amount"), size=13, color="primary", height=28),
        ctx.field("amount_input", "amount", hint=ctx.t("0.00"), input_type="number"),
        ui.Text(ctx.t("Enter an amount, e.g. 25.50"), size=13, rid="amount_error")
        if local.get("error") else None,
        ui.Text(ctx.t("Balance: {amount_text}", amount_text=amount_text(ctx.state, ctx.state['balance'])), size=13, color="muted", rid="balance_hint"),
        ui.Text(ctx.t("Note (optional)"), size=13, color="primary", height=28),
        ctx.field("note_input", "note", hint=ctx.t("What's it for?")),
        ui.Spacer(8),
        ui.Button(ctx.t("Continue"), go_on, rid="continue_button"),
    ]
    rows_sheet = [(ctx.t("To"), f"{name} ({phone})" if name else phone),
                  (ctx.t("From"), ctx.t("Wallet balance"))]
    if local.get("note", "").strip():
        rows_sheet.append((ctx.t("Note"), local["note"].strip()))
    dialog = payflow.dialog(ctx, ctx.t("Confirm transfer"), rows_sheet, amount or 0.0, pay)
    return ui.Scaffold(ui.ScrollList(rows, rid="transfer_form", pad=16, gap=6),
                       top=ui.TopBar(ctx.t("Transfer"), on_back=ctx.back), dialog=dialog)


# --- bills -----------------------------------------------------------------------------------------------------

@APP.screen("/bills")
def bills(ctx: Ctx) -> ui.Scaffold:
    today = ctx.now.date().isoformat()
    unpaid = unpaid_by_due(ctx.state["bills"])
    paid = sorted((b for b in ctx.state["bills"] if b["paid"]), key=lambda b: (b["paid_on"], b["name"]), reverse=True)
    rows: list[ui.View | None] = []
    for title, group in ((ctx.t("Overdue"), [b for b in unpaid if b["due"] < today]),
                         (ctx.t("Upcoming"), [b for b in unpaid if b["due"] >= today]),
                         (ctx.t("Paid"), paid)):
        if group:
            rows.append(_header(title))
            rows += [_bill_row(ctx, b) for b in group]
    if not rows:
        rows.append(ui.Text(ctx.t("No bills"), color="muted", align="center", height=96, rid="empty"))
    return ui.Scaffold(ui.ScrollList(rows, rid="bill_list"), top=ui.TopBar(ctx.t("Bills")),
                       bottom=_tabs(ctx, "/bills"))


def _detail_row(label: str, value: str, rid: str) -> ui.View:
    return ui.ListItem(value, subtitle=label, title_rid=rid, rid=f"{rid}_row")


@APP.screen("/bill")
def bill_detail(ctx: Ctx) -> ui.Scaffold:
    bill = _find(ctx.state["bills"], ctx.params.get("id"), "bill")
    overdue = not bill["paid"] and bill["due"] < ctx.now.date().isoformat()
    status = (ctx.t("Paid on {short_date}", short_date=short_date(ctx, bill['paid_on']))
              if bill["paid"] else ctx.t("Overdue") if overdue else ctx.t("Unpaid"))

    def pay() -> None:
        txn = payflow.record(ctx, kind="bill", counterparty=bill["biller"], category="bills", amount=-bill["amount"],
                             bill_id=bill["id"])
        bill.update(paid=True, paid_on=txn["date"])
        ctx.replace("/transaction", id=txn["id"], done="1")

    rows: list[ui.View | None] = [
        ui.Text(amount_text(ctx.state, bill["amount"]), size=32, bold=True, align="center", height=64,
                rid="bill_detail_amount"),
        _detail_row(ctx.t("Biller"), bill["biller"], "bill_biller"),
        _detail_row(ctx.t("Account"), ctx.t("ending {account}", account=bill['account']), "bill_account"),
        _detail_row(ctx.t("Due date"), long_date(ctx, bill["due"]), "bill_due"),
        _detail_row(ctx.t("Status"), status, "bill_status"),
        None if bill["paid"] else ui.Row([ui.Button(ctx.t("Pay now"), lambda: payflow.start(ctx, bill["amount"]),
                                                   rid="pay_bill", flex=1)], pad=16),
    ]
    sheet = [(ctx.t("Bill"), f"{bill['name']} · {bill['biller']}"),
             (ctx.t("From"), ctx.t("Wallet balance"))]
    dialog = payflow.dialog(ctx, ctx.t("Confirm payment"), sheet, bill["amount"], pay)
    return ui.Scaffold(ui.ScrollList(rows, rid="bill_detail"), top=ui.TopBar(bill["name"], on_back=ctx.back),
                       dialog=dialog)


# --- history ---------------------------------------------------------------------------------------------------

def _filter_dialog(ctx: Ctx) -> ui.Dialog | None:
    which = ctx.local.get("choosing")
    if which is None:
        return None

    def choose(value: str | None) -> None:
        ctx.local.update({which: value, "choosing": None})

    if which == "month":
        months = sorted({t["date"][:7] for t in ctx.state["transactions"]}, reverse=True)
        options = [(None, ctx.t("All months")), *((m, month_text(ctx, m)) for m in months)]
        title, rid = ctx.t("Month"), "month_option"
    else:
        used = {t["category"] for t in ctx.state["transactions"]}
        options = [(None, ctx.t("All categories")),
                   *((c, category_text(ctx, c)) for c in CATEGORIES if c in used)]
        title, rid = ctx.t("Category"), "category_option"
    current = ctx.local.get(which)
    radios = [ui.Radio(rid, value == current, lambda v=value: choose(v), label=label, desc=label) for value, label in options]
    return ui.Dialog(title, [ui.ScrollList(radios, rid=f"{which}_options", height=min(56 * len(radios), 360))],
                     [ui.Button(ctx.t("Cancel"), lambda: ctx.local.update(choosing=None), style="text",
                                rid=ui.NEGATIVE)],
                     on_dismiss=lambda: ctx.local.update(choosing=None))


@APP.screen("/history")
def history(ctx: Ctx) -> ui.Scaffold:
    month, category = ctx.local.get("month"), ctx.local.get("category")
    shown = [t for t in newest_first(ctx.state["transactions"])
             if (month is None or t["date"][:7] == month) and (category is None or t["category"] == category)]
    filters = ui.Row([
        ui.Button(month_text(ctx, month) if month else ctx.t("All months"),
                  lambda: ctx.local.update(choosing="month"), style="outlined", flex=1, rid="filter_month"),
        ui.Button(category_text(ctx, category) if category else ctx.t("All categories"),
                  lambda: ctx.local.update(choosing="category"), style="outlined", flex=1, rid="filter_category"),
    ], gap=8, pad=8)
    count = len(shown)
    rows: list[ui.View | None] = [
        inset(ui.Text(ctx.tn("{count} transaction", "{count} transactions", count), size=13,
                      color="muted", height=28, rid="result_count"), MARGIN)]
    day = None
    for txn in shown:
        if txn["date"] != day:
            day = txn["date"]
            rows.append(_header(long_date(ctx, day), rid="date_header"))
        rows.append(_transaction_row(ctx, txn))
    body = ui.Column([filters, ui.ScrollList(rows, rid="transaction_list")])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("History")), bottom=_tabs(ctx, "/history"),
                       dialog=_filter_dialog(ctx))


def _method_text(ctx: Ctx, method: str) -> str:
    if method == "balance":
        return ctx.t("Wallet balance")
    card = next((c for c in ctx.state["cards"] if c["id"] == method), None)
    return card_text(ctx, card) if card else ctx.t("Removed card")


def transaction_number(txn: dict[str, Any]) -> str:
    """The number a receipt shows: the date, the time and the record's sequence ("202603160822" + "000023")."""
    sequence = "".join(ch for ch in txn["id"] if ch.isdigit()) or "0"
    return f"{txn['date'].replace('-', '')}{txn['time'].replace(':', '')}{int(sequence):06d}"


@APP.screen("/transaction")
def transaction_detail(ctx: Ctx) -> ui.Scaffold:
    txn = _find(ctx.state["transactions"], ctx.params.get("id"), "transaction")
    done = ctx.params.get("done") == "1"
    kind_text = {"payment": ctx.t("Payment"), "transfer_out": ctx.t("Transfer sent"),
                 "transfer_in": ctx.t("Transfer received"), "bill": ctx.t("Bill payment")}[txn["kind"]]
    rows: list[ui.View | None] = [
        ui.Text(ctx.t("Payment successful") if txn["kind"] == "bill" else ctx.t("Transfer successful"),
                size=18, bold=True, color="primary", align="center", height=40, rid="success_title") if done else None,
        ui.Text(txn["counterparty"], size=16, align="center", height=32, rid="detail_counterparty"),
        ui.Text(amount_text(ctx.state, txn["amount"], signed=True), size=32, bold=True, align="center", height=56,
                rid="detail_amount"),
        _detail_row(ctx.t("Type"), kind_text, "detail_kind"),
        _detail_row(ctx.t("Category"), category_text(ctx, txn["category"]), "detail_category"),
        _detail_row(ctx.t("Date"), f"{long_date(ctx, txn['date'])} {txn['time']}", "detail_date"),
        _detail_row(ctx.t("Phone number"), txn["phone"], "detail_phone") if txn["phone"] else None,
        _detail_row(ctx.t("Note"), txn["note"], "detail_note") if txn["note"] else None,
        _detail_row(ctx.t("Paid with") if txn["amount"] < 0 else ctx.t("Received to"),
                    _method_text(ctx, txn["method"]), "detail_method"),
        _detail_row(ctx.t("Transaction number"), transaction_number(txn), "detail_id"),
        ui.Row([ui.Button(ctx.t("Done"), ctx.back, rid="done_button", flex=1)], pad=16) if done else None,
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="transaction_detail"),
                       top=ui.TopBar(ctx.t("Transaction details"), on_back=ctx.back))


# --- cards -----------------------------------------------------------------------------------------------------

@APP.screen("/cards")
def cards(ctx: Ctx) -> ui.Scaffold:
    rows: list[ui.View | None] = [
        ui.ListItem(card["bank"], subtitle=card_text(ctx, card), title_rid="card_bank", rid="card_item",
                    desc=f"{card['bank']} {card['last4']}",
                    trailing=ui.Text(ctx.t("Default"), size=13, bold=True, color="primary", rid="default_badge")
                    if card["default"] else None,
                    on_click=lambda c=card: ctx.navigate("/card", id=c["id"]))
        for card in ctx.state["cards"]]
    if not rows:
        rows.append(ui.Text(ctx.t("No cards linked"), color="muted", align="center", height=96,
                            rid="empty"))
    return ui.Scaffold(ui.ScrollList(rows, rid="card_list"), top=ui.TopBar(ctx.t("Cards")),
                       bottom=_tabs(ctx, "/cards"))


@APP.screen("/card")
def card_detail(ctx: Ctx) -> ui.Scaffold:
    all_cards = ctx.state["cards"]
    card = _find(all_cards, ctx.params.get("id"), "card")

    def make_default() -> None:
        for other in all_cards:
            other["default"] = other is card
        ctx.toast(ctx.t("Default card updated"))

    def remove() -> None:
        all_cards.remove(card)
        if card["default"] and all_cards:
            all_cards[0]["default"] = True
        ctx.local["removing"] = False
        ctx.back()
        ctx.toast(ctx.t("Card removed"))

    kind = ctx.t(CARD_KINDS[card["kind"]])
    rows: list[ui.View | None] = [
        inset(ui.Card([ui.Text(card["bank"], size=20, bold=True, rid="card_detail_bank"),
                       ui.Text(kind, size=14, color="muted"),
                       ui.Text(f"•••• •••• •••• {card['last4']}", size=20, rid="card_number")]), MARGIN - 12, MARGIN - 12),
        _detail_row(ctx.t("Default card"), ctx.t("Yes") if card["default"] else ctx.t("No"),
                    "card_default"),
        ui.Row([None if card["default"] else ui.Button(ctx.t("Set as default"), make_default,
                                                       rid="set_default", flex=1)], pad=16),
        ui.Row([ui.Button(ctx.t("Remove card"), lambda: ctx.local.update(removing=True), style="outlined",
                          rid="remove_card", flex=1)], pad=16),
    ]
    dialog = None
    if ctx.local.get("removing"):
        dialog = ui.Dialog(ctx.t("Remove {bank} card ending {last4}?", bank=card['bank'], last4=card['last4']),
                           [ui.Text(ctx.t("You can add it again later."), max_lines=2)],
                           [ui.Button(ctx.t("Cancel"), lambda: ctx.local.update(removing=False), style="text",
                                      rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Remove"), remove, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: ctx.local.update(removing=False))
    return ui.Scaffold(ui.ScrollList(rows, rid="card_detail"), top=ui.TopBar(ctx.t("Card details"),
                                                                            on_back=ctx.back), dialog=dialog)
