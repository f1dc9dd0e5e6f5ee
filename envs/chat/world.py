"""The Chat app of a generated world: friends (a sample of the people saved in Contacts, same names and numbers),
one-to-one chats with some of them, group chats of three to six friends, a moments feed, and the chat wallet
(``balance``, ``currency``, ``settings.passcode``: six digits). Some chats hold money transfers: received ones
waiting to be accepted or already accepted, and ones the owner sent.

Invariants tasks rely on: friend names are unique; every one-to-one chat is with a different friend; group names
are unique; no two chats end at the same minute and no two moments share a time; all times are before
``world.now``; a chat's ``unread`` is at most the incoming messages at its end; amounts have two decimals.
"""
from __future__ import annotations

import random
from typing import Any, Sequence

from mobilegym.sim.clock import MINUTE_MS
from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
MAX_FRIENDS = 14
MIN_DIRECT, MAX_DIRECT = 3, 8
MIN_GROUPS, MAX_GROUPS = 2, 4
MIN_MEMBERS, MAX_MEMBERS = 3, 6
MIN_MOMENTS, MAX_MOMENTS = 5, 10
CHAT_SPAN = 14 * 24 * 60  # chats ended within the last two weeks (minutes)
MOMENT_SPAN = 10 * 24 * 60
TRANSFER_SHARE = 0.4  # one-to-one chats with a transfer in them
ME = "me"


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (read only)."""
    return load_pool(PACKAGE, "pools", language)


def draw_amount(rng: random.Random, low: float, high: float) -> float:
    """An amount in [low, high]: whole or with cents."""
    value = rng.uniform(low, high)
    return float(round(value)) if rng.random() < 0.5 else round(value, 2)


def text_message(msg_id: str, sender: str, text: str, time_ms: int) -> dict[str, Any]:
    return {"id": msg_id, "sender": sender, "type": "text", "text": text, "time_ms": time_ms, "amount": 0.0,
            "note": "", "status": ""}


def transfer_message(msg_id: str, sender: str, amount: float, note: str, time_ms: int, status: str) -> dict[str, Any]:
    """A transfer: ``status`` is "pending" (received, not yet accepted), "accepted" or "sent" (the owner's)."""
    return {"id": msg_id, "sender": sender, "type": "transfer", "text": "", "time_ms": time_ms, "amount": amount,
            "note": note, "status": status}


class _Ids:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}_{self.n}"


def _times(rng: random.Random, end_ms: int, count: int) -> list[int]:
    """``count`` increasing times ending at ``end_ms`` (one to 90 minutes apart)."""
    out = [end_ms]
    for _ in range(count - 1):
        out.append(out[-1] - randint(rng, 1, 90) * MINUTE_MS)
    return out[::-1]


def _unread(rng: random.Random, messages: list[dict[str, Any]]) -> int:
    trailing = 0
    for message in reversed(messages):
        if message["sender"] == ME:
            break
        trailing += 1
    return randint(rng, 0, trailing) if trailing else 0


def make_chats(rng: random.Random, pool: dict[str, Any], now_ms: int, friends: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids = _Ids()
    direct = sample(rng, friends, randint(rng, min(MIN_DIRECT, len(friends)), min(MAX_DIRECT, len(friends))))
    groups = sample(rng, pool["groups"], randint(rng, MIN_GROUPS, MAX_GROUPS)) if len(friends) >= MIN_MEMBERS else []
    ends = sample(rng, range(3, CHAT_SPAN), len(direct) + len(groups))
    chats = []
    for friend, end in zip(direct, ends):
        ask, answer = choice(rng, pool["direct_lines"])
        lines = [(friend["id"], ask), (ME, answer)]
        if rng.random() < 0.5:
            lines.reverse()
        times = _times(rng, now_ms - end * MINUTE_MS, len(lines) + 1)
        messages = [text_message(ids("msg"), who, text, t) for (who, text), t in zip(lines, times)]
        if rng.random() < TRANSFER_SHARE:
            sent = rng.random() < 0.4
            status = "sent" if sent else choice(rng, ("pending", "accepted"))
            messages.append(transfer_message(ids("msg"), ME if sent else friend["id"], draw_amount(rng, *pool["transfer"]),
                                             choice(rng, pool["notes"]), times[-1], status))
        else:
            messages.append(text_message(ids("msg"), choice(rng, (ME, friend["id"])), choice(rng, pool["group_lines"]),
                                         times[-1]))
        chats.append({"id": ids("chat"), "kind": "direct", "name": "", "members": [friend["id"]],
                      "unread": _unread(rng, messages), "messages": messages})
    for name, end in zip(groups, ends[len(direct):]):
        members = sorted(sample(rng, friends, randint(rng, MIN_MEMBERS, min(MAX_MEMBERS, len(friends)))),
                         key=lambda f: int(f["id"].split("_")[1]))
        lines = sample(rng, pool["group_lines"], randint(rng, 3, 6))
        times = _times(rng, now_ms - end * MINUTE_MS, len(lines))
        messages = [text_message(ids("msg"), choice(rng, [ME, *[m["id"] for m in members]]), text, t)
                    for text, t in zip(lines, times)]
        chats.append({"id": ids("chat"), "kind": "group", "name": name, "members": [m["id"] for m in members],
                      "unread": _unread(rng, messages), "messages": messages})
    return chats


def make_moments(rng: random.Random, pool: dict[str, Any], now_ms: int, friends: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not friends:
        return []
    count = randint(rng, MIN_MOMENTS, MAX_MOMENTS)
    texts = sample(rng, pool["moments"], min(count, len(pool["moments"])))
    ages = sorted(sample(rng, range(30, MOMENT_SPAN), len(texts)), reverse=True)
    everyone = [ME, *[f["id"] for f in friends]]
    moments = []
    for i, (text, age) in enumerate(zip(texts, ages), 1):
        author = friends[randrange(rng, len(friends))]["id"]
        others = [p for p in everyone if p != author]
        likes = sample(rng, others, randint(rng, 0, min(5, len(others))))
        comments = [{"id": f"comment_{i}_{n}", "author": who, "text": choice(rng, pool["comments"])}
                    for n, who in enumerate(sample(rng, others, randint(rng, 0, min(2, len(others)))), 1)]
        moments.append({"id": f"moment_{i}", "author": author, "text": text, "time_ms": now_ms - age * MINUTE_MS,
                        "likes": likes, "comments": comments})
    return moments


def build(rng: random.Random, language: str, now_ms: int, owner: str, people: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The app's state from the owner's name and (name, number) of the people who may be friends (in cast order)."""
    pool = read_pool(PACKAGE, "pools", language)
    chosen = sorted(sample(rng, range(len(people)), min(MAX_FRIENDS, len(people))))
    friends = [{"id": f"friend_{n}", "name": people[i][0], "phone": people[i][1]} for n, i in enumerate(chosen, 1)]
    return {"me": {"name": owner},
            "balance": round(rng.uniform(*pool["balance"]), 2), "currency": pool["currency"],
            "settings": {"passcode": f"{randrange(rng, 10 ** 6):06d}"},
            "friends": friends,
            "chats": make_chats(rng, pool, now_ms, friends),
            "moments": make_moments(rng, pool, now_ms, friends)}


def generate(world: World) -> dict[str, Any]:
    people = [(p.name, p.mobile) for p in world.contacts() if p.phones]
    return build(world.rng("chat"), world.language, world.time_ms, world.owner.name, people)
