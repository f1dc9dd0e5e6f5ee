"""Pieces the Trains screens share: the bottom tabs, section headers and label/value rows."""
from __future__ import annotations

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

TABS = [("/", "Tickets"), ("/orders", "Orders"), ("/passengers", "Passengers")]


def tabs(ctx: Ctx, current: str) -> ui.View:
    index = [path for path, _ in TABS].index(current)
    def select(i: int) -> None:
        if i != index:  # the current tab again: nothing to do
            ctx.replace(TABS[i][0])

    return ui.Tabs([ctx.t(label) for _, label in TABS], index, select, rid_prefix="tab")


def header(text: str, rid: str = "section_header") -> ui.View:
    return inset(ui.Text(text, size=13, bold=True, color="primary", height=32, rid=rid), MARGIN)


def detail_row(label: str, value: str, rid: str) -> ui.View:
    return ui.ListItem(value, subtitle=label, title_rid=rid, rid=f"{rid}_row")


def error(text: str, rid: str) -> ui.View:
    return ui.Text(text, size=13, color="#B3261E", max_lines=2, rid=rid)
