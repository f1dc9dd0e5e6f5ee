"""Browser tasks.

Task index:
    CountTabs                 query    L1  how many tabs are open
    CountBookmarks            query    L1  how many bookmarks there are
    StoreSaturdayOpening      query    L2  the time a store opens on Saturday
    BookmarkRecipe            operate  L2  bookmark a named recipe
    DeleteBookmarkAndCount    hybrid   L2  delete a bookmark and report how many are left
    RecipeCookTime            query    L3  the cooking time of a recipe found through search
    FilmLastShowing           query    L3  when tomorrow's last screening of a film starts
    CloseSiteTabs             operate  L3  close every tab of one site, keep the others
    BookmarkYesterdayArticle  operate  L3  bookmark the news article the history shows was read yesterday
    DeleteTodaySiteHistory    operate  L4  delete today's visits to one site, keep its older visits
    BookmarkQuickestRecipe    operate  L4  bookmark the recipe of a site with the shortest cooking time
    TextedRecipeBookmarkReply operate  L4  cross-app: Messages -> Browser -> Messages: bookmark the recipe a friend
                                           texted about, reply with its cooking time
    StoreVisitSaturday        operate  L4  cross-app: Browser -> Calendar -> Messages: a Saturday visit to a store at its
                                           opening time, the time texted to a contact
"""
from __future__ import annotations

from typing import Any

import datetime as dt

from mobilegym.judge import AnswerTask, BaseTask, build_answer_checks, copy_state, sim_today, unambiguous
from mobilegym.judge.matchers import TIME_TOLERANCE
from mobilegym.judge.result import check

from ..calendar.app import CALENDAR_ADD_EVENT_CHANGES, Calendar, day_label
from ..contacts.app import Contacts
from ..l10n import localised
from ..spread import fit_count
from ..maps.app import prepare_state_with_incoming
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages
from .app import (BOOKMARK_CHANGES, BROWSE_CHANGES, CLOSE_SITE_TABS_CHANGES, DELETE_BOOKMARK_CHANGES, DELETE_SITE_HISTORY_CHANGES,
                  RUNNER_UP_COOK_MIN, Browser, midnight_ms)


def _tabs_check(input) -> dict:
    return Browser(input.apps["browser"]).check_tabs(input.os.get("language", "en"))


def _bookmark_check(input, url: str, title: str) -> list[dict]:
    """The page is bookmarked now (the side-effect policy allows one new bookmark and no other change)."""
    browser = Browser(input.apps["browser"])
    return [check(f"bookmark of {title}", url, [b["url"] for b in browser.require(".bookmarks")], browser.bookmarked(url)),
            _tabs_check(input)]


@localised(zh={"fields": [{"label": "标签页数量"}]})
class CountTabs(AnswerTask):
    """Verdict: the answer is the number of open tabs."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many tabs are open in the Browser?", "Count my open Browser tabs"],
                 "zh": ["浏览器里现在开着几个标签页？", "数一数浏览器里打开了多少个标签页"]}
    answer = (".tabs", len)
    expected_changes = BROWSE_CHANGES  # reading pages moves a tab and records visits
    answer_fields = [{"type": "number", "label": "Open tabs"}]

    def set_up(self, device) -> None:
        """One to twelve tabs, the count drawn from twelve (tasks/spread.py): new tabs open pages of the world, and
        the active tab stays."""
        if not self.spreads:
            return
        state = copy_state(device)["apps"]["browser"]
        pages = sorted(state["pages"], key=lambda p: p["id"])
        first = 1 + max(int(t["id"].rsplit("_", 1)[1]) for t in state["tabs"])

        def add(k: int, now: list[dict[str, Any]]) -> dict[str, Any]:
            page = self.rng.choice(pages)
            return {"id": f"tab_{first + k}", "url": page["url"], "title": page["title"], "host": page["host"],
                    "back": [], "forward": []}

        tabs = fit_count(state["tabs"], lambda t: True, self.spread.count(1), self.rng,
                         drop=lambda t: None, add=add, keep=lambda t: t["id"] == state["active_tab"])
        if len(tabs) != len(state["tabs"]):
            device.set_state({"apps": {"browser": {"tabs": tabs}}})

    def check_goals(self, input):
        return [*build_answer_checks(self.get_answer(input), input.answer), _tabs_check(input)]


@localised(zh={"fields": [{"label": "书签数量"}]})
class CountBookmarks(AnswerTask):
    """Verdict: the answer is the number of bookmarks."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many bookmarks have I saved in the Browser?"], "zh": ["我在浏览器里存了多少个书签？"]}
    answer = (".bookmarks", len)
    expected_changes = BROWSE_CHANGES  # reading pages moves a tab and records visits
    answer_fields = [{"type": "number", "label": "Bookmarks"}]

    def check_goals(self, input):
        return [*build_answer_checks(self.get_answer(input), input.answer), _tabs_check(input)]


@localised(zh={"fields": [{"label": "周六开门时间", "hint": "例如 09:30"}]})
class StoreSaturdayOpening(AnswerTask):
    """Verdict: the answer gives the time the store opens on Saturday (within five minutes). Sampled among stores
    whose Saturday opening is apart from every other store's and from their own on the other days."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["What time does {store.title} open on Saturday? It is listed on the {store.site} website.",
                        "When does {store.title} ({store.site}) open on Saturday?"],
                 "zh": ["{store.title}周六几点开门？可以在{store.site}网站上查到。"]}
    parameters = {"store": {"sampler": Browser.sample_store_of_distinct_saturday}}
    expected_changes = BROWSE_CHANGES  # reading pages moves a tab and records visits
    answer_fields = [{"type": "text", "label": "Opens on Saturday", "hint": "e.g. 09:30", "matcher": "time"}]

    def get_answer(self, input):
        return Browser(input.apps_init["browser"]).find(".pages", id=self.p.store["id"])["hours"]["Sat"]["open"]

    def check_goals(self, input):
        return [*build_answer_checks(self.get_answer(input), input.answer, tolerance=TIME_TOLERANCE), _tabs_check(input)]


class BookmarkRecipe(BaseTask):
    """Verdict: the recipe's page is bookmarked, and nothing else was bookmarked or removed."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "bookmarking"]
    templates = {"en": ["Bookmark the recipe for {recipe.title} in the Browser", "Save the {recipe.title} recipe from {recipe.site} as a bookmark"],
                 "zh": ["在浏览器里把“{recipe.title}”的菜谱加入书签", "把{recipe.site}上“{recipe.title}”的做法存成书签"]}
    parameters = {"recipe": {"sampler": Browser.sample_unbookmarked_recipe}}
    expected_changes = BOOKMARK_CHANGES

    def set_up(self, device) -> None:
        """A world whose recipes are all bookmarked loses one of those bookmarks, so there is a recipe to mark."""
        state = copy_state(device)["apps"]["browser"]
        recipes = {p["url"] for p in state["pages"] if p["kind"] == "recipe"}
        marked = [b for b in state["bookmarks"] if b["url"] in recipes]
        if len(marked) == len(recipes):
            device.set_state(Browser.patch({f"bookmarks[id={marked[0]['id']}]": None}))

    def check_goals(self, input):
        return _bookmark_check(input, self.p.recipe["url"], self.p.recipe["title"])


@localised(zh={"fields": [{"label": "剩余书签数"}]})
class DeleteBookmarkAndCount(BaseTask):
    """Verdict: the bookmark is gone (no other), and the answer is how many bookmarks are left."""

    objective = "hybrid"
    difficulty = "L2"
    capabilities = ["deletion", "counting"]
    high_risk = True
    templates = {"en": ["Delete my Browser bookmark '{bookmark.title}', then tell me how many bookmarks are left"],
                 "zh": ["删除浏览器里的书签“{bookmark.title}”，然后告诉我还剩几个书签"]}
    parameters = {"bookmark": {"sampler": Browser.sample_bookmark}}
    expected_changes = DELETE_BOOKMARK_CHANGES
    answer_fields = [{"type": "number", "label": "Bookmarks left"}]

    def check_goals(self, input):
        browser = Browser(input.apps["browser"])
        left = len(Browser(input.apps_init["browser"]).require(".bookmarks")) - 1
        return [browser.check_value(f"bookmark '{self.p.bookmark['title']}' deleted", f".bookmarks[id={self.p.bookmark['id']}]", None),
                *build_answer_checks(left, input.answer, field="bookmarks_left"), _tabs_check(input)]


@localised(zh={"fields": [{"label": "烹饪时间（分钟）"}]})
class RecipeCookTime(AnswerTask):
    """Verdict: the answer is the recipe's cooking time in minutes (not its preparation time). Sampled among
    recipes whose cooking time no other recipe shares."""

    objective = "query"
    difficulty = "L3"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["Search the web in the Browser for the {recipe.title} recipe: how many minutes does it cook?",
                        "Look up the {recipe.title} recipe in the Browser and tell me its cooking time in minutes"],
                 "zh": ["用浏览器搜索“{recipe.title}”的菜谱，烹饪时间是多少分钟？"]}
    parameters = {"recipe": {"sampler": Browser.sample_recipe_of_distinct_cook_time}}
    answer = ".pages[id={recipe.id}].cook_min"
    expected_changes = BROWSE_CHANGES  # reading pages moves a tab and records visits
    answer_fields = [{"type": "number", "label": "Cooking time (minutes)"}]

    def distractors(self, apps, os_state):
        recipes = Browser(apps["browser"]).pages("recipe")
        page = next(p for p in recipes if p["id"] == self.p.recipe["id"])
        return {"other recipes": (len(recipes) - 1, 2), "a preparation time beside the cooking time": (int(page["prep_min"] != page["cook_min"]), 1)}

    def check_goals(self, input):
        return [*build_answer_checks(self.get_answer(input), input.answer), _tabs_check(input)]


@localised(zh={"fields": [{"label": "开场时间", "hint": "例如 21:40"}]})
class FilmLastShowing(AnswerTask):
    """Verdict: the answer gives the start of tomorrow's last screening of the film (within five minutes).
    Sampled among films whose last screening tomorrow is apart from every other candidate time."""

    objective = "query"
    difficulty = "L3"
    capabilities = ["search", "information-retrieval", "date-reasoning"]
    templates = {"en": ["What time does the last screening of '{film.title}' at {film.site} start tomorrow?",
                        "I want to see '{film.title}' at {film.site} tomorrow as late as possible: when does the last showing start?"],
                 "zh": ["{film.site}明天《{film.title}》最后一场几点开始？"]}
    parameters = {"film": {"sampler": Browser.sample_film_of_distinct_last_show}}
    expected_changes = BROWSE_CHANGES  # reading pages moves a tab and records visits
    answer_fields = [{"type": "text", "label": "Start time", "hint": "e.g. 21:40", "matcher": "time"}]

    def distractors(self, apps, os_state):
        days = list(Browser(apps["browser"]).find(".pages", id=self.p.film["id"])["showtimes"].values())
        return {"earlier screenings tomorrow": (len(days[1]) - 1, 1), "other days' screenings": (sum(map(len, days[:1] + days[2:])), 2)}

    def get_answer(self, input):
        film = Browser(input.apps_init["browser"]).find(".pages", id=self.p.film["id"])
        return list(film["showtimes"].values())[1][-1]

    def check_goals(self, input):
        return [*build_answer_checks(self.get_answer(input), input.answer, tolerance=TIME_TOLERANCE), _tabs_check(input)]


class CloseSiteTabs(BaseTask):
    """Verdict: every tab that was open on the site is closed and every other tab is still open.
    Injection: at least two tabs on the site and one elsewhere."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["tab-management", "filtering"]
    composition = "aggregate"
    high_risk = True
    templates = {"en": ["Close every Browser tab that shows a page from {site.name} ({site.host}), and keep the others open"],
                 "zh": ["把浏览器里所有{site.name}（{site.host}）的标签页都关掉，其他标签页保留"]}
    parameters = {"site": {"sampler": Browser.sample_content_site}}
    expected_changes = CLOSE_SITE_TABS_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)["apps"]["browser"]
        device.set_state(Browser.prepare_state_with_site_tabs(state, self.p.site["host"], self.rng))

    def distractors(self, apps, os_state):
        browser = Browser(apps["browser"])
        on_site = len(browser.tab_ids(self.p.site["host"]))
        return {"tabs on the site": (on_site, 2), "tabs elsewhere": (len(browser.tab_ids()) - on_site, 1)}

    def check_goals(self, input):
        init = Browser(input.apps_init["browser"])
        now = set(Browser(input.apps["browser"]).tab_ids())
        on_site = init.tab_ids(self.p.site["host"])
        others = [t for t in init.tab_ids() if t not in on_site]
        return [check(f"tabs of {self.p.site['host']} closed", [], sorted(now & set(on_site)), not now & set(on_site)),
                check("other tabs kept", sorted(others), sorted(now & set(others)), set(others) <= now), _tabs_check(input)]


class BookmarkYesterdayArticle(BaseTask):
    """Verdict: the one news article visited yesterday is bookmarked (no other bookmark added or removed).
    Injection: yesterday's other article visits move two days back; another of the site's articles was read on another
    day; the article is not bookmarked."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["history", "bookmarking", "date-reasoning"]
    composition = "sequential"
    templates = {"en": ["Yesterday I read an article on {article.site}. Find it in my Browser history, open it and bookmark it"],
                 "zh": ["我昨天在{article.site}上看过一篇文章，请在浏览器历史记录里找到它，打开并加入书签"]}
    parameters = {"article": {"sampler": Browser.sample_news_article}}
    expected_changes = BOOKMARK_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)
        device.set_state(Browser.prepare_state_with_article_read_yesterday(state["apps"]["browser"], self.p.article,
                                                                          state["os"]["time_ms"], self.rng))

    def distractors(self, apps, os_state):
        browser = Browser(apps["browser"])
        articles = {p["url"] for p in browser.pages("article")}
        page = browser.find(".pages", id=self.p.article["id"])
        history = [v for v in browser.require(".history") if v["url"] != page["url"]]
        read = [v for v in history if v["url"] in articles]
        return {"other visits in the history": (len(history), 2),
                "the site's other articles read on another day": (sum(v["host"] == page["host"] for v in read), 1)}

    def check_goals(self, input):
        return _bookmark_check(input, self.p.article["url"], self.p.article["title"])


class DeleteTodaySiteHistory(BaseTask):
    """Verdict: no visit to the site is left from today, every earlier visit to it is kept, and no other visit
    was removed (the side-effect policy). Injection: two visits today, one elsewhere today, one earlier."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["history", "deletion", "filtering", "date-reasoning"]
    composition = "aggregate"
    high_risk = True
    templates = {"en": ["Delete today's Browser history entries for {site.name} ({site.host}) only; keep its older "
                        "entries and everything else"],
                 "zh": ["只删除浏览器里今天访问{site.name}（{site.host}）的历史记录，更早的记录和其他网站的记录都保留"]}
    parameters = {"site": {"sampler": Browser.sample_content_site}}
    expected_changes = DELETE_SITE_HISTORY_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)
        device.set_state(Browser.prepare_state_with_site_history(state["apps"]["browser"], self.p.site["host"],
                                                                state["os"]["time_ms"], self.rng))

    def distractors(self, apps, os_state):
        host, midnight = self.p.site["host"], midnight_ms(os_state["time_ms"])
        history = Browser(apps["browser"]).require(".history")
        return {"today's visits to the site": (sum(v["host"] == host and v["time_ms"] >= midnight for v in history), 2),
                "today's visits elsewhere": (sum(v["host"] != host and v["time_ms"] >= midnight for v in history), 1),
                "earlier visits to the site": (sum(v["host"] == host and v["time_ms"] < midnight for v in history), 1)}

    def check_goals(self, input):
        host = self.p.site["host"]
        midnight = midnight_ms(input.os_init["time_ms"])
        now = Browser(input.apps["browser"]).require(".history")
        before = Browser(input.apps_init["browser"]).require(".history")
        left_today = [v["title"] for v in now if v["host"] == host and v["time_ms"] >= midnight]
        older = [v["id"] for v in before if v["host"] == host and v["time_ms"] < midnight]
        kept = {v["id"] for v in now}
        return [check(f"today's visits to {host} deleted", [], left_today, not left_today),
                check(f"earlier visits to {host} kept", older, [i for i in older if i in kept], set(older) <= kept),
                _tabs_check(input)]


class BookmarkQuickestRecipe(BaseTask):
    """Verdict: the recipe with the shortest cooking time is bookmarked (no other bookmark added or removed).
    Injection: one recipe is the quickest, and it is not bookmarked."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["comparison", "bookmarking", "information-retrieval"]
    composition = "aggregate"
    templates = {"en": ["Of all the recipes on the recipe site in my Browser, find the one with the shortest cooking time "
                        "and bookmark it"],
                 "zh": ["在浏览器的菜谱网站上，找出烹饪时间最短的菜谱并把它加入书签"]}
    expected_changes = BOOKMARK_CHANGES

    def set_up(self, device) -> None:
        device.set_state(Browser.prepare_state_with_one_quickest_recipe(copy_state(device)["apps"]["browser"]))

    def distractors(self, apps, os_state):
        cooks = sorted(p["cook_min"] for p in Browser(apps["browser"]).pages("recipe"))
        return {"other recipes": (len(cooks) - 1, 2),
                f"a recipe {RUNNER_UP_COOK_MIN} min slower than the quickest": (int(cooks[1] - cooks[0] == RUNNER_UP_COOK_MIN), 1)}

    def check_goals(self, input):
        recipes = Browser(input.apps_init["browser"]).pages("recipe")
        quickest = min(recipes, key=lambda p: p["cook_min"])
        return _bookmark_check(input, quickest["url"], quickest["title"])


# --- cross-app ----------------------------------------------------------------------------------------------------

RECIPE_QUESTION = {"en": 'I just found the "{title}" recipe on {site} and want to make it this weekend. How long does it '
                         'take to cook?',
                   "zh": "我刚在{site}上看到“{title}”的做法，周末想做。要煮多长时间啊？"}


def _distinct_cook_recipes(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Recipes whose cooking time no other recipe shares and differs from their own preparation time."""
    recipes = [p for p in state["pages"] if p["kind"] == "recipe"]
    return [p for p in unambiguous(recipes, lambda p: p["cook_min"], 0) if p["cook_min"] != p["prep_min"]]


def sample_unbookmarked_recipe_of_distinct_cook_time(rng, state: dict[str, Any]) -> dict[str, str]:
    """A recipe no bookmark holds whose cooking time is its own (see :func:`_distinct_cook_recipes`)."""
    marked = {b["url"] for b in state["bookmarks"]}
    pool = [p for p in _distinct_cook_recipes(state) if p["url"] not in marked]
    if not pool:
        raise ValueError("browser: no unbookmarked recipe with a cooking time of its own")
    return Browser._ref(state, rng.choice(pool))


def _minutes_text(minutes: int, language: str) -> str:
    return f"{minutes}分钟" if language == "zh" else f"{minutes} min"


class TextedRecipeBookmarkReply(BaseTask):
    """Verdict: the recipe page a contact asked about by text is bookmarked (no other bookmark added or removed),
    and a reply to that contact states its cooking time (no other recipe's cooking time, not its preparation time).
    Injection: the contact texts an hour ago (unread) naming the recipe and its site and asking how long it cooks;
    a world whose fitting recipes are all bookmarked loses one of those bookmarks."""

    scope = "cross-app"
    app = "browser"
    related_apps = ["messages", "browser", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "search", "bookmarking", "messaging"]
    templates = {"en": ["{name} texted me about a recipe. Find it in the Browser, bookmark it, and text {name} back how "
                        "long it takes to cook",
                        "Look at {name}'s message about a recipe: bookmark the recipe they mention in the Browser "
                        "and answer them with its cooking time"],
                 "zh": ["{name}发短信问我一个菜谱。在浏览器里找到这个菜谱并加入书签，再回短信告诉{name}要煮多长时间",
                        "看看{name}发来的短信，把里面提到的菜谱在浏览器里加入书签，然后回复他烹饪时间是多少"]}
    parameters = {"recipe": {"sampler": sample_unbookmarked_recipe_of_distinct_cook_time},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*BOOKMARK_CHANGES, *MESSAGES_READ_CHANGES, *MESSAGES_SEND_CHANGES]

    def set_up(self, device) -> None:
        state = copy_state(device)["apps"]["browser"]
        fits = {p["url"] for p in _distinct_cook_recipes(state)}
        marked = [b for b in state["bookmarks"] if b["url"] in fits]
        if fits and len(marked) == len(fits):
            device.set_state(Browser.patch({f"bookmarks[id={marked[0]['id']}]": None}))

    def distractors(self, apps, os_state):
        pages = Browser(apps["browser"]).pages("recipe")
        page = next(p for p in pages if p["id"] == self.p.recipe["id"])
        return {"recipes of other cooking times": (sum(p["cook_min"] != page["cook_min"] for p in pages), 2),
                "a preparation time beside the cooking time": (int(page["prep_min"] != page["cook_min"]), 1)}

    def inject(self, device) -> None:
        state = copy_state(device)
        language = state["os"].get("language", "en")
        number = Contacts(state["apps"]["contacts"]).contact(self.p.name)["phones"][0]["number"]
        text = RECIPE_QUESTION[language].format(title=self.p.recipe["title"], site=self.p.recipe["site"])
        device.set_state(prepare_state_with_incoming(state["apps"]["messages"], number, text, state["os"]["time_ms"]))

    def check_goals(self, input):
        language = "zh" if self.language == "zh" else "en"
        pages = Browser(input.apps_init["browser"]).pages("recipe")
        page = next(p for p in pages if p["id"] == self.p.recipe["id"])
        rivals = sorted({_minutes_text(p["cook_min"], language) for p in pages if p["cook_min"] != page["cook_min"]}
                        | {_minutes_text(page["prep_min"], language)})
        numbers = [n["number"] for n in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [*_bookmark_check(input, self.p.recipe["url"], self.p.recipe["title"]),
                *messages.check_sent_facts(self.p.name, numbers, {"cooking time": _minutes_text(page["cook_min"], language)},
                                           rivals={"cooking time": rivals}, os_state=input.os_init)]


def coming_saturday(today: dt.date) -> dt.date:
    """The first Saturday after ``today``."""
    return today + dt.timedelta(days=(5 - today.weekday()) % 7 or 7)


def sample_coming_saturday(rng, state: dict[str, Any], os_state) -> dict[str, str]:
    """The first Saturday after the phone's date: {"iso", "label"} ("Saturday, March 21" / "3月21日星期六")."""
    iso = coming_saturday(sim_today(os_state)).isoformat()
    return {"iso": iso, "label": day_label(iso, os_state.get("language", "en"))}


class StoreVisitSaturday(BaseTask):
    """Verdict: a new timed Calendar event titled with the store is on the coming Saturday and starts at the
    store's Saturday opening time (from its Browser page), and a text to the contact states that time (no other
    store's Saturday opening, none of its own other days'). Sampled among stores whose Saturday opening is apart from
    every other candidate."""

    scope = "cross-app"
    app = "browser"
    related_apps = ["browser", "calendar", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "form-filling", "messaging"]
    templates = {"en": ["I'll go to {store.title} on {saturday.label} as soon as it opens. Check its opening hours on "
                        "the {store.site} website, add a '{store.title}' event to my calendar that day starting at "
                        "opening time, and text {name} what time we're meeting there",
                        "Look up when {store.title} opens on Saturdays ({store.site} lists it), put '{store.title}' in "
                        "my calendar on {saturday.label} at that time, and tell {name} the time by text"],
                 "zh": ["我{saturday.label}想在{store.title}一开门就去。在{store.site}网站上查一下营业时间，在日历里那天按开门时间添加日程"
                        "“{store.title}”，再发短信告诉{name}我们几点在那儿见",
                        "查一下{store.title}周六几点开门（{store.site}上有），在日历里{saturday.label}那个时间添加日程“{store.title}”，"
                        "并用短信把时间告诉{name}"]}
    parameters = {"store": {"sampler": Browser.sample_store_of_distinct_saturday},
                  "saturday": {"sampler": sample_coming_saturday, "fields": ["iso", "label"]},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*BROWSE_CHANGES, *CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES]

    def distractors(self, apps, os_state):
        stores = Browser(apps["browser"]).pages("store")
        store = next(p for p in stores if p["id"] == self.p.store["id"])
        return {"other stores' Saturday openings": (len(stores) - 1, 2),
                "the store's other days' openings": (sum(bool(h) for day, h in store["hours"].items() if day != "Sat"), 2)}

    def check_goals(self, input):
        stores = [p for p in input.apps_init["browser"]["pages"] if p["kind"] == "store"]
        store = next(p for p in stores if p["id"] == self.p.store["id"])
        opens = store["hours"]["Sat"]["open"]
        rivals = sorted({h["open"] for s in stores for day, h in s["hours"].items()
                         if h and (day == "Sat") != (s is store) and h["open"] != opens})
        saturday = coming_saturday(sim_today(input.os_init)).isoformat()
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        numbers = [n["number"] for n in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Calendar.check_event("store visit", calendar.new_event(store["title"]),
                                     {"date": saturday, "all_day": False, "start": opens}),
                *messages.check_sent_facts(self.p.name, numbers, {"opening time": opens},
                                           rivals={"opening time": rivals}, os_state=input.os_init),
                _tabs_check(input)]
