"""Shop tasks.

Task index:
    AddToWishlist         operate  L1  save a product to the wishlist
    SetDefaultAddress     operate  L1  make a saved address the default
    ProductReviews        query    L1  how many reviews a product has
    AddVariantToCart      operate  L2  add a product in a given size or colour to the cart
    RemoveCartItem        operate  L2  remove one cart item (confirm dialog)
    ChangeCartQuantity    operate  L2  set a cart item's quantity
    OrderArrival          query    L2  when an order on its way arrives
    CheapestWellRated     query    L3  the price of a category's cheapest product rated 4 stars or more
    CancelUnshippedOrder  operate  L3  cancel the order that has not shipped (confirm dialog)
    AddDefaultAddress     operate  L3  add an address (form) and make it the default
    DeliveredSpending     query    L3  what the orders delivered in a month cost in all
    BuyVariant            operate  L3  buy a quantity of a product's variant, standard shipping, default address
    BuyBestRatedUnder     operate  L4  buy a category's highest-rated product under a price cap
    OrderForFriendAndChange  operate L4 cross-app: Chat -> Shop -> Wallet: order what a Chat friend asked for with the
                                        money they sent in Wallet, send them back the change (high risk)
    ShipToFriendAndText      operate L4 cross-app: Messages -> Contacts -> Shop -> Messages: order what a friend texted
                                        for, shipped to the address in their contact card, text them the order number
                                        (high risk)
"""
from __future__ import annotations

import datetime as dt

from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, sim_today, copy_state
from mobilegym.judge.result import check

from ..contacts.app import Contacts
from ..l10n import localised
from ..maps.app import prepare_state_with_incoming
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages
from ..wallet.app import Wallet
from .app import (SHOP_CANCEL_CHANGES, SHOP_CART_ADD_CHANGES, SHOP_CART_QTY_CHANGES, SHOP_CART_REMOVE_CHANGES,
                  SHOP_DEFAULT_CHANGES, SHOP_NEW_ADDRESS_CHANGES, SHOP_ORDER_CHANGES, SHOP_WISHLIST_ADD_CHANGES, MIN_CHEAPER_LOW_RATED,
                  MIN_MONTH_CANCELLED, MIN_MONTH_DELIVERED, MIN_OTHER_MONTH_DELIVERED, MIN_SAVED_ADDRESSES, MIN_SHIPPED,
                  RATING_FLOOR, Shop, address_line)


def _shop_state(device) -> dict:
    return copy_state(device)["apps"]["shop"]


def _language(device) -> str:
    return copy_state(device)["os"].get("language", "en")


def _fill_cart(device) -> None:
    """The cart starts with at least two lines."""
    patch = Shop.prepare_state_with_cart_lines(_shop_state(device), 2)
    if patch:
        device.set_state(patch)


class AddToWishlist(BaseTask):
    """Verdict: the wishlist holds its initial products plus the requested one."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["search", "toggle"]
    templates = {"en": ["Save '{product.title}' to my wishlist in Shop", "Add the {product.title} to my Shop wishlist"],
                 "zh": ["在购物里把“{product.title}”加入心愿单"]}
    parameters = {"product": {"sampler": Shop.sample_not_in_wishlist}}
    expected_changes = SHOP_WISHLIST_ADD_CHANGES

    def check_goals(self, input):
        before = Shop(input.apps_init["shop"]).require(".wishlist")
        after = Shop(input.apps["shop"]).require(".wishlist")
        expected = sorted([*before, self.p.product["id"]])
        return [check("wishlist", expected, sorted(after), sorted(after) == expected)]


class SetDefaultAddress(CriteriaTask):
    """Verdict: the requested address is the default (so no other is).
    Injection: a second address when the world has only one."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["settings"]
    templates = {"en": ["In Shop, make my '{address.label}' address ({address.street}) the default",
                        "Set {address.street} as my default shipping address in Shop"],
                 "zh": ["在购物里把“{address.label}”（{address.street}）设为默认收货地址"]}
    parameters = {"address": {"sampler": Shop.sample_non_default_address}}
    criteria = {".addresses[id={address.id}].default": True}
    expected_changes = SHOP_DEFAULT_CHANGES

    def set_up(self, device) -> None:
        patch = Shop.prepare_state_with_second_address(_shop_state(device), _language(device))
        if patch:
            device.set_state(patch)


@localised(zh={"fields": [{"label": "评价数"}]})
class ProductReviews(AnswerTask):
    """Verdict: the answer is the product's number of reviews (sampled so no other product has that count)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["How many reviews does '{product.title}' have in Shop?",
                        "Look up '{product.title}' in Shop and tell me its number of reviews"],
                 "zh": ["购物里“{product.title}”有多少条评价？"]}
    parameters = {"product": {"sampler": Shop.sample_product_reviews}}
    answer = ".products[id={product.id}].reviews"
    answer_fields = [{"type": "number", "label": "Reviews"}]


class AddVariantToCart(BaseTask):
    """Verdict: the cart holds its initial lines plus one of the product in the requested variant, quantity 1
    (another variant, another quantity or a removed line fails)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "form-filling"]
    templates = {"en": ["Add '{product.title}' in {product.option} to my cart in Shop",
                        "Put one {product.title}, {product.option}, in my Shop cart"],
                 "zh": ["在购物里把“{product.title}”（{product.option}）加入购物车，数量1件"]}
    parameters = {"product": {"sampler": Shop.sample_variant_product}}
    expected_changes = SHOP_CART_ADD_CHANGES

    def check_goals(self, input):
        before = Shop(input.apps_init["shop"]).cart()
        added = {"product_id": self.p.product["id"], "variant": self.p.product["variant"], "qty": 1}
        return [Shop(input.apps["shop"]).check_cart("cart", [*before, added])]


class RemoveCartItem(BaseTask):
    """Verdict: the cart holds its initial lines but the requested one.
    Injection: the cart holds at least two lines."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Remove '{line.title}' from my Shop cart", "I don't want the {line.title} anymore, take it out of my cart"],
                 "zh": ["把“{line.title}”从购物车里删除"]}
    parameters = {"line": {"sampler": Shop.sample_cart_line}}
    expected_changes = SHOP_CART_REMOVE_CHANGES

    def set_up(self, device) -> None:
        _fill_cart(device)

    def check_goals(self, input):
        before = Shop(input.apps_init["shop"]).cart()
        return [Shop(input.apps["shop"]).check_cart("cart", [i for i in before if i["id"] != self.p.line["id"]])]


class ChangeCartQuantity(CriteriaTask):
    """Verdict: the cart line has the requested quantity (the others untouched, by the side-effect diff).
    Injection: the cart holds at least two lines."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling"]
    templates = {"en": ["Change the quantity of '{line.title}' in my Shop cart to {qty}",
                        "I need {qty} of the {line.title} in my cart, update the quantity"],
                 "zh": ["把购物车里“{line.title}”的数量改成{qty}件"]}
    parameters = {"line": {"sampler": Shop.sample_cart_line}, "qty": {"sampler": Shop.sample_new_quantity}}
    criteria = {".cart[id={line.id}].qty": "{qty}"}
    expected_changes = SHOP_CART_QTY_CHANGES

    def set_up(self, device) -> None:
        _fill_cart(device)


@localised(zh={"fields": [{"label": "送达日期", "hint": "例如 3月19日"}]})
class OrderArrival(AnswerTask):
    """Verdict: the answer is the delivery date of the order (no product is in two orders, so the product names
    the order; it arrives this year, so a date without its year names it). Injection: orders on their way that
    share a delivery date are moved apart by days, and one arrives this year."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "date-reasoning"]
    templates = {"en": ["When is my Shop order of '{order.title}' arriving?",
                        "What's the delivery date of the order with the {order.title} in it?"],
                 "zh": ["我在购物里买的“{order.title}”哪天送到？"]}
    parameters = {"order": {"sampler": Shop.sample_order_in_transit}}
    answer_fields = [{"type": "text", "label": "Delivery date", "hint": "e.g. March 19", "matcher": "date"}]

    def set_up(self, device) -> None:
        patch = Shop.prepare_state_with_distinct_arrivals(_shop_state(device), sim_today(copy_state(device)["os"]))
        if patch:
            device.set_state(patch)

    def get_answer(self, input):
        return dt.date.fromisoformat(Shop(input.apps_init["shop"]).order(self.p.order["id"])["delivery_date"])


@localised(zh={"fields": [{"label": "价格"}]})
class CheapestWellRated(AnswerTask):
    """Verdict: the answer is the price of the category's cheapest product rated 4 stars or more (sampled
    so the next one costs at least 0.50 more). Injection: a cheaper product of the category rated under 4 stars."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["search", "filtering", "comparison"]
    templates = {"en": ["In Shop, what does the cheapest {category.name} product with a rating of at least 4 stars cost?",
                        "Find the lowest-priced item in {category.name} rated 4 stars or higher. What's its price?"],
                 "zh": ["购物里“{category.name}”分类中评分不低于4星的商品，最便宜的多少钱？"]}
    parameters = {"category": {"sampler": Shop.sample_category_with_cheapest}}
    answer_fields = [{"type": "number", "label": "Price"}]

    def distractors(self, apps, os_state):
        mine = [p for p in apps["shop"]["products"] if p["category_id"] == self.p.category["id"]]
        best = Shop.cheapest_rated(apps["shop"], self.p.category["id"])
        return {"dearer well-rated products": (sum(p["rating"] >= RATING_FLOOR and p is not best for p in mine), 1),
                "cheaper products rated lower": (sum(p["rating"] < RATING_FLOOR and p["price"] < best["price"]
                                                     for p in mine), MIN_CHEAPER_LOW_RATED)}

    def inject(self, device) -> None:
        patch = Shop.prepare_state_with_cheaper_low_rated(_shop_state(device), self.p.category["id"])
        if patch:
            device.set_state(patch)

    def get_answer(self, input):
        return Shop.cheapest_rated(input.apps_init["shop"], self.p.category["id"])["price"]


class CancelUnshippedOrder(BaseTask):
    """Verdict: the one order not shipped yet is cancelled (every other order untouched, by the diff).
    Injection: any other unshipped order is marked shipped, and the newest delivered one is when none is on its way."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    capabilities = ["filtering", "confirmation-dialog"]
    templates = {"en": ["Cancel my Shop order that hasn't shipped yet", "One of my orders hasn't shipped: cancel it"],
                 "zh": ["把购物里还没发货的那个订单取消掉"]}
    parameters = {"order": {"sampler": Shop.sample_unshipped_order}}
    expected_changes = SHOP_CANCEL_CHANGES

    def inject(self, device) -> None:
        patch = Shop.prepare_state_with_one_unshipped(_shop_state(device), self.p.order["id"],
                                                      sim_today(copy_state(device)["os"]))
        if patch:
            device.set_state(patch)

    def distractors(self, apps, os_state):
        orders = apps["shop"]["orders"]
        return {"orders shipped and on their way": (sum(o["status"] == "shipped" for o in orders), MIN_SHIPPED),
                "other orders": (len(orders) - 1, 2)}

    def check_goals(self, input):
        order = Shop(input.apps["shop"]).order(self.p.order["id"])
        status = order["status"] if order else "missing"
        return [check(f"order of {self.p.order['title']}", "cancelled", status, status == "cancelled")]


class AddDefaultAddress(BaseTask):
    """Verdict: one new address with the requested fields (case and spaces aside; the label may differ) is the
    default, and no other address is. Injection: a second address when the world has only one."""

    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["form-filling"]
    templates = {"en": ["Add a new address in Shop and make it my default: {address.name}, phone {address.phone}, "
                        "{address.street}, {address.city}, {address.region} {address.postcode}",
                        "Save this as my new default delivery address in Shop: {address.street}, {address.city}, "
                        "{address.region} {address.postcode} (name {address.name}, phone {address.phone})"],
                 "zh": ["在购物里新增收货地址并设为默认：收货人{address.name}，手机号{address.phone}，"
                        "{address.region}{address.city}{address.street}，邮编{address.postcode}"]}
    parameters = {"address": {"sampler": Shop.sample_new_address}}
    expected_changes = SHOP_NEW_ADDRESS_CHANGES
    FIELDS = ("name", "phone", "street", "city", "region", "postcode")

    def set_up(self, device) -> None:
        patch = Shop.prepare_state_with_second_address(_shop_state(device), _language(device))
        if patch:
            device.set_state(patch)

    def distractors(self, apps, os_state):
        return {"saved addresses (one the default)": (len(apps["shop"]["addresses"]), MIN_SAVED_ADDRESSES)}

    @staticmethod
    def _norm(value: str) -> str:
        return " ".join(str(value).split()).casefold()

    def check_goals(self, input):
        before = {a["id"] for a in Shop(input.apps_init["shop"]).require(".addresses")}
        addresses = Shop(input.apps["shop"]).require(".addresses")
        added = [a for a in addresses if a["id"] not in before]
        if len(added) != 1:
            return [check("new addresses", 1, len(added), False)]
        want = {k: self._norm(self.p.address[k]) for k in self.FIELDS}
        got = {k: self._norm(added[0][k]) for k in self.FIELDS}
        defaults = [a["street"] for a in addresses if a["default"]]
        return [check("new address", want, got, want == got),
                check("default address", [added[0]["street"]], defaults, defaults == [added[0]["street"]])]


@localised(zh={"fields": [{"label": "总金额"}]})
class DeliveredSpending(AnswerTask):
    """Verdict: the answer is what the orders delivered in the month cost in all (order totals, shipping
    included; cancelled and undelivered orders excluded). Injection: orders added until two were delivered in the
    month, one in the month before and one of the month was cancelled."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["filtering", "arithmetic", "date-reasoning"]
    templates = {"en": ["How much did I spend in Shop on the orders that were delivered in {month.name}? "
                        "Add up their order totals.",
                        "Add up the totals of my Shop orders delivered in {month.name}: how much is it?"],
                 "zh": ["我在购物里{month.name}送达的订单一共花了多少钱？按订单实付款合计。"]}
    parameters = {"month": {"sampler": Shop.sample_spending_month}}
    answer_fields = [{"type": "number", "label": "Total spent"}]

    def distractors(self, apps, os_state):
        month, orders = self.p.month["month"], apps["shop"]["orders"]
        return {"orders delivered in the month": (sum(o["status"] == "delivered" and o["delivery_date"][:7] == month
                                                      for o in orders), MIN_MONTH_DELIVERED),
                "orders delivered in other months": (sum(o["status"] == "delivered" and o["delivery_date"][:7] != month
                                                         for o in orders), MIN_OTHER_MONTH_DELIVERED),
                "orders of the month not delivered": (sum(o["status"] != "delivered" and o["delivery_date"][:7] == month
                                                          for o in orders), MIN_MONTH_CANCELLED)}

    def inject(self, device) -> None:
        state = copy_state(device)
        patch = Shop.prepare_state_with_month_orders(state["apps"]["shop"], self.p.month["month"], sim_today(state["os"]),
                                                     self.rng, state["os"].get("language", "en"))
        if patch:
            device.set_state(patch)

    def get_answer(self, input):
        return Shop(input.apps_init["shop"]).delivered_spending(self.p.month["month"])


class BuyVariant(BaseTask):
    """Verdict: exactly one new order, of the product in the requested variant and quantity only, to the default
    address with standard shipping (a second order, another variant or quantity, extra items fail)."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["search", "form-filling", "confirmation-dialog"]
    templates = {"en": ["Buy {qty} of '{product.title}' in {product.option} in Shop, standard shipping to my default address",
                        "Order {qty} {product.title} ({product.option}) for me in Shop; standard shipping to the default address is fine"],
                 "zh": ["在购物里买{qty}件“{product.title}”（{product.option}），标准配送，寄到默认地址"]}
    parameters = {"product": {"sampler": Shop.sample_variant_product}, "qty": {"type": "int", "min": 2, "max": 3}}
    expected_changes = SHOP_ORDER_CHANGES

    def distractors(self, apps, os_state):
        return {"other variants": (len(Shop(apps["shop"]).product(self.p.product["id"])["variants"]) - 1, 2)}

    def check_goals(self, input):
        return Shop(input.apps["shop"]).check_one_order(Shop(input.apps_init["shop"]), self.p.product["id"],
                                                        [self.p.product["variant"]], self.p.qty, "standard")


class BuyBestRatedUnder(BaseTask):
    """Verdict: exactly one new order, of one unit of the category's highest-rated product under the cap (any
    variant), to the default address with standard shipping. Sampled so the best under the cap is unique.
    Injection: threshold traps, so that no other cap of the category buys the same product: the best costs
    more than the next cap down, and a product under the next cap up is rated higher."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "aggregate"
    capabilities = ["search", "filtering", "comparison", "confirmation-dialog"]
    templates = {"en": ["In Shop, buy the highest-rated {pick.name} product that costs less than {pick.cap_text}. One unit, any "
                        "size or colour, standard shipping to my default address.",
                        "Order me the best-rated item in {pick.name} priced under {pick.cap_text} (just one; if it has sizes or "
                        "colours, any will do), standard shipping to my default address"],
                 "zh": ["在购物里买一件“{pick.name}”分类中价格低于{pick.cap_text}、评分最高的商品，尺码颜色不限，标准配送到默认地址"]}
    parameters = {"pick": {"sampler": Shop.sample_category_and_cap}}
    expected_changes = SHOP_ORDER_CHANGES

    def inject(self, device) -> None:
        patch = Shop.prepare_state_with_higher_rated(_shop_state(device), self.p.pick)
        if patch:
            device.set_state(patch)

    def distractors(self, apps, os_state):
        pick = self.p.pick
        mine = [p for p in apps["shop"]["products"] if p["category_id"] == pick["id"]]
        return {"other products under the cap": (sum(p["price"] < pick["cap"] and p["id"] != pick["product"]
                                                     for p in mine), 1),
                "rated higher above the cap": (sum(p["price"] >= pick["cap"] and p["rating"] > pick["rating"]
                                                   for p in mine), 1)}

    def check_goals(self, input):
        shop = Shop(input.apps["shop"])
        variants = shop.product(self.p.pick["product"])["variants"] or [""]
        return shop.check_one_order(Shop(input.apps_init["shop"]), self.p.pick["product"], variants, 1, "standard")


# --- cross-app -------------------------------------------------------------------------------------------------

FRIEND_ORDER_ASKS = {
    "en": ("Hi! Could you order me the {item} from your Shop app? I just sent you the money with Wallet. Standard "
           "shipping to your place is fine, send me back whatever is left.",
           "Hey, would you buy me one {item} in Shop? I sent the money to your Wallet, shipping included; just send "
           "back the change."),
    "zh": ("嗨！能帮我在购物里下单一件{item}吗？钱我刚用钱包转给你了，标准配送寄到你那里就行，多的钱转回给我。",
           "你好，帮我在购物里买一件{item}好吗？钱（含运费）已经转到你的钱包了，剩下的转回给我就行。")}
VARIANT_WORDS = {"en": "{title} in {variant}", "zh": "{title}（{variant}）"}


def _sample_friend_order(rng, state, os_state) -> dict:
    """A product to order for a friend: a title no other product has, not in the cart, priced under the free
    standard shipping line and not shipping free itself (so the order total is price + fee), with one of its
    variants (the friend names it), as {id, title, variant, item}."""
    from mobilegym.envs.shop.world import FREE_SHIPPING_OVER
    language = os_state.get("language", "en")
    in_cart = {i["product_id"] for i in state["cart"]}
    pool = [p for p in Shop._unique_titles(state)
            if p["id"] not in in_cart and not p["free_shipping"] and p["price"] < FREE_SHIPPING_OVER[language]]
    if not pool:
        raise ValueError("shop: no product pays for standard shipping")
    chosen = rng.choice(pool)
    variant = rng.choice(chosen["variants"]) if chosen["variants"] else ""
    item = VARIANT_WORDS[language].format(title=chosen["title"], variant=variant) if variant else chosen["title"]
    return {"id": chosen["id"], "title": chosen["title"], "variant": variant, "item": item}


def _sample_passcode(rng, state) -> str:
    """The Wallet passcode the owner tells (set on the phone's Wallet by the injection)."""
    return f"{rng.randrange(10 ** 6):06d}"


def order_total(shop_state: dict, product_id: str, language: str) -> float:
    """What one unit of a product comes to with standard shipping."""
    from mobilegym.envs.shop.world import shipping_fee
    product = next(p for p in shop_state["products"] if p["id"] == product_id)
    return round(product["price"] + shipping_fee("standard", product["price"], product["free_shipping"], language), 2)


def _wallet_free_time(transactions: list, day: str, first_hour: int) -> str:
    taken = {t["time"] for t in transactions if t["date"] == day}
    return next(f"{h:02d}:{m:02d}" for h in range(first_hour, 24) for m in (7, 23, 41, 56) if f"{h:02d}:{m:02d}" not in taken)


class OrderForFriendAndChange(BaseTask):
    """Verdict: exactly one new Shop order, of one unit of the product the friend asked for in Chat (in the variant
    they named), to the default address with standard shipping; and one Wallet transfer to the friend's number, of
    what they sent last in Wallet minus that order's total (items and shipping), off the Wallet balance.
    Injection: the friend asks in Chat an hour or two ago (unread); in Wallet they sent a round amount over the
    total (by one to three steps of 10/50) today, and a larger amount a week or two ago (a rival to read)."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app-transfer", "arithmetic", "payment", "confirmation-dialog"]
    scope = "cross-app"
    related_apps = ["chat", "shop", "wallet", "contacts"]
    templates = {"en": ["{name} asked me in Chat to order something for them in Shop and sent me the money with "
                        "Wallet. Order it (one, standard shipping to my default address), then send {name} the change "
                        "back with Wallet. My Wallet passcode is {passcode}.",
                        "Buy in Shop what {name} asked me for in Chat (one, standard shipping, my default address). "
                        "They already sent me the money in Wallet: send them back with Wallet what is left after the "
                        "order's total. My Wallet passcode is {passcode}."],
                 "zh": ["{name}在聊天里让我帮他在购物里买个东西，钱已经用钱包转给我了。帮他下单（一件，标准配送到我的"
                        "默认地址），再用钱包把多出来的钱转回给{name}。我的钱包支付密码是{passcode}。"]}
    parameters = {"pick": {"sampler": _sample_friend_order}, "name": {"source": "chat:.friends[*].name"},
                  "passcode": {"sampler": _sample_passcode}}
    expected_changes = [*SHOP_ORDER_CHANGES, "wallet.balance", "wallet.transactions[+]", "chat.chats[*].unread"]

    def inject(self, device) -> None:
        state = copy_state(device)
        language, now, today = state["os"].get("language", "en"), state["os"]["time_ms"], sim_today(state["os"])
        chat, wallet = state["apps"]["chat"], state["apps"]["wallet"]
        friend = next(f for f in chat["friends"] if f["name"] == self.p.name)
        step = 10 if language == "en" else 50
        total = order_total(state["apps"]["shop"], self.p.pick["id"], language)
        sent = float((int(total // step) + 2 + self.rng.randint(0, 1)) * step)  # change over the express surcharge
        earlier = sent + step * self.rng.choice((1, 2, 3))
        taken = {m["time_ms"] for c in chat["chats"] for m in c["messages"]} | {m["time_ms"] for m in chat["moments"]}
        when = now - self.rng.randint(1, 2) * 3_600_000
        while when in taken:
            when -= 60_000
        ask = self.rng.choice(FRIEND_ORDER_ASKS[language]).format(item=self.p.pick["item"])
        msg = {"id": "msg_task_order", "sender": friend["id"], "type": "text", "text": ask, "time_ms": when,
               "amount": 0.0, "note": "", "status": ""}
        direct = next((c for c in chat["chats"] if c["kind"] == "direct" and c["members"] == [friend["id"]]), None)
        if direct is None:
            chat_patch = {"chats[]": {"id": "chat_task", "kind": "direct", "name": "", "members": [friend["id"]],
                                      "unread": 1, "messages": [msg]}}
        else:
            chat_patch = {f"chats[id={direct['id']}]": {"messages": [*direct["messages"], msg],
                                                        "unread": direct["unread"] + 1}}
        old_day = (today - dt.timedelta(days=self.rng.randint(7, 15))).isoformat()
        # the friend's own transfers in since the older one would rival "the money they sent": none is left
        txns = [t for t in wallet["transactions"]
                if not (t["kind"] == "transfer_in" and t["phone"] == friend["phone"] and t["date"] >= old_day)]
        for txn_id, day, amount, hour in (("txn_task_old", old_day, earlier, 10),
                                          ("txn_task_money", today.isoformat(), sent, 0)):
            txns.append({"id": txn_id, "date": day, "time": _wallet_free_time(txns, day, hour), "kind": "transfer_in",
                         "phone": friend["phone"], "note": "", "method": "balance", "bill_id": "",
                         "counterparty": self.p.name, "category": "transfer", "amount": amount})
        device.set_state({"apps": {"chat": chat_patch, "wallet": {
            "transactions": txns, "balance": round(max(wallet["balance"], sent + 100), 2),
            "settings": {**wallet["settings"], "passcode": self.p.passcode}}}})

    def distractors(self, apps, os_state):
        phone = next(f["phone"] for f in apps["chat"]["friends"] if f["name"] == self.p.name)
        return {"their transfers in Wallet": (sum(t["kind"] == "transfer_in" and t["phone"] == phone
                                                  for t in apps["wallet"]["transactions"]), 2),
                "other products": (len(apps["shop"]["products"]) - 1, 2)}

    def check_goals(self, input):
        shop = Shop(input.apps["shop"])
        init = Shop(input.apps_init["shop"])
        language = input.os_init.get("language", "en")
        sent = next(t for t in input.apps_init["wallet"]["transactions"] if t["id"] == "txn_task_money")
        change = round(sent["amount"] - order_total(input.apps_init["shop"], self.p.pick["id"], language), 2)
        wallet = Wallet(input.apps["wallet"], input.apps_init["wallet"])
        return [*shop.check_one_order(init, self.p.pick["id"], [self.p.pick["variant"]], 1, "standard"),
                *wallet.check_transfer(self.p.name, sent["phone"], change)]


SHIP_TO_FRIEND_ASKS = {
    "en": "Hi! Could you order the {item} for me in your Shop app? Have it sent straight to my place, my address is "
          "in your contacts. Text me the order number when it's done!",
    "zh": "你好！能帮我在购物里下单一件{item}吗？直接寄到我家，地址在你通讯录里有。下好单把订单号发短信告诉我！"}


class ShipToFriendAndText(BaseTask):
    """Verdict: exactly one new Shop order, of one unit of the product the friend texted for (in the variant they
    named), standard shipping, to an address holding the friend's name, the number they texted from, and the place and
    postcode of the address in their contact card (a new address; the old default stays the default); and a text to
    the friend stating that order's number and no other order's.
    Injection: the friend's contact notes hold an address no Shop address has; their first number asked for the
    product by text an hour ago (unread)."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app-transfer", "form-filling", "confirmation-dialog", "messaging"]
    scope = "cross-app"
    related_apps = ["messages", "contacts", "shop"]
    templates = {"en": ["{name} texted me asking me to order something for them in Shop. Order it (one, standard "
                        "shipping), delivered to {name}'s address from their contact card, then text {name} the "
                        "order number.",
                        "Buy what {name} asked me for by text in Shop (one, standard shipping) and have it shipped to "
                        "the address saved in {name}'s contact. Then text them the order number."],
                 "zh": ["{name}发短信让我帮他在购物里买个东西。帮他下单（一件，标准配送），寄到通讯录里{name}的联系人卡片上"
                        "的地址，然后把订单号发短信告诉{name}。"]}
    parameters = {"product": {"sampler": Shop.sample_variant_product}, "address": {"sampler": Shop.sample_friend_address},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*SHOP_ORDER_CHANGES, "shop.addresses[+]", *MESSAGES_SEND_CHANGES, *MESSAGES_READ_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        language = state["os"].get("language", "en")
        contact = Contacts(state["apps"]["contacts"]).contact(self.p.name)
        line = address_line(self.p.address, language)
        notes = f"{contact['notes']}\n{line}" if contact["notes"] else line
        item = VARIANT_WORDS[language].format(title=self.p.product["title"], variant=self.p.product["variant"])
        text = SHIP_TO_FRIEND_ASKS[language].format(item=item)
        device.set_state({"apps": {"contacts": {f"contacts[id={contact['id']}]": {"notes": notes}}}})
        device.set_state(prepare_state_with_incoming(state["apps"]["messages"], contact["phones"][0]["number"], text,
                                                     state["os"]["time_ms"]))

    def distractors(self, apps, os_state):
        return {"saved Shop addresses (the default one)": (len(apps["shop"]["addresses"]), 1),
                "other orders' numbers": (len(apps["shop"]["orders"]), 1),
                "other variants": (len(Shop(apps["shop"]).product(self.p.product["id"])["variants"]) - 1, 2)}

    def check_goals(self, input):
        phones = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        shop, init = Shop(input.apps["shop"]), Shop(input.apps_init["shop"])
        to = {**self.p.address, "name": self.p.name, "phone": phones[0]}
        placed = shop.new_orders(init)
        number = placed[0]["number"] if len(placed) == 1 else "the new order's number"
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [*shop.check_one_order(init, self.p.product["id"], [self.p.product["variant"]], 1, "standard", to=to),
                *messages.check_sent_facts(self.p.name, phones, {"order number": number},
                                           rivals={"order number": [o["number"] for o in init.orders()]})]
