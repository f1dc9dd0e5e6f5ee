"""The Shop app: every screen renders cleanly; search filters and sorts; the product page needs a variant; the
cart's quantities, selection and removal (with a confirm dialog); checkout places one order only after its
confirm dialog; unshipped orders can be cancelled; the address form validates and sets the default."""
from __future__ import annotations

import pytest

from mobilegym.envs.shop.screens import results
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("shop", "settings")
HOODIE = "p_2"  # Orthopedic Dog Bed: sizes XS-XL, $45.49, not in the cart (canonical world)


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("shop")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["shop"]


def _nodes(phone: Phone, rid: str) -> list:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _by_desc(phone: Phone, rid: str, desc: str) -> None:
    phone.tap(*next(n for n in _nodes(phone, rid) if n.desc == desc).center)


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)
    phone.key("back")                                         # hide the keyboard


def _open(phone: Phone, route: str) -> None:
    phone.launch("shop", route)


def _product(phone: Phone, product_id: str) -> None:
    _open(phone, f"/product?id={product_id}")


def _scroll_to(phone: Phone, rid: str, tries: int = 8) -> None:
    """Swipe the screen's list up until a node with ``rid`` shows."""
    for _ in range(tries):
        if _nodes(phone, rid):
            return
        phone.swipe(540, 1800, 540, 900, 400)
    node(phone, rid)


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                   # home
    tap(phone, "search_bar")
    assert_screen_ok(phone)                                   # search, nothing typed: no results, keyboard up
    _type(phone, "search_input", "a")
    assert_screen_ok(phone)                                   # results and filters
    for chip in ("filter_category", "filter_price", "sort_button"):
        tap(phone, chip)
        assert_screen_ok(phone)                               # a filter dialog
        phone.key("back")
    _type(phone, "search_input", "no such product at all")
    assert_screen_ok(phone)                                   # no results
    _product(phone, HOODIE)
    assert_screen_ok(phone)                                   # product page with sizes
    _product(phone, "p_1")
    assert_screen_ok(phone)                                   # product page without variants
    tap(phone, "cart")
    assert_screen_ok(phone)                                   # cart
    tap(phone, "remove_item")
    assert_screen_ok(phone)                                   # remove confirmation
    tap(phone, "button2")
    tap(phone, "checkout")
    assert_screen_ok(phone)                                   # checkout
    tap(phone, "address_row")
    assert_screen_ok(phone)                                   # address picker
    phone.key("back")
    tap(phone, "place_order")
    assert_screen_ok(phone)                                   # order confirmation
    tap(phone, "button2")
    for route in ("/orders", "/order?id=ord_1", "/order?id=ord_7", "/addresses", "/address/edit",
                  "/address/edit?id=addr_1", "/wishlist"):
        _open(phone, route)
        assert_screen_ok(phone)
    for tab in range(4):
        _open(phone, "/orders")
        tap(phone, f"tab_{tab}")
        assert_screen_ok(phone)                               # orders by status
    phone.set_state({"apps": {"shop": {"cart": [], "wishlist": []}}})
    _open(phone, "/cart")
    assert_screen_ok(phone)                                   # empty cart
    assert not node(phone, "checkout").clickable
    _open(phone, "/wishlist")
    assert_screen_ok(phone)                                   # empty wishlist


def test_search_filters_and_sorts() -> None:
    phone = _phone()
    tap(phone, "search_bar")
    _type(phone, "search_input", "shoes")
    state = _state(phone)
    shoes = next(c["id"] for c in state["categories"] if c["name"] == "Shoes")
    found = results(state, "shoes", "", None, None, False, False, "relevance")
    assert found and all("shoes" in p["title"].lower() or p["category_id"] == shoes for p in found)
    assert node(phone, "result_count").text == f"{len(found)} results"
    tap(phone, "filter_rating")
    tap(phone, "sort_button")
    tap(phone, "sort_option", "Price: low to high")
    expected = results(state, "shoes", "", None, None, True, False, "price_asc")
    assert node(phone, "result_count").text == f"{len(expected)} results"
    assert all(p["rating"] >= 4.0 for p in expected)
    assert [n.text for n in _nodes(phone, "product_title")][:3] == [p["title"] for p in expected][:3]
    assert [p["price"] for p in expected] == sorted(p["price"] for p in expected)
    tap(phone, "filter_price")
    tap(phone, "price_max_input")
    phone.type_text("60 dollars", clear=True)                 # the numeric keyboard keeps 60
    tap(phone, "button1")
    assert node(phone, "filter_price").text == "Up to $60"
    assert all(p["price"] <= 60 for p in results(state, "shoes", "", None, 60.0, True, False, "price_asc"))
    assert node(phone, "result_count").text == \
        f"{len(results(state, 'shoes', '', None, 60.0, True, False, 'price_asc'))} results"


def test_a_category_filter_lists_only_that_category() -> None:
    phone = _phone()
    tap(phone, "category_name", "Pet Supplies")
    state = _state(phone)
    pets = [p["title"] for p in state["products"] if p["category_id"] == "cat_1"]
    assert node(phone, "result_count").text == f"{len(pets)} results"
    tap(phone, "filter_category")
    tap(phone, "category_option", "All categories")
    assert node(phone, "result_count").text == f"{len(state['products'])} results"


def test_adding_to_the_cart_needs_a_variant_and_merges_lines() -> None:
    phone = _phone()
    _product(phone, HOODIE)
    before = _state(phone)["cart"]
    tap(phone, "add_to_cart")
    assert _state(phone)["cart"] == before                    # no size chosen: nothing added
    assert node(phone, "toast").text == "Select a size first"
    tap(phone, "variant_option", "M")
    assert node(phone, "variant_label").text == "Size: M"
    assert not node(phone, "qty_decrease").clickable
    tap(phone, "qty_increase")
    tap(phone, "add_to_cart")
    added = _state(phone)["cart"][-1]
    assert (added["product_id"], added["variant"], added["qty"], added["selected"]) == (HOODIE, "M", 2, True)
    tap(phone, "add_to_cart")
    cart = _state(phone)["cart"]
    assert len(cart) == len(before) + 1 and cart[-1]["qty"] == 4  # the same size goes on the same line
    tap(phone, "variant_option", "L")
    tap(phone, "add_to_cart")
    assert len(_state(phone)["cart"]) == len(before) + 2


def test_cart_quantities_selection_and_removal() -> None:
    phone = _phone()
    tap(phone, "cart")
    cart = _state(phone)["cart"]
    first = node(phone, "item_checkbox").desc
    assert not _nodes(phone, "qty_decrease")[0].clickable       # one is the least
    _by_desc(phone, "qty_increase", f"Increase quantity of {first}")
    assert _state(phone)["cart"][0]["qty"] == 2
    _by_desc(phone, "qty_decrease", f"Decrease quantity of {first}")
    assert _state(phone)["cart"][0]["qty"] == 1
    total = node(phone, "cart_total").text
    _by_desc(phone, "item_checkbox", first)                   # deselect: the total drops
    assert not _state(phone)["cart"][0]["selected"] and node(phone, "cart_total").text != total
    _by_desc(phone, "remove_item", f"Remove {first}")
    assert node(phone, "message").text == f"Remove {first} from your cart?"
    tap(phone, "button2")
    assert len(_state(phone)["cart"]) == len(cart)
    _by_desc(phone, "remove_item", f"Remove {first}")
    tap(phone, "button1")
    assert [i["id"] for i in _state(phone)["cart"]] == [i["id"] for i in cart[1:]]


def test_buy_now_places_one_order_after_the_confirmation_and_leaves_the_cart() -> None:
    phone = _phone()
    _product(phone, HOODIE)
    tap(phone, "variant_option", "S")
    tap(phone, "buy_now")
    cart, orders = _state(phone)["cart"], _state(phone)["orders"]
    assert node(phone, "order_total").text == "$45.49"       # free standard shipping on a $35+ order
    tap(phone, "shipping_express")
    assert node(phone, "order_total").text == "$58.48"
    tap(phone, "place_order")
    assert node(phone, "message").text == "$58.48 will be charged to your Visa ending in 4821."
    tap(phone, "button2")
    assert _state(phone)["orders"] == orders                  # nothing without the confirmation
    tap(phone, "place_order")
    tap(phone, "button1")
    state = _state(phone)
    placed = state["orders"][0]
    assert len(state["orders"]) == len(orders) + 1 and state["cart"] == cart
    assert placed["items"] == [{"product_id": HOODIE, "title": "Orthopedic Dog Bed", "variant": "S", "qty": 1,
                                "price": 45.49}]
    assert (placed["status"], placed["shipping"], placed["shipping_fee"], placed["total"]) == ("to_ship", "express",
                                                                                                 12.99, 58.48)
    assert placed["delivery_date"] == "2026-03-18" and placed["address_id"] == "addr_2"  # the default address
    assert phone.current_route() == f"/order?id={placed['id']}"
    assert node(phone, "order_delivery").text == "Arriving Wed, Mar 18"


def test_checkout_from_the_cart_buys_the_selected_lines_only() -> None:
    phone = _phone()
    tap(phone, "cart")
    cart = _state(phone)["cart"]
    _by_desc(phone, "item_checkbox", node(phone, "item_checkbox").desc)  # leave the first line out
    tap(phone, "checkout")
    tap(phone, "address_row")
    tap(phone, "address_option", index=0)                    # Home instead of the default
    tap(phone, "place_order")
    tap(phone, "button1")
    state = _state(phone)
    assert [i["id"] for i in state["cart"]] == [cart[0]["id"]]
    assert [i["product_id"] for i in state["orders"][0]["items"]] == [i["product_id"] for i in cart[1:]]
    assert state["orders"][0]["address_id"] == "addr_1"


def test_cancel_an_unshipped_order_with_a_confirmation() -> None:
    phone = _phone()
    _open(phone, "/order?id=ord_3")
    assert not _nodes(phone, "cancel_order")                  # shipped: too late to cancel
    _open(phone, "/order?id=ord_1")
    _scroll_to(phone, "cancel_order")
    tap(phone, "cancel_order")
    tap(phone, "button2")                                      # "Keep order"
    assert _state(phone)["orders"][0]["status"] == "to_ship"
    tap(phone, "cancel_order")
    tap(phone, "button1")
    assert _state(phone)["orders"][0]["status"] == "cancelled"
    assert node(phone, "order_status").text == "Cancelled" and not _nodes(phone, "cancel_order")


def test_address_form_validates_and_sets_the_default() -> None:
    phone = _phone()
    tap(phone, "addresses_entry")
    _by_desc(phone, "set_default", "Set Home as default")
    assert [a["default"] for a in _state(phone)["addresses"]] == [True, False, False]
    tap(phone, "add_address")
    tap(phone, "save_address")
    assert node(phone, "toast").text == "Enter the full name" and phone.current_route() == "/address/edit"
    for rid, text in (("address_name_input", "Ana Ruiz"), ("address_phone_input", "call me"),
                      ("address_street_input", "25 Rosewood Avenue"), ("address_city_input", "Springfield"),
                      ("address_region_input", "IL"), ("address_postcode_input", "62704")):
        _type(phone, rid, text)
    tap(phone, "save_address")
    assert node(phone, "toast").text == "Enter a valid phone number" and len(_state(phone)["addresses"]) == 3
    _type(phone, "address_phone_input", "+1 217-555-0142")
    tap(phone, "default_checkbox")
    tap(phone, "save_address")
    addresses = _state(phone)["addresses"]
    assert phone.current_route() == "/addresses" and len(addresses) == 4
    assert addresses[-1]["street"] == "25 Rosewood Avenue" and addresses[-1]["label"] == "Address"
    assert [a["default"] for a in addresses] == [False, False, False, True]


def test_wishlist_toggle_and_remove() -> None:
    phone = _phone()
    _product(phone, HOODIE)
    tap(phone, "wishlist_toggle")
    assert _state(phone)["wishlist"][0] == HOODIE and node(phone, "wishlist_toggle").desc == "Remove from wishlist"
    _open(phone, "/wishlist")
    _by_desc(phone, "wishlist_remove", "Remove Orthopedic Dog Bed from wishlist")
    assert HOODIE not in _state(phone)["wishlist"]


def test_a_chinese_phone_shops_in_yuan() -> None:
    phone = SimDevice(apps=APPS, language="zh")
    phone.reset_state(5)
    phone.open_app("shop")
    assert node(phone, "toolbar_title").text == "购物"
    tap(phone, "orders_entry")
    assert all("¥" in n.desc for n in _nodes(phone, "order_item"))
    state = _state(phone)
    assert state["currency"] == "¥" and all(p["price"] == int(p["price"]) for p in state["products"])
    assert any("\u4e00" <= ch <= "\u9fff" for ch in state["products"][0]["title"])
