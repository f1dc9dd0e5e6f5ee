"""Preparers of the Mail app (JSON "prepare" setup actions): preconditions made true in any world.

Texts may be given per language ({"en": ..., "zh": ...}).

``notice``  an unread mail in the Inbox from a sender, under a known id (a thread with that subject replaced).
"""
from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from mobilegym.sim.app import Prep
from mobilegym.sim.clock import to_ms

from ..l10n import in_language
from .app import APP


@APP.preparer("notice")
def notice(prep: Prep, id: str, subject: str | dict[str, str], sender: str | dict[str, str],  # noqa: A002
           email: str, body: str | dict[str, str]) -> dict[str, Any]:
    subject = in_language(subject, prep.language, "subject")
    state = prep.state("mail")
    threads = [t for t in copy.deepcopy(state["threads"]) if t["subject"] != subject and t["id"] != id]
    moment = prep.now - dt.timedelta(minutes=prep.rng.randint(30, 60 * 24 * 2))
    message = {"id": f"msg_{id}", "from": {"name": in_language(sender, prep.language, "sender"), "email": email},
               "to": [dict(state["account"])], "cc": [], "body": in_language(body, prep.language, "body"),
               "time_ms": to_ms(moment.replace(second=0, microsecond=0)), "attachments": []}
    threads.append({"id": id, "kind": "notice", "subject": subject, "labels": [], "inbox": True, "trashed": False,
                    "unread": True, "starred": False, "messages": [message], "facts": {}})
    return {"apps": {"mail": {"threads": threads}}}
