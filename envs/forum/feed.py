"""Reading the Forum's state: lookups, scores with the owner's vote, ages against the phone's clock, the feed's
sorts and comment threads. Pure functions of the app's state, shared by the screens and the task suite."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.envs.l10n import GONE
from mobilegym.sim.records import record

from .world import ME

SORTS = (("hot", "Hot"), ("new", "New"), ("top", "Top"))


def community(state: dict[str, Any], community_id: str) -> dict[str, Any]:
    return record(state["communities"], community_id, "community")


def community_or_none(state: dict[str, Any], community_id: str) -> dict[str, Any] | None:
    """The community, or None when the state no longer holds it (a post can outlive its community)."""
    return next((c for c in state["communities"] if c["id"] == community_id), None)


def community_name(state: dict[str, Any], community_id: str, language: str) -> str:
    """A post's community as its rows print it: the name, or "[deleted]" when the community is gone."""
    found = community_or_none(state, community_id)
    return found["name"] if found else GONE[language == "zh"]


def user(state: dict[str, Any], user_id: str) -> dict[str, Any]:
    return record(state["users"], user_id, "user")


def post(state: dict[str, Any], post_id: str) -> dict[str, Any]:
    return record(state["posts"], post_id, "post")


def handle(state: dict[str, Any], author_id: str) -> str:
    """The author's handle (the owner's own for ``me``)."""
    return state["me"]["handle"] if author_id == ME else user(state, author_id)["handle"]


def score(item: dict[str, Any]) -> int:
    """A post's or comment's score as shown: the others' votes plus the owner's."""
    return item["score"] + item["vote"]


def members(item: dict[str, Any]) -> int:
    """A community's member count as shown (the owner counts once joined)."""
    return item["members"] + (1 if item["joined"] else 0)


def created(item: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(item["created"])


def age(language: str, item: dict[str, Any], now: dt.datetime) -> str:
    """How long ago a post or comment was made: "5m", "3h", "2d" / "5分钟前", "3小时前", "2天前"."""
    minutes = max(0, int((now - created(item)).total_seconds() // 60))
    if minutes < 60:
        return f"{minutes}分钟前" if language == "zh" else f"{minutes}m"
    if minutes < 24 * 60:
        return f"{minutes // 60}小时前" if language == "zh" else f"{minutes // 60}h"
    return f"{minutes // 1440}天前" if language == "zh" else f"{minutes // 1440}d"


def hotness(item: dict[str, Any], now: dt.datetime) -> float:
    """The Hot sort's key: score decayed by age in hours."""
    hours = max(0.0, (now - created(item)).total_seconds() / 3600)
    return score(item) / (hours + 2) ** 1.5


def sorted_posts(posts: list[dict[str, Any]], sort: str, now: dt.datetime) -> list[dict[str, Any]]:
    """Posts in a feed's order: hot, new or top (ties by newer first)."""
    if sort not in ("hot", "new", "top"):
        raise ValueError(f"forum: unknown sort {sort!r}; known: hot, new, top")
    newest = sorted(posts, key=lambda p: p["created"], reverse=True)
    if sort == "new":
        return newest
    if sort == "top":
        return sorted(newest, key=lambda p: -score(p))
    return sorted(newest, key=lambda p: -hotness(p, now))


def community_posts(state: dict[str, Any], community_id: str) -> list[dict[str, Any]]:
    return [p for p in state["posts"] if p["community_id"] == community_id]


def home_posts(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The home feed: posts of the communities the owner joined."""
    joined = {c["id"] for c in state["communities"] if c["joined"]}
    return [p for p in state["posts"] if p["community_id"] in joined]


def thread(item: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """A post's comments as shown, (comment, depth): top-level ones by score, each followed by its replies
    (oldest first)."""
    tops = sorted((c for c in item["comments"] if not c["parent"]), key=lambda c: (-score(c), c["created"]))
    shown: list[tuple[dict[str, Any], int]] = []
    for top in tops:
        shown.append((top, 0))
        shown += [(c, 1) for c in item["comments"] if c["parent"] == top["id"]]
    return shown
