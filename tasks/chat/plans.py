"""Scripted plans for the Chat suite: an oracle and realistic mistakes per task."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver, PlanError, negative, plan

from ..contacts.ui import collect, open_contact
from ..messages.ui import new_chat
from .ui import ASKED, chat_amount, open_chat, open_friend_chat, send_in_chat

BUBBLE = re.compile(r"^(.*) [$¥]([\d,]+\.\d\d) (.*) (\d{4}-\d\d-\d\d \d\d:\d\d)$")
WALLET_ROW = re.compile(r"^(.*) ([+-])[$¥]([\d,]+\.\d\d) (\d{4}-\d\d-\d\d) (\d\d:\d\d)$")


def _open_chat(d: Driver, title: str) -> None:
    """From the chats list: the chat titled ``title``."""
    d.tap(rid="chat_item", desc=title)


def _pin(d: Driver, code: str) -> None:
    for digit in code:
        d.tap(rid=f"pin_{digit}")


def _wrong(code: str) -> str:
    return code[:-1] + str((int(code[-1]) + 1) % 10)


def _transfer(d: Driver, amount: float, passcode: str, finish: bool = True) -> None:
    """In a one-to-one chat: transfer ``amount``, confirm and enter the passcode."""
    d.tap(rid="transfer_button")
    d.type(f"{amount:.2f}", rid="amount_input")
    d.tap(rid="continue_button")
    d.tap(rid="button1")
    _pin(d, passcode)
    if finish:
        d.complete()


def _bubbles(d: Driver) -> list[tuple[str, float, str, str]]:
    """(sender, amount, status, "YYYY-MM-DD HH:MM") of every transfer in the open chat, scrolling through it."""
    d.scroll_to_top()
    rows = []
    for node in collect(d, "transfer_bubble"):
        found = BUBBLE.match(node.desc)
        if found is None:
            raise PlanError(f"not a transfer: {node.desc!r}")
        rows.append((found.group(1), float(found.group(2).replace(",", "")), found.group(3), found.group(4)))
    return rows


def _chat_rows(d: Driver) -> dict[str, bool]:
    """Title -> has unread messages, for every chat of the list (scrolling through it)."""
    seen: dict[str, bool] = {}
    for _ in range(40):
        nodes = d.nodes()
        badges = [n.center[1] for n in nodes if n.short_id == "unread_badge"]
        for n in nodes:  # a row cut off at the list's edge may hide its badge: any sight of one counts
            if n.short_id == "chat_item":
                seen[n.desc] = seen.get(n.desc, False) or any(n.bounds[1] <= y <= n.bounds[3] for y in badges)
        if not d.scroll(1):
            break
    d.scroll_to_top()
    return seen


def _group_titles(d: Driver) -> list[str]:
    open_chat(d, 1)
    d.tap(rid="group_chats")
    titles = [n.desc for n in collect(d, "group_item")]
    d.key("back")
    d.tap(rid="tab_0")
    return titles


def _me(d: Driver) -> str:
    return d.t("Me", "我")


# --- counting and reading ------------------------------------------------------------------------------------

@plan("chat.CountUnreadGroups")
def count_unread_groups(d: Driver) -> None:
    open_chat(d)
    groups = _group_titles(d)
    rows = _chat_rows(d)
    d.submit_answer([sum(1 for title in groups if rows.get(title))])
    d.complete()


@negative("chat.CountUnreadGroups", "counts every unread chat, one-to-one ones too")
def count_all_unread(d: Driver) -> None:
    open_chat(d)
    d.submit_answer([sum(_chat_rows(d).values())])
    d.complete()


def _transactions(d: Driver) -> list[tuple[str, str]]:
    """(name, signed amount) of Me > Transactions, newest first."""
    open_chat(d, 3)
    d.tap(rid="transactions")
    return [tuple(n.desc.rsplit(" ", 3)[:2]) for n in collect(d, "txn_item")]


@plan("chat.LastTransferSender")
def last_transfer_sender(d: Driver) -> None:
    d.submit_answer([next(name for name, amount in _transactions(d) if amount.startswith("+"))])
    d.complete()


@negative("chat.LastTransferSender", "names the latest transfer's person, one the owner sent")
def last_transfer_any(d: Driver) -> None:
    d.submit_answer([_transactions(d)[0][0]])
    d.complete()


@plan("chat.TotalSentTo")
def total_sent_to(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    d.submit_answer([f"{sum(a for who, a, _, _ in _bubbles(d) if who == _me(d)):.2f}"])
    d.complete()


@negative("chat.TotalSentTo", "adds what the friend sent too")
def total_both_ways(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    d.submit_answer([f"{sum(a for _, a, _, _ in _bubbles(d)):.2f}"])
    d.complete()


@negative("chat.TotalSentTo", "gives only the latest transfer")
def total_latest_only(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    d.submit_answer([f"{[a for who, a, _, _ in _bubbles(d) if who == _me(d)][-1]:.2f}"])
    d.complete()


@plan("chat.balance")
def balance(d: Driver) -> None:
    open_chat(d, 3)
    d.submit_answer([f"{chat_amount(d.find(rid='balance_amount').text):.2f}"])
    d.complete()


@negative("chat.balance", "misreads the last digit")
def balance_transfer(d: Driver) -> None:
    open_chat(d, 3)
    d.submit_answer([f"{chat_amount(d.find(rid='balance_amount').text) + 0.01:.2f}"])
    d.complete()


# --- messages and chats --------------------------------------------------------------------------------------

@plan("chat.ReplyInGroup")
def reply_in_group(d: Driver) -> None:
    open_chat(d)
    _open_chat(d, d.params["group"])
    send_in_chat(d, d.params["text"])
    d.complete()


@negative("chat.ReplyInGroup", "sends it in another group")
def reply_in_other_group(d: Driver) -> None:
    open_chat(d)
    other = next(g for g in _group_titles(d) if g != d.params["group"])
    _open_chat(d, other)
    send_in_chat(d, d.params["text"])
    d.complete()


@negative("chat.ReplyInGroup", "types the message but never sends it")
def reply_unsent(d: Driver) -> None:
    open_chat(d)
    _open_chat(d, d.params["group"])
    d.type(d.params["text"], rid="message_input")
    d.complete()


@plan("chat.DeleteChat")
def delete_chat(d: Driver) -> None:
    open_chat(d)
    d.long_press(rid="chat_item", desc=d.params["name"])
    d.tap(rid="button1")
    d.complete()


@negative("chat.DeleteChat", "cancels the confirmation")
def delete_chat_cancelled(d: Driver) -> None:
    open_chat(d)
    d.long_press(rid="chat_item", desc=d.params["name"])
    d.tap(rid="button2")
    d.complete()


@negative("chat.DeleteChat", "deletes another chat")
def delete_other_chat(d: Driver) -> None:
    open_chat(d)
    other = next(title for title in _chat_rows(d) if title != d.params["name"])
    d.long_press(rid="chat_item", desc=other)
    d.tap(rid="button1")
    d.complete()


@plan("chat.CreateNamedGroup")
def create_named_group(d: Driver) -> None:
    open_chat(d)
    d.tap(rid="new_group")
    d.type(d.params["name"], rid="group_name_input")
    for name in d.params["trio"].values():
        d.tap(rid="friend_check", desc=name)
    d.tap(rid="create_group")
    d.complete()


@negative("chat.CreateNamedGroup", "leaves out the third friend")
def create_group_two(d: Driver) -> None:
    open_chat(d)
    d.tap(rid="new_group")
    d.type(d.params["name"], rid="group_name_input")
    for name in list(d.params["trio"].values())[:2]:
        d.tap(rid="friend_check", desc=name)
    d.tap(rid="create_group")
    d.complete()


@negative("chat.CreateNamedGroup", "creates the group without naming it")
def create_group_unnamed(d: Driver) -> None:
    open_chat(d)
    d.tap(rid="new_group")
    for name in d.params["trio"].values():
        d.tap(rid="friend_check", desc=name)
    d.tap(rid="create_group")
    d.complete()


# --- moments -------------------------------------------------------------------------------------------------

def _like_desc(d: Driver, name: str) -> str:
    return d.t(f"Like {name}'s moment", f"赞{name}的朋友圈")


def _comment_desc(d: Driver, name: str) -> str:
    return d.t(f"Comment on {name}'s moment", f"评论{name}的朋友圈")


def _other_author(d: Driver, name: str) -> str:
    """Another friend with a moment in the feed."""
    you = d.t("Me", "我")
    for node in collect(d, "moment_author"):
        if node.text not in (name, you):
            d.scroll_to_top()
            return node.text
    raise PlanError("no other friend posted a moment")


@plan("chat.LikeLatestMoment")
def like_latest_moment(d: Driver) -> None:
    open_chat(d, 2)
    d.tap(rid="like_button", desc=_like_desc(d, d.params["name"]))
    d.complete()


@negative("chat.LikeLatestMoment", "likes another friend's moment")
def like_other_moment(d: Driver) -> None:
    open_chat(d, 2)
    d.tap(rid="like_button", desc=_like_desc(d, _other_author(d, d.params["name"])))
    d.complete()


@negative("chat.LikeLatestMoment", "taps like twice")
def like_twice(d: Driver) -> None:
    open_chat(d, 2)
    d.tap(rid="like_button", desc=_like_desc(d, d.params["name"]))
    d.tap(rid="like_button", desc=_like_desc(d, d.params["name"]))
    d.complete()


def _comment(d: Driver, name: str, text: str) -> None:
    open_chat(d, 2)
    d.tap(rid="comment_button", desc=_comment_desc(d, name))
    d.type(text, rid="comment_input")
    d.tap(rid="send_comment")
    d.complete()


@plan("chat.CommentOnLatestMoment")
def comment_latest(d: Driver) -> None:
    _comment(d, d.params["name"], d.params["text"])


@negative("chat.CommentOnLatestMoment", "comments on another friend's moment")
def comment_other(d: Driver) -> None:
    open_chat(d, 2)
    other = _other_author(d, d.params["name"])
    _comment(d, other, d.params["text"])


@negative("chat.CommentOnLatestMoment", "comments other words")
def comment_wrong_words(d: Driver) -> None:
    _comment(d, d.params["name"], d.t("Nice", "不错"))


def _post(d: Driver, text: str) -> None:
    open_chat(d, 2)
    d.tap(rid="post_moment")
    d.type(text, rid="moment_input")
    d.tap(rid="publish_moment")
    d.complete()


@plan("chat.PostMoment")
def post_moment(d: Driver) -> None:
    _post(d, d.params["text"])


@negative("chat.PostMoment", "posts only the first word")
def post_moment_cut(d: Driver) -> None:
    text = d.params["text"]
    _post(d, text.split()[0] if " " in text else text[:2])


@negative("chat.PostMoment", "writes it but never posts")
def post_moment_unpublished(d: Driver) -> None:
    open_chat(d, 2)
    d.tap(rid="post_moment")
    d.type(d.params["text"], rid="moment_input")
    d.key("back")
    d.key("back")
    d.complete()


# --- money ---------------------------------------------------------------------------------------------------

def _asked_amount(d: Driver) -> float:
    """The amount in the last message asking for one in the open chat."""
    d.scroll_to_top()
    asked = [n.text for n in collect(d, "message_text") if ASKED.search(n.text)]
    if not asked:
        raise PlanError("no amount asked for in the chat")
    return chat_amount(asked[-1])


@plan("chat.SendRequestedTransfer")
def send_requested(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    _transfer(d, _asked_amount(d), d.params["passcode"])


@negative("chat.SendRequestedTransfer", "sends a round amount instead")
def send_requested_rounded(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    _transfer(d, _asked_amount(d) + 1, d.params["passcode"])


@negative("chat.SendRequestedTransfer", "enters a wrong passcode and gives up")
def send_requested_wrong_pin(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    _transfer(d, _asked_amount(d), _wrong(d.params["passcode"]))


@negative("chat.SendRequestedTransfer", "sends it twice")
def send_requested_twice(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    amount = _asked_amount(d)
    _transfer(d, amount, d.params["passcode"], finish=False)
    _transfer(d, amount, d.params["passcode"])


def _accept(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    d.tap(rid="transfer_bubble", contains=d.t("Tap to accept", "待收款"))
    d.tap(rid="button1")


def _balance(d: Driver) -> str:
    """Back to the tabs, then the balance on Me."""
    for _ in range(4):
        if d.find(rid="tab_3") is not None:
            break
        d.key("back")
    d.tap(rid="tab_3")
    return f"{chat_amount(d.find(rid='balance_amount').text):.2f}"


@plan("chat.AcceptTransferAndBalance")
def accept_and_balance(d: Driver) -> None:
    _accept(d)
    d.submit_answer([_balance(d)])
    d.complete()


@negative("chat.AcceptTransferAndBalance", "reports the balance from before accepting")
def accept_old_balance(d: Driver) -> None:
    open_chat(d, 3)
    before = _balance(d)
    _accept(d)
    d.submit_answer([before])
    d.complete()


@negative("chat.AcceptTransferAndBalance", "cancels the acceptance")
def accept_cancelled(d: Driver) -> None:
    open_friend_chat(d, d.params["name"])
    d.tap(rid="transfer_bubble", contains=d.t("Tap to accept", "待收款"))
    d.tap(rid="button2")
    d.submit_answer([_balance(d)])
    d.complete()


# --- cross-app -----------------------------------------------------------------------------------------------

def _sms_amount(d: Driver, name: str) -> float:
    """The amount in the last text a contact sent (Messages)."""
    d.open_app("Messages")
    d.tap(rid="conversation_item", desc=name)
    return chat_amount([n.text for n in collect(d, "message_text")][-1])


@plan("chat.PayAmountFromSms")
def pay_amount_from_sms(d: Driver) -> None:
    amount = _sms_amount(d, d.params["name"])
    open_friend_chat(d, d.params["name"])
    _transfer(d, amount, d.params["passcode"])


@negative("chat.PayAmountFromSms", "pays double (for both tickets)")
def pay_sms_double(d: Driver) -> None:
    amount = _sms_amount(d, d.params["name"])
    open_friend_chat(d, d.params["name"])
    _transfer(d, amount * 2, d.params["passcode"])


@negative("chat.PayAmountFromSms", "pays the first friend of the list")
def pay_sms_wrong_friend(d: Driver) -> None:
    amount = _sms_amount(d, d.params["name"])
    open_chat(d, 1)
    other = next(n.desc for n in collect(d, "friend_item") if n.desc != d.params["name"])
    d.scroll_to_top()
    d.tap(rid="friend_item", desc=other)
    d.tap(rid="send_message")
    _transfer(d, amount, d.params["passcode"])


def _share_number(d: Driver, person: str, text: str | None) -> None:
    open_contact(d, person)
    number = d.find(rid="phone_item").desc.split(" ", 1)[1]
    open_friend_chat(d, d.params["ask"]["friend"])
    send_in_chat(d, number)
    if text is not None:
        new_chat(d, number, text)
    d.complete()


@plan("chat.ShareNumberAndText")
def share_number_and_text(d: Driver) -> None:
    _share_number(d, d.params["ask"]["person"], d.params["ask"]["text"])


@negative("chat.ShareNumberAndText", "sends the number but never texts the person")
def share_number_only(d: Driver) -> None:
    _share_number(d, d.params["ask"]["person"], None)


@negative("chat.ShareNumberAndText", "sends the asking friend's own number")
def share_wrong_number(d: Driver) -> None:
    _share_number(d, d.params["ask"]["friend"], d.params["ask"]["text"])


def _wallet_amount(d: Driver, name: str, sign: str) -> float:
    """The latest Wallet transaction with ``name`` of a sign ("-" sent, "+" received), from the history."""
    d.open_app("Wallet")
    d.tap(rid="tab_2")
    for node in collect(d, "transaction_item", stop=lambda found: any(
            (m := WALLET_ROW.match(n.desc)) and m.group(1) == name and m.group(2) == sign for n in found)):
        found = WALLET_ROW.match(node.desc)
        if found and found.group(1) == name and found.group(2) == sign:
            return float(found.group(3).replace(",", ""))
    raise PlanError(f"no Wallet transfer with {name}")


@plan("chat.RepeatWalletTransfer")
def repeat_wallet_transfer(d: Driver) -> None:
    amount = _wallet_amount(d, d.params["name"], "-")
    open_friend_chat(d, d.params["name"])
    _transfer(d, amount, d.params["passcode"])


@negative("chat.RepeatWalletTransfer", "sends what the friend last sent the owner")
def repeat_wallet_received(d: Driver) -> None:
    amount = _wallet_amount(d, d.params["name"], "+")
    open_friend_chat(d, d.params["name"])
    _transfer(d, amount, d.params["passcode"])


def _wallet_received(d: Driver, name: str) -> list[float]:
    """The amounts of every Wallet transfer ``name`` sent the owner, newest first (the whole history)."""
    d.open_app("Wallet")
    d.tap(rid="tab_2")
    return [float(m.group(3).replace(",", "")) for n in collect(d, "transaction_item")
            if (m := WALLET_ROW.match(n.desc)) and m.group(1) == name and m.group(2) == "+"]


def _return_double(d: Driver, amount: float, reply: str | None) -> None:
    open_friend_chat(d, d.params["name"])
    _transfer(d, amount, d.params["passcode"], finish=False)
    if reply is not None:
        send_in_chat(d, reply)
    d.complete()


def _doubled(amounts: list[float]) -> float:
    twice = [a for a in amounts if amounts.count(a) > 1]
    if not twice:
        raise PlanError("no payment came twice")
    return twice[0]


@plan("chat.ReturnDoublePayment")
def return_double_payment(d: Driver) -> None:
    _return_double(d, _doubled(_wallet_received(d, d.params["name"])), d.params["reply"])


@negative("chat.ReturnDoublePayment", "sends back both payments")
def return_double_both(d: Driver) -> None:
    _return_double(d, 2 * _doubled(_wallet_received(d, d.params["name"])), d.params["reply"])


@negative("chat.ReturnDoublePayment", "returns the friend's latest payment of another amount")
def return_double_other(d: Driver) -> None:
    amounts = _wallet_received(d, d.params["name"])
    twice = _doubled(amounts)
    _return_double(d, next(a for a in amounts if a != twice), d.params["reply"])


@negative("chat.ReturnDoublePayment", "sends the money back but never says why")
def return_double_silent(d: Driver) -> None:
    _return_double(d, _doubled(_wallet_received(d, d.params["name"])), None)


# --- infeasible ----------------------------------------------------------------------------------------------

@plan("chat.record_video_call")
def record_video_call(d: Driver) -> None:
    open_chat(d)
    d.abort("Chat has no video calls, so there is nothing to record")


@negative("chat.record_video_call", "claims the call was recorded")
def record_video_call_claims(d: Driver) -> None:
    open_chat(d)
    d.complete()


@plan("chat.transfer_to_stranger")
def transfer_to_stranger(d: Driver) -> None:
    open_chat(d)
    d.abort("Chat only sends transfers to friends in a chat; it cannot pay a phone number")


@negative("chat.transfer_to_stranger", "claims the transfer was sent")
def transfer_to_stranger_claims(d: Driver) -> None:
    open_chat(d)
    d.complete()
