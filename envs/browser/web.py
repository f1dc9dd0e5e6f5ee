"""The browser's model of the web, pure functions of its state: urls, page lookup, search, and moving a tab to a
url (its back and forward lists and a history visit). Screens and tasks share them."""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote_plus, unquote_plus

from mobilegym.sim.clock import HOUR_MS

NEW_TAB = "about:newtab"
SEARCH_PREFIX = "https://find.local/search?q="
CLEAR_RANGES = {"hour": HOUR_MS, "day": 24 * HOUR_MS, "week": 7 * 24 * HOUR_MS, "all": None}  # clear browsing data


def page_at(state: dict[str, Any], url: str) -> dict[str, Any] | None:
    """The page at ``url``, None when no page of the world lives there."""
    return next((p for p in state["pages"] if p["url"] == url), None)


def search_url(query: str) -> str:
    return SEARCH_PREFIX + quote_plus(query.strip())


def search_query(url: str) -> str | None:
    """The query of a search results url, else None."""
    return unquote_plus(url[len(SEARCH_PREFIX):]) if url.startswith(SEARCH_PREFIX) else None


def host_of(url: str) -> str:
    """``harbordaily.com`` for ``https://harbordaily.com/news/123``; "" for the new tab page."""
    match = re.match(r"^[a-z]+://([^/?#]+)", url)
    return match.group(1) if match else ""


def title_of(state: dict[str, Any], url: str, language: str) -> str:
    """What a tab, a visit or a bookmark calls the page at ``url``."""
    page = page_at(state, url)
    if page is not None:
        return page["title"]
    query = search_query(url)
    if query is not None:
        return f"{query} - 搜索" if language == "zh" else f"{query} - Find"
    if url == NEW_TAB:
        return "新标签页" if language == "zh" else "New tab"
    return url


def resolve(state: dict[str, Any], typed: str) -> str:
    """The url an address-bar entry opens: a page of the world (with or without ``https://``, ``www.`` or the
    trailing slash), another web address as typed, or a search for the words."""
    text = typed.strip()
    bare = re.sub(r"^(https?://)?(www\.)?", "", text, flags=re.I).rstrip("/").casefold()
    for page in state["pages"]:
        if re.sub(r"^https://", "", page["url"]).rstrip("/").casefold() == bare:
            return page["url"]
    if " " not in text and re.match(r"^(https?://)?[\w-]+(\.[\w-]+)+(/\S*)?$", text, flags=re.I):
        return text if re.match(r"^https?://", text, flags=re.I) else f"https://{text}"
    return search_url(text)


def page_text(page: dict[str, Any]) -> str:
    """Every word a search may find on a page."""
    parts = [page["title"], page.get("tagline", ""), page.get("category", ""), page.get("genre", ""),
             page.get("text", ""), *page.get("body", []), *page.get("ingredients", [])]
    return " ".join(p for p in parts if p)


def search(state: dict[str, Any], query: str) -> list[dict[str, Any]]:
    """Pages holding every word of the query (case-insensitive; a Chinese query as one phrase), titles first."""
    words = [w for w in query.casefold().split() if w]
    if not words:
        return []
    found = [p for p in state["pages"] if all(w in page_text(p).casefold() for w in words)]
    return sorted(found, key=lambda p: (not all(w in p["title"].casefold() for w in words), state["pages"].index(p)))


def active_tab(state: dict[str, Any]) -> dict[str, Any] | None:
    return next((t for t in state["tabs"] if t["id"] == state["active_tab"]), None)


def _set_url(state: dict[str, Any], tab: dict[str, Any], url: str, language: str) -> None:
    tab.update(url=url, title=title_of(state, url, language), host=host_of(url))


def record_visit(state: dict[str, Any], url: str, visit_id: str, now_ms: int, language: str) -> None:
    """A history visit for a page or a search (the new tab page and unreachable sites are not recorded)."""
    if page_at(state, url) is None and search_query(url) is None:
        return
    state["history"].insert(0, {"id": visit_id, "url": url, "title": title_of(state, url, language),
                                "host": host_of(url), "time_ms": now_ms})


def new_tab(state: dict[str, Any], tab_id: str, url: str, language: str) -> dict[str, Any]:
    """Open a tab at ``url`` after the others and make it the active one."""
    tab = {"id": tab_id, "url": url, "title": "", "host": "", "back": [], "forward": []}
    _set_url(state, tab, url, language)
    state["tabs"].append(tab)
    state["active_tab"] = tab_id
    return tab


def go(state: dict[str, Any], tab: dict[str, Any], url: str, language: str) -> None:
    """The tab leaves its page for ``url``: the old page goes on its back list, the forward list is dropped."""
    if url != tab["url"]:
        tab["back"].append(tab["url"])
        tab["forward"] = []
    _set_url(state, tab, url, language)


def step(state: dict[str, Any], tab: dict[str, Any], direction: int, language: str) -> str:
    """Back (-1) or forward (1) one page in the tab; the url it shows now."""
    source, target = (tab["back"], tab["forward"]) if direction < 0 else (tab["forward"], tab["back"])
    url = source.pop()
    target.append(tab["url"])
    _set_url(state, tab, url, language)
    return url


def clear_history(state: dict[str, Any], span: str, now_ms: int) -> int:
    """Remove the visits of the last ``span`` (a key of CLEAR_RANGES); how many went."""
    length = CLEAR_RANGES[span]
    kept = [v for v in state["history"] if length is not None and v["time_ms"] < now_ms - length]
    removed = len(state["history"]) - len(kept)
    state["history"][:] = kept
    return removed
