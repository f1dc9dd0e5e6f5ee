"""Chat tasks.

Task index:
    CountUnreadGroups         query    L1  how many group chats have unread messages
    LastTransferSender        query    L2  who sent the most recent transfer the owner received
    ReplyInGroup              operate  L2  send a given message in a named group (high risk: a message to others)
    LikeLatestMoment          operate  L2  like a friend's latest moment (not an older one)
    PostMoment                operate  L2  post a moment with given words (high risk: a post to others)
    DeleteChat                operate  L2  delete the chat with a friend, confirming (high risk: a deletion)
    SendRequestedTransfer     operate  L3  send a friend the amount they asked for in the chat (high risk)
    AcceptTransferAndBalance  hybrid   L3  accept a friend's transfer, then say the balance
    TotalSentTo               query    L3  what all transfers the owner sent a friend come to
    CommentOnLatestMoment     operate  L3  comment on a friend's latest moment (high risk: a post to others)
    CreateNamedGroup          operate  L4  create a group with three friends and name it
    PayAmountFromSms          operate  L4  cross-app: pay in Chat what a contact asked for by SMS (high risk)
    ShareNumberAndText        operate  L4  cross-app: send a friend the number they asked for, text that person
    RepeatWalletTransfer      operate  L4  cross-app: send in Chat what the owner last sent that friend in Wallet
    ReturnDoublePayment       operate  L4  cross-app: Wallet -> Contacts -> Chat: send back in Chat a payment a friend
                                           made twice in Wallet, and tell them (high risk)
"""
from __future__ import annotations

import datetime as dt

from mobilegym.envs.chat.world import ME, pools as chat_pools
from mobilegym.envs.contacts.numbers import same_number as same_number_text
from mobilegym.judge import AnswerTask, BaseTask, build_answer_checks, sim_today, copy_state
from mobilegym.judge.result import check

from ..contacts.app import Contacts
from ..l10n import PASSCODE_EN, PASSCODE_ZH, localised
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages
from ..wallet.app import Wallet
from .app import (ASKS, CHAT_ACCEPT_CHANGES, CHAT_COMMENT_CHANGES, CHAT_DELETE_CHANGES, CHAT_LIKE_CHANGES,
                  CHAT_NEW_GROUP_CHANGES, CHAT_POST_CHANGES, CHAT_READ_CHANGES, CHAT_SEND_CHANGES, CHAT_TRANSFER_CHANGES,
                  HOUR_MS, MIN_OTHER_AMOUNTS, MIN_OTHER_PENDING, MIN_SENT_TRANSFERS, Chat, free_time, friend_phone, money_text, number_in,
                  plant_other_amount, plant_pending_from_other, same_amount, same_text)

MONEY_HINT, MONEY_HINT_ZH = "e.g. 25.50", "例如 25.50"
SPARE = 500  # what a task that pays leaves on the balance at least
OK = {"en": "OK", "zh": "好的"}
GOOD_MORNING = {"en": "Good morning", "zh": "早上好"}
# CountUnreadGroups: the answer spreads over 1 to 15 (tasks/spread.py); groups the world lacks are started,
# named from the pool and then from these
MORE_GROUPS = {"en": ["Running Club", "Board Game Night", "Parents of Class 3B", "Choir", "Team Alpha", "Climbing Gym",
                      "Cousins", "Flat Share", "Garden Allotment", "Photo Walks", "Old Colleagues", "Cooking Class",
                      "Badminton Tuesdays", "Wedding Planning"],
               "zh": ["跑步俱乐部", "桌游之夜", "三年级二班家长群", "合唱团", "项目组", "攀岩群", "表兄妹群", "合租群",
                      "菜园群", "摄影约拍群", "老同事群", "烘焙班", "周二羽毛球", "婚礼筹备群"]}


def _chat(device) -> dict:
    return copy_state(device)["apps"]["chat"]


def _now(device) -> int:
    return copy_state(device)["os"]["time_ms"]


def _language(device) -> str:
    return copy_state(device)["os"].get("language", "en")


def _afford(device, amount: float) -> None:
    if _chat(device)["balance"] < amount + SPARE:
        device.set_state(Chat.patch({"balance": round(amount + SPARE + 300, 2)}))


def _friend_id(state: dict, name: str) -> str:
    return next(f["id"] for f in state["friends"] if f["name"] == name)


def _other_amounts(state: dict, name: str, amount: float) -> list[dict]:
    """Transfers in the one-to-one chat with the friend of another amount than ``amount``."""
    chat = Chat(state).direct_with(_friend_id(state, name))
    return [m for m in chat["messages"] if m["type"] == "transfer" and not same_amount(m["amount"], amount)] if chat else []


@localised(zh={"fields": [{"label": "有未读消息的群聊数"}]})
class CountUnreadGroups(AnswerTask):
    """Verdict: the answer is the number of group chats with unread messages (one-to-one chats do not count).
    Injection: one to fifteen groups are unread (drawn uniformly; more groups are started when the world has too few), one
    group read and one one-to-one chat unread."""

    objective = "query"
    difficulty = "L1"
    max_steps = 45  # up to fifteen unread groups to scroll past
    capabilities = ["counting"]
    templates = {"en": ["How many of my group chats in Chat have unread messages?"],
                 "zh": ["聊天里有几个群聊有未读消息？"]}
    answer = staticmethod(lambda task, apps_init: sum(1 for c in apps_init["chat"]["chats"]
                                                      if c["kind"] == "group" and c["unread"]))
    answer_fields = [{"type": "number", "label": "Group chats with unread messages"}]
    expected_changes = CHAT_READ_CHANGES

    def set_up(self, device) -> None:
        state, now, language = _chat(device), _now(device), _language(device)
        chats = [dict(c) for c in state["chats"]]
        state = {**state, "chats": chats}  # free_time sees the messages added here
        unread = self.spread.count(1, 15)
        groups = [c for c in chats if c["kind"] == "group"]
        names = [n for n in [*chat_pools(language)["groups"], *MORE_GROUPS[language]]
                 if n not in {c["name"] for c in chats}]
        for i, name in enumerate(self.rng.sample(names, min(len(names), max(0, unread + 1 - len(groups))))):
            members = self.rng.sample(state["friends"], self.rng.randint(3, min(6, len(state["friends"]))))
            members.sort(key=lambda f: int(f["id"].split("_")[1]))
            asked = free_time(state, now - self.rng.randint(4, 96) * HOUR_MS)
            said = [Chat.message(f"msg_task_n{i}_0", self.rng.choice(members)["id"], asked,
                                 text=GOOD_MORNING[language])]
            group = {"id": f"chat_task_n{i}", "kind": "group", "name": name, "members": [f["id"] for f in members],
                     "unread": 0, "messages": said}
            chats.append(group)
            said.append(Chat.message(f"msg_task_n{i}_1", ME, free_time(state, asked + 30 * 60_000), text=OK[language]))
            groups.append(group)
        marked = {c["id"] for c in self.rng.sample(groups, min(unread, len(groups) - 1))}
        for i, group in enumerate(groups):
            if group["id"] in marked and not group["unread"]:
                last = max(m["time_ms"] for m in group["messages"])
                near = min(now - 60_000, last + self.rng.randint(1, 120) * 60_000)
                message = Chat.message(f"msg_task_g{i}", self.rng.choice(group["members"]),
                                       free_time(state, near), text=OK[language])
                group.update(messages=[*group["messages"], message], unread=1)
            elif group["id"] not in marked:
                group["unread"] = 0
        direct = [c for c in chats if c["kind"] == "direct"]
        if direct and not any(c["unread"] for c in direct):
            chat = self.rng.choice(direct)
            message = Chat.message("msg_task_d", chat["members"][0], free_time(state, now - 3 * HOUR_MS - 60_000),
                                   text=OK[language])
            chat.update(messages=[*chat["messages"], message], unread=1)
        device.set_state(Chat.patch({"chats": chats}))


@localised(zh={"fields": [{"label": "好友姓名"}]})
class LastTransferSender(AnswerTask):
    """Verdict: the answer names the friend behind the most recent transfer the owner received (not one the owner
    sent). Injection: two friends have sent transfers, and the owner sent one more recently than either."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval"]
    templates = {"en": ["Who sent me the most recent money transfer in Chat?"],
                 "zh": ["聊天里最近一笔转给我的钱是谁转的？"]}
    answer_fields = [{"type": "text", "label": "Friend's name"}]
    expected_changes = CHAT_READ_CHANGES

    def set_up(self, device) -> None:
        state, now = _chat(device), _now(device)
        received = Chat(state).received_transfers()
        senders = {m["sender"] for _, m in received}
        friends = [f for f in state["friends"] if f["id"] not in senders]
        patch: dict = {}
        for n, friend in enumerate(self.rng.sample(friends, max(0, 2 - len(senders)))):
            when = free_time(state, now - (self.rng.randint(4, 40) + 2 * n) * HOUR_MS)
            patch.update(Chat.append_patch(state, friend["id"], [
                Chat.message(f"msg_task_in{n}", friend["id"], when, amount=float(self.rng.choice((20, 35.5, 60))),
                             status="accepted")], chat_id=f"chat_task{n}")["apps"]["chat"])
        if patch:
            device.set_state(Chat.patch(patch))
            state = _chat(device)
        last = Chat(state).received_transfers()[-1][1]["sender"]
        chat = self.rng.choice([c for c in state["chats"] if c["kind"] == "direct" and c["members"] != [last]])
        sent = Chat.message("msg_task_out", ME, free_time(state, now - HOUR_MS), amount=float(self.rng.choice((15, 42))),
                            status="sent")
        device.set_state(Chat.patch({f"chats[id={chat['id']}]": {"messages": [*chat["messages"], sent], "unread": 0}}))

    def get_answer(self, input):
        chat = Chat(input.apps_init["chat"])
        sender = chat.received_transfers()[-1][1]["sender"]
        return next(f["name"] for f in chat.friends() if f["id"] == sender)

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer, "sender")


class ReplyInGroup(BaseTask):
    """Verdict: one new message, with exactly that wording (case, spacing and end punctuation aside), in the named
    group and nowhere else."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["messaging"]
    high_risk = True
    templates = {"en": ["In the \"{group}\" group in Chat, send the message \"{text}\"",
                        "Reply in my Chat group \"{group}\": \"{text}\""],
                 "zh": ["在聊天的“{group}”群里发一条消息：“{text}”"]}
    parameters = {"group": {"sampler": Chat.sample_group}, "text": {"sampler": Chat.sample_text}}
    expected_changes = CHAT_SEND_CHANGES

    def check_goals(self, input):
        group = Chat(input.apps_init["chat"]).group(self.p.group)
        return Chat(input.apps["chat"], input.apps_init["chat"]).check_only_message(self.p.group, group["id"], self.p.text)


def _prepare_latest_moment(task: BaseTask, device, unlike: bool) -> None:
    """The friend has two moments or more (an older one added when they have one), and (with ``unlike``) the owner
    has not liked the latest."""
    state = _chat(device)
    friend_id = _friend_id(state, task.p.name)
    mine = Chat(state).moments_of(friend_id)
    changes: dict = {}
    if unlike and ME in mine[0]["likes"]:
        changes[f"moments[id={mine[0]['id']}]"] = {"likes": [p for p in mine[0]["likes"] if p != ME]}
    if len(mine) < 2:
        older = free_time(state, mine[0]["time_ms"] - task.rng.randint(20, 60) * HOUR_MS)
        changes["moments[]"] = {"id": "moment_task", "author": friend_id, "text": GOOD_MORNING[_language(device)],
                                "time_ms": older, "likes": [], "comments": []}
    if changes:
        device.set_state(Chat.patch(changes))


def _sample_author(rng, state) -> str:
    """A friend who has posted a moment."""
    names = {f["id"]: f["name"] for f in state["friends"]}
    authors = sorted({names[m["author"]] for m in state["moments"] if m["author"] in names})
    if not authors:
        raise ValueError("chat: no friend has posted a moment")
    return rng.choice(authors)


class LikeLatestMoment(BaseTask):
    """Verdict: the friend's latest moment is liked by the owner (its other likes kept) and no other moment's likes
    changed. Injection: the friend has an older moment too, and the latest is not liked yet."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["social"]
    templates = {"en": ["Like {name}'s latest moment in Chat.", "In Chat, give {name}'s most recent moment a like."],
                 "zh": ["在聊天的朋友圈里给{name}最新的一条动态点赞。"]}
    parameters = {"name": {"sampler": _sample_author}}
    expected_changes = CHAT_LIKE_CHANGES

    def inject(self, device) -> None:
        _prepare_latest_moment(self, device, unlike=True)

    def check_goals(self, input):
        init = Chat(input.apps_init["chat"])
        latest = init.moments_of(_friend_id(input.apps_init["chat"], self.p.name))[0]
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        now = next((m for m in chat.require(".moments") if m["id"] == latest["id"]), {"likes": []})
        return [check(f"{self.p.name}'s latest moment liked", sorted([*latest["likes"], ME]), sorted(now["likes"]),
                      sorted(now["likes"]) == sorted([*latest["likes"], ME])),
                chat.check_moments_only(latest["id"], "likes")]


class PostMoment(BaseTask):
    """Verdict: one new moment, by the owner, with exactly those words (case, spacing and end punctuation aside)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["social", "form-filling"]
    high_risk = True
    templates = {"en": ["Post a moment in Chat that says \"{text}\"", "Share \"{text}\" to my Chat moments"],
                 "zh": ["在聊天里发一条朋友圈：“{text}”"]}
    parameters = {"text": {"sampler": Chat.sample_moment_text}}
    expected_changes = CHAT_POST_CHANGES

    def check_goals(self, input):
        before = {m["id"] for m in input.apps_init["chat"]["moments"]}
        new = [m for m in input.apps["chat"]["moments"] if m["id"] not in before]
        return [check("new moments", 1, len(new), len(new) == 1),
                check("moment", self.p.text, [(m["author"], m["text"]) for m in new],
                      len(new) == 1 and new[0]["author"] == ME and same_text(self.p.text, new[0]["text"]))]


class DeleteChat(BaseTask):
    """Verdict: the one-to-one chat with the friend is gone and every other chat is kept."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["deletion", "confirmation"]
    high_risk = True
    templates = {"en": ["Delete my chat with {name} in Chat.", "Remove the conversation with {name} from my Chat list."],
                 "zh": ["在聊天里删除和{name}的聊天。"]}
    parameters = {"name": {"sampler": Chat.sample_direct_friend}}
    expected_changes = CHAT_DELETE_CHANGES

    def check_goals(self, input):
        init = Chat(input.apps_init["chat"])
        target = init.direct_with(_friend_id(input.apps_init["chat"], self.p.name))
        now = {c["id"] for c in input.apps["chat"]["chats"]}
        lost = sorted(c["id"] for c in init.chats() if c["id"] != target["id"] and c["id"] not in now)
        return [check(f"chat with {self.p.name} deleted", "deleted", "kept" if target["id"] in now else "deleted",
                      target["id"] not in now),
                check("other chats kept", [], lost, not lost)]


class SendRequestedTransfer(BaseTask):
    """Verdict: one transfer, of the amount the friend asked for in their chat, went to them off the balance, and
    nothing else was sent. Injection: the friend asks for the amount in the chat an hour or two ago (unread), after an earlier
    transfer of another amount."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["payment", "information-retrieval", "confirmation"]
    high_risk = True
    templates = {"en": ["{name} asked me for some money in Chat. Send them the amount they asked for." + PASSCODE_EN],
                 "zh": ["{name}在聊天里找我要钱，把他要的金额转给他。" + PASSCODE_ZH]}
    parameters = {"name": {"sampler": Chat.sample_friend}, "amount": {"sampler": Chat.sample_amount},
                  "passcode": {"sampler": Chat.sample_passcode}}
    expected_changes = CHAT_TRANSFER_CHANGES

    def inject(self, device) -> None:
        friend_id = _friend_id(_chat(device), self.p.name)
        plant_other_amount(device, friend_id, self.p.amount, self.rng, _now(device))
        state, language = _chat(device), _language(device)
        ask = self.rng.choice(ASKS[language]).format(amount=money_text(self.p.amount, language))
        when = free_time(state, _now(device) - self.rng.randint(1, 2) * HOUR_MS)
        device.set_state(Chat.append_patch(state, friend_id, [Chat.message("msg_task_ask", friend_id, when, text=ask)],
                                           unread=1))
        _afford(device, self.p.amount)

    def distractors(self, apps, os_state):
        return {"other friends": (len(apps["chat"]["friends"]) - 1, 2),
                "other amounts in their chat": (len(_other_amounts(apps["chat"], self.p.name, self.p.amount)),
                                                MIN_OTHER_AMOUNTS)}

    def check_goals(self, input):
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        return chat.check_transfer(self.p.name, _friend_id(input.apps_init["chat"], self.p.name), self.p.amount)


@localised(zh={"fields": [{"label": "收款后的零钱余额", "hint": MONEY_HINT_ZH}]})
class AcceptTransferAndBalance(BaseTask):
    """Verdict: the friend's pending transfer is accepted (no other transfer's status changed), the balance grew by
    its amount, and the answer is that balance. Injection: the friend sent a transfer a few hours ago (their
    earlier pending ones, if any, are accepted), and another friend's transfer is pending."""

    objective = "hybrid"
    difficulty = "L3"
    capabilities = ["payment", "information-retrieval"]
    composition = "sequential"
    templates = {"en": ["Accept the money {name} sent me in Chat, then tell me my Chat balance."],
                 "zh": ["在聊天里收下{name}转给我的钱，然后告诉我零钱余额是多少。"]}
    parameters = {"name": {"sampler": Chat.sample_friend}, "amount": {"sampler": Chat.sample_amount}}
    answer_fields = [{"type": "text", "label": "Balance after accepting", "hint": MONEY_HINT}]
    expected_changes = CHAT_ACCEPT_CHANGES

    def inject(self, device) -> None:
        state = _chat(device)
        friend_id = _friend_id(state, self.p.name)
        chat = Chat(state).direct_with(friend_id)
        if chat is not None:
            state = {**state, "chats": [{**c, "messages": [{**m, "status": "accepted"} if m["status"] == "pending" else m
                                                           for m in c["messages"]]} if c is chat else c
                                        for c in state["chats"]]}
            device.set_state(Chat.patch({"chats": state["chats"]}))
        when = free_time(state, _now(device) - self.rng.randint(2, 6) * HOUR_MS)
        note = "Thanks!" if _language(device) == "en" else "谢谢！"
        device.set_state(Chat.append_patch(state, friend_id, [Chat.message("msg_task_in", friend_id, when,
                                                                           amount=self.p.amount, note=note,
                                                                           status="pending")], unread=1))
        plant_pending_from_other(device, friend_id, self.rng, _now(device))

    def distractors(self, apps, os_state):
        friend_id = _friend_id(apps["chat"], self.p.name)
        pending = [m for c in apps["chat"]["chats"] for m in c["messages"] if m["status"] == "pending"]
        return {"pending transfers from others": (sum(m["sender"] != friend_id for m in pending), MIN_OTHER_PENDING)}

    def check_goals(self, input):
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        statuses = {m["id"]: m["status"] for c in chat.chats() for m in c["messages"]}
        changed = sorted(m["id"] for c in chat.initial(".chats") for m in c["messages"]
                         if m["id"] != "msg_task_in" and statuses.get(m["id"], m["status"]) != m["status"])
        left = round(chat.initial(".balance") + self.p.amount, 2)
        return [check(f"{self.p.name}'s transfer accepted", "accepted", statuses.get("msg_task_in"),
                      statuses.get("msg_task_in") == "accepted"),
                check("other transfers untouched", [], changed, not changed),
                check("balance", left, chat.balance(), same_amount(chat.balance(), left)),
                check("messages sent", 0, len(chat.new_messages()), not chat.new_messages()),
                *build_answer_checks(left, input.answer, field="balance")]


@localised(zh={"fields": [{"label": "转账总额", "hint": MONEY_HINT_ZH}]})
class TotalSentTo(AnswerTask):
    """Verdict: the answer is what every transfer the owner sent the friend comes to (what the friend sent back does
    not count). Injection: two or three transfers to the friend and one from them, over the last days."""

    objective = "query"
    difficulty = "L3"
    capabilities = ["information-retrieval", "arithmetic"]
    composition = "aggregate"
    templates = {"en": ["How much money have I sent to {name} in Chat in total?"],
                 "zh": ["我在聊天里一共给{name}转过多少钱？"]}
    parameters = {"name": {"sampler": Chat.sample_friend}}
    answer_fields = [{"type": "text", "label": "Total sent", "hint": MONEY_HINT}]
    expected_changes = CHAT_READ_CHANGES

    def inject(self, device) -> None:
        state, now = _chat(device), _now(device)
        friend_id = _friend_id(state, self.p.name)
        have = len(Chat(state).sent_to(friend_id))
        times = sorted(free_time(state, now - h * HOUR_MS) for h in self.rng.sample(range(5, 90), 4))
        amounts = self.rng.sample((12.5, 20, 26.4, 38, 45, 60.75, 88), 4)
        messages = [Chat.message(f"msg_task_out{n}", ME, times[n], amount=float(amounts[n]), status="sent")
                    for n in range(max(1, MIN_SENT_TRANSFERS - have))]
        messages.append(Chat.message("msg_task_in", friend_id, times[3], amount=float(amounts[3]), status="accepted"))
        device.set_state(Chat.append_patch(state, friend_id, sorted(messages, key=lambda m: m["time_ms"])))

    def distractors(self, apps, os_state):
        friend_id = _friend_id(apps["chat"], self.p.name)
        chat = Chat(apps["chat"]).direct_with(friend_id)
        back = [m for m in chat["messages"] if m["type"] == "transfer" and m["sender"] == friend_id]
        return {"transfers sent to them": (len(Chat(apps["chat"]).sent_to(friend_id)), MIN_SENT_TRANSFERS),
                "transfers from them": (len(back), 1)}

    def get_answer(self, input):
        chat = Chat(input.apps_init["chat"])
        return round(sum(m["amount"] for m in chat.sent_to(_friend_id(input.apps_init["chat"], self.p.name))), 2)

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer, "total_sent")


class CommentOnLatestMoment(BaseTask):
    """Verdict: one new comment in all, by the owner with exactly those words, on the friend's latest moment.
    Injection: the friend has an older moment too."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["social", "form-filling"]
    high_risk = True
    templates = {"en": ["Comment \"{text}\" on {name}'s latest moment in Chat."],
                 "zh": ["在聊天的朋友圈里评论{name}最新的一条动态：“{text}”"]}
    parameters = {"name": {"sampler": _sample_author}, "text": {"sampler": Chat.sample_comment}}
    expected_changes = CHAT_COMMENT_CHANGES

    def inject(self, device) -> None:
        _prepare_latest_moment(self, device, unlike=False)

    def distractors(self, apps, os_state):
        friend_id = _friend_id(apps["chat"], self.p.name)
        return {"their older moments": (len(Chat(apps["chat"]).moments_of(friend_id)) - 1, 1),
                "other friends' moments": (sum(m["author"] != friend_id for m in apps["chat"]["moments"]), 1)}

    def check_goals(self, input):
        latest = Chat(input.apps_init["chat"]).moments_of(_friend_id(input.apps_init["chat"], self.p.name))[0]
        before = {c["id"] for m in input.apps_init["chat"]["moments"] for c in m["comments"]}
        new = [(m["id"], c) for m in input.apps["chat"]["moments"] for c in m["comments"] if c["id"] not in before]
        return [check("new comments", 1, len(new), len(new) == 1),
                check(f"comment on {self.p.name}'s latest moment", self.p.text, [c["text"] for _, c in new],
                      len(new) == 1 and new[0][0] == latest["id"] and new[0][1]["author"] == ME
                      and same_text(self.p.text, new[0][1]["text"]))]


def _sample_trio(rng, state) -> dict[str, str]:
    a, b, c = Chat.sample_three_friends(rng, state)
    return {"a": a, "b": b, "c": c}


class CreateNamedGroup(BaseTask):
    """Verdict: one new chat, a group of exactly the three friends (and the owner), named as asked (case, spacing
    and end punctuation aside)."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["form-filling", "multi-select"]
    composition = "sequential"
    templates = {"en": ["In Chat, create a group chat with {trio.a}, {trio.b} and {trio.c}, and name it \"{name}\"."],
                 "zh": ["在聊天里和{trio.a}、{trio.b}、{trio.c}建一个群聊，群名叫“{name}”。"]}
    parameters = {"trio": {"sampler": _sample_trio}, "name": {"sampler": Chat.sample_group_name}}
    expected_changes = [*CHAT_NEW_GROUP_CHANGES, "chat.chats[*].name"]

    def distractors(self, apps, os_state):
        return {"other friends": (len(apps["chat"]["friends"]) - 3, 2),
                "existing groups": (sum(c["kind"] == "group" for c in apps["chat"]["chats"]), 1)}

    def check_goals(self, input):
        before = {c["id"] for c in input.apps_init["chat"]["chats"]}
        names = {f["id"]: f["name"] for f in input.apps_init["chat"]["friends"]}
        new = [c for c in input.apps["chat"]["chats"] if c["id"] not in before]
        group = new[0] if len(new) == 1 else None
        wanted = sorted(self.p.trio.values())
        members = sorted(names.get(m, m) for m in group["members"]) if group else []
        renamed = sorted(c["id"] for c in input.apps_init["chat"]["chats"]
                         if any(d["id"] == c["id"] and d["name"] != c["name"] for d in input.apps["chat"]["chats"]))
        return [check("new chats", 1, len(new), len(new) == 1),
                check("group members", wanted, members, group is not None and group["kind"] == "group" and members == wanted),
                check("group name", self.p.name, group["name"] if group else None,
                      group is not None and same_text(self.p.name, group["name"])),
                check("other groups' names kept", [], renamed, not renamed)]


# --- cross-app ---------------------------------------------------------------------------------------------------

SMS_ASKS = {"en": "Hi! The concert tickets came to {amount} each. Could you pay me back in Chat?",
            "zh": "嗨！演唱会门票每人 {amount}，方便的时候在聊天里转给我吧？"}
NUMBER_ASKS = {"en": "Hey, do you have {name}'s phone number? Could you send it to me?",
               "zh": "你有{name}的电话号码吗？能发给我吗？"}
INTRO_TEXTS = {"en": ("{friend} will call you about the weekend", "{friend} is going to give you a call"),
               "zh": ("{friend}会打电话给你说周末的事", "{friend}待会儿给你打电话")}


class PayAmountFromSms(BaseTask):
    """Verdict: one transfer in Chat, of the amount the friend asked for by SMS, went to them off the balance.
    Injection: the friend (saved in Contacts under the same name and number) texts the amount an hour ago; their
    chat holds an earlier transfer of another amount."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["payment", "cross-app-transfer", "confirmation"]
    composition = "sequential"
    high_risk = True
    scope = "cross-app"
    related_apps = ["chat", "messages", "contacts"]
    templates = {"en": ["{name} sent me a text message (SMS) saying how much I owe them. Pay them that amount in "
                        "Chat." + PASSCODE_EN],
                 "zh": ["{name}发短信告诉我欠他多少钱，请在聊天里把这笔钱转给他。" + PASSCODE_ZH]}
    parameters = {"name": {"sampler": Chat.sample_friend}, "amount": {"sampler": Chat.sample_amount},
                  "passcode": {"sampler": Chat.sample_passcode}}
    expected_changes = [*CHAT_TRANSFER_CHANGES, *MESSAGES_READ_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        language = state["os"].get("language", "en")
        number = next(f["phone"] for f in state["apps"]["chat"]["friends"] if f["name"] == self.p.name)
        text = SMS_ASKS[language].format(amount=money_text(self.p.amount, language))
        sms = {"id": "msg_task_sms", "incoming": True, "time_ms": state["os"]["time_ms"] - HOUR_MS, "text": text}
        conv = Messages(state["apps"]["messages"]).conversation_for(number)
        if conv is None:
            patch = {"conversations[]": {"id": "conv_task", "address": number, "unread": 1, "messages": [sms]}}
        else:
            patch = {f"conversations[id={conv['id']}]": {"messages[]": sms, "unread": conv["unread"] + 1}}
        device.set_state({"apps": {"messages": patch}})
        plant_other_amount(device, _friend_id(state["apps"]["chat"], self.p.name), self.p.amount, self.rng, _now(device))
        _afford(device, self.p.amount)

    def distractors(self, apps, os_state):
        number = friend_phone(apps["chat"], self.p.name)
        others = [c for c in apps["messages"]["conversations"] if not same_number_text(c["address"], number)]
        return {"other SMS conversations": (len(others), 2),
                "other amounts in their chat": (len(_other_amounts(apps["chat"], self.p.name, self.p.amount)),
                                                MIN_OTHER_AMOUNTS)}

    def check_goals(self, input):
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        return chat.check_transfer(self.p.name, _friend_id(input.apps_init["chat"], self.p.name), self.p.amount)


def _sample_number_ask(rng, state, os_state) -> dict[str, str]:
    """A friend who asks, another friend (saved in Contacts under the same name) whose number they ask for, and
    the text for that person naming the friend who will call."""
    if len(state["friends"]) < 2:
        raise ValueError("chat: fewer than two friends")
    friend, person = (f["name"] for f in rng.sample(state["friends"], 2))
    return {"friend": friend, "person": person,
            "text": rng.choice(INTRO_TEXTS[os_state.get("language", "en")]).format(friend=friend)}


class ShareNumberAndText(BaseTask):
    """Verdict: the chat with the friend got a message holding the person's number (as saved in Contacts), no other
    chat got one, and the person got the text by SMS (exact wording, end punctuation aside).
    Injection: the friend asks for the person's number in their chat an hour ago; the person is in Contacts."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["messaging", "cross-app-transfer", "information-retrieval"]
    composition = "sequential"
    high_risk = True
    scope = "cross-app"
    related_apps = ["chat", "contacts", "messages"]
    templates = {"en": ["{ask.friend} asked me in Chat for someone's phone number. Look it up in Contacts and send it "
                        "to {ask.friend} in Chat, then text that person by SMS: \"{ask.text}\""],
                 "zh": ["{ask.friend}在聊天里问我要一个人的电话号码。去通讯录里查到后在聊天里发给{ask.friend}，再用短信给"
                        "那个人发：“{ask.text}”"]}
    parameters = {"ask": {"sampler": _sample_number_ask}}
    expected_changes = [*CHAT_SEND_CHANGES, *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        state, language = _chat(device), _language(device)
        friend_id = _friend_id(state, self.p.ask["friend"])
        ask = NUMBER_ASKS[language].format(name=self.p.ask["person"])
        when = free_time(state, _now(device) - HOUR_MS)
        device.set_state(Chat.append_patch(state, friend_id, [Chat.message("msg_task_ask", friend_id, when, text=ask)],
                                           unread=1))

    def distractors(self, apps, os_state):
        contacts = apps["contacts"]["contacts"]
        return {"other contacts": (len(contacts) - 1, 2),
                "the asker's own entry in Contacts": (sum(c["name"] == self.p.ask["friend"] for c in contacts), 1)}

    def check_goals(self, input):
        person = Contacts(input.apps_init["contacts"]).contact(self.p.ask["person"])
        numbers = [p["number"] for p in person["phones"]]
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        target = chat.direct_with(_friend_id(input.apps_init["chat"], self.p.ask["friend"]))
        new = chat.new_messages()
        told = [m["text"] for c, m in new if target is not None and c == target["id"]]
        elsewhere = [c for c, _ in new if target is None or c != target["id"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [check(f"number sent to {self.p.ask['friend']}", numbers, told,
                      any(number_in(t, n) for t in told for n in numbers)),
                check("other chats", [], elsewhere, not elsewhere),
                messages.check_sent(self.p.ask["person"], numbers, self.p.ask["text"],
                                    lambda text: same_text(self.p.ask["text"], text))]


def _wallet_time(wallet: dict, day: str, rng) -> str:
    """A time on ``day`` no Wallet transaction of that day has."""
    taken = {t["time"] for t in wallet["transactions"] if t["date"] == day}
    return next(f"{h:02d}:{m:02d}" for h in range(rng.randint(9, 15), 23) for m in (11, 26, 43, 58)
                if f"{h:02d}:{m:02d}" not in taken)


class RepeatWalletTransfer(BaseTask):
    """Verdict: one transfer in Chat went to the friend, of the amount of the last transfer the owner sent them with
    the Wallet app (not one they sent the owner), off the Chat balance.
    Injection: Wallet holds a transfer to the friend (saved in Contacts) a few days ago, and a later one from them."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["payment", "cross-app-transfer", "information-retrieval", "confirmation"]
    composition = "sequential"
    high_risk = True
    scope = "cross-app"
    related_apps = ["chat", "wallet", "contacts"]
    templates = {"en": ["Last time I paid {name} back, I used the Wallet app. Send {name} the same amount again, this "
                        "time in Chat." + PASSCODE_EN],
                 "zh": ["上次我用钱包给{name}转过一笔钱。这次在聊天里给{name}转同样的金额。" + PASSCODE_ZH]}
    parameters = {"name": {"sampler": Chat.sample_friend}, "amount": {"sampler": Chat.sample_amount},
                  "passcode": {"sampler": Chat.sample_passcode}}
    expected_changes = CHAT_TRANSFER_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)
        wallet, today = state["apps"]["wallet"], sim_today(state["os"])
        phone = next(f["phone"] for f in state["apps"]["chat"]["friends"] if f["name"] == self.p.name)
        sent, back = (today - dt.timedelta(days=self.rng.randint(4, 9))).isoformat(), (today - dt.timedelta(days=2)).isoformat()
        txns = [*wallet["transactions"]]
        for txn_id, day, kind, amount in (("txn_task_out", sent, "transfer_out", -self.p.amount),
                                          ("txn_task_in", back, "transfer_in", round(self.p.amount + 7.5, 2))):
            txns.append({"id": txn_id, "date": day, "time": _wallet_time({"transactions": txns}, day, self.rng),
                         "kind": kind, "phone": phone, "note": "", "method": "balance", "bill_id": "",
                         "counterparty": self.p.name, "category": "transfer", "amount": amount})
        device.set_state(Wallet.patch({"transactions": [t for t in txns if not (
            t["kind"] == "transfer_out" and t["counterparty"] == self.p.name and t["date"] >= sent and t["id"] != "txn_task_out")]}))
        _afford(device, self.p.amount)

    def distractors(self, apps, os_state):
        phone = friend_phone(apps["chat"], self.p.name)
        txns = [t for t in apps["wallet"]["transactions"] if t["kind"].startswith("transfer")]
        return {"later transfers in from them": (sum(t["kind"] == "transfer_in" and same_number_text(t["phone"], phone)
                                                     for t in txns), 1),
                "transfers to others": (sum(t["kind"] == "transfer_out" and not same_number_text(t["phone"], phone)
                                            for t in txns), 1)}

    def check_goals(self, input):
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        return chat.check_transfer(self.p.name, _friend_id(input.apps_init["chat"], self.p.name), self.p.amount)


DOUBLE_REPLIES = {"en": ("You paid me twice, I sent one back", "Sent back your double payment"),
                  "zh": ("你转了两次，我退回一笔", "多转的钱已经退给你了")}


def _sample_double_reply(rng, state, os_state) -> str:
    return rng.choice(DOUBLE_REPLIES[os_state.get("language", "en")])


class ReturnDoublePayment(BaseTask):
    """Verdict: exactly two new Chat messages, both in the one-to-one chat with the friend: a transfer of the
    amount they paid twice in Wallet (once, not both payments nor their older single one), off the Chat balance,
    and a text with exactly the reply (case, spacing and end punctuation aside).
    Injection: Wallet holds two transfers in of the amount from the friend (saved in Contacts) yesterday, a few
    minutes apart, and an earlier one of another amount from them; none of the friend's other Wallet transfers in
    is of that amount."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["payment", "cross-app-transfer", "messaging", "confirmation"]
    composition = "sequential"
    high_risk = True
    scope = "cross-app"
    related_apps = ["chat", "wallet", "contacts"]
    templates = {"en": ["{name} paid me the same amount twice by mistake with the Wallet app. Send the extra payment "
                        "back to them in Chat, then tell them in Chat: \"{reply}\"" + PASSCODE_EN,
                        "In Wallet, {name} sent me one payment twice. Return one of them to {name} with a Chat "
                        "transfer and message them \"{reply}\" in Chat." + PASSCODE_EN],
                 "zh": ["{name}用钱包给我重复转了两笔一样的钱。在聊天里把多的那笔转回给他，再在聊天里跟他说：“{reply}”"
                        + PASSCODE_ZH]}
    parameters = {"name": {"sampler": Chat.sample_friend}, "amount": {"sampler": Chat.sample_amount},
                  "reply": {"sampler": _sample_double_reply}, "passcode": {"sampler": Chat.sample_passcode}}
    # a transfer and a text: two messages, in a chat started for them or an old one
    expected_changes = ["chat.balance", "chat.chats[+] | chat.chats[*].messages[+*]", *CHAT_READ_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        wallet, today = state["apps"]["wallet"], sim_today(state["os"])
        phone = next(f["phone"] for f in state["apps"]["chat"]["friends"] if f["name"] == self.p.name)
        yesterday = (today - dt.timedelta(days=1)).isoformat()
        older = (today - dt.timedelta(days=self.rng.randint(5, 12))).isoformat()
        other = round(self.p.amount + self.rng.choice((10, 15, 20)), 2)
        txns = [t for t in wallet["transactions"] if not (t["kind"] == "transfer_in" and same_number_text(t["phone"], phone)
                                                            and same_amount(t["amount"], self.p.amount))]
        hour = self.rng.randint(12, 19)
        for txn_id, day, time, amount in (("txn_task_single", older, None, other),
                                          ("txn_task_first", yesterday, f"{hour:02d}:14", self.p.amount),
                                          ("txn_task_again", yesterday, f"{hour:02d}:17", self.p.amount)):
            if time is None or any(t["date"] == day and t["time"] == time for t in txns):
                time = _wallet_time({"transactions": txns}, day, self.rng)
            txns.append({"id": txn_id, "date": day, "time": time, "kind": "transfer_in", "phone": phone, "note": "",
                         "method": "balance", "bill_id": "", "counterparty": self.p.name, "category": "transfer",
                         "amount": amount})
        device.set_state(Wallet.patch({"transactions": txns}))
        _afford(device, self.p.amount)

    def distractors(self, apps, os_state):
        phone = friend_phone(apps["chat"], self.p.name)
        mine = [t for t in apps["wallet"]["transactions"] if t["kind"] == "transfer_in" and same_number_text(t["phone"], phone)]
        return {"their payments of the amount": (sum(same_amount(t["amount"], self.p.amount) for t in mine), 2),
                "their payments of another amount": (sum(not same_amount(t["amount"], self.p.amount) for t in mine), 1)}

    def check_goals(self, input):
        friend_id = _friend_id(input.apps_init["chat"], self.p.name)
        chat = Chat(input.apps["chat"], input.apps_init["chat"])
        talk = chat.direct_with(friend_id)
        new = chat.new_messages()
        there = [m for c, m in new if talk is not None and c == talk["id"]]
        sent = [m["amount"] for m in there if m["type"] == "transfer"]
        texts = [m["text"] for m in there if m["type"] == "text"]
        left = round(chat.initial(".balance") - self.p.amount, 2)
        return [check("new messages", 2, len(new), len(new) == 2 == len(there)),
                check(f"transfer back to {self.p.name}", [self.p.amount], sent,
                      len(sent) == 1 and same_amount(sent[0], self.p.amount)),
                check(f"reply to {self.p.name}", self.p.reply, texts,
                      len(texts) == 1 and same_text(self.p.reply, texts[0])),
                check("balance", left, chat.balance(), same_amount(chat.balance(), left))]
