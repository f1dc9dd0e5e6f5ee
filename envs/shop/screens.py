"""Shop screens for browsing: home, search with filters and sort, the product page and the wishlist."""
from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import catalog
from .app import APP
from .parts import cart_button, empty, money, product_row, section
from .world import SHIPPING

SORTS = (("relevance", "Relevance"), ("price_asc", "Price: low to high"), ("price_desc", "Price: high to low"),
         ("rating", "Customer rating"))
TOP_PICKS = 6


# --- home -----------------------------------------------------------------------------------------

@APP.screen("/")
def home(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    entry = [("orders_entry", "📦", "Your orders", "/orders"), ("wishlist_entry", "♡", "Wishlist", "/wishlist"),
             ("addresses_entry", "⌂", "Addresses", "/addresses")]
    picks = sorted(s["products"], key=lambda p: (-p["rating"], -p["reviews"]))[:TOP_PICKS]
    search_bar = ui.Row([ui.Icon("⚲", size=20, color="muted"), ui.Text(ctx.t("Search Shop"), color="muted", flex=1)],
                        pad=12, gap=8, bg="surface", radius=24, rid="search_bar", desc=ctx.t("Search Shop"),
                        on_click=lambda: ctx.navigate("/search"))
    rows: list[ui.View | None] = [
        section(ctx.t("Your account"), "account_header"),
        *[ui.ListItem(ctx.t(label), leading=ui.Icon(glyph, size=24), trailing="›", rid=rid,
                      on_click=lambda path=path: ctx.navigate(path)) for rid, glyph, label, path in entry],
        section(ctx.t("Shop by category"), "categories_header"),
        *[ui.ListItem(c["name"], subtitle=ctx.tn("{count} product", "{count} products", n), trailing="›", rid="category_item",
                      title_rid="category_name", on_click=lambda c=c: ctx.navigate("/search", category=c["id"]))
          for c in s["categories"] for n in [sum(p["category_id"] == c["id"] for p in s["products"])]],
        section(ctx.t("Top rated"), "top_rated_header"),
        *[product_row(ctx, p) for p in picks],
    ]
    top = ui.Column([ui.TopBar(ctx.t("Shop"), actions=[cart_button(ctx)]), ui.Column([search_bar], pad=8)])
    return ui.Scaffold(ui.ScrollList(rows, rid="home_list", pad=8, gap=4), top=top)


# --- search -----------------------------------------------------------------------------------------

def _price_bound(text: str) -> float | None:
    try:
        return float(text) if text.strip() else None
    except ValueError:
        return None


def results(state: dict[str, Any], query: str, category_id: str, low: float | None, high: float | None,
            four_up: bool, free: bool, sort: str) -> list[dict[str, Any]]:
    """The products a search shows: the query in the title or category (case-insensitive), the filters, the sort."""
    names = {c["id"]: c["name"] for c in state["categories"]}
    q = query.strip().casefold()
    found = [p for p in state["products"]
             if (not q or q in p["title"].casefold() or q in names[p["category_id"]].casefold())
             and (not category_id or p["category_id"] == category_id)
             and (low is None or p["price"] >= low) and (high is None or p["price"] <= high)
             and (not four_up or p["rating"] >= 4.0) and (not free or p["free_shipping"])]
    if sort == "price_asc":
        found.sort(key=lambda p: p["price"])
    elif sort == "price_desc":
        found.sort(key=lambda p: -p["price"])
    elif sort == "rating":
        found.sort(key=lambda p: (-p["rating"], -p["reviews"]))
    return found


def _filter_dialog(ctx: Ctx) -> ui.Dialog | None:
    s, local = ctx.state, ctx.local
    which = local.get("dialog")

    def close() -> None:
        local["dialog"] = None

    def pick(key: str, value: str) -> None:
        local[key] = value
        close()

    cancel = ui.Button(ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE)
    if which == "category":
        current = local.get("category", ctx.params.get("category", ""))
        options = [("", ctx.t("All categories"))] + [(c["id"], c["name"]) for c in s["categories"]]
        radios = [ui.Radio("category_option", current == cid, lambda cid=cid: pick("category", cid), label=name)
                  for cid, name in options]
        return ui.Dialog(ctx.t("Category"), [ui.ScrollList(radios, rid="category_options",
                                                                    height=min(320, 40 * len(radios)))],
                         [cancel], on_dismiss=close)
    if which == "sort":
        radios = [ui.Radio("sort_option", local.get("sort", "relevance") == key, lambda key=key: pick("sort", key),
                           label=ctx.t(label)) for key, label in SORTS]
        return ui.Dialog(ctx.t("Sort by"), radios, [cancel], on_dismiss=close)
    if which == "price":
        def apply() -> None:
            local.update(price_min=local.get("min_draft", ""), price_max=local.get("max_draft", ""))
            close()

        def clear() -> None:
            local.update(price_min="", price_max="", min_draft="", max_draft="")
            close()

        fields = ui.Row([ctx.field("price_min_input", "min_draft", local.get("price_min", ""), hint=ctx.t("Min"),
                                   input_type="number", flex=1),
                         ui.Text("–", width=12, align="center"),
                         ctx.field("price_max_input", "max_draft", local.get("price_max", ""), hint=ctx.t("Max"),
                                   input_type="number", flex=1)], gap=4)
        return ui.Dialog(ctx.t("Price ({currency})", currency=s['currency']), [fields],
                         [ui.Button(ctx.t("Clear"), clear, style="text", rid=ui.NEUTRAL),
                          ui.Button(ctx.t("Apply"), apply, style="text", rid=ui.POSITIVE)], on_dismiss=close)
    return None


@APP.screen("/search", focus="search_input")
def search(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    category_id = local.get("category", ctx.params.get("category", ""))
    low, high = _price_bound(local.get("price_min", "")), _price_bound(local.get("price_max", ""))
    four_up, free = local.get("four_up", False), local.get("free", False)
    sort = local.get("sort", "relevance")
    found = results(s, local.get("query", ""), category_id, low, high, four_up, free, sort)
    cat_label = catalog.category(s, category_id)["name"] if category_id else ctx.t("All categories")
    if low is not None or high is not None:
        cur = s["currency"]
        if low is not None and high is not None:
            price_label = f"{cur}{low:g}–{cur}{high:g}"
        elif high is not None:
            price_label = ctx.t("Up to {cur}{high:g}", cur=cur, high=high)
        else:
            price_label = ctx.t("{cur}{low:g} and up", cur=cur, low=low)
    else:
        price_label = ctx.t("Price")
    sort_label = next(ctx.t(label) for key, label in SORTS if key == sort)

    def open_dialog(name: str) -> None:
        local.update(dialog=name, min_draft=local.get("price_min", ""), max_draft=local.get("price_max", ""))

    filters = ui.Column([
        ui.Row([ui.Chip(cat_label, bool(category_id), lambda _v: open_dialog("category"), rid="filter_category", flex=1),
                ui.Chip(price_label, low is not None or high is not None, lambda _v: open_dialog("price"),
                        rid="filter_price", flex=1)], gap=8),
        ui.Row([ui.Chip(ctx.t("4★ & up"), four_up, lambda v: local.__setitem__("four_up", v),
                        rid="filter_rating", flex=1),
                ui.Chip(ctx.t("Free shipping"), free, lambda v: local.__setitem__("free", v),
                        rid="filter_free_shipping", flex=1),
                ui.Chip(sort_label, sort != "relevance", lambda _v: open_dialog("sort"), rid="sort_button", flex=1)], gap=8),
    ], gap=6, pad=8)
    field = ui.Column([ctx.field("search_input", "query", hint=ctx.t("Search Shop"), ime_action="search")], pad=8)
    if not local.get("query", "").strip() and not category_id and "category" not in ctx.params:  # nothing searched yet
        return ui.Scaffold(ui.Column([field]), top=ui.TopBar(ctx.t("Search"), on_back=ctx.back,
                                                             actions=[cart_button(ctx)]))
    makers: list[Callable[[], ui.View]] = [
        lambda: inset(ui.Text(ctx.tn("{count} result", "{count} results", len(found)), size=13, color="muted",
                              height=28, rid="result_count"), MARGIN - 8)]
    makers += [lambda p=p: product_row(ctx, p) for p in found]
    if not found:
        makers.append(lambda: empty(ctx.t("No products match. Try other words or filters.")))
    body = ui.Column([field, filters, ui.ScrollList(ui.Rows(makers, lambda make: make()), rid="search_results", pad=8)])
    return ui.Scaffold(body, top=ui.TopBar(ctx.t("Search"), on_back=ctx.back, actions=[cart_button(ctx)]),
                       dialog=_filter_dialog(ctx))


# --- product ----------------------------------------------------------------------------------------

def add_to_cart(state: dict[str, Any], product_id: str, variant: str, qty: int, new_id: str) -> None:
    """Put ``qty`` of a product's variant in the cart: on its existing line, or a new selected line."""
    line = next((i for i in state["cart"] if i["product_id"] == product_id and i["variant"] == variant), None)
    if line is not None:
        line["qty"] = min(catalog.MAX_QTY, line["qty"] + qty)
    else:
        state["cart"].append({"id": new_id, "product_id": product_id, "variant": variant, "qty": qty, "selected": True})


@APP.screen("/product")
def product_page(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    item = catalog.product(s, ctx.params["id"])
    variant = local.get("variant", "")
    qty = local.get("qty", 1)
    in_wishlist = item["id"] in s["wishlist"]
    kind = ctx.t("Size") if item["variant_kind"] == "size" else ctx.t("Colour")

    def toggle_wishlist() -> None:
        if in_wishlist:
            s["wishlist"].remove(item["id"])
            ctx.toast(ctx.t("Removed from your wishlist"))
        else:
            s["wishlist"].insert(0, item["id"])
            ctx.toast(ctx.t("Added to your wishlist"))

    def chosen() -> bool:
        if item["variants"] and not variant:
            ctx.toast(ctx.t("Select a {lower} first", lower=kind.lower(), kind=kind))
            return False
        return True

    def add() -> None:
        if chosen():
            add_to_cart(s, item["id"], variant, qty, ctx.new_id("ci"))
            ctx.toast(ctx.t("Added to cart"))

    def buy() -> None:
        if chosen():
            ctx.navigate("/checkout", buy=item["id"], variant=variant, qty=qty)

    arrives = ctx.now.date() + dt.timedelta(days=SHIPPING["standard"][0])
    rows: list[ui.View | None] = [
        ui.Image(item["title"], glyph="▣", height=180, radius=12),
        ui.Text(item["title"], size=20, bold=True, max_lines=3, rid="product_title"),
        ui.Text(f"{item['rating']:.1f}★ · " + ctx.tn("{count:,} review", "{count:,} reviews", item['reviews']),
                size=14, color="muted", rid="product_rating"),
        ui.Text(money(ctx, item["price"]), size=26, bold=True, rid="product_price"),
        ui.Text(ctx.t("FREE shipping") if item["free_shipping"]
                else ctx.t("Shipping {money}", money=money(ctx, SHIPPING['standard'][1]), money_2=money(ctx, SHIPPING['standard'][2])),
                size=14, color="muted", rid="product_shipping"),
        ui.Text(ctx.t("Standard delivery: {short_date}", short_date=catalog.short_date('en', arrives), short_date_2=catalog.short_date('zh', arrives)), size=14, rid="product_delivery"),
        ui.Text(ctx.t("Sold by {seller}", seller=item['seller']), size=14, color="muted", rid="product_seller"),
    ]
    if item["variants"]:
        rows.append(ui.Text(f"{kind}{ctx.t(': ')}{variant}" if variant else ctx.t("{kind}: choose one", kind=kind),
                            size=15, bold=True, rid="variant_label"))
        chips = [ui.Chip(v, v == variant, lambda _on, v=v: local.__setitem__("variant", v), rid="variant_option", flex=1)
                 for v in item["variants"]]
        rows += [ui.Row(chips[i:i + 4], gap=8) for i in range(0, len(chips), 4)]
    rows += [
        ui.Row([ui.Text(ctx.t("Quantity"), size=15, flex=1),
                ui.IconButton("−", ctx.t("Decrease quantity"),
                              lambda: local.__setitem__("qty", max(1, qty - 1)), rid="qty_decrease", enabled=qty > 1),
                ui.Text(str(qty), size=16, bold=True, align="center", width=32, rid="qty_value"),
                ui.IconButton("+", ctx.t("Increase quantity"),
                              lambda: local.__setitem__("qty", min(catalog.MAX_QTY, qty + 1)), rid="qty_increase",
                              enabled=qty < catalog.MAX_QTY)], gap=4),
        ui.Button(ctx.t("Add to cart"), add, rid="add_to_cart"),
        ui.Button(ctx.t("Buy now"), buy, style="outlined", rid="buy_now"),
    ]
    actions = [ui.IconButton("♥" if in_wishlist else "♡",
                             ctx.t("Remove from wishlist") if in_wishlist else ctx.t("Add to wishlist"),
                             toggle_wishlist, rid="wishlist_toggle", selected=in_wishlist,
                             color="primary" if in_wishlist else None),
               cart_button(ctx)]
    return ui.Scaffold(ui.ScrollList(rows, rid="product_detail", pad=16, gap=8),
                       top=ui.TopBar(catalog.category(s, item["category_id"])["name"], on_back=ctx.back, actions=actions))


# --- wishlist ---------------------------------------------------------------------------------------

@APP.screen("/wishlist")
def wishlist(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state

    def remove(product_id: str) -> None:
        s["wishlist"].remove(product_id)
        ctx.toast(ctx.t("Removed from your wishlist"))

    rows: list[ui.View | None] = [
        product_row(ctx, p, trailing=ui.IconButton(
            "♥", ctx.t("Remove {title} from wishlist", title=p['title']),
            lambda p=p: remove(p["id"]), rid="wishlist_remove", color="primary"))
        for p in (catalog.product(s, pid) for pid in s["wishlist"])]
    if not rows:
        rows.append(empty(ctx.t("Tap ♡ on a product to save it here")))
    return ui.Scaffold(ui.ScrollList(rows, rid="wishlist_list", pad=8),
                       top=ui.TopBar(ctx.t("Wishlist"), on_back=ctx.back, actions=[cart_button(ctx)]))
