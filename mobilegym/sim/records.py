"""Looking up an app's records (dicts with a stable ``id``) in its state lists."""
from __future__ import annotations

from typing import Any, Sequence


def record(items: Sequence[dict[str, Any]], item_id: str, kind: str) -> dict[str, Any]:
    """The item whose ``id`` is ``item_id``; a KeyError naming the kind and id when there is none."""
    for item in items:
        if item["id"] == item_id:
            return item
    raise KeyError(f"no {kind} {item_id!r}")
