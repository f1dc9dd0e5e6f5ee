"""Shop: a shopping app (Amazon / Taobao style): categories, search with filters and sort, product pages with
variants and quantities, a cart, checkout with a confirm step, orders (track, cancel an unshipped one),
addresses and a wishlist."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="shop", label="Shop", label_zh="购物", home="/", glyph="🛒", color="#B45309",
             defaults_package=__name__, generate=generate)

from . import account, cart, prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
