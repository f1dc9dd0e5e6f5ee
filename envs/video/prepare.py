"""Preparers of the Video app for JSON tasks (setup action ``prepare``): make a named video exist on a named
channel in whatever world the phone holds. Each returns a patch of the whole document. Titles and names may be
given per language ({"en": ..., "zh": ...})."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP

Text = str | dict[str, str]  # a text, or one per language


@APP.preparer("video")
def video(prep: Prep, title: Text, channel: Text, topic: Text, days_ago: int = 3) -> dict[str, Any]:
    """The video exists (seeded views, duration and likes, uploaded ``days_ago`` days before the phone's time), on
    the named channel (made, not subscribed, when missing). Nothing changes when a video has that title."""
    state = prep.state("video")
    title = in_language(title, prep.language, "video title")
    if any(v["title"] == title for v in state["videos"]):
        return {}
    name = in_language(channel, prep.language, "channel")
    patch: dict[str, Any] = {}
    found = next((c for c in state["channels"] if c["name"] == name), None)
    rng = prep.rng
    if found is None:
        found = {"id": f"ch_{len(state['channels']) + 1}", "name": name, "topic": in_language(topic, prep.language, "topic"),
                 "subscribers": rng.randrange(50, 3000) * 1000, "subscribed": False}
        patch["channels[]"] = found
    now = prep.now
    views = rng.randrange(5_000, 900_000)
    patch["videos[]"] = {"id": f"v_{len(state['videos']) + 1}", "title": title, "channel_id": found["id"], "views": views,
                         "duration_s": rng.randrange(240, 1500),
                         "uploaded": (now - dt.timedelta(days=days_ago, minutes=rng.randrange(1, 600))).isoformat(timespec="minutes"),
                         "likes": views // rng.randrange(20, 80), "reaction": "", "comment_count": rng.randrange(10, 900),
                         "comments": [], "live_at": ""}
    return {"apps": {"video": patch}}
