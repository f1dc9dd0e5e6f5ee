"""The Video app of a generated world: 8 to 12 channels drawn from the pools beside this file, 3 to 8 videos
each (views, duration, likes, upload time before the phone's clock, a count of other people's comments), 1 to 3
upcoming live streams, the channels the owner subscribes to, a watch history, Watch later and Favourites lists,
settings and a paused player.

Invariants the screens and tasks rely on: video titles and channel names are unique and hold no " · "; every
upload is before ``world.now`` and no two share a minute; a live stream (``live_at`` set) is after it and has no
views, duration or likes; history holds distinct watched (not live) videos, newest first (entries by id), each watched after
its upload; the lists hold distinct videos that are not live streams.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
MIN_CHANNELS, MAX_CHANNELS = 8, 12
MIN_VIDEOS, MAX_VIDEOS = 3, 8
MAX_AGE_DAYS = 400
LIVE_HOURS = ((19, 0), (20, 0), (20, 30), (21, 0), (10, 0), (15, 0))
QUALITIES = ("auto", "1080p", "720p", "480p", "360p")


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (read only)."""
    return load_pool(PACKAGE, "pools", language)


def _minute(t: dt.datetime) -> str:
    return t.isoformat(timespec="minutes")


def _videos(rng: random.Random, now: dt.datetime, channel: dict[str, Any], titles: list[str], ages: list[int],
            first_id: int) -> list[dict[str, Any]]:
    """A channel's uploads (``ages`` in minutes before now), with views growing with the channel's size and the
    video's age."""
    videos = []
    subscribers = channel["subscribers"]
    for n, (title, age) in enumerate(zip(titles, ages)):
        views = int(subscribers * (0.02 + 0.88 * rng.random()) * min(1.0, 0.15 + age / 20160)) + 50 + int(950 * rng.random())
        videos.append({"id": f"v_{first_id + n}", "title": title, "channel_id": channel["id"], "views": views,
                       "duration_s": 95 + int(2600 * rng.random()), "uploaded": _minute(now - dt.timedelta(minutes=age)),
                       "likes": int(views * (0.01 + 0.05 * rng.random())), "reaction": "",
                       "comment_count": int(views * (0.0005 + 0.0035 * rng.random())) + 3 + int(37 * rng.random()),
                       "comments": [], "live_at": ""})
    return videos


def _live(rng: random.Random, now: dt.datetime, channel: dict[str, Any], title: str, video_id: str,
          day: int) -> dict[str, Any]:
    hour, minute = choice(rng, LIVE_HOURS)
    start = dt.datetime.combine(now.date() + dt.timedelta(days=day), dt.time(hour, minute))
    return {"id": video_id, "title": title, "channel_id": channel["id"], "views": 0, "duration_s": 0,
            "uploaded": _minute(now - dt.timedelta(minutes=120 + int(4000 * rng.random()))), "likes": 0,
            "reaction": "", "comment_count": int(30 * rng.random()), "comments": [], "live_at": _minute(start)}


def _history(rng: random.Random, now: dt.datetime, videos: list[dict[str, Any]],
             ages: dict[str, int]) -> list[dict[str, Any]]:
    """Watched videos, newest first, each watched after its upload and no two in the same minute."""
    watched = sample(rng, videos, min(len(videos), randint(rng, 4, 14)))
    used: set[int] = set()
    entries = []
    for video in watched:
        minutes = 1 + int(min(ages[video["id"]] - 2, 20 * 24 * 60) * rng.random())
        while minutes in used:
            minutes += 1
        used.add(minutes)
        entries.append((minutes, video["id"]))
    entries.sort()
    return [{"id": f"h_{n}", "video_id": video_id, "watched_at": _minute(now - dt.timedelta(minutes=m))}
            for n, (m, video_id) in enumerate(entries, 1)]


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("video")
    pool = read_pool(PACKAGE, "pools", world.language)
    now = world.now
    picked = sample(rng, pool["channels"], randint(rng, MIN_CHANNELS, MAX_CHANNELS))
    counts = [randint(rng, MIN_VIDEOS, min(MAX_VIDEOS, len(e["titles"]))) for e in picked]
    all_ages = sample(rng, range(30, MAX_AGE_DAYS * 24 * 60), sum(counts))  # distinct: no two uploads share a minute
    channels, videos, ages = [], [], {}
    for n, (entry, count) in enumerate(zip(picked, counts), 1):
        channel = {"id": f"ch_{n}", "name": entry["name"], "topic": entry["topic"],
                   "subscribers": int(entry["subscribers"] * (0.7 + 0.6 * rng.random())) // 1000 * 1000,
                   "subscribed": False}
        channels.append(channel)
        mine = sorted(all_ages[len(videos):len(videos) + count], reverse=True)
        made = _videos(rng, now, channel, sample(rng, entry["titles"], count), mine, len(videos) + 1)
        ages.update((v["id"], a) for v, a in zip(made, mine))
        videos += made
    for channel in sample(rng, channels, randint(rng, 3, min(7, len(channels)))):
        channel["subscribed"] = True
    uploads = list(videos)
    for day, n in zip(sample(rng, range(1, 8), 3), sample(rng, range(len(channels)), randint(rng, 1, 3))):
        videos.append(_live(rng, now, channels[n], picked[n]["live"], f"v_{len(videos) + 1}", day))
    lists = sample(rng, uploads, randint(rng, 3, 12))
    split = randint(rng, 1, len(lists) - 1)
    return {"owner": world.owner.name, "channels": channels, "videos": videos,
            "history": _history(rng, now, uploads, ages),
            "watch_later": [v["id"] for v in lists[:split]], "favorites": [v["id"] for v in lists[split:]],
            "settings": {"autoplay": rng.random() < 0.7, "quality": choice(rng, QUALITIES)},
            "player": {"video_id": "", "playing": False, "position_s": 0, "started_at_ms": None}}
