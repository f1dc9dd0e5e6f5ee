"""Settings screens."""
from __future__ import annotations

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .app import APP

FONT_SIZES = [("small", "Small"), ("default", "Default"), ("large", "Large"), ("largest", "Largest")]
DEVICE_TYPES_ZH = {"car": "车载设备", "headphones": "耳机", "keyboard": "键盘", "mouse": "鼠标", "speaker": "音箱",
                   "tablet": "平板电脑", "watch": "手表"}


def _setter(ctx: Ctx, key: str):
    return lambda value: ctx.state.__setitem__(key, value)


def _switch_row(ctx: Ctx, key: str, title: str, subtitle: str | None = None) -> ui.View:
    """A row that toggles a boolean setting; tapping the row or its switch toggles it (as in Clock's rows)."""
    value = ctx.state[key]
    return ui.ListItem(title, subtitle=subtitle,
                       trailing=ui.Switch(f"{key}_switch", value, lambda on: ctx.state.__setitem__(key, on)),
                       rid=f"{key}_row", on_click=lambda: ctx.state.__setitem__(key, not value))


def _page(ctx: Ctx, title: str, rows: list[ui.View | None], dialog: ui.Dialog | None = None) -> ui.Scaffold:
    return ui.Scaffold(ui.ScrollList(rows, rid="settings_list"), top=ui.TopBar(title, on_back=ctx.back), dialog=dialog)


@APP.screen("/")
def main(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    network = (ctx.t("Airplane mode") if s["airplane_mode"] else
               s["wifi_network"] if s["wifi"] else ctx.t("Wi-Fi off"))
    entries = [
        ("network", "◉", ctx.t("Network & internet"), network, "/network"),
        ("devices", "✱", ctx.t("Connected devices"), ctx.t("Bluetooth"), "/bluetooth"),
        ("display", "☀", ctx.t("Display"), ctx.t("Dark theme, font size, brightness"), "/display"),
        ("sound", "♪", ctx.t("Sound & vibration"), ctx.t("Do Not Disturb"), "/sound"),
        ("date_time", "◷", ctx.t("Date & time"),
         ctx.t("24-hour format") if s["time_24h"] else ctx.t("12-hour format"), "/date_time"),
        ("about", "ℹ", ctx.t("About phone"), s["about"]["device_name"], "/about"),
    ]
    rows: list[ui.View | None] = [
        ui.ListItem(title, subtitle=sub, leading=ui.Icon(glyph, size=32, badge="primary"), rid=f"{key}_entry",
                    on_click=lambda p=path: ctx.navigate(p))
        for key, glyph, title, sub, path in entries
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="settings_list"), top=ui.TopBar(ctx.t("Settings")))


@APP.screen("/network")
def network(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    wifi_sub = s["wifi_network"] if s["wifi"] else ctx.t("Off")
    rows: list[ui.View | None] = [
        _switch_row(ctx, "wifi", ctx.t("Wi-Fi"), wifi_sub),
        ui.Divider(),
        _switch_row(ctx, "airplane_mode", ctx.t("Airplane mode")),
    ]
    if s["wifi"]:
        rows.append(inset(ui.Text(ctx.t("Saved networks"), size=13, color="primary", height=36,
                                  rid="saved_header"), MARGIN))
        rows += [ui.ListItem(name, subtitle=ctx.t("Connected") if name == s["wifi_network"] else ctx.t("Saved"),
                             rid="network_item", on_click=lambda n=name: ctx.state.__setitem__("wifi_network", n))
                 for name in s["saved_networks"]]
    return _page(ctx, ctx.t("Network & internet"), rows)


@APP.screen("/bluetooth")
def bluetooth(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    rows: list[ui.View | None] = [_switch_row(ctx, "bluetooth", ctx.t("Bluetooth"))]
    if s["bluetooth"]:
        rows.append(inset(ui.Text(ctx.t("Paired devices"), size=13, color="primary", height=36), MARGIN))
        rows += [ui.ListItem(d["name"], subtitle=ctx.either(d["type"], DEVICE_TYPES_ZH[d["type"]]), rid="paired_device")
                 for d in s["paired_devices"]]
    return _page(ctx, ctx.t("Connected devices"), rows)


@APP.screen("/display")
def display(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    label = next(ctx.t(label) for key, label in FONT_SIZES if key == s["font_size"])
    rows: list[ui.View | None] = [
        inset(ui.Text(ctx.t("Brightness level"), size=16, height=40, rid="brightness_label"), MARGIN),
        inset(ui.Row([ui.Text("☼", size=16), ui.Slider("brightness_slider", s["brightness"], 0, 100,
                                                        _setter(ctx, "brightness"), flex=1),
                      ui.Text(f"{s['brightness']}%", size=14, width=48, rid="brightness_value")], pad=8), MARGIN - 8),
        _switch_row(ctx, "adaptive_brightness", ctx.t("Adaptive brightness")),
        ui.Divider(),
        _switch_row(ctx, "dark_mode", ctx.t("Dark theme")),
        ui.ListItem(ctx.t("Font size"), subtitle=label, rid="font_size_entry",
                    on_click=lambda: ctx.navigate("/display/font_size")),
    ]
    return _page(ctx, ctx.t("Display"), rows)


@APP.screen("/display/font_size")
def font_size(ctx: Ctx) -> ui.Scaffold:
    rows: list[ui.View | None] = [
        ui.Radio(f"font_size_{key}", ctx.state["font_size"] == key, lambda k=key: ctx.state.__setitem__("font_size", k),
                 ctx.t(label), height=52)
        for key, label in FONT_SIZES
    ]
    rows.append(inset(ui.Text(ctx.t("The quick brown fox jumps over the lazy dog."),
                              size=16, max_lines=3, rid="font_preview"), MARGIN, MARGIN))
    return _page(ctx, ctx.t("Font size"), rows)


@APP.screen("/sound")
def sound(ctx: Ctx) -> ui.Scaffold:
    return _page(ctx, ctx.t("Sound & vibration"), [_switch_row(ctx, "do_not_disturb", ctx.t("Do Not Disturb"))])


@APP.screen("/date_time")
def date_time(ctx: Ctx) -> ui.Scaffold:
    example = ctx.t("13:00") if ctx.state["time_24h"] else ctx.t("1:00 PM")
    return _page(ctx, ctx.t("Date & time"),
                 [_switch_row(ctx, "time_24h", ctx.t("Use 24-hour format"), example)])


@APP.screen("/about")
def about(ctx: Ctx) -> ui.Scaffold:
    info = ctx.state["about"]
    storage = f"{info['storage_used_gb']:g} GB / {info['storage_total_gb']} GB"
    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Device name"), subtitle=info["device_name"], rid="device_name",
                    on_click=lambda: ctx.local.update(renaming=True, name_draft=info["device_name"])),
        ui.ListItem(ctx.t("Model"), subtitle=info["model"], rid="model"),
        ui.ListItem(ctx.t("Android version"), subtitle=info["android_version"], rid="android_version"),
        ui.ListItem(ctx.t("Build number"), subtitle=info["build_number"], rid="build_number"),
        ui.ListItem(ctx.t("Serial number"), subtitle=info["serial_number"], rid="serial_number"),
        ui.ListItem(ctx.t("Storage"), subtitle=storage, rid="storage"),
    ]
    dialog = None
    if ctx.local.get("renaming"):
        def save() -> None:
            name = ctx.local["name_draft"].strip()
            if not name:
                ctx.toast(ctx.t("Name can't be empty"))
                return
            info["device_name"] = name
            ctx.local["renaming"] = False

        dialog = ui.Dialog(
            ctx.t("Device name"),
            [ctx.field("name_input", "name_draft", hint=ctx.t("Device name"), on_submit=save)],
            [ui.Button(ctx.t("Cancel"), lambda: ctx.local.update(renaming=False), style="text", rid=ui.NEGATIVE),
             ui.Button(ctx.t("OK"), save, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: ctx.local.update(renaming=False),
        )
    return _page(ctx, ctx.t("About phone"), rows, dialog)
