"""The Forum app of a generated world: 6 to 9 communities (2 or more joined, 2 or more not), 10 to 16 other
users (some followed), 3 to 5 posts per community with comment threads (replies one level deep), and 1 or 2 posts
and a few comments by the owner, drawn from the pools beside this file.

Invariants the screens and tasks rely on: community names and post titles are unique; post scores are distinct
across the app and comment scores within a post; no two posts, nor two comments of a post, share a creation minute; times are
before the phone's clock; ``posts`` is ordered newest first; a reply's parent is a top-level comment of its post.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
ME = "me"
MIN_COMMUNITIES, MAX_COMMUNITIES = 6, 9
MIN_POSTS, MAX_POSTS = 3, 5
MAX_AGE_MINUTES = 12 * 24 * 60


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (read only)."""
    return load_pool(PACKAGE, "pools", language)


def stamp(moment: dt.datetime) -> str:
    """A creation time as stored: "2026-03-16T08:42"."""
    return moment.isoformat(timespec="minutes")


def _my_handle(world: World, rng: random.Random) -> str:
    if world.language == "zh":
        return f"{world.owner.name}的小号{rng.randrange(10, 99)}"
    return f"{world.owner.given.lower()}_{rng.randrange(100, 999)}"


def _users(rng: random.Random, pool: dict[str, Any]) -> list[dict[str, Any]]:
    handles = sample(rng, pool["handles"], randint(rng, 10, 16))
    followers = sample(rng, range(3, 9000), len(handles))
    return [{"id": f"u_{n}", "handle": h, "bio": choice(rng, pool["bios"]), "followers": followers[n - 1],
             "following": rng.random() < 0.25} for n, h in enumerate(handles, 1)]


def _thread(rng: random.Random, pool: dict[str, Any], authors: list[str], age: int,
            next_id: list[int]) -> list[dict[str, Any]]:
    """The comments of a post made ``age`` minutes ago: 0 to 4 top-level ones, each with 0 to 2 replies, each
    later than the one before (so a reply is later than its parent); ``created`` in minutes ago."""
    count = choice(rng, (0, 1, 1, 2, 2, 3, 4))
    replies = [(0, 0, 1, 2)[int(rng.random() * 4)] for _ in range(count)]
    total = count + sum(replies)
    if not total:  # sampling nothing draws nothing: the stream is the same
        return []
    scores = sample(rng, range(-3, 400), total)
    times = sorted(sample(rng, range(1, age), total), reverse=True)
    texts = sample(rng, pool["comments"], total)
    comments: list[dict[str, Any]] = []

    def make(parent: str) -> dict[str, Any]:
        n = len(comments)
        comment = {"id": f"cm_{next_id[0]}", "parent": parent, "author_id": choice(rng, authors),
                   "text": texts[n], "score": scores[n], "vote": 0, "created": times[n]}
        next_id[0] += 1
        comments.append(comment)
        return comment

    for n in range(count):
        top = make("")
        for _ in range(replies[n]):
            make(top["id"])
    return comments


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("forum")
    pool = read_pool(PACKAGE, "pools", world.language)
    chosen = sample(rng, pool["communities"], randint(rng, MIN_COMMUNITIES, MAX_COMMUNITIES))
    joined = set(sample(rng, range(len(chosen)), randint(rng, 2, len(chosen) - 2)))
    members = sample(rng, range(800, 900_000), len(chosen))
    communities = [{"id": f"c_{n + 1}", "name": c["name"], "about": c["about"], "members": members[n],
                    "joined": n in joined} for n, c in enumerate(chosen)]
    users = _users(rng, pool)
    authors = [u["id"] for u in users]
    picked = [(n, post) for n, c in enumerate(chosen)
              for post in sample(rng, c["posts"], randint(rng, MIN_POSTS, MAX_POSTS))]
    mine = set(sample(rng, range(len(picked)), randint(rng, 1, 2)))
    post_ages = sample(rng, range(60, MAX_AGE_MINUTES), len(picked))
    scores = sample(rng, range(1, 6000), len(picked))
    posts, next_id = [], [1]
    for k, ((n, (title, body)), age) in enumerate(zip(picked, post_ages)):
        thread = _thread(rng, pool, authors + [ME] * 2, age, next_id)
        for c in thread:
            c["created"] = stamp(world.now - dt.timedelta(minutes=c["created"]))
        posts.append({"id": f"p_{k + 1}", "community_id": communities[n]["id"],
                      "author_id": ME if k in mine else choice(rng, authors), "title": title, "body": body,
                      "score": scores[k], "vote": 0, "saved": rng.random() < 0.1,
                      "created": stamp(world.now - dt.timedelta(minutes=age)), "comments": thread})
    posts.sort(key=lambda p: p["created"], reverse=True)
    return {"me": {"handle": _my_handle(world, rng), "karma": rng.randrange(50, 4000)},
            "communities": communities, "users": users, "posts": posts}
