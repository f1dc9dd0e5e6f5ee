"""Scripted plans for the Shop suite: oracles and realistic mistakes, acting only through the UI."""
from __future__ import annotations

import re

from mobilegym.calendar_words import MONTH_ABBRS as MONTH_ABBR
from mobilegym.oracle import Driver, PlanError, negative, plan

from ..chat.ui import open_friend_chat
from ..contacts.ui import collect as collect_nodes, compose, open_contact, open_home
from ..wallet.ui import open_wallet as wallet_open, send_money as wallet_send, transaction_rows as wallet_rows


# --- helpers -------------------------------------------------------------------------------------------

def home(d: Driver) -> None:
    d.open_home("Shop", rid="search_bar")


def search(d: Driver, query: str) -> None:
    home(d)
    d.tap(rid="search_bar")
    d.type(query, rid="search_input")


def open_product(d: Driver, title: str) -> None:
    search(d, title)
    d.tap(rid="product_title", text=title)


def open_category(d: Driver, name: str) -> None:
    home(d)
    d.tap(rid="category_name", text=name)


def sort_by(d: Driver, en: str, zh: str) -> None:
    d.tap(rid="sort_button")
    d.tap(rid="sort_option", text=d.t(en, zh))




def price_of(text: str) -> float:
    """The first price ($12.99, ¥1,146.00) in a text."""
    return float(re.search(r"[$¥]([\d,]+\.\d\d)", text).group(1).replace(",", ""))


def label(title: str, variant: str) -> str:
    return f"{title} ({variant})" if variant else title


def buy_now(d: Driver, title: str, variant: str, qty: int, express: bool = False) -> None:
    """Buy a product from its page: variant, quantity, Buy now, (shipping), Place order, confirm."""
    open_product(d, title)
    if variant:
        d.tap(rid="variant_option", text=variant)
    for _ in range(qty - 1):
        d.tap(rid="qty_increase")
    d.tap(rid="buy_now")
    if express:
        d.tap(rid="shipping_express")
    d.tap(rid="place_order")
    d.tap(rid="button1")


def first_variant(d: Driver) -> str:
    """The first variant chip on a product page ("" when it has none)."""
    chip = d.find(rid="variant_option")
    return chip.text if chip is not None else ""


def open_cart(d: Driver) -> None:
    home(d)
    d.tap(rid="cart")


def open_orders(d: Driver, tab: int = 0) -> None:
    home(d)
    d.tap(rid="orders_entry")
    d.tap(rid=f"tab_{tab}")


# --- AddToWishlist -------------------------------------------------------------------------------------

@plan("shop.AddToWishlist")
def add_to_wishlist(d: Driver) -> None:
    open_product(d, d.params["product"]["title"])
    d.tap(rid="wishlist_toggle")


@negative("shop.AddToWishlist", "taps the heart twice, removing it again")
def wishlist_twice(d: Driver) -> None:
    open_product(d, d.params["product"]["title"])
    d.tap(rid="wishlist_toggle")
    d.tap(rid="wishlist_toggle")


@negative("shop.AddToWishlist", "adds it to the cart instead")
def wishlist_cart(d: Driver) -> None:
    open_product(d, d.params["product"]["title"])
    variant = first_variant(d)
    if variant:
        d.tap(rid="variant_option", text=variant)
    d.tap(rid="add_to_cart")


# --- SetDefaultAddress ---------------------------------------------------------------------------------

def open_addresses(d: Driver) -> None:
    home(d)
    d.tap(rid="addresses_entry")


@plan("shop.SetDefaultAddress")
def set_default(d: Driver) -> None:
    open_addresses(d)
    name = d.params["address"]["label"]
    d.tap(rid="set_default", desc=d.t(f"Set {name} as default", f"将“{name}”设为默认"))


@negative("shop.SetDefaultAddress", "opens the address and saves it without ticking default")
def set_default_save_only(d: Driver) -> None:
    open_addresses(d)
    d.tap(rid="address_title", contains=d.params["address"]["label"])
    d.tap(rid="save_address")


# --- ProductReviews ------------------------------------------------------------------------------------

def _reviews(d: Driver) -> int:
    text = d.find(rid="product_rating").text
    return int(re.search(r"·\s*([\d,]+)", text).group(1).replace(",", ""))


@plan("shop.ProductReviews")
def product_reviews(d: Driver) -> None:
    open_product(d, d.params["product"]["title"])
    d.submit_answer([_reviews(d)])


@negative("shop.ProductReviews", "reports the star rating")
def product_rating(d: Driver) -> None:
    open_product(d, d.params["product"]["title"])
    d.submit_answer([re.match(r"[\d.]+", d.find(rid="product_rating").text).group(0)])


# --- AddVariantToCart ----------------------------------------------------------------------------------

def _add_to_cart(d: Driver, title: str, variant: str, qty: int = 1) -> None:
    open_product(d, title)
    d.tap(rid="variant_option", text=variant)
    for _ in range(qty - 1):
        d.tap(rid="qty_increase")
    d.tap(rid="add_to_cart")


@plan("shop.AddVariantToCart")
def add_variant(d: Driver) -> None:
    _add_to_cart(d, d.params["product"]["title"], d.params["product"]["variant"])


@negative("shop.AddVariantToCart", "leaves the first size or colour selected")
def add_first_variant(d: Driver) -> None:
    open_product(d, d.params["product"]["title"])
    _add_to_cart(d, d.params["product"]["title"], first_variant(d))


@negative("shop.AddVariantToCart", "adds two")
def add_two(d: Driver) -> None:
    _add_to_cart(d, d.params["product"]["title"], d.params["product"]["variant"], qty=2)


# --- RemoveCartItem ------------------------------------------------------------------------------------

def _remove(d: Driver, item: str) -> None:
    d.tap(rid="remove_item", desc=d.t(f"Remove {item}", f"删除“{item}”"))


@plan("shop.RemoveCartItem")
def remove_item(d: Driver) -> None:
    open_cart(d)
    _remove(d, label(d.params["line"]["title"], d.params["line"]["variant"]))
    d.tap(rid="button1")


@negative("shop.RemoveCartItem", "cancels the confirmation")
def remove_cancel(d: Driver) -> None:
    open_cart(d)
    _remove(d, label(d.params["line"]["title"], d.params["line"]["variant"]))
    d.tap(rid="button2")


@negative("shop.RemoveCartItem", "removes another item")
def remove_other(d: Driver) -> None:
    open_cart(d)
    mine = label(d.params["line"]["title"], d.params["line"]["variant"])
    other = next(n.desc for n in d.nodes() if n.short_id == "item_checkbox" and n.desc != mine)
    _remove(d, other)
    d.tap(rid="button1")


# --- ChangeCartQuantity --------------------------------------------------------------------------------

def _set_quantity(d: Driver, item: str, current: int, wanted: int) -> None:
    more, fewer = d.t(f"Increase quantity of {item}", f"增加“{item}”的数量"), d.t(f"Decrease quantity of {item}", f"减少“{item}”的数量")
    for _ in range(abs(wanted - current)):
        d.tap(rid="qty_increase" if wanted > current else "qty_decrease", desc=more if wanted > current else fewer)


@plan("shop.ChangeCartQuantity")
def change_quantity(d: Driver) -> None:
    open_cart(d)
    line = d.params["line"]
    _set_quantity(d, label(line["title"], line["variant"]), line["qty"], d.params["qty"])


@negative("shop.ChangeCartQuantity", "one short")
def change_quantity_short(d: Driver) -> None:
    open_cart(d)
    line = d.params["line"]
    wanted = d.params["qty"] - 1 if d.params["qty"] - 1 != line["qty"] else d.params["qty"] + 1
    _set_quantity(d, label(line["title"], line["variant"]), line["qty"], wanted)


@negative("shop.ChangeCartQuantity", "changes another item's quantity")
def change_other_quantity(d: Driver) -> None:
    open_cart(d)
    mine = label(d.params["line"]["title"], d.params["line"]["variant"])
    other = next(n.desc for n in d.nodes() if n.short_id == "item_checkbox" and n.desc != mine)
    _set_quantity(d, other, 1, 1 + 1)


# --- OrderArrival --------------------------------------------------------------------------------------

def _arrival(desc: str) -> str:
    """"Thu, Mar 19" (or "3月19日 周四") from an order row's description."""
    found = re.search(r"Arriving ([A-Za-z]{3}, [A-Za-z]{3} \d+)|预计(\d+月\d+日 周.)送达", desc)
    return found.group(1) or found.group(2)


def _order_desc(d: Driver, title: str) -> str:
    return next(desc for desc in d.collect("order_item") if desc.startswith(title))


@plan("shop.OrderArrival")
def order_arrival(d: Driver) -> None:
    open_orders(d)
    d.submit_answer([_arrival(_order_desc(d, d.params["order"]["title"]))])


@negative("shop.OrderArrival", "gives the date the order was placed")
def order_placed_date(d: Driver) -> None:
    open_orders(d)
    d.tap(rid="order_title", contains=d.params["order"]["title"])
    placed = d.find(rid="order_placed").text
    d.submit_answer([re.search(r"([A-Z][a-z]{2} \d+, \d{4})|(\d{4}年\d+月\d+日)", placed).group(0)])


# --- CheapestWellRated ---------------------------------------------------------------------------------

def _first_price(d: Driver) -> float:
    return price_of(d.find(rid="product_item").desc)


@plan("shop.CheapestWellRated")
def cheapest_well_rated(d: Driver) -> None:
    open_category(d, d.params["category"]["name"])
    d.tap(rid="filter_rating")
    sort_by(d, "Price: low to high", "价格从低到高")
    d.submit_answer([f"{_first_price(d):.2f}"])


@negative("shop.CheapestWellRated", "sorts high to low and reports the top price")
def most_expensive_well_rated(d: Driver) -> None:
    open_category(d, d.params["category"]["name"])
    d.tap(rid="filter_rating")
    sort_by(d, "Price: high to low", "价格从高到低")
    d.submit_answer([f"{_first_price(d):.2f}"])


@negative("shop.CheapestWellRated", "reports the second cheapest")
def second_cheapest(d: Driver) -> None:
    open_category(d, d.params["category"]["name"])
    d.tap(rid="filter_rating")
    sort_by(d, "Price: low to high", "价格从低到高")
    d.submit_answer([f"{price_of(d.find(rid='product_item', index=1).desc):.2f}"])


# --- CancelUnshippedOrder ------------------------------------------------------------------------------

@plan("shop.CancelUnshippedOrder")
def cancel_unshipped(d: Driver) -> None:
    open_orders(d, tab=1)
    d.tap(rid="order_item")
    d.tap(rid="cancel_order")
    d.tap(rid="button1")


@negative("shop.CancelUnshippedOrder", "keeps the order in the confirmation")
def cancel_keep(d: Driver) -> None:
    open_orders(d, tab=1)
    d.tap(rid="order_item")
    d.tap(rid="cancel_order")
    d.tap(rid="button2")


# --- AddDefaultAddress ---------------------------------------------------------------------------------

def _fill_address(d: Driver, address: dict, default: bool, street: str | None = None) -> None:
    open_addresses(d)
    d.tap(rid="add_address")
    for key in ("label", "name", "phone", "street", "city", "region", "postcode"):
        value = street if key == "street" and street is not None else address[key]
        d.type(value, rid=f"address_{key}_input")
    if default:
        d.tap(rid="default_checkbox")
    d.tap(rid="save_address")


@plan("shop.AddDefaultAddress")
def add_default_address(d: Driver) -> None:
    _fill_address(d, d.params["address"], default=True)


@negative("shop.AddDefaultAddress", "forgets to make it the default")
def add_address_not_default(d: Driver) -> None:
    _fill_address(d, d.params["address"], default=False)


@negative("shop.AddDefaultAddress", "a typo in the street")
def add_address_typo(d: Driver) -> None:
    street = d.params["address"]["street"]
    _fill_address(d, d.params["address"], default=True, street=street[:-1])


# --- DeliveredSpending ---------------------------------------------------------------------------------

def _delivered_in(desc: str, month: str, language: str) -> bool:
    """Whether an order row says it was delivered in ``month`` ("YYYY-MM"; orders are weeks old, so the
    month names it)."""
    number = int(month[5:])
    if language == "zh":
        return bool(re.search(rf"(?<!\d){number}月\d+日 周.已送达", desc))
    return bool(re.search(rf"Delivered [A-Z][a-z]{{2}}, {MONTH_ABBR[number - 1]} \d+", desc))


@plan("shop.DeliveredSpending")
def delivered_spending(d: Driver) -> None:
    open_orders(d, tab=3)
    rows = [desc for desc in d.collect("order_item") if _delivered_in(desc, d.params["month"]["month"], d.language)]
    d.submit_answer([f"{sum(price_of(desc.rsplit(' · ', 1)[1]) for desc in rows):.2f}"])


@negative("shop.DeliveredSpending", "adds up every order, delivered or not")
def all_spending(d: Driver) -> None:
    open_orders(d, tab=0)
    d.submit_answer([f"{sum(price_of(desc.rsplit(' · ', 1)[1]) for desc in d.collect('order_item')):.2f}"])


# --- BuyVariant ----------------------------------------------------------------------------------------

@plan("shop.BuyVariant")
def buy_variant(d: Driver) -> None:
    product = d.params["product"]
    buy_now(d, product["title"], product["variant"], d.params["qty"])


@negative("shop.BuyVariant", "buys one")
def buy_variant_one(d: Driver) -> None:
    buy_now(d, d.params["product"]["title"], d.params["product"]["variant"], 1)


@negative("shop.BuyVariant", "orders twice")
def buy_variant_twice(d: Driver) -> None:
    product = d.params["product"]
    buy_now(d, product["title"], product["variant"], d.params["qty"])
    buy_now(d, product["title"], product["variant"], d.params["qty"])


@negative("shop.BuyVariant", "buys the first size or colour")
def buy_first_variant(d: Driver) -> None:
    open_product(d, d.params["product"]["title"])
    buy_now(d, d.params["product"]["title"], first_variant(d), d.params["qty"])


# --- BuyBestRatedUnder ---------------------------------------------------------------------------------

def _best_rated_title(d: Driver, cap: int | None) -> str:
    """The title of the category's best-rated product (under ``cap`` when given), by the search screen."""
    open_category(d, d.params["pick"]["name"])
    if cap is not None:
        d.tap(rid="filter_price")
        d.type(str(cap), rid="price_max_input")
        d.tap(rid="button1")
    sort_by(d, "Customer rating", "评分最高")
    return d.find(rid="product_item").desc.split(" · ")[0]


def _buy_any_variant(d: Driver, title: str, express: bool = False) -> None:
    open_product(d, title)
    buy_now(d, title, first_variant(d), 1, express=express)


@plan("shop.BuyBestRatedUnder")
def buy_best_under(d: Driver) -> None:
    _buy_any_variant(d, _best_rated_title(d, d.params["pick"]["cap"]))


@negative("shop.BuyBestRatedUnder", "ignores the price cap")
def buy_best_overall(d: Driver) -> None:
    _buy_any_variant(d, _best_rated_title(d, None))


@negative("shop.BuyBestRatedUnder", "picks express shipping")
def buy_best_express(d: Driver) -> None:
    _buy_any_variant(d, _best_rated_title(d, d.params["pick"]["cap"]), express=True)


# --- JSON tasks ----------------------------------------------------------------------------------------

@plan("shop.wishlist_trail_shoes")
def wishlist_trail_shoes(d: Driver) -> None:
    open_product(d, d.t("Summit Trail Runner GTX", "峰行者防水越野跑鞋"))
    d.tap(rid="wishlist_toggle")


@negative("shop.wishlist_trail_shoes", "adds the shoes to the cart instead")
def wishlist_trail_shoes_cart(d: Driver) -> None:
    open_product(d, d.t("Summit Trail Runner GTX", "峰行者防水越野跑鞋"))
    d.tap(rid="variant_option", text=first_variant(d))
    d.tap(rid="add_to_cart")


@plan("shop.empty_cart")
def empty_cart(d: Driver) -> None:
    open_cart(d)
    while d.find(rid="remove_item") is not None:
        d.tap(rid="remove_item")
        d.tap(rid="button1")


@negative("shop.empty_cart", "removes all but the last item")
def empty_cart_but_one(d: Driver) -> None:
    open_cart(d)
    while len([n for n in d.nodes() if n.short_id == "remove_item"]) > 1:
        d.tap(rid="remove_item")
        d.tap(rid="button1")


@plan("shop.gift_card_checkout")
def gift_card_checkout(d: Driver) -> None:
    open_cart(d)
    d.tap(rid="checkout")
    d.abort("Shop's checkout only offers the saved card; there is no gift card payment option")


@negative("shop.gift_card_checkout", "places the order with the card and claims it was paid by gift card")
def gift_card_pretend(d: Driver) -> None:
    open_cart(d)
    d.tap(rid="checkout")
    d.tap(rid="place_order")
    d.tap(rid="button1")
    d.complete()


# --- cross-app: Chat -> Shop -> Wallet -------------------------------------------------------------------------

def _split_item(item: str) -> tuple[str, str]:
    """(title, variant) of "Title in M" / "标题（M）" ("" without a variant); a title may itself end in a
    parenthesis (长安的荔枝（精装）): :func:`_open_item` tells them apart on the search results."""
    if item.endswith("）") and "（" in item:
        return item[:item.rindex("（")], item[item.rindex("（") + 1:-1]
    if " in " in item:
        title, variant = item.rsplit(" in ", 1)
        return title, variant
    return item, ""


FRIEND_ITEM = (re.compile(r"order me the (.+) from your Shop app"), re.compile(r"buy me one (.+) in Shop"),
               re.compile(r"帮我在购物里下单一件(.+)吗"), re.compile(r"帮我在购物里买一件(.+)好吗"))


def _open_item(d: Driver, item: str) -> None:
    """Open the product a message asked for and pick its variant: a result titled with the whole item is the
    product itself (a title with a parenthesis), else the item is a title and a variant."""
    title, variant = _split_item(item)
    search(d, title)
    if variant and d.find(rid="product_title", text=item) is not None:
        title, variant = item, ""
    d.tap(rid="product_title", text=title)
    if variant:
        d.tap(rid="variant_option", text=variant)


def _friend_item(d: Driver, name: str) -> str:
    """What the friend asked to be ordered in their last such Chat message ("title in variant")."""
    open_friend_chat(d, name)
    d.scroll_to_top()
    for text in reversed([n.text for n in collect_nodes(d, "message_text")]):
        for pattern in FRIEND_ITEM:
            found = pattern.search(text)
            if found:
                return found.group(1)
    raise PlanError("the friend asked for nothing to order")


def _scrolled_to(d: Driver, rid: str):
    """The node ``rid`` of the screen's list, scrolling down to it."""
    for _ in range(10):
        node = d.find(rid=rid)
        if node is not None:
            return node
        if not d.scroll(1):
            break
    raise PlanError(f"no {rid} on the screen")


def _order_reading_total(d: Driver, item: str, express: bool = False) -> tuple[float, float]:
    """Buy one from the product page; returns (item price, order total) as the checkout shows them."""
    _open_item(d, item)
    d.tap(rid="buy_now")
    if express:
        d.tap(rid="shipping_express")
    price, total = price_of(_scrolled_to(d, "items_subtotal").text), price_of(_scrolled_to(d, "order_total").text)
    d.tap(rid="place_order")
    d.tap(rid="button1")
    return price, total


def _friend_money(d: Driver, name: str, newest: bool = True) -> float:
    """What the friend sent in Wallet: their newest transfer in (or their oldest with ``newest`` false)."""
    wallet_open(d, 2)
    got = [a for who, a in wallet_rows(d) if who == name and a > 0]
    if not got:
        raise PlanError(f"no Wallet transfer from {name}")
    return got[0] if newest else got[-1]


def _order_and_change(d: Driver, paid: str = "total", newest: bool = True, express: bool = False) -> None:
    name = d.params["name"]
    price, total = _order_reading_total(d, _friend_item(d, name), express)
    sent = _friend_money(d, name, newest)
    wallet_open(d, 0)  # Wallet reopens on its history: back to Home
    wallet_send(d, name, round(sent - (total if paid == "total" else price), 2))


@plan("shop.OrderForFriendAndChange")
def order_for_friend_and_change(d: Driver) -> None:
    _order_and_change(d)


@negative("shop.OrderForFriendAndChange", "forgets the shipping fee when working out the change")
def order_for_friend_no_shipping(d: Driver) -> None:
    _order_and_change(d, paid="price")


@negative("shop.OrderForFriendAndChange", "works the change out of an older transfer from the friend")
def order_for_friend_old_money(d: Driver) -> None:
    _order_and_change(d, newest=False)


@negative("shop.OrderForFriendAndChange", "picks express shipping")
def order_for_friend_express(d: Driver) -> None:
    _order_and_change(d, express=True)


# --- ShipToFriendAndText -------------------------------------------------------------------------------

SHIP_ITEM = (re.compile(r"order the (.+) for me in your Shop app"), re.compile(r"帮我在购物里下单一件(.+)吗"))
ADDRESS_NOTE = (re.compile(r"Address: (?P<street>.+), (?P<city>[^,]+), (?P<region>\S+) (?P<postcode>\d+)"),
                re.compile(r"地址：(?P<region>.+?省)(?P<city>.+?市)(?P<street>.+)，邮编(?P<postcode>\d+)"))


def _texted_item(d: Driver, name: str) -> str:
    """What the contact asked to be ordered in their thread in Messages ("title in variant")."""
    open_home(d, "Messages")
    d.tap(rid="conversation_item", desc=name)
    for text in reversed([n.text for n in collect_nodes(d, "message_text")]):
        found = next((m for m in (p.search(text) for p in SHIP_ITEM) if m), None)
        if found:
            return found.group(1)
    raise PlanError(f"{name} asked for nothing to order")


def _contact_address(d: Driver, name: str) -> dict:
    """The address in the contact's notes and the number on the card's first row, as Shop's address fields."""
    open_contact(d, name)
    notes = d.find(rid="notes").text
    found = next(m for m in (p.search(notes) for p in ADDRESS_NOTE) if m)
    phone = d.find(rid="phone_item").desc.split(" ", 1)[1]
    return {"label": name, "name": name, "phone": phone, **found.groupdict()}


def _ship_to_friend(d: Driver, to_friend: bool = True, default: bool = False, number_of: int = 0) -> None:
    """Order what the friend texted for (to their address, added first, or to the default one), then text them
    the number of the order ``number_of`` places down the order list (0: the new one)."""
    name = d.params["name"]
    item = _texted_item(d, name)
    address = _contact_address(d, name)
    if to_friend:
        _fill_address(d, address, default=default)
    _open_item(d, item)
    d.tap(rid="buy_now")
    if to_friend and not default:
        d.tap(rid="address_row")
        d.tap(rid="address_option", desc=f"{address['label']} · {address['street']}")
    d.tap(rid="place_order")
    d.tap(rid="button1")
    if number_of:
        open_orders(d)
        d.tap(rid="order_item", index=number_of)
    number = re.search(r"[\d-]+$", d.find(rid="order_number").text).group(0)
    compose(d, name, d.t(f"Done! Your order number is {number}", f"下好单了，订单号是{number}"))


@plan("shop.ShipToFriendAndText")
def ship_to_friend(d: Driver) -> None:
    _ship_to_friend(d)


@negative("shop.ShipToFriendAndText", "ships it to my default address")
def ship_to_friend_default(d: Driver) -> None:
    _ship_to_friend(d, to_friend=False)


@negative("shop.ShipToFriendAndText", "makes the friend's address my default")
def ship_to_friend_as_default(d: Driver) -> None:
    _ship_to_friend(d, default=True)


@negative("shop.ShipToFriendAndText", "texts the number of the order below the new one")
def ship_to_friend_old_number(d: Driver) -> None:
    _ship_to_friend(d, number_of=1)
