"""Preparers of the Shop app for JSON tasks (setup action ``prepare``): make a named product exist in whatever
world the phone holds, or fill the cart. Each returns a patch of the whole document. Titles and categories may
be given per language ({"en": ..., "zh": ...})."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .world import pools, sellers_for

Text = str | dict[str, str]  # a text, or one per language


@APP.preparer("product")
def product(prep: Prep, title: Text, category: Text, price: float | dict[str, float], kind: str = "") -> dict[str, Any]:
    """The product exists (with seeded rating, reviews and seller, and the pool's variants of ``kind``: "size",
    "shoe", "color" or none), in the named category (made when missing)."""
    shop = prep.state("shop")
    title = in_language(title, prep.language, "product title")
    if any(p["title"] == title for p in shop["products"]):
        return {}
    name = in_language(category, prep.language, "category")
    patch: dict[str, Any] = {}
    found = next((c for c in shop["categories"] if c["name"] == name), None)
    if found is None:
        found = {"id": f"cat_{len(shop['categories']) + 1}", "name": name}
        patch["categories[]"] = found
    pool = pools(prep.language)
    rng = prep.rng
    if kind and kind not in pool["variants"]:
        raise ValueError(f"shop: no variant kind {kind!r}; known: {', '.join(pool['variants'])}")
    patch["products[]"] = {
        "id": f"p_{len(shop['products']) + 1}", "title": title, "category_id": found["id"],
        "price": float(in_language(price, prep.language, "price")), "rating": round(rng.uniform(3.8, 4.9), 1),
        "reviews": rng.randrange(20, 5000), "seller": rng.choice(sellers_for(pool, name)),
        "free_shipping": rng.random() < 0.5, "variant_kind": "color" if kind == "color" else ("size" if kind else ""),
        "variants": list(pool["variants"][kind]) if kind else []}
    return {"apps": {"shop": patch}}


@APP.preparer("cart_items")
def cart_items(prep: Prep, count: int = 2) -> dict[str, Any]:
    """The cart holds at least ``count`` lines (seeded products not in it yet, their first variant)."""
    shop = prep.state("shop")
    missing = count - len(shop["cart"])
    if missing <= 0:
        return {}
    in_cart = {i["product_id"] for i in shop["cart"]}
    extra = prep.rng.sample([p for p in shop["products"] if p["id"] not in in_cart], missing)
    lines = [*shop["cart"], *({"id": f"ci_prep_{n}", "product_id": p["id"], "variant": p["variants"][0] if p["variants"] else "",
                               "qty": 1, "selected": True} for n, p in enumerate(extra, 1))]
    return {"apps": {"shop": {"cart": lines}}}
