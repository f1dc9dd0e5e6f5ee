"""Trains passengers: the saved travellers tickets are booked for, adding one (name and ID number, checked as the
real apps check them) and removing one after a confirmation. The owner's own entry cannot be removed."""
from __future__ import annotations

import re
from typing import Any

from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .app import APP
from .parts import detail_row, error, tabs
from .text import ME, masked_id
from .world import valid_resident_id

PASSPORT = re.compile(r"^[A-Z0-9]{7,9}$")


def id_problem(ctx: Ctx, number: str) -> str | None:
    """Why an ID number cannot be saved (None when it can): a Chinese phone asks for a resident ID with the right
    check character, an English one for a passport number of 7 to 9 letters and digits."""
    if ctx.os.get("language") == "zh":
        return None if valid_resident_id(number) else "请输入正确的18位身份证号码"
    return None if PASSPORT.match(number) else "Enter a passport number of 7 to 9 letters and digits"


def normal_id(text: str) -> str:
    return re.sub(r"\s+", "", text).upper()


@APP.screen("/passengers")
def passengers(ctx: Ctx) -> ui.Scaffold:
    rows: list[ui.View | None] = [
        ui.ListItem(p["name"], subtitle=masked_id(p["id_number"]), title_rid="passenger_name", rid="passenger_item",
                    desc=p["name"],
                    trailing=ui.Text(ctx.t(ME), size=13, bold=True, color="primary", rid="self_badge")
                    if p["self"] else None,
                    on_click=lambda p=p: ctx.navigate("/passenger", id=p["id"]))
        for p in ctx.state["passengers"]]
    fab = ui.Fab("+", ctx.t("Add passenger"), lambda: ctx.navigate("/passenger/new"), rid="add_passenger")
    return ui.Scaffold(ui.ScrollList(rows, rid="passenger_list"), top=ui.TopBar(ctx.t("Passengers")),
                       bottom=tabs(ctx, "/passengers"), fab=fab)


@APP.screen("/passenger/new")
def new_passenger(ctx: Ctx) -> ui.Scaffold:
    local = ctx.local

    def save() -> None:
        name, number = " ".join(local.get("name", "").split()), normal_id(local.get("id_number", ""))
        taken = {p["id_number"] for p in ctx.state["passengers"]}
        local["error"] = (ctx.t("Enter the passenger's name") if not name
                          else id_problem(ctx, number)
                          or (ctx.t("This ID number is already saved") if number in taken else None))
        if local["error"] is None:
            ctx.state["passengers"].append({"id": ctx.new_id("psg"), "name": name, "id_number": number, "self": False})
            ctx.toast(ctx.t("Passenger added"))
            ctx.back()

    kind = ctx.t("Passport number")
    rows: list[ui.View | None] = [
        ui.Text(ctx.t("Name"), size=13, color="primary", height=28),
        ctx.field("name_input", "name", hint=ctx.t("As on the ID")),
        ui.Text(kind, size=13, color="primary", height=28),
        ctx.field("id_input", "id_number", hint=kind),
        error(local["error"], "passenger_error") if local.get("error") else None,
        ui.Spacer(8),
        ui.Button(ctx.t("Save"), save, rid="save_passenger"),
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="passenger_form", pad=16, gap=6),
                       top=ui.TopBar(ctx.t("Add passenger"), on_back=ctx.back))


def _find(ctx: Ctx) -> dict[str, Any]:
    found = next((p for p in ctx.state["passengers"] if p["id"] == ctx.params.get("id")), None)
    if found is None:
        raise KeyError(f"trains: no passenger {ctx.params.get('id')!r}")
    return found


@APP.screen("/passenger")
def passenger_detail(ctx: Ctx) -> ui.Scaffold:
    person = _find(ctx)

    def remove() -> None:
        ctx.state["passengers"].remove(person)
        ctx.local["removing"] = False
        ctx.back()
        ctx.toast(ctx.t("Passenger removed"))

    rows: list[ui.View | None] = [
        detail_row(ctx.t("Name"), person["name"], "passenger_detail_name"),
        detail_row(ctx.t("Passport number"), masked_id(person["id_number"]), "passenger_detail_id"),
        None if person["self"] else ui.Row([ui.Button(ctx.t("Remove passenger"),
                                                      lambda: ctx.local.update(removing=True), style="outlined",
                                                      rid="remove_passenger", flex=1)], pad=16),
    ]
    dialog = None
    if ctx.local.get("removing"):
        dialog = ui.Dialog(ctx.t("Remove {name}?", name=person['name']),
                           ctx.t("Tickets already booked stay valid."),
                           [ui.Button(ctx.t("Cancel"), lambda: ctx.local.update(removing=False), style="text",
                                      rid=ui.NEGATIVE),
                            ui.Button(ctx.t("Remove"), remove, style="text", rid=ui.POSITIVE)],
                           on_dismiss=lambda: ctx.local.update(removing=False))
    return ui.Scaffold(ui.ScrollList(rows, rid="passenger_detail"),
                       top=ui.TopBar(person["name"], on_back=ctx.back), dialog=dialog)
