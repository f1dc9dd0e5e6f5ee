"""Layout shared by the apps' screens."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from mobilegym.sim import ui

if TYPE_CHECKING:
    from mobilegym.sim.app import Ctx

MARGIN = 16.0  # dp from the screen edge to the text of a list row or section header (Material 3)


def inset(view: ui.View, left: float, right: float = 0.0) -> ui.View:
    """``view`` moved ``left`` dp in from the start (and ``right`` from the end) of the row it is laid out in: a
    section header in a list whose rows pad themselves. The view keeps its rid and text."""
    view.flex = view.flex or 1
    return ui.Row([ui.Spacer(width=left), view, ui.Spacer(width=right) if right else None], gap=0)


def confirm(ctx: "Ctx", key: str, title: str, body: str, ok: str, on_ok: Callable[[], None],
            cancel: str | None = None) -> ui.Dialog | None:
    """The confirm dialog shown while ``ctx.local[key]`` is set: ``cancel`` (``button2``, "Cancel" unless
    given, in the caller's language) closes it, ``ok`` (``button1``) closes it and then runs ``on_ok``."""
    if not ctx.local.get(key):
        return None

    def close() -> None:
        ctx.local[key] = None

    def accept() -> None:
        close()
        on_ok()

    return ui.Dialog(title, body, [ui.Button(cancel or ctx.t("Cancel"), close, style="text", rid=ui.NEGATIVE),
                                   ui.Button(ok, accept, style="text", rid=ui.POSITIVE)], on_dismiss=close)
