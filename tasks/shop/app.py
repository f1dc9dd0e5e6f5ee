"""Accessor for the Shop app's state: catalogue, cart, wishlist, addresses and orders; samplers and injections."""
from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, Mapping

from mobilegym.calendar_words import MONTHS
from mobilegym.envs.contacts.numbers import same_number
from mobilegym.envs.shop import catalog
from mobilegym.judge import BaseApp, normalize_text, sim_today
from mobilegym.judge.result import check

SHOP_CART_ADD_CHANGES = ["shop.cart[+]"]
SHOP_CART_REMOVE_CHANGES = ["shop.cart[id={line.id}]"]
SHOP_CART_QTY_CHANGES = ["shop.cart[id={line.id}].qty"]
SHOP_WISHLIST_ADD_CHANGES = ["shop.wishlist[+]"]
SHOP_DEFAULT_CHANGES = ["shop.addresses[default=true].default"]  # the old default gives way
SHOP_NEW_ADDRESS_CHANGES = ["shop.addresses[+]", *SHOP_DEFAULT_CHANGES]
SHOP_CANCEL_CHANGES = ["shop.orders[id={order.id}].status"]
# one new order; the cart may be used on the way (a line added then bought, other lines deselected)
SHOP_ORDER_CHANGES = ["shop.orders[+]", "shop.cart[*].selected"]
RATING_FLOOR = 4.0
MIN_SAVED_ADDRESSES = 2  # AddDefaultAddress: saved addresses, the default among them (prepare_state_with_second_address)
MIN_SHIPPED = 1  # CancelUnshippedOrder: orders shipped and on their way (prepare_state_with_one_unshipped)
MIN_CHEAPER_LOW_RATED = 1  # CheapestWellRated: cheaper products rated under the floor (prepare_state_with_cheaper_low_rated)
# DeliveredSpending: orders delivered in the month / delivered in another month / cancelled in the month
# (prepare_state_with_month_orders)
MIN_MONTH_DELIVERED, MIN_OTHER_MONTH_DELIVERED, MIN_MONTH_CANCELLED = 2, 1, 1
NEW_ADDRESSES = {  # addresses tasks ask to add (no world holds them): label, street, city, region, postcode
    "en": (("Studio", "25 Rosewood Avenue", "Springfield", "IL", "62704"),
           ("Office", "400 Market Street, Suite 210", "Philadelphia", "PA", "19106"),
           ("Lake House", "9 Heron Point Road", "Burlington", "VT", "05401"),
           ("Grandma", "1507 Magnolia Drive", "Savannah", "GA", "31401"),
           ("Dorm", "88 College Avenue, Room 312", "Ann Arbor", "MI", "48104")),
    "zh": (("工作室", "静安区南京西路1266号", "上海市", "上海", "200040"),
           ("新公司", "滨江区江南大道3850号", "杭州市", "浙江省", "310051"),
           ("外婆家", "鼓楼区五四路158号", "福州市", "福建省", "350003"),
           ("学校宿舍", "洪山区珞喻路1037号", "武汉市", "湖北省", "430074"),
           ("新家", "岳麓区麓山南路932号", "长沙市", "湖南省", "410083")),
}


def address_text(address: Mapping[str, str]) -> str:
    return ", ".join(address[k] for k in ("name", "phone", "street", "city", "region", "postcode"))


def _place_key(address: Mapping[str, str]) -> str:
    """Region, city and street run together, without case, spacing, punctuation or the 省/市 suffixes a Chinese
    address may leave out ("浙江"/"浙江省"; "杭州市滨江区" + "江南大道3850号" is "杭州市" + "滨江区江南大道3850号")."""
    text = "".join(normalize_text(address[k]) for k in ("region", "city", "street"))
    return re.sub(r"[\W_省市]", "", text)


def same_address(address: Mapping[str, str], want: Mapping[str, str]) -> bool:
    """A saved address holds ``want``'s recipient (name), phone (same line), place and postcode."""
    return (normalize_text(address["name"]) == normalize_text(want["name"]) and same_number(address["phone"], want["phone"])
            and _place_key(address) == _place_key(want)
            and re.sub(r"\D", "", address["postcode"]) == re.sub(r"\D", "", want["postcode"]))


def address_line(address: Mapping[str, str], language: str) -> str:
    """An address as a contact's notes keep it: "Address: 9 Heron Point Road, Burlington, VT 05401" /
    "地址：福建省福州市鼓楼区五四路158号，邮编350003"."""
    if language == "zh":
        return f"地址：{address['region']}{address['city']}{address['street']}，邮编{address['postcode']}"
    return f"Address: {address['street']}, {address['city']}, {address['region']} {address['postcode']}"


class Shop(BaseApp):
    """The catalogue, cart, wishlist, addresses and orders."""

    def product(self, product_id: str) -> dict[str, Any]:
        return self.find(".products", id=product_id)

    def cart(self) -> list[dict[str, Any]]:
        return list(self.require(".cart"))

    def orders(self) -> list[dict[str, Any]]:
        return list(self.require(".orders"))

    def order(self, order_id: str) -> dict[str, Any] | None:
        found = self.find_all(".orders", id=order_id)
        return found[0] if found else None

    def new_orders(self, init: "Shop") -> list[dict[str, Any]]:
        """Orders placed since the start."""
        before = {o["id"] for o in init.orders()}
        return [o for o in self.orders() if o["id"] not in before]

    def default_address(self) -> dict[str, Any] | None:
        return catalog.default_address(self.state)

    @staticmethod
    def cart_key(lines: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
        """The cart's content as sorted (product, variant, quantity), whatever the line ids."""
        return sorted((i["product_id"], i["variant"], i["qty"]) for i in lines)

    def cart_text(self, lines: list[dict[str, Any]]) -> list[str]:
        """Cart lines as "Title (variant) ×qty" (an unknown product by its id)."""
        titles = {p["id"]: p["title"] for p in self.require(".products")}
        return [f"{catalog.item_label(titles.get(p, p), v)} ×{q}" for p, v, q in self.cart_key(lines)]

    def check_cart(self, field: str, expected: list[dict[str, Any]]) -> dict[str, Any]:
        """The cart holds exactly ``expected`` lines (product, variant, quantity)."""
        actual = self.cart()
        return check(field, self.cart_text(expected), self.cart_text(actual),
                     self.cart_key(actual) == self.cart_key(expected))

    def check_one_order(self, init: "Shop", product_id: str, variants: list[str], qty: int,
                        shipping: str, to: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        """Exactly one new order: one line of the product in one of ``variants`` and ``qty``, with ``shipping``, to
        the default address (or to an address holding ``to``'s fields, :func:`same_address`)."""
        placed = self.new_orders(init)
        title = self.product(product_id)["title"]
        if len(placed) != 1:
            return [check("new orders", 1, len(placed), False)]
        order = placed[0]
        lines = [catalog.item_label(i["title"], i["variant"]) + f" ×{i['qty']}" for i in order["items"]]
        item = order["items"][0]
        ok = len(order["items"]) == 1 and item["product_id"] == product_id and item["qty"] == qty \
            and item["variant"] in variants
        want = catalog.item_label(title, variants[0] if len(variants) == 1 else "/".join(variants) if variants else "")
        address = next((a for a in self.require(".addresses") if a["id"] == order["address_id"]), None)
        if to is None:
            default = init.default_address()
            ship_to = check("ship to", default["label"], address["label"] if address else order["address_id"],
                            order["address_id"] == default["id"])
        else:
            ship_to = check("ship to", address_text(to), address_text(address) if address else order["address_id"],
                            address is not None and same_address(address, to))
        return [check("items ordered", [f"{want} ×{qty}"], lines, ok), ship_to,
                check("shipping", shipping, order["shipping"], order["shipping"] == shipping)]

    # --- samplers --------------------------------------------------------------------------------------

    @staticmethod
    def _unique_titles(state: dict[str, Any]) -> list[dict[str, Any]]:
        titles = [p["title"] for p in state["products"]]
        return [p for p in state["products"] if titles.count(p["title"]) == 1]

    @staticmethod
    def sample_variant_product(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A product with at least three variants, not in the cart, and one of its variants (not the first), as
        {id, title, variant, option}: option is how an instruction names the variant ("size M", "颜色黑色")."""
        in_cart = {i["product_id"] for i in state["cart"]}
        pool = [p for p in Shop._unique_titles(state) if len(p["variants"]) >= 3 and p["id"] not in in_cart]
        if not pool:
            raise ValueError("shop: no product with three variants is out of the cart")
        chosen = rng.choice(pool)
        variant = rng.choice(chosen["variants"][1:])
        size = chosen["variant_kind"] == "size"
        if os_state.get("language") == "zh":
            option = (variant if variant.endswith("码") else f"尺码{variant}") if size else f"颜色{variant}"
        else:
            option = f"size {variant}" if size else f"the colour {variant}"
        return {"id": chosen["id"], "title": chosen["title"], "variant": variant, "option": option}

    @staticmethod
    def sample_cart_line(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """A cart line as {id, title, variant, qty}."""
        if not state["cart"]:
            raise ValueError("shop: the cart is empty")
        line = rng.choice(state["cart"])
        return {"id": line["id"], "title": catalog.product(state, line["product_id"])["title"],
                "variant": line["variant"], "qty": line["qty"]}

    @staticmethod
    def sample_new_quantity(rng: random.Random, state: dict[str, Any], params: dict[str, Any]) -> int:
        """A quantity from 2 to 5 that the sampled cart line does not have."""
        return rng.choice([q for q in range(2, 6) if q != params["line"]["qty"]])

    @staticmethod
    def sample_not_in_wishlist(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        pool = [p for p in Shop._unique_titles(state) if p["id"] not in state["wishlist"]]
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "title": chosen["title"]}

    @staticmethod
    def sample_product_reviews(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """A product whose review count no other product has."""
        counts = [p["reviews"] for p in state["products"]]
        pool = [p for p in Shop._unique_titles(state) if counts.count(p["reviews"]) == 1]
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "title": chosen["title"]}

    @staticmethod
    def cheapest_rated(state: dict[str, Any], category_id: str) -> dict[str, Any] | None:
        """The cheapest product of a category rated at least RATING_FLOOR, None unless two are so rated and the next
        costs at least 0.50 more."""
        rated = sorted((p for p in state["products"] if p["category_id"] == category_id and p["rating"] >= RATING_FLOOR),
                       key=lambda p: p["price"])
        if len(rated) < 2 or rated[1]["price"] - rated[0]["price"] < 0.5:
            return None
        return rated[0]

    @staticmethod
    def sample_category_with_cheapest(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A category whose cheapest well-rated product is clear, preferring one where a cheaper product is
        rated below the floor (so skipping the rating filter gives another price)."""
        def cheaper_low_rated(c: dict[str, Any]) -> bool:
            best = Shop.cheapest_rated(state, c["id"])
            return any(p["category_id"] == c["id"] and p["price"] < best["price"] for p in state["products"])

        pool = [c for c in state["categories"] if Shop.cheapest_rated(state, c["id"]) is not None]
        if not pool:
            raise ValueError("shop: no category has a clear cheapest product rated 4 stars or more")
        preferred = [c for c in pool if cheaper_low_rated(c)]
        chosen = rng.choice(preferred or pool)
        return {"id": chosen["id"], "name": chosen["name"]}

    @staticmethod
    def best_under(state: dict[str, Any], category_id: str, cap: float) -> dict[str, Any] | None:
        """The highest-rated product of a category priced under ``cap`` (most reviews breaking no tie: a tie
        gives None)."""
        under = sorted((p for p in state["products"] if p["category_id"] == category_id and p["price"] < cap),
                       key=lambda p: -p["rating"])
        if len(under) < 2 or under[0]["rating"] == under[1]["rating"]:
            return None
        return under[0]

    @staticmethod
    def sample_category_and_cap(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """{category id, name, cap, cap_text, product id, title}: a round price cap under which one product of the category
        is rated highest, preferring caps above which a product is rated higher still; else ``boost`` names a product above the cap
        to rate higher (:meth:`prepare_state_with_higher_rated`), so the cap always matters."""
        step = 5 if state["currency"] == "$" else 50
        options, fallback = [], []
        for c in state["categories"]:
            prices = sorted(p["price"] for p in state["products"] if p["category_id"] == c["id"])
            for cap in sorted({(int(x // step) + 1) * step for x in prices}):
                best = Shop.best_under(state, c["id"], cap)
                if best is None or best["id"] in {i["product_id"] for i in state["cart"]}:
                    continue
                above = [p for p in state["products"] if p["category_id"] == c["id"] and p["price"] >= cap]
                pick = {"id": c["id"], "name": c["name"], "cap": cap, "cap_text": f"{state['currency']}{cap}",
                        "product": best["id"], "title": best["title"], "rating": best["rating"], "boost": ""}
                if any(p["rating"] > best["rating"] for p in above):
                    options.append(pick)
                elif above and best["rating"] <= 4.8:
                    fallback.append({**pick, "boost": above[-1]["id"]})
        if not options and not fallback:
            raise ValueError("shop: no category has a price cap with one best-rated product under it")
        return rng.choice(options or fallback)

    @staticmethod
    def cap_step(state: dict[str, Any]) -> int:
        """The step between the round price caps the sampler draws (5 in dollars, 50 in yuan)."""
        return 5 if state["currency"] == "$" else 50

    @staticmethod
    def prepare_state_with_higher_rated(state: dict[str, Any], pick: dict[str, Any]) -> dict[str, Any] | None:
        """A patch placing threshold traps around the cap, so that every other cap of the category (another
        world's plan) buys another product: the best under the cap costs more than the next cap down (it is
        repriced just under the cap when it does not), and a product priced under the next cap up is rated
        higher (the cheapest such product above the cap, else ``pick["boost"]``, repriced just over the cap and
        rated 0.2 stars over the best). None when both hold already."""
        step, cap = Shop.cap_step(state), pick["cap"]
        best = next(p for p in state["products"] if p["id"] == pick["product"])
        rating = pick["rating"]
        patch: dict[str, Any] = {}
        if best["price"] < cap - step:
            patch[f"products[id={best['id']}]"] = {"price": round(cap - step * 0.2 - 0.01, 2)}
        above = sorted((p for p in state["products"] if p["category_id"] == pick["id"] and p["price"] >= cap
                        and p["id"] not in {i["product_id"] for i in state["cart"]}), key=lambda p: p["price"])
        if not any(p["price"] < cap + step and p["rating"] > rating for p in above):
            higher = [p for p in above if p["rating"] > rating] or [p for p in above if p["id"] == pick["boost"]] or above
            if higher and rating <= 4.8:
                trap = higher[0]
                patch[f"products[id={trap['id']}]"] = {"price": round(cap + step * 0.4 - 0.01, 2),
                                                       "rating": max(trap["rating"], round(rating + 0.2, 1))}
        return {"apps": {"shop": patch}} if patch else None

    @staticmethod
    def sample_order_in_transit(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """An order not delivered yet (nor cancelled), arriving this year on a date no other such order shares, as
        {id, title}."""
        open_orders = Shop._open_orders(state)
        dates = [o["delivery_date"] for o in open_orders]
        year = str(sim_today(os_state).year)
        pool = [o for o in open_orders if dates.count(o["delivery_date"]) == 1 and o["delivery_date"][:4] == year]
        if not pool:
            raise ValueError("shop: no order on its way this year has a delivery date of its own")
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "title": chosen["items"][0]["title"]}

    @staticmethod
    def _open_orders(state: dict[str, Any]) -> list[dict[str, Any]]:
        return [o for o in state["orders"] if o["status"] in ("to_ship", "shipped")]

    @staticmethod
    def prepare_state_with_distinct_arrivals(state: dict[str, Any], today: dt.date) -> dict[str, Any] | None:
        """A patch moving orders on their way that share a delivery date a day or more later, so each has its
        own, after bringing the first one's into this year when none arrives this year (a date named without
        its year reads as this year's); None when nothing needs to move."""
        used: set[str] = set()
        patch: dict[str, Any] = {}
        open_orders = Shop._open_orders(state)
        dates = {o["id"]: dt.date.fromisoformat(o["delivery_date"]) for o in open_orders}
        if open_orders and all(d.year != today.year for d in dates.values()):
            dates[open_orders[0]["id"]] = dt.date(today.year, 12, 31)
        for o in open_orders:
            day = dates[o["id"]]
            while day.isoformat() in used:
                day += dt.timedelta(days=1)
            used.add(day.isoformat())
            if day.isoformat() != o["delivery_date"]:
                patch[f"orders[id={o['id']}]"] = {"delivery_date": day.isoformat()}
        return {"apps": {"shop": patch}} if patch else None

    @staticmethod
    def sample_unshipped_order(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """The newest order not shipped yet, as {id, title}."""
        chosen = next((o for o in state["orders"] if o["status"] == "to_ship"), None)
        if chosen is None:
            raise ValueError("shop: every order has shipped")
        return {"id": chosen["id"], "title": chosen["items"][0]["title"]}

    @staticmethod
    def sample_non_default_address(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        pool = [a for a in state["addresses"] if not a["default"]]
        if not pool:
            raise ValueError("shop: only one address")
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "label": chosen["label"], "street": chosen["street"]}

    @staticmethod
    def sample_new_address(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """An address to add (in the phone's language), with the owner's name and phone from a saved address."""
        owner = state["addresses"][0]
        streets = {a["street"] for a in state["addresses"]}
        label, street, city, region, postcode = rng.choice(
            [a for a in NEW_ADDRESSES[os_state.get("language", "en")] if a[1] not in streets])
        return {"label": label, "name": owner["name"], "phone": owner["phone"], "street": street, "city": city,
                "region": region, "postcode": postcode}

    @staticmethod
    def sample_friend_address(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A friend's address no saved address has (on a Chinese phone one in a province, so region, city and street
        read apart), as {street, city, region, postcode}."""
        language = os_state.get("language", "en")
        streets = {a["street"] for a in state["addresses"]}
        pool = [a for a in NEW_ADDRESSES[language] if a[1] not in streets and (language == "en" or a[3].endswith("省"))]
        _, street, city, region, postcode = rng.choice(pool)
        return {"street": street, "city": city, "region": region, "postcode": postcode}

    @staticmethod
    def sample_spending_month(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, Any]:
        """The month asked about: this one from the 10th on, else the last one, as {month "YYYY-MM", name}."""
        today = sim_today(os_state)
        first = today.replace(day=1) if today.day >= 10 else (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)
        if os_state.get("language") == "zh":
            name = f"{first.year}年{first.month}月"
        else:
            name = f"{MONTHS[first.month - 1]} {first.year}"
        return {"month": first.isoformat()[:7], "name": name}

    # --- injections --------------------------------------------------------------------------------------

    @staticmethod
    def prepare_state_with_cart_lines(state: dict[str, Any], count: int) -> dict[str, Any] | None:
        """A patch filling the cart up to ``count`` lines (the first products not in it, their first variant),
        or None when it holds that many."""
        missing = count - len(state["cart"])
        if missing <= 0:
            return None
        in_cart = {i["product_id"] for i in state["cart"]}
        extra = [p for p in state["products"] if p["id"] not in in_cart][:missing]
        lines = [*state["cart"], *({"id": f"ci_prep_{n}", "product_id": p["id"],
                                    "variant": p["variants"][0] if p["variants"] else "", "qty": 1, "selected": True}
                                   for n, p in enumerate(extra, 1))]
        return {"apps": {"shop": {"cart": lines}}}

    @staticmethod
    def prepare_state_with_second_address(state: dict[str, Any], language: str) -> dict[str, Any] | None:
        """A patch adding a second (non-default) address when there is only one, else None."""
        if len(state["addresses"]) > 1:
            return None
        owner = state["addresses"][0]
        label, street, city, region, postcode = NEW_ADDRESSES[language][-1]
        extra = {"id": "addr_prep", "label": label, "name": owner["name"], "phone": owner["phone"], "street": street,
                 "city": city, "region": region, "postcode": postcode, "default": False}
        return {"apps": {"shop": {"addresses[]": extra}}}

    @staticmethod
    def prepare_state_with_one_unshipped(state: dict[str, Any], keep_id: str, today: dt.date) -> dict[str, Any] | None:
        """A patch marking every unshipped order but ``keep_id`` as shipped and, while fewer than MIN_SHIPPED are,
        the newest delivered ones as shipped, arriving in two days; None when nothing needs to change."""
        others = [o for o in state["orders"] if o["status"] == "to_ship" and o["id"] != keep_id]
        patch: dict[str, Any] = {f"orders[id={o['id']}]": {"status": "shipped"} for o in others}
        short = MIN_SHIPPED - len(others) - sum(o["status"] == "shipped" for o in state["orders"])
        arriving = (today + dt.timedelta(days=2)).isoformat()
        for o in [o for o in state["orders"] if o["status"] == "delivered"][:max(0, short)]:
            patch[f"orders[id={o['id']}]"] = {"status": "shipped", "delivery_date": arriving}
        return {"apps": {"shop": patch}} if patch else None

    @staticmethod
    def prepare_state_with_cheaper_low_rated(state: dict[str, Any], category_id: str) -> dict[str, Any] | None:
        """Unless the category has MIN_CHEAPER_LOW_RATED, a patch pricing one of its products (a low-rated one first;
        never the two cheapest well-rated) under the cheapest well-rated one, rated 3.8 at most; None when it has."""
        best = Shop.cheapest_rated(state, category_id)
        mine = [p for p in state["products"] if p["category_id"] == category_id]
        if sum(p["rating"] < RATING_FLOOR and p["price"] < best["price"] for p in mine) >= MIN_CHEAPER_LOW_RATED:
            return None
        rated = sorted((p for p in mine if p["rating"] >= RATING_FLOOR), key=lambda p: p["price"])[:2]
        pool = sorted((p for p in mine if p not in rated), key=lambda p: (p["rating"] >= RATING_FLOOR, p["rating"]))
        trap = pool[0]
        return {"apps": {"shop": {f"products[id={trap['id']}]": {"price": round(best["price"] * 0.8, 2),
                                                                  "rating": min(trap["rating"], 3.8)}}}}

    @staticmethod
    def prepare_state_with_month_orders(state: dict[str, Any], month: str, today: dt.date, rng: random.Random,
                                        language: str) -> dict[str, Any] | None:
        """A patch adding orders (of products no order holds) until MIN_MONTH_DELIVERED were delivered in ``month``
        ("YYYY-MM", up to yesterday), MIN_OTHER_MONTH_DELIVERED in the month before and MIN_MONTH_CANCELLED in it
        were cancelled; orders stay newest first. None when nothing needs adding."""
        from mobilegym.envs.shop.world import SHIPPING, make_order
        first = dt.date.fromisoformat(f"{month}-01")
        last = min(today - dt.timedelta(days=1), (first + dt.timedelta(days=31)).replace(day=1) - dt.timedelta(days=1))
        before = first - dt.timedelta(days=1)
        def count(status: str, in_month: bool) -> int:
            return sum(o["status"] == status and (o["delivery_date"][:7] == month) == in_month
                       and o["delivery_date"] <= today.isoformat() for o in state["orders"])
        wanted = [("delivered", first, last)] * (MIN_MONTH_DELIVERED - count("delivered", True)) \
            + [("delivered", before.replace(day=1), before)] * (MIN_OTHER_MONTH_DELIVERED - count("delivered", False)) \
            + [("cancelled", first, last)] * (MIN_MONTH_CANCELLED - count("cancelled", True))
        if not wanted:
            return None
        bought = {i["product_id"] for o in state["orders"] for i in o["items"]}
        unbought = [p for p in state["products"] if p["id"] not in bought]
        orders = list(state["orders"])
        for n, (status, start, end) in enumerate(wanted):
            due = start + dt.timedelta(days=rng.randint(0, (end - start).days))
            placed = due - dt.timedelta(days=SHIPPING["standard"][0])
            order = make_order(rng, language, f"ord_task_{n}", [unbought.pop(rng.randrange(len(unbought)))],
                               rng.choice(state["addresses"]), placed, status, "standard")
            orders.append({**order, "delivery_date": due.isoformat()})
        orders.sort(key=lambda o: o["placed"], reverse=True)
        return {"apps": {"shop": {"orders": orders}}}

    # --- answers -----------------------------------------------------------------------------------------

    def delivered_spending(self, month: str) -> float:
        """What the orders delivered in ``month`` ("YYYY-MM") cost in all."""
        return round(sum(o["total"] for o in self.orders()
                         if o["status"] == "delivered" and o["delivery_date"][:7] == month), 2)
