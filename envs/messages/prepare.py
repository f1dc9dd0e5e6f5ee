"""Preparers of the Messages app (JSON "prepare" setup actions): preconditions made true in any world.

Names may be given per language ({"en": ..., "zh": ...}).

``chat``          a saved contact (added when missing) with a thread about a topic, under a known id.
``carrier``       a thread from a parcel carrier (any other thread of that carrier replaced), under a known id.
``parcel_today``  the parcel out for delivery today, with a seeded delivery window recorded on the message
                  (``window.start`` / ``window.end``, "HH:MM") under known ids.
"""
from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from mobilegym.envs.contacts.numbers import same_number
from mobilegym.envs.contacts.prepare import ensure_contact, fresh_number
from mobilegym.sim.app import Prep
from mobilegym.sim.clock import to_ms
from mobilegym.sim.worldgen.draws import fill_digits

from ..l10n import in_language
from .app import APP
from .world import OUT_FOR_DELIVERY, PARCEL, date_text, delivery_text, delivery_window, pool

CHATS = {
    "brunch": {"en": [(True, "Brunch on {day} at 11?"), (False, "Sounds great, where?"), (True, "{place}")],
               "zh": [(True, "{day}上午十一点一起吃早午餐？"), (False, "好啊，去哪儿？"), (True, "{place}")]},
}
CARRIER_TRACKING = "#Z-#####"


def _minutes_ago(prep: Prep, low: int, high: int) -> int:
    return to_ms(prep.now - dt.timedelta(minutes=prep.rng.randint(low, high)))


@APP.preparer("chat")
def chat(prep: Prep, name: str | dict[str, str], contact_id: str, id: str, topic: str) -> dict[str, Any]:  # noqa: A002
    name = in_language(name, prep.language, "contact name")
    contacts = copy.deepcopy(prep.state("contacts")["contacts"])
    person = ensure_contact(prep, contacts, name, contact_id)
    number = person["phones"][0]["number"]
    conversations = [c for c in copy.deepcopy(prep.state("messages")["conversations"])
                     if not any(same_number(c["address"], p["number"]) for p in person["phones"])]
    p = pool(prep.language)
    lines = CHATS[topic][prep.language]
    day, place = prep.rng.choice(p["days"]), prep.rng.choice(p["places"])
    end = prep.now - dt.timedelta(minutes=prep.rng.randint(60, 60 * 24 * 3))
    messages = []
    for i, (incoming, text) in enumerate(lines):
        moment = end - dt.timedelta(minutes=7 * (len(lines) - 1 - i))
        messages.append({"id": f"msg_{id}_{i + 1}", "text": text.format(day=day, place=place),
                         "time_ms": to_ms(moment.replace(second=0, microsecond=0)), "incoming": incoming})
    conversations.append({"id": id, "address": number, "unread": 1, "messages": messages})
    return {"apps": {"contacts": {"contacts": contacts}, "messages": {"conversations": conversations}}}


@APP.preparer("carrier")
def carrier(prep: Prep, name: str | dict[str, str], id: str) -> dict[str, Any]:  # noqa: A002
    """A thread from carrier ``name`` with one older delivered-parcel notice (nothing arriving today)."""
    name = in_language(name, prep.language, "carrier name")
    conversations = [c for c in copy.deepcopy(prep.state("messages")["conversations"])
                     if not any(name in m["text"] for m in c["messages"])]
    p = pool(prep.language)
    moment = prep.now - dt.timedelta(days=prep.rng.randint(2, 20), minutes=prep.rng.randint(0, 600))
    text = p["delivered"].format(carrier=name, tracking=fill_digits(prep.rng, CARRIER_TRACKING),
                                 when=date_text(prep.language, moment.date()))
    known = next((c["address"] for c in p["carriers"] if c["name"] == name), None)
    address = known if known and not any(same_number(c["address"], known) for c in conversations) \
        else fresh_number(prep)
    conversations.append({"id": id, "address": address, "unread": 0, "messages": [
        {"id": f"msg_{id}_1", "text": text, "time_ms": to_ms(moment.replace(second=0, microsecond=0)),
         "incoming": True}]})
    return {"apps": {"messages": {"conversations": conversations}}}


@APP.preparer("parcel_today")
def parcel_today(prep: Prep, id: str, message_id: str) -> dict[str, Any]:  # noqa: A002
    """Exactly one parcel out for delivery today: the world's (its window redrawn, its start spread over the
    worlds) or a new one."""
    conversations = copy.deepcopy(prep.state("messages")["conversations"])
    p = pool(prep.language)
    today = [(m["time_ms"], c, m) for c in conversations for m in c["messages"]
             if m["incoming"] and OUT_FOR_DELIVERY.search(m["text"])]
    start, end = delivery_window(prep.rng, prep.now, prep.spread)
    if today:
        _, conv, message = max(today, key=lambda item: item[0])
        for _, other, other_message in today:  # an older notice of another parcel is no longer "today"
            if other_message is not message:
                other["messages"].remove(other_message)
        conversations = [c for c in conversations if c["messages"]]
        name = next((c["name"] for c in p["carriers"] if c["name"] in message["text"]), p["carriers"][0]["name"])
        tracking = message["text"]
    else:
        courier = prep.rng.choice(p["carriers"])
        name = courier["name"]
        conv = next((c for c in conversations if same_number(c["address"], courier["address"])), None)
        if conv is None:
            conv = {"id": id, "address": courier["address"], "unread": 1, "messages": []}
            conversations.append(conv)
        message = {"id": message_id, "text": "", "time_ms": _minutes_ago(prep, 5, 60), "incoming": True}
        conv["messages"].append(message)
        tracking = ""
    found = PARCEL.search(tracking)
    number = found.group(1) if found else fill_digits(prep.rng, CARRIER_TRACKING)
    message.update({"id": message_id, "text": delivery_text(prep.language, name, number, start, end),
                    "window": {"start": start, "end": end}})
    conv["id"] = id
    return {"apps": {"messages": {"conversations": conversations}}}
