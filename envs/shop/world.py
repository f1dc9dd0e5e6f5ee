"""The Shop app of a generated world: a catalogue (6 to 9 categories, about 40 to 110 products with prices,
ratings, reviews, sellers and size or colour variants), a cart, a wishlist, the owner's addresses and past
orders whose status and delivery dates follow the simulated clock, drawn from the pools beside this file
(a Chinese phone shops in ¥).

Invariants the screens and tasks rely on: product titles are unique and hold no " · "; every price has two
decimals; exactly one address is the default; an order's items carry their own title, variant and price (the
product may change later); orders are listed newest first, 1 or 2 of them have not shipped yet, and no product is in two orders.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World, load_pool
from mobilegym.sim.worldgen.draws import choice, fill_digits, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
MIN_CATEGORIES, MAX_CATEGORIES = 6, 9
MIN_PER_CATEGORY, MAX_PER_CATEGORY = 7, 12
MIN_ORDERS, MAX_ORDERS = 3, 12
MAX_ORDER_AGE_DAYS = 45
# shipping: (days to deliver, fee in $, fee in ¥); standard is free on free-shipping items or large orders
SHIPPING = {"standard": (5, 5.99, 10.0), "express": (2, 12.99, 25.0)}
FREE_SHIPPING_OVER = {"en": 35.0, "zh": 99.0}


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (read only)."""
    return load_pool(PACKAGE, "pools", language)


def shipping_fee(method: str, subtotal: float, free_items: bool, language: str) -> float:
    """The fee of a shipping method for an order (standard is free when every item ships free or the order is large)."""
    days, usd, cny = SHIPPING[method]
    if method == "standard" and (free_items or subtotal >= FREE_SHIPPING_OVER[language]):
        return 0.0
    return usd if language == "en" else cny


def _price(rng: random.Random, base: float, language: str) -> float:
    """A price near ``base``: $x.99 / $x.49 in English, a round ¥ amount ending in 9 in Chinese."""
    value = base * rng.uniform(0.8, 1.25)
    if language == "zh":
        return float(max(9, int(value / 10) * 10 + 9))
    return max(4.99, int(value) + choice(rng, (0.99, 0.99, 0.49)))


def _rating(rng: random.Random) -> float:
    return round(min(5.0, max(2.6, rng.gauss(4.25, 0.4))), 1)


def sellers_for(pool: dict[str, Any], category: str) -> list[str]:
    """The shops that sell in a category: its specialists (a beauty lab sells beauty, not resistance bands), then
    the general stores that sell everything."""
    found = next((c for c in pool["categories"] if c["name"] == category), None)
    return [*(found["sellers"] if found else []), *pool["sellers"]]


def _catalogue(world: World, rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    pool = read_pool(PACKAGE, "pools", world.language)
    chosen = sample(rng, pool["categories"], randint(rng, MIN_CATEGORIES, MAX_CATEGORIES))
    categories, products = [], []
    for n, category in enumerate(chosen, 1):
        cat_id = f"cat_{n}"
        categories.append({"id": cat_id, "name": category["name"]})
        entries = sample(rng, category["products"], min(len(category["products"]),
                                                        randint(rng, MIN_PER_CATEGORY, MAX_PER_CATEGORY)))
        sellers = sellers_for(pool, category["name"])
        for title, base, kind in entries:
            options = pool["variants"][kind] if kind else []
            if kind == "color":
                options = sample(rng, options, randint(rng, 2, 4))
            products.append({"id": f"p_{len(products) + 1}", "title": title, "category_id": cat_id,
                             "price": _price(rng, base, world.language), "rating": _rating(rng),
                             "reviews": min(48000, int(rng.paretovariate(0.9) * 12) + rng.randrange(3, 40)),
                             "seller": choice(rng, sellers), "free_shipping": rng.random() < 0.55,
                             "variant_kind": "color" if kind == "color" else ("size" if kind else ""),
                             "variants": list(options)})
    return categories, products


def _addresses(world: World, rng: random.Random) -> list[dict[str, Any]]:
    pool = read_pool(PACKAGE, "pools", world.language)
    count = randint(rng, 1, 3)
    picks = sample(rng, range(len(pool["streets"])), count)
    labels = pool["labels"]
    addresses = []
    for n, index in enumerate(picks):
        city, region, postcode = pool["cities"][index]
        addresses.append({"id": f"addr_{n + 1}", "label": labels[n], "name": world.owner.name,
                          "phone": world.owner.mobile, "street": pool["streets"][index], "city": city,
                          "region": region, "postcode": postcode, "default": False})
    addresses[randrange(rng, count)]["default"] = True
    return addresses


def order_number(rng: random.Random, language: str) -> str:
    """An order number as the shop prints it: 112-1234567-1234567, or 16 digits on a Chinese phone."""
    if language == "zh":
        return fill_digits(rng, "#" * 16)
    return f"112-{randrange(rng, 10 ** 7):07d}-{randrange(rng, 10 ** 7):07d}"


def make_order(rng: random.Random, language: str, order_id: str, products: list[dict[str, Any]],
               address: dict[str, Any], placed: dt.date, status: str, method: str) -> dict[str, Any]:
    """One order of ``products`` (one to three), its fee and total from the items and shipping method."""
    items = []
    for product in products:
        items.append({"product_id": product["id"], "title": product["title"],
                      "variant": choice(rng, product["variants"]) if product["variants"] else "",
                      "qty": choice(rng, (1, 1, 1, 1, 2, 3)), "price": product["price"]})
    subtotal = round(sum(i["price"] * i["qty"] for i in items), 2)
    free = all(p["free_shipping"] for p in products)
    fee = shipping_fee(method, subtotal, free, language)
    return {"id": order_id, "number": order_number(rng, language), "placed": placed.isoformat(), "status": status,
            "delivery_date": (placed + dt.timedelta(days=SHIPPING[method][0] + randrange(rng, 2))).isoformat(),
            "items": items, "address_id": address["id"], "shipping": method, "shipping_fee": fee,
            "total": round(subtotal + fee, 2)}


def _orders(world: World, rng: random.Random, products: list[dict[str, Any]],
            addresses: list[dict[str, Any]]) -> list[dict[str, Any]]:
    today = world.today
    count = randint(rng, MIN_ORDERS, MAX_ORDERS)
    unshipped = 2 if count >= 6 and rng.random() < 0.4 else 1
    ages = sorted(sample(rng, range(0, 2), unshipped)) + sorted(sample(rng, range(2, MAX_ORDER_AGE_DAYS), count - unshipped))
    orders = []
    unbought = sample(rng, products, len(products))  # no product is in two orders: an item names its order
    for n, age in enumerate(ages):
        placed = today - dt.timedelta(days=age)
        method = "express" if rng.random() < 0.25 else "standard"
        bought = [unbought.pop() for _ in range(min(len(unbought) - 1, choice(rng, (1, 1, 1, 2, 2, 3))))]
        order = make_order(rng, world.language, f"ord_{n + 1}", bought, choice(rng, addresses), placed, "", method)
        due = dt.date.fromisoformat(order["delivery_date"])
        if n < unshipped:
            order["status"] = "to_ship"
        elif due > today:
            order["status"] = "shipped"
        else:
            order["status"] = "cancelled" if rng.random() < 0.1 else "delivered"
        orders.append(order)
    return orders


def _cart(rng: random.Random, products: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cart = []
    for n, product in enumerate(sample(rng, products, randint(rng, 0, 4))):
        cart.append({"id": f"ci_{n + 1}", "product_id": product["id"],
                     "variant": choice(rng, product["variants"]) if product["variants"] else "",
                     "qty": choice(rng, (1, 1, 1, 2)), "selected": True})
    return cart


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("shop")
    categories, products = _catalogue(world, rng)
    addresses = _addresses(world, rng)
    in_cart = _cart(rng, products)
    wishlist = [p["id"] for p in sample(rng, products, randint(rng, 0, 6))]
    return {"currency": read_pool(PACKAGE, "pools", world.language)["currency"], "categories": categories, "products": products,
            "cart": in_cart, "wishlist": wishlist, "addresses": addresses,
            "orders": _orders(world, rng, products, addresses),
            "payment": {"card": world.t("Visa ending in 4821", "招商银行储蓄卡 尾号4821")}}
