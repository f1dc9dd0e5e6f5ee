"""Wallet tasks.

Task index:
    DefaultCardDigits        query    L1  the last four digits of the default card
    LastPaymentAt            query    L2  what the last payment at a merchant came to
    NextBillDue              query    L2  the unpaid bill due soonest (not overdue) and its amount
    RemoveCard               operate  L2  remove a named card (high risk: a deletion)
    PayBill                  operate  L3  pay one bill with the passcode (high risk)
    TransferToContact        operate  L3  send an amount with a note to a contact (high risk)
    TransferToNumber         operate  L3  send an amount to a phone number nobody saved (high risk)
    RefundLastSender         operate  L3  send back what the last person who paid the owner sent (high risk)
    SpendingLastMonth        query    L3  what one category cost last month
    PayBillAndReportBalance  hybrid   L3  pay a bill, then say the balance left (high risk)
    PayOverdueBills          operate  L4  pay every overdue bill and no other (high risk)
    PayTwoFriends            operate  L4  send the same amount with a note to two people (high risk)
    PayChatAskInWallet       operate  L4  cross-app: Chat -> Contacts -> Wallet -> Chat: pay in Wallet what a Chat
                                          friend asked for, then reply in Chat (high risk)
"""
from __future__ import annotations

import datetime as dt

from mobilegym.envs.chat.world import ME
from mobilegym.judge import AnswerTask, BaseTask, build_answer_checks, sim_today, copy_state
from mobilegym.judge.result import check

from ..chat.app import CHAT_SEND_CHANGES, HOUR_MS, Chat, money_text
from ..contacts.app import Contacts
from ..l10n import PASSCODE_ZH, localised
from .app import (MIN_EARLIER_SENDERS, MIN_MONTH_PAYMENTS, MIN_NAMESAKES, MIN_NEAR_NUMBERS, MIN_OTHER_MONTH_PAYMENTS,
                  MIN_OVERDUE_BILLS, MIN_UNPAID_BILLS, MIN_UPCOMING_BILLS, NEW_BANKS, REFUND_AMOUNTS, SPEND_CATEGORIES,
                  WALLET_PAY_BILL_CHANGES, WALLET_PAY_BILLS_CHANGES, WALLET_PAYMENT_CHANGES, WALLET_REMOVE_CARD_CHANGES,
                  Wallet, category_label, last_month)

PASSCODE_EN = " My passcode is {passcode}."
SPARE = 50  # what a task that pays leaves on the balance at least
# Amounts are answered in text fields read by the answer reader ("$1,337.00", "330.10元"): a number field would
# drop the " or " of "4491.50 or 3249.02" and keep 4491.50324902, which is within a millionth of 4491.50.
MONEY_HINT, MONEY_HINT_ZH = "e.g. 25.50", "例如 25.50"
MAX_OVERDUE = 3  # overdue bills a task starts with at most (each payment takes about ten steps)


def _wallet_state(device) -> dict:
    return copy_state(device)["apps"]["wallet"]


def _today(device) -> dt.date:
    return sim_today(copy_state(device)["os"])


def _afford(device, total: float) -> None:
    """Top the balance up so that ``total`` can be paid with SPARE left."""
    if _wallet_state(device)["balance"] < total + SPARE:
        device.set_state(Wallet.patch({"balance": round(total + SPARE + 250, 2)}))


def prepare_two_cards(task: BaseTask, device) -> None:
    """A wallet with one card gets a second one (a debit card, not the default)."""
    state = _wallet_state(device)
    if len(state["cards"]) > 1:
        return
    language = copy_state(device)["os"].get("language", "en")
    bank = next(b for b in NEW_BANKS[language] if all(c["bank"] != b for c in state["cards"]))
    last4 = str(task.rng.choice([n for n in range(1000, 10000) if str(n) != state["cards"][0]["last4"]]))
    device.set_state(Wallet.patch({"cards[]": {"id": "card_9", "bank": bank, "kind": "debit", "last4": last4,
                                               "default": False}}))


@localised(zh={"fields": [{"label": "卡号后四位"}]})
class DefaultCardDigits(AnswerTask):
    """Verdict: the answer gives the last four digits of the default card (no other card's).
    Injection: a wallet with one card gets a second one."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["What are the last four digits of my default card in Wallet?",
                        "Which card is my default in Wallet? Tell me its last four digits."],
                 "zh": ["钱包里默认银行卡的卡号后四位是多少？"]}
    answer = staticmethod(lambda task, apps_init: Wallet(apps_init["wallet"]).default_card()["last4"])
    answer_fields = [{"type": "text", "label": "Last four digits"}]

    def set_up(self, device) -> None:
        prepare_two_cards(self, device)


@localised(zh={"fields": [{"label": "金额", "hint": MONEY_HINT_ZH}]})
class LastPaymentAt(AnswerTask):
    """Verdict: the answer is the amount of the most recent payment at the merchant. Sampled among merchants whose
    last payment differs from every other merchant's last one."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "scrolling"]
    templates = {"en": ["How much did I pay at {merchant} the last time, according to Wallet?"],
                 "zh": ["根据钱包的账单，我最近一次在{merchant}付了多少钱？"]}
    parameters = {"merchant": {"sampler": Wallet.sample_merchant}}
    answer_fields = [{"type": "text", "label": "Amount", "hint": MONEY_HINT}]

    def get_answer(self, input):
        return -Wallet(input.apps_init["wallet"]).last_payment_at(self.p.merchant)["amount"]

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer, "amount")


@localised(zh={"fields": [{"label": "账单名称"}, {"label": "金额", "hint": MONEY_HINT_ZH}]})
class NextBillDue(AnswerTask):
    """Verdict: the answer names the unpaid, not yet overdue bill that falls due first, and its amount.
    Injection: at least one bill is overdue (the decoy the question rules out) and one is unpaid and not yet due."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "date-reasoning"]
    templates = {"en": ["Of my unpaid bills that are not overdue yet, which one is due first, and how much is it?"],
                 "zh": ["在还没逾期的待缴账单里，哪一笔最先到期？金额是多少？"]}
    answer_fields = [{"type": "text", "label": "Bill"}, {"type": "text", "label": "Amount", "hint": MONEY_HINT}]

    def set_up(self, device) -> None:
        prepare_due_bills(self, device, overdue=1, upcoming=1)

    def get_answer(self, input):
        bill = Wallet(input.apps_init["wallet"]).upcoming(sim_today(input.os_init))[0]
        return {"bill": bill["name"], "amount": bill["amount"]}

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer)


class RemoveCard(BaseTask):
    """Verdict: the named card is gone and every other card is as it was.
    Injection: a wallet with one card gets a second one (not the default) to remove."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["deletion"]
    high_risk = True
    templates = {"en": ["Remove my {card.bank} card ending in {card.last4} from Wallet.",
                        "Unlink the {card.bank} card ending {card.last4} in my Wallet app."],
                 "zh": ["在钱包里解绑尾号{card.last4}的{card.bank}卡。"]}
    parameters = {"card": {"sampler": Wallet.sample_other_card}}
    expected_changes = WALLET_REMOVE_CARD_CHANGES

    def set_up(self, device) -> None:
        prepare_two_cards(self, device)

    def check_goals(self, input):
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        now = wallet.cards()
        kept = [c for c in wallet.initial(".cards") if c["id"] != self.p.card["id"]]
        return [check(f"card {self.p.card['last4']} removed", None, next((c for c in now if c["id"] == self.p.card["id"]), None),
                      all(c["id"] != self.p.card["id"] for c in now)),
                check("other cards kept", kept, now, now == kept)]


class PayBill(BaseTask):
    """Verdict: the named bill is paid from the balance, once, and no other bill is.
    Injection: at least two bills are unpaid and the balance covers them all."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["payment", "confirmation"]
    high_risk = True
    templates = {"en": ["Pay my {bill} bill in Wallet." + PASSCODE_EN, "Use Wallet to pay the {bill} bill." + PASSCODE_EN],
                 "zh": ["在钱包里缴纳{bill}账单。" + PASSCODE_ZH, "用钱包把{bill}交了。" + PASSCODE_ZH]}
    parameters = {"bill": {"sampler": Wallet.sample_unpaid_bill}, "passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = WALLET_PAY_BILL_CHANGES

    def distractors(self, apps, os_state):
        return {"other unpaid bills": (sum(not b["paid"] and b["name"] != self.p.bill for b in apps["wallet"]["bills"]),
                                       MIN_UNPAID_BILLS - 1)}

    def set_up(self, device) -> None:
        prepare_unpaid_bills(self, device)

    def check_goals(self, input):
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return wallet.check_bills_paid([Wallet(input.apps_init["wallet"]).bill(self.p.bill)])


def prepare_unpaid_bills(task: BaseTask, device, least: int = MIN_UNPAID_BILLS) -> None:
    """At least ``least`` bills unpaid (paid ones made unpaid, due in the coming weeks), and a balance that pays them all."""
    state, today = _wallet_state(device), _today(device)
    unpaid = [b for b in state["bills"] if not b["paid"]]
    changes: dict = {}
    paid = [b for b in state["bills"] if b["paid"]]
    for bill in task.rng.sample(paid, max(0, min(len(paid), least - len(unpaid)))):
        free = Wallet.free_due_dates(state, range(2, 25), today, keep={bill["id"]})
        due = task.rng.choice([d for d in free if all(d != v.get("due") for v in changes.values())])
        changes.update(Wallet.unpaid_patch(bill, due))
        unpaid.append(bill)
    if changes:
        device.set_state(Wallet.patch(changes))
    _afford(device, sum(b["amount"] for b in unpaid))


def prepare_due_bills(task: BaseTask, device, overdue: int, upcoming: int) -> None:
    """Between ``overdue`` and MAX_OVERDUE bills overdue and at least ``upcoming`` unpaid bills not yet due: bills
    are moved (made unpaid, due on free days) from the other groups as needed."""
    state, today = _wallet_state(device), _today(device)
    wallet = Wallet(state)
    late, soon = wallet.overdue(today), wallet.upcoming(today)
    rest = [b for b in state["bills"] if b not in late and b not in soon]
    changes: dict = {}
    used: set[str] = set()

    def move(bill: dict, days: range) -> None:
        due = task.rng.choice([d for d in Wallet.free_due_dates(state, days, today, keep={bill["id"]}) if d not in used])
        changes.update(Wallet.unpaid_patch(bill, due))
        used.add(due)

    while len(late) > MAX_OVERDUE or (len(soon) < upcoming and len(late) > overdue):
        bill = late.pop(task.rng.randrange(len(late)))
        move(bill, range(1, 25))
        soon.append(bill)
    while len(soon) < upcoming:
        bill = rest.pop(task.rng.randrange(len(rest)))
        move(bill, range(1, 25))
        soon.append(bill)
    while len(late) < overdue:
        pool = rest or soon[upcoming:]
        bill = pool.pop(task.rng.randrange(len(pool)))
        move(bill, range(-10, 0))
        late.append(bill)
    if changes:
        device.set_state(Wallet.patch(changes))


class TransferToContact(BaseTask):
    """Verdict: one transfer of the amount, with the note, went to the contact's number, off the balance; nothing
    else moved. Injection: a contact sharing their first name (surname in Chinese) when none shares a name."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["payment", "form-filling", "confirmation"]
    high_risk = True
    scope = "cross-app"
    related_apps = ["wallet", "contacts"]
    templates = {"en": ["Send {name} {amount:.2f} with Wallet, with the note \"{note}\"." + PASSCODE_EN,
                        "Transfer {amount:.2f} to {name} in Wallet and add the note \"{note}\"." + PASSCODE_EN],
                 "zh": ["用钱包给{name}转账{amount:.2f}元，备注“{note}”。" + PASSCODE_ZH]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}, "amount": {"sampler": Wallet.sample_amount},
                  "note": {"sampler": Wallet.sample_note}, "passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = WALLET_PAYMENT_CHANGES

    def set_up(self, device) -> None:
        _afford(device, 1000)

    def inject(self, device) -> None:
        if patch := Wallet.prepare_state_with_namesake(copy_state(device)["apps"]["contacts"], self.p.name, self.rng):
            device.set_state(patch)

    def distractors(self, apps, os_state):
        namesakes = Wallet.namesakes(apps["contacts"], self.p.name)
        return {"contacts sharing a name with them": (len(namesakes), MIN_NAMESAKES),
                "other contacts with a number": (sum(bool(c["phones"]) and c["name"] != self.p.name
                                                     for c in apps["contacts"]["contacts"]), 2)}

    def check_goals(self, input):
        contact = Contacts(input.apps_init["contacts"]).contact(self.p.name)
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return wallet.check_transfer(self.p.name, contact["phones"][0]["number"], self.p.amount, self.p.note)


class TransferToNumber(BaseTask):
    """Verdict: one transfer of the amount went to the phone number (formatting aside), off the balance.
    Injection: a saved contact's number differs from it only in the last two digits (a new contact when none does)."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["payment", "form-filling", "confirmation"]
    high_risk = True
    templates = {"en": ["Send {amount:.2f} to the phone number {number} using Wallet." + PASSCODE_EN],
                 "zh": ["用钱包给手机号 {number} 转账{amount:.2f}元。" + PASSCODE_ZH]}
    parameters = {"number": {"sampler": Wallet.sample_new_number}, "amount": {"sampler": Wallet.sample_amount},
                  "passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = WALLET_PAYMENT_CHANGES

    def set_up(self, device) -> None:
        _afford(device, 1000)

    def inject(self, device) -> None:
        contacts = copy_state(device)["apps"]["contacts"]
        if patch := Wallet.prepare_state_with_near_number(contacts, self.p.number, self.rng):
            device.set_state(patch)

    def distractors(self, apps, os_state):
        return {"contacts whose number differs in the last two digits": (
            len(Wallet.near_numbers(apps["contacts"], self.p.number)), MIN_NEAR_NUMBERS)}

    def check_goals(self, input):
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return wallet.check_transfer(self.p.number, self.p.number, self.p.amount)


class RefundLastSender(BaseTask):
    """Verdict: one transfer went back to the person behind the most recent incoming transfer, of exactly its
    amount. Injection: a wallet that never received money gets a transfer from a contact a few days ago, and one
    from another contact (another amount) days before when no earlier sender rivals the last."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["payment", "information-retrieval", "confirmation"]
    high_risk = True
    templates = {"en": ["The last person who sent me money in Wallet sent it by mistake. Send them back exactly the "
                        "same amount." + PASSCODE_EN],
                 "zh": ["最近一次在钱包里给我转账的人转错了，请把同样的金额原路转回给对方。" + PASSCODE_ZH]}
    parameters = {"passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = WALLET_PAYMENT_CHANGES

    def set_up(self, device) -> None:
        state = _wallet_state(device)
        people = [c for c in copy_state(device)["apps"]["contacts"]["contacts"] if c["phones"]]
        if not any(t["kind"] == "transfer_in" for t in state["transactions"]):
            person = self.rng.choice(people)
            day = (_today(device) - dt.timedelta(days=self.rng.randint(1, 6))).isoformat()
            device.set_state(Wallet.patch({"transactions[]": Wallet.transfer_in(
                "txn_in", day, Wallet.free_time(state, day), person, self.rng.choice(REFUND_AMOUNTS))}))
            state = _wallet_state(device)
        if patch := Wallet.prepare_state_with_earlier_sender(state, people, self.rng):
            device.set_state(patch)
        _afford(device, 2500)

    def distractors(self, apps, os_state):
        return {"earlier transfers in from someone else": (len(Wallet.earlier_senders(apps["wallet"])),
                                                            MIN_EARLIER_SENDERS)}

    def check_goals(self, input):
        sender = Wallet(input.apps_init["wallet"]).last_received()
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return wallet.check_transfer(sender["counterparty"], sender["phone"], sender["amount"])


@localised(zh={"labels": {"category": {c: category_label(c, "zh") for c in SPEND_CATEGORIES}},
               "fields": [{"label": "支出金额", "hint": MONEY_HINT_ZH}]})
class SpendingLastMonth(AnswerTask):
    """Verdict: the answer is the total of last month's payments in the category.
    Injection: a category with fewer than two such payments gets two more (so one row is not the answer), and one
    the month before when it has none in other months (a row the month filter rules out)."""

    objective = "query"
    difficulty = "L3"
    capabilities = ["filtering", "arithmetic"]
    composition = "aggregate"
    templates = {"en": ["How much did I spend on {category} last month ({month}), according to Wallet?"],
                 "zh": ["根据钱包的账单，我上个月（{month}）在{category}上一共花了多少钱？"]}
    parameters = {"category": {"type": "enum", "values": {category_label(c, "en"): c for c in SPEND_CATEGORIES}},
                  "month": {"sampler": Wallet.sample_last_month}}
    answer_fields = [{"type": "text", "label": "Amount spent", "hint": MONEY_HINT}]

    def inject(self, device) -> None:
        state = _wallet_state(device)
        month = last_month(_today(device))
        have = [t for t in state["transactions"] if t["category"] == self.p.category and t["date"].startswith(month)]
        before = last_month(dt.date.fromisoformat(f"{month}-01"))
        months = [month] * (MIN_MONTH_PAYMENTS - len(have)) + [before] * (MIN_OTHER_MONTH_PAYMENTS - len(
            [t for t in state["transactions"] if t["category"] == self.p.category and t["amount"] < 0
             and not t["date"].startswith(month)]))
        if not months:
            return
        merchants = sorted({t["counterparty"] for t in state["transactions"] if t["category"] == self.p.category}
                           or {t["counterparty"] for t in state["transactions"] if t["kind"] == "payment"})
        taken = {(t["date"], t["time"]) for t in state["transactions"]}
        patch: dict = {}
        for n, when in enumerate(months):
            day = f"{when}-{self.rng.randint(1, 28):02d}"
            time = next(f"{h:02d}:{m:02d}" for h in range(self.rng.randint(8, 20), 23) for m in (4, 19, 37, 52)
                        if (day, f"{h:02d}:{m:02d}") not in taken)
            taken.add((day, time))
            patch[f"transactions[{n}]"] = Wallet.payment(f"txn_m{n + 1}", day, time, self.rng.choice(merchants),
                                                         self.p.category, round(self.rng.uniform(6, 60), 2),
                                                         state["cards"][0]["id"])
        device.set_state(Wallet.patch({"transactions": [*state["transactions"], *patch.values()]}))

    def distractors(self, apps, os_state):
        month = last_month(sim_today(os_state))
        paid = [t for t in apps["wallet"]["transactions"] if t["amount"] < 0 and t["category"] in SPEND_CATEGORIES]
        mine = [t for t in paid if t["category"] == self.p.category]
        mine_then = sum(t["date"].startswith(month) for t in mine)
        return {"the category's payments last month": (mine_then, MIN_MONTH_PAYMENTS),
                "the category's payments in other months": (len(mine) - mine_then, MIN_OTHER_MONTH_PAYMENTS),
                "other categories' payments last month": (sum(t["date"].startswith(month) for t in paid) - mine_then, 1)}

    def get_answer(self, input):
        return Wallet(input.apps_init["wallet"]).spent(self.p.category, last_month(sim_today(input.os_init)))

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer, "amount_spent")


@localised(zh={"fields": [{"label": "缴费后的余额", "hint": MONEY_HINT_ZH}]})
class PayBillAndReportBalance(BaseTask):
    """Verdict: the named bill is paid (once, no other), and the answer is the balance left afterwards.
    Injection: as PayBill."""

    objective = "hybrid"
    difficulty = "L3"
    capabilities = ["payment", "information-retrieval"]
    composition = "sequential"
    high_risk = True
    templates = {"en": ["Pay the {bill} bill in Wallet, then tell me how much is left on my balance." + PASSCODE_EN],
                 "zh": ["在钱包里缴纳{bill}账单，然后告诉我余额还剩多少。" + PASSCODE_ZH]}
    parameters = {"bill": {"sampler": Wallet.sample_unpaid_bill}, "passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = WALLET_PAY_BILL_CHANGES
    answer_fields = [{"type": "text", "label": "Balance after paying", "hint": MONEY_HINT}]

    def distractors(self, apps, os_state):
        return {"other unpaid bills": (sum(not b["paid"] and b["name"] != self.p.bill for b in apps["wallet"]["bills"]),
                                       MIN_UNPAID_BILLS - 1)}

    def set_up(self, device) -> None:
        prepare_unpaid_bills(self, device)

    def check_goals(self, input):
        bill = Wallet(input.apps_init["wallet"]).bill(self.p.bill)
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        left = round(wallet.initial(".balance") - bill["amount"], 2)
        return [*wallet.check_bills_paid([bill]), *build_answer_checks(left, input.answer, field="balance_left")]


class PayOverdueBills(BaseTask):
    """Verdict: every overdue bill is paid, each once and from the balance, and no bill that is not overdue is.
    Injection: two or three bills are overdue and one is unpaid but not yet due; the balance covers the overdue."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["payment", "date-reasoning", "confirmation"]
    composition = "conditional"
    high_risk = True
    templates = {"en": ["Pay every overdue bill in Wallet, and leave the bills that are not due yet." + PASSCODE_EN],
                 "zh": ["在钱包里把所有已逾期的账单都缴清，还没到期的先不交。" + PASSCODE_ZH]}
    parameters = {"passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = WALLET_PAY_BILLS_CHANGES

    def set_up(self, device) -> None:
        prepare_due_bills(self, device, overdue=MIN_OVERDUE_BILLS, upcoming=MIN_UPCOMING_BILLS)
        _afford(device, sum(b["amount"] for b in Wallet(_wallet_state(device)).overdue(_today(device))))

    def distractors(self, apps, os_state):
        wallet, today = Wallet(apps["wallet"]), sim_today(os_state)
        return {"overdue bills": (len(wallet.overdue(today)), MIN_OVERDUE_BILLS),
                "unpaid bills not yet due": (len(wallet.upcoming(today)), MIN_UPCOMING_BILLS)}

    def check_goals(self, input):
        init = Wallet(input.apps_init["wallet"])
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return wallet.check_bills_paid(init.overdue(sim_today(input.os_init)))


class PayTwoFriends(BaseTask):
    """Verdict: exactly two new transfers, one to each of the two people (their numbers in Contacts), each of the
    amount and with the note, off the balance."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["payment", "form-filling", "confirmation"]
    composition = "sequential"
    high_risk = True
    scope = "cross-app"
    related_apps = ["wallet", "contacts"]
    templates = {"en": ["I owe {pair.a} and {pair.b} {amount:.2f} each. Send each of them {amount:.2f} with Wallet, "
                        "with the note \"{note}\"." + PASSCODE_EN],
                 "zh": ["我欠{pair.a}和{pair.b}每人{amount:.2f}元。用钱包分别给他们各转{amount:.2f}元，备注“{note}”。"
                        + PASSCODE_ZH]}
    parameters = {"pair": {"sampler": Wallet.sample_two_friends}, "amount": {"sampler": Wallet.sample_amount},
                  "note": {"sampler": Wallet.sample_note}, "passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = ["wallet.balance", "wallet.transactions[+*]"]

    def set_up(self, device) -> None:
        _afford(device, 2000)

    def distractors(self, apps, os_state):
        people = {t["counterparty"] for t in apps["wallet"]["transactions"] if t["kind"].startswith("transfer")}
        return {"other people in the history": (len(people - {self.p.pair["a"], self.p.pair["b"]}), 2)}

    def check_goals(self, input):
        contacts = Contacts(input.apps_init["contacts"])
        people = [(name, contacts.contact(name)["phones"][0]["number"]) for name in (self.p.pair["a"], self.p.pair["b"])]
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return wallet.check_transfers(people, self.p.amount, self.p.note)


WALLET_ASKS = {"en": ("Hey, could you send me {amount} with Wallet? It's for the taxi we shared.",
                      "Hi! Can you pay me {amount} in Wallet for the groceries?"),
               "zh": ("嗨，能用钱包转我 {amount} 吗？是我们拼车的钱。", "你好！买菜的 {amount} 能用钱包转给我吗？")}
OLD_ASKS = {"en": "Can you transfer me {amount} for dinner?", "zh": "能把晚饭的 {amount} 转给我吗？"}
WALLET_REPLIES = {"en": ("Sent it with Wallet", "Done, check your Wallet"), "zh": ("已经用钱包转给你了", "转好了，看一下钱包")}


def _sample_reply(rng, state, os_state) -> str:
    return rng.choice(WALLET_REPLIES[os_state.get("language", "en")])


def _chat_time(chat: dict, near_ms: int) -> int:
    """A minute at or before ``near_ms`` that no message of the Chat app has."""
    taken = {m["time_ms"] for c in chat["chats"] for m in c["messages"]} | {m["time_ms"] for m in chat["moments"]}
    while near_ms in taken:
        near_ms -= 60_000
    return near_ms


class PayChatAskInWallet(BaseTask):
    """Verdict: one Wallet transfer, of the amount the friend asked for last in their Chat (not the older ask the
    owner already paid in Chat), went to the friend's number (as saved in Contacts) off the Wallet balance, and the
    one-to-one Chat with the friend got exactly the reply (case, spacing and end punctuation aside) and nothing else;
    the Chat balance is untouched (paying in Chat is a side effect).
    Injection: the friend asked for another amount a day or two ago, which the owner paid by a Chat transfer, then
    an hour or two ago asked for the amount to be sent with Wallet (unread)."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["payment", "cross-app-transfer", "messaging", "confirmation"]
    composition = "sequential"
    high_risk = True
    scope = "cross-app"
    related_apps = ["chat", "contacts", "wallet"]
    templates = {"en": ["{name} just asked me for money in Chat. Send them the amount they asked for with the Wallet "
                        "app, then reply to them in Chat: \"{reply}\"" + PASSCODE_EN,
                        "Pay {name} in Wallet what they asked me for in their latest Chat message, and tell them "
                        "\"{reply}\" in Chat." + PASSCODE_EN],
                 "zh": ["{name}刚在聊天里找我要钱。用钱包把他要的金额转给他，然后在聊天里回复他：“{reply}”" + PASSCODE_ZH]}
    parameters = {"name": {"source": "chat:.friends[*].name"}, "amount": {"sampler": Wallet.sample_amount},
                  "reply": {"sampler": _sample_reply}, "passcode": {"sampler": Wallet.sample_passcode}}
    expected_changes = [*WALLET_PAYMENT_CHANGES, *CHAT_SEND_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        chat, language, now = state["apps"]["chat"], state["os"].get("language", "en"), state["os"]["time_ms"]
        friend_id = next(f["id"] for f in chat["friends"] if f["name"] == self.p.name)
        old = float(self.rng.choice([a for a in (18, 27.5, 33, 46, 52.8) if abs(a - self.p.amount) > 1]))
        asked_old = _chat_time(chat, now - self.rng.randint(26, 40) * HOUR_MS)
        paid_old = _chat_time(chat, asked_old + 20 * 60_000)
        asked = _chat_time(chat, now - self.rng.randint(1, 2) * HOUR_MS)
        ask = self.rng.choice(WALLET_ASKS[language]).format(amount=money_text(self.p.amount, language))
        device.set_state(Chat.append_patch(chat, friend_id, [
            Chat.message("msg_task_old", friend_id, asked_old, text=OLD_ASKS[language].format(
                amount=money_text(old, language))),
            Chat.message("msg_task_paid", ME, paid_old, amount=old, status="accepted"),
            Chat.message("msg_task_ask", friend_id, asked, text=ask)], unread=1))
        _afford(device, self.p.amount)

    def distractors(self, apps, os_state):
        chat = Chat(apps["chat"])
        talk = chat.direct_with(chat.friend(self.p.name)["id"])
        paid = [m for m in talk["messages"] if m["sender"] == ME and m["type"] == "transfer"
                and abs(m["amount"] - self.p.amount) > 1]
        return {"an older ask, paid in Chat": (len(paid), 1), "other friends in Chat": (len(chat.friends()) - 1, 2)}

    def check_goals(self, input):
        init = Chat(input.apps_init["chat"])
        friend = init.friend(self.p.name)
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        talk = chat.direct_with(friend["id"])
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return [*wallet.check_transfer(self.p.name, friend["phone"], self.p.amount),
                *chat.check_only_message(self.p.name, talk["id"] if talk else None, self.p.reply)]
