"""Accessor for the Chat app's state: friends, chats (one-to-one and groups), messages and transfers, moments and
the chat wallet; samplers and patches the chat tasks share."""
from __future__ import annotations

import random
from typing import Any, Mapping

from mobilegym.envs.chat.world import ME
from mobilegym.judge import BaseApp, copy_state, normalize_text
from mobilegym.judge.result import Check, check
from mobilegym.sim.clock import HOUR_MS

CHAT_READ_CHANGES = ["chat.chats[*].unread"]  # opening chats marks them read (view state)
# messages sent (the check says where); a chat opened from a friend's profile is new until its first message
CHAT_SEND_CHANGES = ["chat.chats[+] | chat.chats[*].messages[+]", *CHAT_READ_CHANGES]
CHAT_TRANSFER_CHANGES = ["chat.balance", *CHAT_SEND_CHANGES]  # a transfer out of the balance
CHAT_ACCEPT_CHANGES = ["chat.balance", "chat.chats[*].messages[*].status", *CHAT_READ_CHANGES]
CHAT_DELETE_CHANGES = ["chat.chats[-]"]
CHAT_NEW_GROUP_CHANGES = ["chat.chats[+]", *CHAT_READ_CHANGES]
CHAT_LIKE_CHANGES = ["chat.moments[*].likes"]
CHAT_COMMENT_CHANGES = ["chat.moments[*].comments[+]"]
CHAT_POST_CHANGES = ["chat.moments[+]"]
CENT = 0.005
AMOUNTS = {"en": (12.5, 18, 24, 36.8, 42, 55.5, 64, 75, 88.25, 96), "zh": (35, 58, 66, 88, 120, 128.5, 199, 260, 320, 520)}
TEXTS = {"en": ("I'll be there at 7", "Count me in for Saturday", "Can someone bring a charger?",
                "Thanks everyone, that was fun!", "Running late, save me a seat"),
         "zh": ("我七点到", "周六算我一个", "谁能带个充电器？", "谢谢大家，玩得很开心！", "我晚点到，帮我留个位子")}
MOMENT_TEXTS = {"en": ("First picnic of spring", "Best noodles in town", "Finally done with exams!", "Morning run by the river"),
                "zh": ("春天的第一次野餐", "城里最好吃的面", "终于考完试了！", "河边晨跑")}
COMMENTS = {"en": ("Looks great, enjoy!", "Happy for you!", "Wish I was there", "Let's go together next time"),
            "zh": ("看起来很棒，玩得开心！", "替你高兴！", "好想也在那里", "下次一起去")}
GROUP_NAMES = {"en": ("Ski Trip", "Board Games Night", "Team Dinner", "Beach Weekend"),
               "zh": ("滑雪小分队", "桌游之夜", "团队聚餐", "海边周末")}
ASKS = {"en": ("Hey, could you send me {amount} for the concert tickets?", "Can you transfer me {amount} for dinner?"),
        "zh": ("嗨，演唱会门票的钱 {amount} 能转我一下吗？", "能把晚饭的 {amount} 转给我吗？")}
SYMBOLS = {"en": "$", "zh": "¥"}
MIN_OTHER_AMOUNTS = 1  # SendRequestedTransfer, PayAmountFromSms: transfers of another amount in the friend's chat (plant_other_amount)
MIN_SENT_TRANSFERS = 3  # TotalSentTo: transfers the owner sent the friend, at least (its inject hook tops them up)
MIN_OTHER_PENDING = 1  # AcceptTransferAndBalance: pending transfers from other friends (plant_pending_from_other)


def same_text(expected: str, actual: str) -> bool:
    """Equal up to case, spacing and surrounding punctuation."""
    strip = " .!?。！？"
    return normalize_text(expected).strip(strip) == normalize_text(actual).strip(strip)


def same_amount(a: float | None, b: float) -> bool:
    return a is not None and abs(a - b) < CENT


def money_text(amount: float, language: str) -> str:
    """"$42.00" / "¥42.00" as a friend writes it in a message."""
    return f"{SYMBOLS[language]}{amount:.2f}"


class Chat(BaseApp):
    """Friends, chats, moments and the chat wallet."""

    def friends(self) -> list[dict[str, Any]]:
        return self.require(".friends")

    def friend(self, name: str) -> dict[str, Any]:
        return self.find(".friends", name=name)

    def chats(self) -> list[dict[str, Any]]:
        return self.require(".chats")

    def chat(self, chat_id: str) -> dict[str, Any] | None:
        return next((c for c in self.chats() if c["id"] == chat_id), None)

    def direct_with(self, friend_id: str) -> dict[str, Any] | None:
        return next((c for c in self.chats() if c["kind"] == "direct" and c["members"] == [friend_id]), None)

    def group(self, name: str) -> dict[str, Any]:
        return self.find(".chats", kind="group", name=name)

    def balance(self) -> float:
        return self.require(".balance")

    def moments_of(self, friend_id: str) -> list[dict[str, Any]]:
        """A friend's moments, newest first."""
        return sorted((m for m in self.require(".moments") if m["author"] == friend_id),
                      key=lambda m: (m["time_ms"], m["id"]), reverse=True)

    def received_transfers(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(chat, message) of every transfer a friend sent, oldest first."""
        found = [(c, m) for c in self.chats() for m in c["messages"] if m["type"] == "transfer" and m["sender"] != ME]
        return sorted(found, key=lambda cm: (cm[1]["time_ms"], cm[1]["id"]))

    def sent_to(self, friend_id: str) -> list[dict[str, Any]]:
        """The transfers the owner sent in the chat with a friend."""
        chat = self.direct_with(friend_id)
        return [m for m in chat["messages"] if m["type"] == "transfer" and m["sender"] == ME] if chat else []

    def new_messages(self) -> list[tuple[str, dict[str, Any]]]:
        """(chat id, message) of every message that was not there at the start (chats made since included)."""
        before = {m["id"] for c in self.initial(".chats") for m in c["messages"]}
        return [(c["id"], m) for c in self.chats() for m in c["messages"] if m["id"] not in before]

    # --- checks ---------------------------------------------------------------------------------------------

    def check_only_message(self, where: str, chat_id: str | None, text: str) -> list[Check]:
        """One new message, a text with exactly that wording, in the chat ``chat_id``."""
        new = self.new_messages()
        got = [(c, m["type"], m["text"]) for c, m in new]
        return [check("new messages", 1, len(new), len(new) == 1),
                check(f"message in {where}", text, got,
                      len(new) == 1 and new[0][0] == chat_id and new[0][1]["type"] == "text"
                      and same_text(text, new[0][1]["text"]))]

    def check_transfer(self, name: str, friend_id: str, amount: float) -> list[Check]:
        """One new message in all, a transfer of ``amount`` in the one-to-one chat with the friend, off the balance."""
        new = self.new_messages()
        chat = self.direct_with(friend_id)
        sent = [m for c, m in new if m["type"] == "transfer"]
        right = len(new) == 1 and len(sent) == 1 and chat is not None and new[0][0] == chat["id"]
        return [check("new messages", 1, len(new), len(new) == 1),
                check(f"transfer to {name}", amount, [m["amount"] for m in sent],
                      right and same_amount(sent[0]["amount"], amount)),
                check("balance", round(self.initial(".balance") - amount, 2), self.balance(),
                      same_amount(self.balance(), round(self.initial(".balance") - amount, 2)))]

    def check_moments_only(self, moment_id: str, field: str) -> Check:
        """Every moment but ``moment_id`` keeps its ``field`` as it was."""
        before = {m["id"]: m[field] for m in self.initial(".moments")}
        changed = sorted(m["id"] for m in self.require(".moments") if m["id"] != moment_id and before.get(m["id"]) != m[field])
        return check(f"other moments' {field}", [], changed, not changed)

    # --- samplers -------------------------------------------------------------------------------------------

    @staticmethod
    def sample_passcode(rng: random.Random, state: dict[str, Any]) -> str:
        """The chat wallet's payment passcode (the owner tells the agent)."""
        return state["settings"]["passcode"]

    @staticmethod
    def sample_group(rng: random.Random, state: dict[str, Any]) -> str:
        groups = sorted(c["name"] for c in state["chats"] if c["kind"] == "group" and c["name"])
        if not groups:
            raise ValueError("chat: no named group")
        return rng.choice(groups)

    @staticmethod
    def sample_friend(rng: random.Random, state: dict[str, Any]) -> str:
        return rng.choice(state["friends"])["name"]

    @staticmethod
    def sample_direct_friend(rng: random.Random, state: dict[str, Any]) -> str:
        """A friend the owner has a one-to-one chat with."""
        names = {f["id"]: f["name"] for f in state["friends"]}
        direct = sorted(names[c["members"][0]] for c in state["chats"] if c["kind"] == "direct")
        if not direct:
            raise ValueError("chat: no one-to-one chat")
        return rng.choice(direct)

    @staticmethod
    def sample_three_friends(rng: random.Random, state: dict[str, Any]) -> list[str]:
        if len(state["friends"]) < 3:
            raise ValueError("chat: fewer than three friends")
        return sorted(f["name"] for f in rng.sample(state["friends"], 3))

    @staticmethod
    def sample_amount(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> float:
        return float(rng.choice(AMOUNTS[os_state.get("language", "en")]))

    @staticmethod
    def sample_text(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        return rng.choice(TEXTS[os_state.get("language", "en")])

    @staticmethod
    def sample_moment_text(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        return rng.choice(MOMENT_TEXTS[os_state.get("language", "en")])

    @staticmethod
    def sample_comment(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        return rng.choice(COMMENTS[os_state.get("language", "en")])

    @staticmethod
    def sample_group_name(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        taken = {c["name"] for c in state["chats"]}
        return rng.choice([n for n in GROUP_NAMES[os_state.get("language", "en")] if n not in taken])

    # --- patches --------------------------------------------------------------------------------------------

    @staticmethod
    def patch(changes: dict[str, Any]) -> dict[str, Any]:
        return {"apps": {"chat": changes}}

    @staticmethod
    def message(msg_id: str, sender: str, time_ms: int, text: str = "", amount: float = 0.0, note: str = "",
                status: str = "") -> dict[str, Any]:
        """A message as the app keeps it: a text, or a transfer when ``status`` is given."""
        return {"id": msg_id, "sender": sender, "type": "transfer" if status else "text", "text": text,
                "time_ms": time_ms, "amount": amount, "note": note, "status": status}

    @staticmethod
    def append_patch(state: dict[str, Any], friend_id: str, messages: list[dict[str, Any]], unread: int = 0,
                     chat_id: str = "chat_task") -> dict[str, Any]:
        """A patch that appends ``messages`` to the one-to-one chat with a friend (starting it when there is none),
        with ``unread`` more unread messages."""
        chat = next((c for c in state["chats"] if c["kind"] == "direct" and c["members"] == [friend_id]), None)
        if chat is None:
            return Chat.patch({"chats[]": {"id": chat_id, "kind": "direct", "name": "", "members": [friend_id],
                                           "unread": unread, "messages": messages}})
        return Chat.patch({f"chats[id={chat['id']}]": {"messages": [*chat["messages"], *messages],
                                                       "unread": chat["unread"] + unread if unread else 0}})

    @staticmethod
    def insert_patch(state: dict[str, Any], friend_id: str, message: dict[str, Any], chat_id: str) -> dict[str, Any]:
        """A patch that puts ``message`` in time order into the one-to-one chat with a friend (starting it when there
        is none)."""
        chat = next((c for c in state["chats"] if c["kind"] == "direct" and c["members"] == [friend_id]), None)
        if chat is None:
            return Chat.append_patch(state, friend_id, [message], chat_id=chat_id)
        return Chat.patch({f"chats[id={chat['id']}]": {"messages": sorted([*chat["messages"], message],
                                                                          key=lambda m: m["time_ms"])}})


def plant_other_amount(device: Any, friend_id: str, amount: float, rng: random.Random, now_ms: int) -> None:
    """Unless the chat with the friend holds one, an earlier transfer the owner sent them of another amount
    (MIN_OTHER_AMOUNTS)."""
    state = copy_state(device)["apps"]["chat"]
    chat = Chat(state).direct_with(friend_id)
    if chat and sum(m["type"] == "transfer" and not same_amount(m["amount"], amount) for m in chat["messages"]) >= MIN_OTHER_AMOUNTS:
        return
    sent = Chat.message("msg_task_earlier", ME, free_time(state, now_ms - rng.randint(30, 90) * HOUR_MS),
                        amount=round(amount + rng.choice((5, 10, 15)), 2), status="sent")
    device.set_state(Chat.insert_patch(state, friend_id, sent, "chat_task_earlier"))


def plant_pending_from_other(device: Any, friend_id: str, rng: random.Random, now_ms: int) -> None:
    """Unless another friend's transfer is pending, one from another friend (MIN_OTHER_PENDING)."""
    state = copy_state(device)["apps"]["chat"]
    if sum(m["status"] == "pending" and m["sender"] != friend_id for c in state["chats"] for m in c["messages"]) >= MIN_OTHER_PENDING:
        return
    other = rng.choice([f for f in state["friends"] if f["id"] != friend_id])
    pending = Chat.message("msg_task_other_in", other["id"], free_time(state, now_ms - rng.randint(7, 30) * HOUR_MS),
                           amount=float(rng.choice((20, 30, 45))), status="pending")
    device.set_state(Chat.insert_patch(state, other["id"], pending, "chat_task_other"))


def friend_phone(state: dict[str, Any], name: str) -> str:
    return next(f["phone"] for f in state["friends"] if f["name"] == name)


def free_time(state: dict[str, Any], near_ms: int) -> int:
    """A minute at or before ``near_ms`` that no message or moment has (times stay apart)."""
    taken = {m["time_ms"] for c in state["chats"] for m in c["messages"]} | {m["time_ms"] for m in state["moments"]}
    while near_ms in taken:
        near_ms -= 60_000
    return near_ms


def number_in(text: str, number: str) -> bool:
    """``text`` holds ``number`` (formatting aside)."""
    digits = "".join(ch for ch in text if ch.isdigit())
    wanted = "".join(ch for ch in number if ch.isdigit())
    return len(wanted) >= 7 and wanted[-10:] in digits
