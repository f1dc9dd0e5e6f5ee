"""Accessor for the Browser app's state: sites and pages, tabs, bookmarks, history; samplers and patches."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.envs.browser import web
from mobilegym.judge import BaseApp, unambiguous
from mobilegym.judge.matchers import TIME_TOLERANCE
from mobilegym.judge.result import check
from mobilegym.sim.clock import MINUTE_MS, from_ms, to_ms

# Browsing itself: a tab moves to another page (its url, title, host, back and forward lists), tabs open, the
# active tab changes, visits are recorded. Closing a tab, deleting a visit or a bookmark is none of these.
BROWSE_CHANGES = ["browser.tabs[*].url", "browser.tabs[*].title", "browser.tabs[*].host", "browser.tabs[*].back",
                  "browser.tabs[*].forward", "browser.tabs[+*]", "browser.active_tab", "browser.history[+*]"]
BOOKMARK_CHANGES = [*BROWSE_CHANGES, "browser.bookmarks[+]"]  # one bookmark added
DELETE_BOOKMARK_CHANGES = [*BROWSE_CHANGES, "browser.bookmarks[-id={bookmark.id}]"]
CLOSE_SITE_TABS_CHANGES = [*BROWSE_CHANGES, "browser.tabs[-*host={site.host}]"]
DELETE_SITE_HISTORY_CHANGES = [*BROWSE_CHANGES, "browser.history[-*host={site.host}]"]
RUNNER_UP_COOK_MIN = 5  # BookmarkQuickestRecipe: the runner-up recipe cooks exactly this much longer than the quickest


class Browser(BaseApp):
    """Sites, pages, tabs, bookmarks and history."""

    def pages(self, kind: str | None = None, host: str | None = None) -> list[dict[str, Any]]:
        return [p for p in self.require(".pages") if (kind is None or p["kind"] == kind) and (host is None or p["host"] == host)]

    def site(self, kind: str) -> dict[str, Any]:
        """The site of a kind (news, recipes, stores, cinema, wiki)."""
        return self.find(".sites", kind=kind)

    def bookmarked(self, url: str) -> bool:
        return any(b["url"] == url for b in self.require(".bookmarks"))

    def tab_ids(self, host: str | None = None) -> list[str]:
        return [t["id"] for t in self.require(".tabs") if host is None or t["host"] == host]

    def check_tabs(self, language: str) -> dict[str, Any]:
        """Every tab is in a state browsing leads to: a page of the world, a search, the new tab page or a typed
        web address (no spaces), under the title and host that url gives. Browsing may move any tab (the
        side-effect policy allows it), so this is what tells a tab edited behind the app's back."""
        state = self.require("")
        wrong = [t["id"] for t in state["tabs"]
                 if (" " in t["url"] and web.search_query(t["url"]) is None)
                 or t["title"] != web.title_of(state, t["url"], language) or t["host"] != web.host_of(t["url"])]
        return check("tabs show what their urls load", [], wrong, not wrong)

    # --- samplers --------------------------------------------------------------------------------------

    @staticmethod
    def _ref(state: dict[str, Any], page: dict[str, Any]) -> dict[str, str]:
        site = next(s for s in state["sites"] if s["domain"] == page["host"])
        return {"id": page["id"], "title": page["title"], "url": page["url"], "site": site["name"]}

    @staticmethod
    def sample_unbookmarked_recipe(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A recipe page no bookmark holds, as {id, title, url, site}."""
        marked = {b["url"] for b in state["bookmarks"]}
        pool = [p for p in state["pages"] if p["kind"] == "recipe" and p["url"] not in marked]
        if not pool:
            raise ValueError("browser: every recipe is bookmarked")
        return Browser._ref(state, rng.choice(pool))

    @staticmethod
    def sample_recipe_of_distinct_cook_time(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A recipe whose cooking time no other recipe shares, and differs from its own preparation time."""
        recipes = [p for p in state["pages"] if p["kind"] == "recipe"]
        pool = [p for p in unambiguous(recipes, lambda p: p["cook_min"], 0) if p["cook_min"] != p["prep_min"]]
        if not pool:
            raise ValueError("browser: no recipe's cooking time is its own")
        return Browser._ref(state, rng.choice(pool))

    @staticmethod
    def sample_store_of_distinct_saturday(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A store whose Saturday opening time is more than TIME_TOLERANCE from every other store's on Saturday and
        from its own on the other days."""
        stores = [p for p in state["pages"] if p["kind"] == "store"]

        def minutes(text: str) -> int:
            return int(text[:2]) * 60 + int(text[3:])

        def apart(store: dict[str, Any]) -> bool:
            others = [o["hours"]["Sat"] for o in stores if o is not store]
            others += [h for day, h in store["hours"].items() if day != "Sat" and h]
            return all(abs(minutes(store["hours"]["Sat"]["open"]) - minutes(o["open"])) > TIME_TOLERANCE for o in others)

        pool = [s for s in stores if apart(s)]
        if not pool:
            raise ValueError("browser: no store opens on Saturday at a time of its own")
        return Browser._ref(state, rng.choice(pool))

    @staticmethod
    def sample_film_of_distinct_last_show(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A film whose last screening tomorrow is more than TIME_TOLERANCE from every other film's last one
        tomorrow and from its own last one on the other days."""
        films = [p for p in state["pages"] if p["kind"] == "film"]

        def minutes(text: str) -> int:
            return int(text[:2]) * 60 + int(text[3:])

        def last(film: dict[str, Any], index: int) -> int:
            return minutes(list(film["showtimes"].values())[index][-1])

        pool = [f for f in films
                if all(abs(last(f, 1) - last(o, 1)) > TIME_TOLERANCE for o in films if o is not f)
                and all(abs(last(f, 1) - last(f, i)) > TIME_TOLERANCE for i in (0, 2))
                and all(abs(last(f, 1) - minutes(t)) > TIME_TOLERANCE for t in list(f["showtimes"].values())[1][:-1])]
        if not pool:
            raise ValueError("browser: no film's last screening tomorrow is its own")
        return Browser._ref(state, rng.choice(pool))

    @staticmethod
    def sample_bookmark(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """Any bookmark as {id, title}."""
        chosen = rng.choice(state["bookmarks"])
        return {"id": chosen["id"], "title": chosen["title"]}

    @staticmethod
    def sample_content_site(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """Any site as {host, name}."""
        chosen = rng.choice(state["sites"])
        return {"host": chosen["domain"], "name": chosen["name"]}

    @staticmethod
    def sample_news_article(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An article of the news site, as {id, title, url, site}."""
        return Browser._ref(state, rng.choice([p for p in state["pages"] if p["kind"] == "article"]))

    # --- patches -----------------------------------------------------------------------------------------

    @staticmethod
    def patch(changes: dict[str, Any]) -> dict[str, Any]:
        return {"apps": {"browser": changes}}

    @staticmethod
    def prepare_state_with_site_tabs(state: dict[str, Any], host: str, rng: random.Random) -> dict[str, Any]:
        """At least two open tabs on ``host`` and one elsewhere: tabs are added (after the others) as needed."""
        tabs = list(state["tabs"])
        pages = state["pages"]
        on_site = [p for p in pages if p["host"] == host]
        elsewhere = [p for p in pages if p["host"] != host and p["kind"] != "home"]
        needed = [*[rng.choice(on_site) for _ in range(max(0, 2 - sum(t["host"] == host for t in tabs)))],
                  *[rng.choice(elsewhere) for _ in range(1 if all(t["host"] == host for t in tabs) else 0)]]
        for i, page in enumerate(needed):
            tabs.append({"id": f"tab_s{i + 1}", "url": page["url"], "title": page["title"], "host": page["host"],
                         "back": [], "forward": []})
        return Browser.patch({"tabs": tabs}) if needed else {}

    @staticmethod
    def prepare_state_with_site_history(state: dict[str, Any], host: str, now_ms: int, rng: random.Random) -> dict[str, Any]:
        """Today at least two visits to ``host`` and one elsewhere, and ``host`` visited before today too."""
        history = list(state["history"])
        midnight = midnight_ms(now_ms)
        today = [v for v in history if v["time_ms"] >= midnight]
        on_site = [p for p in state["pages"] if p["host"] == host]
        elsewhere = [p for p in state["pages"] if p["host"] != host]
        wanted = [*[(True, rng.choice(on_site)) for _ in range(max(0, 2 - sum(v["host"] == host for v in today)))],
                  *[(True, rng.choice(elsewhere)) for _ in range(0 if any(v["host"] != host for v in today) else 1)],
                  *[(False, rng.choice(on_site)) for _ in range(0 if any(v["host"] == host and v["time_ms"] < midnight
                                                                         for v in history) else 1)]]
        taken = {v["time_ms"] for v in history}
        for i, (is_today, page) in enumerate(wanted):
            start = midnight if is_today else midnight - 3 * 24 * 60 * MINUTE_MS
            span = max(1, (now_ms - midnight) // MINUTE_MS - 2) if is_today else 2 * 24 * 60
            when = start + rng.randrange(span) * MINUTE_MS
            while when in taken:
                when -= MINUTE_MS
            taken.add(when)
            history.append({"id": f"visit_s{i + 1}", "url": page["url"], "title": page["title"], "host": page["host"],
                            "time_ms": when})
        history.sort(key=lambda v: -v["time_ms"])
        return Browser.patch({"history": history}) if wanted else {}

    @staticmethod
    def prepare_state_with_article_read_yesterday(state: dict[str, Any], article: dict[str, str], now_ms: int,
                                                  rng: random.Random) -> dict[str, Any]:
        """Yesterday's only visit to a news article is ``article`` (others that day move two days back), another
        article of its site was read on another day (today, if none was: the trap), and it is not bookmarked."""
        midnight = midnight_ms(now_ms)
        yesterday = midnight - 24 * 60 * MINUTE_MS
        articles = {p["url"] for p in state["pages"] if p["kind"] == "article"}
        history = []
        for v in state["history"]:
            if yesterday <= v["time_ms"] < midnight and v["url"] in articles:
                v = {**v, "time_ms": v["time_ms"] - 2 * 24 * 60 * MINUTE_MS}
            history.append(v)
        page = next(p for p in state["pages"] if p["id"] == article["id"])
        when = yesterday + (rng.randrange(8 * 60, 23 * 60)) * MINUTE_MS
        while any(v["time_ms"] == when for v in history):
            when -= MINUTE_MS
        history.append({"id": "visit_y1", "url": page["url"], "title": page["title"], "host": page["host"], "time_ms": when})
        siblings = [p for p in state["pages"] if p["kind"] == "article" and p["host"] == page["host"]
                    and p["title"] != page["title"]]
        if siblings and not any(v["host"] == page["host"] and v["title"] != page["title"] and v["url"] in articles
                                for v in history):
            trap = rng.choice(siblings)
            when = midnight + rng.randrange(max(1, (now_ms - midnight) // MINUTE_MS - 1)) * MINUTE_MS
            while any(v["time_ms"] == when for v in history):
                when -= MINUTE_MS
            history.append({"id": "visit_y2", "url": trap["url"], "title": trap["title"], "host": trap["host"],
                            "time_ms": when})
        history.sort(key=lambda v: -v["time_ms"])
        bookmarks = [b for b in state["bookmarks"] if b["url"] != page["url"]]
        return Browser.patch({"history": history, "bookmarks": bookmarks})

    @staticmethod
    def prepare_state_with_one_quickest_recipe(state: dict[str, Any]) -> dict[str, Any]:
        """One recipe has the shortest cooking time, by RUNNER_UP_COOK_MIN exactly (the runner-up is set to that, a
        rival closer than that is made that much slower), and the shortest total time too (its preparation is the shortest any recipe has: "cooking
        time" read as the Cook field or as preparation plus cooking names the same recipe), and that recipe is not
        bookmarked."""
        recipes = sorted((p for p in state["pages"] if p["kind"] == "recipe"), key=lambda p: (p["cook_min"], p["id"]))
        quickest = recipes[0]
        slower = quickest["cook_min"] + RUNNER_UP_COOK_MIN
        changes: dict[str, Any] = {f"pages[id={p['id']}]": {"cook_min": slower}
                                   for i, p in enumerate(recipes[1:]) if p["cook_min"] < slower or i == 0}
        shortest_prep = min(p["prep_min"] for p in recipes)
        if quickest["prep_min"] != shortest_prep:
            changes[f"pages[id={quickest['id']}]"] = {"prep_min": shortest_prep}
        for b in state["bookmarks"]:
            if b["url"] == quickest["url"]:
                changes[f"bookmarks[id={b['id']}]"] = None
        return Browser.patch(changes) if changes else {}

def midnight_ms(now_ms: int) -> int:
    """The start of the phone's day."""
    now = from_ms(now_ms)
    return to_ms(dt.datetime(now.year, now.month, now.day))
