"""The content of a web page as views: a site's home page, an article, a recipe, a store, a film, an encyclopedia
entry, search results, the new tab page and the error page. Links call ``open_url``."""
from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from mobilegym.calendar_words import WEEKDAYS, WEEKDAYS_ZH_FULL
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import web
from .world import DAYS

OpenUrl = Callable[[str], None]
DAY_NAMES = {"en": WEEKDAYS, "zh": WEEKDAYS_ZH_FULL}
SITE_COLORS = {"news": "#1565C0", "recipes": "#C62828", "stores": "#2E7D32", "cinema": "#6A1B9A", "wiki": "#455A64"}


def language(ctx: Ctx) -> str:
    return ctx.t("en")


def day_label(ctx: Ctx, day: dt.date) -> str:
    """"Monday, March 16" / "3月16日 星期一"."""
    weekday = DAY_NAMES[language(ctx)][day.weekday()]
    return ctx.t("{weekday}, {strftime} {day}", weekday=weekday, strftime=day.strftime('%B'), day=day.day, month=day.month)


def _heading(text: str, rid: str = "page_title", size: float = 22) -> ui.View:
    return ui.Text(text, size=size, bold=True, max_lines=None, rid=rid)


def _para(text: str, rid: str = "paragraph", **kw: Any) -> ui.View:
    return ui.Text(text, size=15, max_lines=None, rid=rid, **kw)


def _link(text: str, url: str, open_url: OpenUrl, subtitle: str = "") -> ui.View:
    """A link row: the linked page's title in the link colour (desc: its url)."""
    return ui.Column([ui.Text(text, size=16, color="primary", max_lines=2),
                      ui.Text(subtitle, size=13, color="muted", max_lines=1) if subtitle else None],
                     gap=2, pad=8, rid="link", desc=url, on_click=lambda: open_url(url))


def _site(state: dict[str, Any], host: str) -> dict[str, Any]:
    return next(s for s in state["sites"] if s["domain"] == host)


def _section(ctx: Ctx, title: str) -> ui.View:
    return ui.Text(ctx.t(title), size=17, bold=True, color="primary", height=36, rid="section_title")


def home(ctx: Ctx, page: dict[str, Any], open_url: OpenUrl) -> list[ui.View | None]:
    state = ctx.state
    kind = page["site_kind"]
    items = [p for p in state["pages"] if p["host"] == page["host"] and p["kind"] != "home"]
    rows: list[ui.View | None] = [
        ui.Image(page["title"], color=SITE_COLORS[kind], height=96, glyph=page["title"][:1]),
        _heading(page["title"]), ui.Text(page["tagline"], size=14, color="muted", rid="tagline")]
    if kind == "news":
        rows.append(_section(ctx, "Latest stories"))
        for p in sorted(items, key=lambda p: p["published"], reverse=True):
            rows.append(_link(p["title"], p["url"], open_url, f"{p['category']} · {p['published']}"))
    elif kind == "recipes":
        rows.append(_section(ctx, "All recipes"))
        rows += [_link(p["title"], p["url"], open_url) for p in items]
    elif kind == "stores":
        rows.append(_section(ctx, "Store directory"))
        rows += [_link(p["title"], p["url"], open_url, f"{p['category']} · {p['floor']}") for p in items]
    elif kind == "cinema":
        rows.append(_section(ctx, "Now showing"))
        rows += [_link(p["title"], p["url"], open_url, p["genre"]) for p in items]
    else:
        rows.append(_section(ctx, "Articles"))
        rows += [_link(p["title"], p["url"], open_url) for p in items]
    return rows


def article(ctx: Ctx, page: dict[str, Any], open_url: OpenUrl) -> list[ui.View | None]:
    day = dt.date.fromisoformat(page["published"])
    others = [p for p in ctx.state["pages"] if p["host"] == page["host"] and p["kind"] == "article" and p is not page]
    return [ui.Text(page["category"], size=13, bold=True, color="primary", rid="category"), _heading(page["title"]),
            ui.Text(ctx.t("By {author} · {day_label}, {year}", author=page['author'], day_label=day_label(ctx, day), year=day.year),
                    size=13, color="muted", max_lines=2, rid="byline"),
            ui.Image(page["title"], color=SITE_COLORS["news"], height=140),
            *[_para(text) for text in page["body"]],
            _section(ctx, "More stories") if others else None,
            *[_link(p["title"], p["url"], open_url) for p in others[:3]]]


def recipe(ctx: Ctx, page: dict[str, Any], open_url: OpenUrl) -> list[ui.View | None]:
    stats = ui.Row([ui.Text(ctx.t("Prep {prep_min} min", prep_min=page['prep_min']), size=14, rid="recipe_prep", flex=1),
                    ui.Text(ctx.t("Cook {cook_min} min", cook_min=page['cook_min']), size=14, rid="recipe_cook", flex=1),
                    ui.Text(ctx.t("Serves {servings}", servings=page['servings']), size=14, rid="recipe_servings", flex=1)],
                   gap=8, pad=8, bg="surface", radius=8)
    return [_heading(page["title"]), ui.Image(page["title"], color=SITE_COLORS["recipes"], height=140), stats,
            _section(ctx, "Ingredients"), *[_para(f"• {item}", rid="ingredient") for item in page["ingredients"]],
            _section(ctx, "Method"),
            *[_para(f"{i}. {text}", rid="step") for i, text in enumerate(page["steps"], 1)]]


def hours_text(ctx: Ctx, hours: dict[str, str] | None) -> str:
    return f"{hours['open']} – {hours['close']}" if hours else ctx.t("Closed")


def store(ctx: Ctx, page: dict[str, Any], open_url: OpenUrl) -> list[ui.View | None]:
    rows: list[ui.View | None] = [_heading(page["title"]),
                                  ui.Text(f"{page['category']} · {page['floor']}", size=14, color="muted", rid="store_info"),
                                  ui.Image(page["title"], color=SITE_COLORS["stores"], height=100),
                                  _section(ctx, "Opening hours")]
    for i, day in enumerate(DAYS):
        name, shown = DAY_NAMES[language(ctx)][i], hours_text(ctx, page["hours"][day])
        rows.append(ui.Row([ui.Text(name, size=15, flex=1), ui.Text(shown, size=15)], pad=8, rid="hours_row",
                           desc=f"{name}: {shown}"))
    return rows


def film(ctx: Ctx, page: dict[str, Any], open_url: OpenUrl) -> list[ui.View | None]:
    hours, minutes = divmod(page["runtime_min"], 60)
    rows: list[ui.View | None] = [
        _heading(page["title"]),
        ui.Text(ctx.t("{genre} · {hours} h {minutes} min", genre=page['genre'], hours=hours, minutes=minutes), size=14,
                color="muted", rid="film_info"),
        ui.Image(page["title"], color=SITE_COLORS["cinema"], height=140), _section(ctx, "Showtimes")]
    today = ctx.now.date()
    for iso, times in page["showtimes"].items():
        day = dt.date.fromisoformat(iso)
        prefix = {0: ctx.t("Today"), 1: ctx.t("Tomorrow")}.get((day - today).days)
        label = day_label(ctx, day)
        rows.append(ui.Text(f"{prefix} · {label}" if prefix else label, size=15, bold=True, height=32, rid="showtime_day"))
        rows.append(ui.Text("   ".join(times), size=15, max_lines=None, rid="showtimes", desc=f"{label}: {', '.join(times)}"))
    return rows


def wiki(ctx: Ctx, page: dict[str, Any], open_url: OpenUrl) -> list[ui.View | None]:
    site = _site(ctx.state, page["host"])
    return [_heading(page["title"]), ui.Text(ctx.t("From {name}", name=site['name']), size=13, color="muted"),
            ui.Image(page["title"], color=SITE_COLORS["wiki"], height=120), _para(page["text"])]


RENDER = {"home": home, "article": article, "recipe": recipe, "store": store, "film": film, "wiki": wiki}


def results(ctx: Ctx, query: str, open_url: OpenUrl) -> list[ui.View | None]:
    found = web.search(ctx.state, query)
    rows: list[ui.View | None] = [ui.Text(ctx.t("Results for “{query}”", query=query), size=15, color="muted",
                                          max_lines=2, rid="results_header")]
    for p in found:
        snippet = web.page_text(p)[len(p["title"]):].strip()
        rows.append(ui.Column([ui.Text(p["host"], size=12, color="muted"),
                               ui.Text(p["title"], size=17, color="primary", max_lines=2, rid="result_title"),
                               ui.Text(snippet, size=13, color="muted", max_lines=2) if snippet else None],
                              gap=2, pad=8, rid="search_result", desc=p["url"], on_click=lambda p=p: open_url(p["url"])))
    if not found:
        rows.append(ui.Text(ctx.t("No pages match your search."), size=15, max_lines=2, rid="no_results"))
    return rows


def new_tab_page(ctx: Ctx, on_search: Callable[[], None]) -> list[ui.View | None]:
    return [ui.Spacer(60), ui.Text(ctx.t("Find"), size=40, bold=True, color="primary", align="center", rid="logo"),
            ui.Spacer(16),
            ui.Row([ui.Text(ctx.t("Search or type web address"), size=15, color="muted", flex=1)],
                   pad=12, bg="surface", radius=24, rid="search_box", on_click=on_search)]


def unreachable(ctx: Ctx, url: str) -> list[ui.View | None]:
    return [ui.Spacer(40), _heading(ctx.t("This site can't be reached"), rid="error_title"),
            _para(ctx.t("Check if there is a typo in {value}.", value=web.host_of(url) or url)),
            ui.Text("DNS_PROBE_FINISHED_NXDOMAIN", size=12, color="muted", rid="error_code")]
