"""The notification Messages posts when the interruptions axis picks it: the latest incoming message of one of the
phone's own conversations, which a tap opens (Messages has no arriving-message event: the message is already there)."""
from __future__ import annotations

import random
from typing import Any

from mobilegym.envs.contacts.numbers import number_key

from .screens import names_by_number


def incoming(doc: dict[str, Any], rng: random.Random) -> tuple[str, str, str] | None:
    """(sender, text, thread route) of a seeded conversation whose last message is incoming; None without one. The
    sender is the contact's name, else the number, as the conversation list shows it."""
    threads = [c for c in doc["apps"]["messages"]["conversations"] if c["messages"] and c["messages"][-1]["incoming"]]
    if not threads:
        return None
    conv = rng.choice(threads)
    names = names_by_number(doc["apps"].get("contacts", {}).get("contacts", []))
    return names.get(number_key(conv["address"]), conv["address"]), conv["messages"][-1]["text"], f"/thread?id={conv['id']}"
