"""Preparers of the Wallet app for JSON tasks (setup action ``prepare``)."""
from __future__ import annotations

from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .world import pools


@APP.preparer("card")
def card(prep: Prep, bank: str | dict[str, str], id: str, default: bool = False) -> dict[str, Any]:
    """A card of ``bank`` (one per language) with the id ``id``, the only card of that bank, with seeded last four
    digits no other card has; ``default`` makes it the default card (else another card is the default, one of
    another bank added when the wallet has no other)."""
    bank = in_language(bank, prep.language, "bank")
    if bank not in pools(prep.language)["banks"]:
        raise ValueError(f"wallet: unknown bank {bank!r}")
    cards = [c for c in prep.state("wallet")["cards"] if c["bank"] != bank]
    taken = {c["last4"] for c in cards}
    if not default and not cards:  # another card must be the default: one of another bank
        other = prep.rng.choice([b for b in pools(prep.language)["banks"] if b != bank])
        cards = [_card(prep, "card_other", other, taken, True)]
    if default:
        cards = [{**c, "default": False} for c in cards]
    elif not any(c["default"] for c in cards):
        cards = [{**c, "default": i == 0} for i, c in enumerate(cards)]
    return {"apps": {"wallet": {"cards": [*cards, _card(prep, id, bank, taken | {c["last4"] for c in cards}, default)]}}}


def _card(prep: Prep, card_id: str, bank: str, taken: set[str], default: bool) -> dict[str, Any]:
    """A card with seeded last four digits none of ``taken`` has."""
    last4 = str(prep.rng.choice([n for n in range(1000, 10000) if str(n) not in taken]))
    return {"id": card_id, "bank": bank, "kind": prep.rng.choice(("debit", "credit")), "last4": last4, "default": default}
