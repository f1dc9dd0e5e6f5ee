"""The Browser of a generated world: five local web sites (news, recipes, a store directory, a cinema and an
encyclopedia) of 22 to 47 pages drawn from the pools beside this file, 3 to 8 open tabs, 5 to 15 bookmarks and
20 to 60 history visits over the past three weeks. Nothing is fetched: every page is data in the state.

Invariants the screens and tasks rely on: page urls and titles are unique; every tab, bookmark and visit names
a page of the world (a bookmark's and a visit's ``title`` and ``host`` are the page's); bookmarks hold distinct
urls; visits are newest first, none later than the phone's clock; recipes' cooking times, stores' hours and
films' showtimes are drawn per world.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.calendar_words import WEEKDAY_ABBRS as DAYS
from mobilegym.sim.clock import MINUTE_MS, to_ms
from mobilegym.sim.worldgen import World
from mobilegym.sim.worldgen.draws import choice, randint, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
KINDS = ("news", "recipes", "stores", "cinema", "wiki")  # one site of each kind
PAGE_KIND = {"news": "article", "recipes": "recipe", "stores": "store", "cinema": "film", "wiki": "wiki"}
PATHS = {"news": "news", "recipes": "recipe", "stores": "store", "cinema": "film", "wiki": "wiki"}
ITEMS = {"news": (4, 10), "recipes": (4, 10), "stores": (3, 8), "cinema": (3, 6), "wiki": (3, 8)}
SHOW_DAYS = 3  # films list showtimes for today and the next two days
MIN_TABS, MAX_TABS = 3, 8
MIN_BOOKMARKS, MAX_BOOKMARKS = 5, 15
MIN_VISITS, MAX_VISITS = 20, 60
HISTORY_DAYS = 21
DAY_MS = 24 * 60 * MINUTE_MS


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (shared: read only)."""
    return read_pool(PACKAGE, "pools", language)


def hhmm(minute_of_day: int) -> str:
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


def _hours(rng: random.Random) -> dict[str, dict[str, str] | None]:
    """A store's week: one weekday pattern, a Saturday that opens at another time, Sunday later and shorter (or
    closed)."""
    open_ = randint(rng, 8 * 4, 11 * 4) * 15
    close = randint(rng, 18 * 2, 22 * 2) * 30
    sat_open = open_ + choice(rng, (-60, -45, -30, 30, 45, 60, 90))
    sat_close = close + choice(rng, (-120, -60, 60)) if rng.random() < 0.7 else close
    week: dict[str, dict[str, str] | None] = {d: {"open": hhmm(open_), "close": hhmm(close)} for d in DAYS[:5]}
    week["Sat"] = {"open": hhmm(sat_open), "close": hhmm(sat_close)}
    sun_open = max(sat_open + 60, 10 * 60)
    week["Sun"] = None if rng.random() < 0.25 else {"open": hhmm(sun_open), "close": hhmm(max(sun_open + 240, min(sat_close, 18 * 60)))}
    return week


def _showtimes(rng: random.Random, today: dt.date) -> dict[str, list[str]]:
    """Three to five screenings a day, from noon to late evening, on five-minute marks."""
    days = {}
    for offset in range(SHOW_DAYS):
        count = randint(rng, 3, 5)
        starts = sorted(sample(rng, range(11 * 12, 23 * 12), count))
        kept: list[int] = []
        for s in starts:  # screenings of one film at least 90 minutes apart
            if not kept or s - kept[-1] >= 18:
                kept.append(s)
        days[(today + dt.timedelta(days=offset)).isoformat()] = [hhmm(s * 5) for s in kept]
    return days


def _item(kind: str, entry: dict[str, Any], rng: random.Random, world: World, pool: dict[str, Any]) -> dict[str, Any]:
    """The kind-specific fields of a content page."""
    if kind == "news":
        published = world.today - dt.timedelta(days=rng.randrange(0, 30))
        return {"title": entry["title"], "category": entry["category"], "author": choice(rng, pool["authors"]),
                "published": published.isoformat(), "body": entry["body"]}
    if kind == "recipes":
        (prep_lo, prep_hi), (cook_lo, cook_hi) = entry["prep_min"], entry["cook_min"]  # the dish's own ranges
        return {"title": entry["name"], "prep_min": 5 * randint(rng, prep_lo // 5, prep_hi // 5),
                "cook_min": randint(rng, cook_lo, cook_hi), "servings": randint(rng, 2, 6),
                "ingredients": list(entry["ingredients"]), "steps": list(entry["steps"])}
    if kind == "stores":
        return {"title": entry["name"], "category": entry["category"],
                "floor": world.t(f"Level {randint(rng, 1, 3)}, unit {randint(rng, 1, 40)}", f"{randint(rng, 1, 3)}层 {randint(rng, 1, 40)}号"),
                "hours": _hours(rng)}
    if kind == "cinema":
        return {"title": entry["title"], "genre": entry["genre"], "runtime_min": randint(rng, 84, 158),
                "showtimes": _showtimes(rng, world.today)}
    return {"title": entry["title"], "text": entry["text"]}


def _pool_items(kind: str, pool: dict[str, Any]) -> list[dict[str, Any]]:
    return pool[{"news": "articles", "recipes": "recipes", "stores": "stores", "cinema": "films", "wiki": "wiki"}[kind]]


def _sites(world: World, rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    pool = pools(world.language)
    sites, pages = [], []
    for kind in KINDS:
        site = choice(rng, pool["sites"][kind])
        domain = site["domain"]
        sites.append({"id": f"site_{len(sites) + 1}", "name": site["name"], "domain": domain, "kind": kind})
        pages.append({"id": f"page_{len(pages) + 1}", "url": f"https://{domain}/", "host": domain, "kind": "home",
                      "site_kind": kind, "title": site["name"], "tagline": pool["taglines"][kind]})
        low, high = ITEMS[kind]
        entries = sample(rng, _pool_items(kind, pool), randint(rng, low, high))
        numbers = sample(rng, range(100, 1000), len(entries))
        for entry, number in zip(entries, numbers):
            pages.append({"id": f"page_{len(pages) + 1}", "url": f"https://{domain}/{PATHS[kind]}/{number}", "host": domain,
                          "kind": PAGE_KIND[kind], **_item(kind, entry, rng, world, pool)})
    return sites, pages


def visit(visit_id: str, page: dict[str, Any], time_ms: int) -> dict[str, Any]:
    return {"id": visit_id, "url": page["url"], "title": page["title"], "host": page["host"], "time_ms": time_ms}


def _visit_time(rng: random.Random, now_ms: int, midnight_ms: int, days_ago: int) -> int:
    """A minute ``days_ago`` days before today (``midnight_ms``), between 06:30 and 23:30 (today: before ``now_ms``)."""
    start = midnight_ms - days_ago * DAY_MS + 390 * MINUTE_MS
    end = now_ms - 2 * MINUTE_MS if days_ago == 0 else start + 17 * 60 * MINUTE_MS
    return start + int(rng.random() * max(1, (end - start) // MINUTE_MS)) * MINUTE_MS


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("browser")
    sites, pages = _sites(world, rng)
    content = [p for p in pages if p["kind"] != "home"]
    tabs = []
    for i in range(randint(rng, MIN_TABS, MAX_TABS)):
        page = choice(rng, content)
        home = next(p for p in pages if p["kind"] == "home" and p["host"] == page["host"])
        tabs.append({"id": f"tab_{i + 1}", "url": page["url"], "title": page["title"], "host": page["host"],
                     "back": [home["url"]] if rng.random() < 0.6 else [], "forward": []})
    now_ms = world.time_ms
    midnight_ms = to_ms(dt.datetime(world.today.year, world.today.month, world.today.day))
    by_url = {p["url"]: p for p in pages}
    times: set[int] = set()
    visits: list[tuple[int, dict[str, Any]]] = []
    for tab in tabs:  # each open tab's page was seen today or yesterday
        visits.append((_visit_time(rng, now_ms, midnight_ms, int(rng.random() < 0.3)), by_url[tab["url"]]))
    for _ in range(randint(rng, MIN_VISITS, MAX_VISITS) - len(visits)):
        roll = rng.random()
        days_ago = int(roll * 8) // 2 if roll < 0.5 else int(rng.random() * HISTORY_DAYS)
        visits.append((_visit_time(rng, now_ms, midnight_ms, days_ago), pages[int(rng.random() * len(pages))]))
    history = []
    for time_ms, page in sorted(visits, key=lambda v: -v[0]):
        while time_ms in times:  # no two visits at the same minute
            time_ms -= MINUTE_MS
        times.add(time_ms)
        history.append((time_ms, page))
    history.sort(key=lambda v: -v[0])
    marked = sample(rng, content, randint(rng, MIN_BOOKMARKS, min(MAX_BOOKMARKS, len(content) - 2)))
    bookmarks = [{"id": f"bm_{i + 1}", "url": p["url"], "title": p["title"], "host": p["host"],
                  "created_ms": world.time_ms - rng.randrange(1, 200) * DAY_MS}
                 for i, p in enumerate(marked)]
    return {"sites": sites, "pages": pages, "tabs": tabs, "active_tab": choice(rng, tabs)["id"],
            "bookmarks": bookmarks,
            "history": [visit(f"visit_{len(history) - i}", p, t) for i, (t, p) in enumerate(history)]}
