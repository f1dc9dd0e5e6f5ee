"""Maps screens of the user's places: the saved lists (Favourites, Want to go) and the labelled Home and Work,
removing a place after a confirm dialog, and the screen that sets Home or Work by searching."""
from __future__ import annotations

from mobilegym.envs.layout import MARGIN, confirm, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from . import geo
from .app import APP
from .parts import empty, matches, place_row, section

TABS = (*geo.LIST_IDS, "labelled")


def _remove_dialog(ctx: Ctx, list_id: str) -> ui.Dialog | None:
    s, pending = ctx.state, ctx.local.get("remove")
    if not pending:
        return None
    name = geo.place(s, pending)["name"]
    if list_id == "labelled":
        label = next(k for k in geo.LABELS if s[k] == pending)
        what = ctx.t(geo.LABELS[label])

        def drop() -> None:
            s[label] = None
            ctx.toast(ctx.t("{what} removed", what=what))

        return confirm(ctx, "remove", ctx.t("Remove {what}?", what=what),
                       ctx.t("{name} will no longer be labelled {what}.", name=name, what=what),
                       ctx.t("Remove"), drop)
    list_name = ctx.t(geo.LIST_NAMES[list_id])

    def remove() -> None:
        s["saved"] = [e for e in s["saved"] if not (e["place_id"] == pending and e["list"] == list_id)]
        ctx.toast(ctx.t("Removed from {list_name}", list_name=list_name))

    return confirm(ctx, "remove", ctx.t("Remove from {list_name}?", list_name=list_name),
                   ctx.t("{name} will be removed from this list.", name=name),
                   ctx.t("Remove"), remove)


@APP.screen("/saved")
def saved(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    tab = local.get("tab", 0)
    list_id = TABS[tab]
    if list_id == "labelled":
        entries = [(ctx.t(geo.LABELS[k]), geo.place(s, s[k])) for k in geo.LABELS if s[k]]
    else:
        entries = [("", p) for p in geo.in_list(s, list_id)]
    count = len(entries)
    rows: list[ui.View | None] = [inset(ui.Text(ctx.tn("{count} place", "{count} places", count),
                                                size=13, color="muted", height=28, rid="saved_count"), MARGIN - 8)]
    for label, item in entries:
        remove = ui.IconButton("✕", ctx.t("Remove {name}", name=item['name']),
                               lambda pid=item["id"]: local.__setitem__("remove", pid), rid="remove_saved")
        row = place_row(ctx, item, trailing=remove, rid="saved_item")
        rows.append(ui.Column([section(label, "label_name"), row]) if label else row)
    if not entries:
        rows.append(empty(ctx.t("No places here yet")))
    top = ui.Column([ui.TopBar(ctx.t("Saved"), on_back=ctx.back),
                     ui.Tabs([ctx.t(geo.LIST_NAMES[k]) for k in geo.LIST_IDS] + [ctx.t("Labelled")], tab,
                             lambda i: local.update(tab=i, scroll={}), rid_prefix="tab")])
    return ui.Scaffold(ui.ScrollList(rows, rid="saved_list", pad=8), top=top, dialog=_remove_dialog(ctx, list_id))


@APP.screen("/label")
def label(ctx: Ctx) -> ui.Scaffold:
    s, local = ctx.state, ctx.local
    which = ctx.params["which"]
    if which not in geo.LABELS:
        raise ValueError(f"maps: no label {which!r}; known: home, work")
    name = ctx.t(geo.LABELS[which])

    def choose(place_id: str) -> None:
        s[which] = place_id
        ctx.toast(ctx.t("{name} set", name=name))
        ctx.back()

    current = geo.place(s, s[which])["name"] + " · " + geo.place(s, s[which])["address"] if s[which] else ctx.t("Not set")
    query = local.get("query", "")
    rows: list[ui.View | None] = [
        ui.Text(ctx.t("Current: {current}", current=current), size=14, color="muted", max_lines=2, rid="label_current"),
        ctx.field("label_search_input", "query", hint=ctx.t("Search for a place or address")),
    ]
    if query.strip():
        found = [p for p in s["places"] if matches(ctx, p, query)]
        rows += [place_row(ctx, p, lambda p=p: choose(p["id"]), rid="label_result") for p in found]
        if not found:
            rows.append(empty(ctx.t("No places found")))
    return ui.Scaffold(ui.ScrollList(rows, rid="label_list", pad=12, gap=8),
                       top=ui.TopBar(ctx.t("Set {name}", name=name), on_back=ctx.back))
