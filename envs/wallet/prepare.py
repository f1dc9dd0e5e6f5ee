"""Preparers of the Wallet app for JSON tasks (setup action ``prepare``)."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from . import APP
from .world import pools


@APP.preparer("card")
def card(prep: Prep, bank: str | dict[str, str], id: str, default: bool = False) -> dict[str, Any]:
    """A card of ``bank`` (one per language) with the id ``id`` and the only card of that bank, with seeded last
    four digits no other card has; ``default`` makes it the default card (else another card is the default)."""
    bank = in_language(bank, prep.language, "bank")
    if bank not in pools(prep.language)["banks"]:
        raise ValueError(f"wallet: unknown bank {bank!r}")
    cards = [c for c in prep.state("wallet")["cards"] if c["bank"] != bank]
    taken = {c["last4"] for c in cards}
    last4 = str(prep.rng.choice([n for n in range(1000, 10000) if str(n) not in taken]))
    new = {"id": id, "bank": bank, "kind": prep.rng.choice(("debit", "credit")), "last4": last4, "default": default}
    if default:
        cards = [{**c, "default": False} for c in cards]
    elif not any(c["default"] for c in cards):
        if not cards:
            raise ValueError("wallet: a card that is not the default needs another card to be the default")
        cards = [{**c, "default": i == 0} for i, c in enumerate(cards)]
    return {"apps": {"wallet": {"cards": [*cards, new]}}}
