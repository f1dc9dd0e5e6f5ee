"""Reading the Video app's state: lookups, counts and times as the screens print them, playback position.
Pure functions of the app's state, shared by the screens and the task suite."""
from __future__ import annotations

import datetime as dt
from typing import Any

from mobilegym.calendar_words import MONTH_ABBRS as MONTHS
from mobilegym.envs.l10n import GONE
from mobilegym.sim.records import record

LISTS = {"watch_later": "Watch later", "favorites": "Favourites"}
QUALITY_LABELS = {"auto": "Auto", "1080p": "1080p", "720p": "720p", "480p": "480p", "360p": "360p"}


def video(state: dict[str, Any], video_id: str) -> dict[str, Any]:
    return record(state["videos"], video_id, "video")


def channel(state: dict[str, Any], channel_id: str) -> dict[str, Any]:
    return record(state["channels"], channel_id, "channel")


def channel_or_none(state: dict[str, Any], channel_id: str) -> dict[str, Any] | None:
    """The channel, or None when the state no longer holds it (a video can outlive its channel)."""
    return next((c for c in state["channels"] if c["id"] == channel_id), None)


def channel_name(state: dict[str, Any], channel_id: str, language: str) -> str:
    """A video's channel as its rows print it: the name, or "[deleted]" when the channel is gone."""
    found = channel_or_none(state, channel_id)
    return found["name"] if found else GONE[language == "zh"]


def uploads(state: dict[str, Any], channel_id: str | None = None) -> list[dict[str, Any]]:
    """Uploaded videos (no live streams), newest first, of one channel or all."""
    found = [v for v in state["videos"] if not v["live_at"] and (channel_id is None or v["channel_id"] == channel_id)]
    return sorted(found, key=lambda v: v["uploaded"], reverse=True)


def live_streams(state: dict[str, Any], channel_id: str | None = None) -> list[dict[str, Any]]:
    """Upcoming live streams, soonest first."""
    found = [v for v in state["videos"] if v["live_at"] and (channel_id is None or v["channel_id"] == channel_id)]
    return sorted(found, key=lambda v: v["live_at"])


def count_text(language: str, n: int) -> str:
    """1.2M / 35K / 812 (English), 120.3万 / 8,123 (Chinese), as the apps abbreviate counts."""
    if language == "zh":
        if n >= 100_000_000:
            return f"{n / 100_000_000:.1f}亿".replace(".0亿", "亿")
        if n >= 10_000:
            return f"{n / 10_000:.1f}万".replace(".0万", "万")
        return f"{n:,}"
    for size, unit in ((1_000_000_000, "B"), (1_000_000, "M"), (1_000, "K")):
        if n >= size:
            value = n / size
            text = f"{value:.1f}" if value < 10 else f"{int(value)}"
            return text.replace(".0", "") + unit
    return str(n)


def views_text(language: str, n: int) -> str:
    return f"{count_text(language, n)}次观看" if language == "zh" else f"{count_text(language, n)} views"


def duration_text(seconds: int) -> str:
    """3:07, or 1:02:15 past an hour."""
    hours, rest = divmod(int(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def ago_text(language: str, when: str, now: dt.datetime) -> str:
    """How long before ``now`` an ISO minute was: "5 minutes ago", "3 days ago", "2 months ago" (3天前 ...)."""
    minutes = max(0, int((now - dt.datetime.fromisoformat(when)).total_seconds() // 60))
    for size, en, zh in ((525600, "year", "年"), (43200, "month", "个月"), (10080, "week", "周"), (1440, "day", "天"),
                         (60, "hour", "小时"), (1, "minute", "分钟")):
        if minutes >= size:
            n = minutes // size
            return f"{n}{zh}前" if language == "zh" else f"{n} {en}{'s' if n > 1 else ''} ago"
    return "刚刚" if language == "zh" else "just now"


def time_text(language: str, when: str) -> str:
    """The date and time of an ISO minute: "Mar 18, 8:00 PM" / "3月18日 20:00"."""
    t = dt.datetime.fromisoformat(when)
    if language == "zh":
        return f"{t.month}月{t.day}日 {t.hour:02d}:{t.minute:02d}"
    hour = t.hour % 12 or 12
    return f"{MONTHS[t.month - 1]} {t.day}, {hour}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def date_text(language: str, when: str) -> str:
    """The date of an ISO minute: "Mar 18, 2026" / "2026年3月18日"."""
    t = dt.datetime.fromisoformat(when)
    return f"{t.year}年{t.month}月{t.day}日" if language == "zh" else f"{MONTHS[t.month - 1]} {t.day}, {t.year}"


def position(state: dict[str, Any], video_id: str, now_ms: int) -> tuple[int, bool]:
    """(seconds played, playing) of a video in the player at ``now_ms``: a video stops at its end; a video not
    loaded is at 0."""
    player = state["player"]
    if player["video_id"] != video_id:
        return 0, False
    length = video(state, video_id)["duration_s"]
    if not player["playing"]:
        return min(player["position_s"], length), False
    played = player["position_s"] + (now_ms - player["started_at_ms"]) // 1000
    return (length, False) if played >= length else (played, True)


def likes_shown(item: dict[str, Any]) -> int:
    """The like count a video shows: the others' likes plus the owner's."""
    return item["likes"] + (item["reaction"] == "like")
