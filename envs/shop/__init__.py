"""Shop: a shopping app (Amazon / Taobao style): categories, search with filters and sort, product pages with
variants and quantities, a cart, checkout with a confirm step, orders (track, cancel an unshipped one),
addresses and a wishlist."""
from .app import APP

from . import account, cart, prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
