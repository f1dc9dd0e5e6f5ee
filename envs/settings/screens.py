"""Settings screens."""
from __future__ import annotations

from mobilegym.envs.layout import MARGIN, inset
from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .app import APP

FONT_SIZES = [("small", "Small", "小"), ("default", "Default", "默认"), ("large", "Large", "大"), ("largest", "Largest", "最大")]
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
    network = (ctx.t("Airplane mode", "飞行模式") if s["airplane_mode"] else
               s["wifi_network"] if s["wifi"] else ctx.t("Wi-Fi off", "WLAN 已关闭"))
    entries = [
        ("network", "◉", ctx.t("Network & internet", "网络和互联网"), network, "/network"),
        ("devices", "✱", ctx.t("Connected devices", "已连接的设备"), ctx.t("Bluetooth", "蓝牙"), "/bluetooth"),
        ("display", "☀", ctx.t("Display", "显示"), ctx.t("Dark theme, font size, brightness", "深色主题、字体大小、亮度"), "/display"),
        ("sound", "♪", ctx.t("Sound & vibration", "声音和振动"), ctx.t("Do Not Disturb", "勿扰模式"), "/sound"),
        ("date_time", "◷", ctx.t("Date & time", "日期和时间"),
         ctx.t("24-hour format", "24 小时制") if s["time_24h"] else ctx.t("12-hour format", "12 小时制"), "/date_time"),
        ("about", "ℹ", ctx.t("About phone", "关于手机"), s["about"]["device_name"], "/about"),
    ]
    rows: list[ui.View | None] = [
        ui.ListItem(title, subtitle=sub, leading=ui.Icon(glyph, size=32, badge="primary"), rid=f"{key}_entry",
                    on_click=lambda p=path: ctx.navigate(p))
        for key, glyph, title, sub, path in entries
    ]
    return ui.Scaffold(ui.ScrollList(rows, rid="settings_list"), top=ui.TopBar(ctx.t("Settings", "设置")))


@APP.screen("/network")
def network(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    wifi_sub = s["wifi_network"] if s["wifi"] else ctx.t("Off", "已关闭")
    rows: list[ui.View | None] = [
        _switch_row(ctx, "wifi", ctx.t("Wi-Fi", "WLAN"), wifi_sub),
        ui.Divider(),
        _switch_row(ctx, "airplane_mode", ctx.t("Airplane mode", "飞行模式")),
    ]
    if s["wifi"]:
        rows.append(inset(ui.Text(ctx.t("Saved networks", "已保存的网络"), size=13, color="primary", height=36,
                                  rid="saved_header"), MARGIN))
        rows += [ui.ListItem(name, subtitle=ctx.t("Connected", "已连接") if name == s["wifi_network"] else ctx.t("Saved", "已保存"),
                             rid="network_item", on_click=lambda n=name: ctx.state.__setitem__("wifi_network", n))
                 for name in s["saved_networks"]]
    return _page(ctx, ctx.t("Network & internet", "网络和互联网"), rows)


@APP.screen("/bluetooth")
def bluetooth(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    rows: list[ui.View | None] = [_switch_row(ctx, "bluetooth", ctx.t("Bluetooth", "蓝牙"))]
    if s["bluetooth"]:
        rows.append(inset(ui.Text(ctx.t("Paired devices", "已配对的设备"), size=13, color="primary", height=36), MARGIN))
        rows += [ui.ListItem(d["name"], subtitle=ctx.t(d["type"], DEVICE_TYPES_ZH[d["type"]]), rid="paired_device")
                 for d in s["paired_devices"]]
    return _page(ctx, ctx.t("Connected devices", "已连接的设备"), rows)


@APP.screen("/display")
def display(ctx: Ctx) -> ui.Scaffold:
    s = ctx.state
    label = next(en if ctx.os["language"] == "en" else zh for key, en, zh in FONT_SIZES if key == s["font_size"])
    rows: list[ui.View | None] = [
        inset(ui.Text(ctx.t("Brightness level", "亮度"), size=16, height=40, rid="brightness_label"), MARGIN),
        inset(ui.Row([ui.Text("☼", size=16), ui.Slider("brightness_slider", s["brightness"], 0, 100,
                                                        _setter(ctx, "brightness"), flex=1),
                      ui.Text(f"{s['brightness']}%", size=14, width=48, rid="brightness_value")], pad=8), MARGIN - 8),
        _switch_row(ctx, "adaptive_brightness", ctx.t("Adaptive brightness", "自动调节亮度")),
        ui.Divider(),
        _switch_row(ctx, "dark_mode", ctx.t("Dark theme", "深色主题")),
        ui.ListItem(ctx.t("Font size", "字体大小"), subtitle=label, rid="font_size_entry",
                    on_click=lambda: ctx.navigate("/display/font_size")),
    ]
    return _page(ctx, ctx.t("Display", "显示"), rows)


@APP.screen("/display/font_size")
def font_size(ctx: Ctx) -> ui.Scaffold:
    rows: list[ui.View | None] = [
        ui.Radio(f"font_size_{key}", ctx.state["font_size"] == key, lambda k=key: ctx.state.__setitem__("font_size", k),
                 ctx.t(en, zh), height=52)
        for key, en, zh in FONT_SIZES
    ]
    rows.append(inset(ui.Text(ctx.t("The quick brown fox jumps over the lazy dog.", "预览：敏捷的棕色狐狸跳过了懒狗。"),
                              size=16, max_lines=3, rid="font_preview"), MARGIN, MARGIN))
    return _page(ctx, ctx.t("Font size", "字体大小"), rows)


@APP.screen("/sound")
def sound(ctx: Ctx) -> ui.Scaffold:
    return _page(ctx, ctx.t("Sound & vibration", "声音和振动"), [_switch_row(ctx, "do_not_disturb", ctx.t("Do Not Disturb", "勿扰模式"))])


@APP.screen("/date_time")
def date_time(ctx: Ctx) -> ui.Scaffold:
    example = ctx.t("13:00", "13:00") if ctx.state["time_24h"] else ctx.t("1:00 PM", "下午1:00")
    return _page(ctx, ctx.t("Date & time", "日期和时间"),
                 [_switch_row(ctx, "time_24h", ctx.t("Use 24-hour format", "使用 24 小时制"), example)])


@APP.screen("/about")
def about(ctx: Ctx) -> ui.Scaffold:
    info = ctx.state["about"]
    storage = f"{info['storage_used_gb']:g} GB / {info['storage_total_gb']} GB"
    rows: list[ui.View | None] = [
        ui.ListItem(ctx.t("Device name", "设备名称"), subtitle=info["device_name"], rid="device_name",
                    on_click=lambda: ctx.local.update(renaming=True, name_draft=info["device_name"])),
        ui.ListItem(ctx.t("Model", "型号"), subtitle=info["model"], rid="model"),
        ui.ListItem(ctx.t("Android version", "Android 版本"), subtitle=info["android_version"], rid="android_version"),
        ui.ListItem(ctx.t("Build number", "版本号"), subtitle=info["build_number"], rid="build_number"),
        ui.ListItem(ctx.t("Serial number", "序列号"), subtitle=info["serial_number"], rid="serial_number"),
        ui.ListItem(ctx.t("Storage", "存储"), subtitle=storage, rid="storage"),
    ]
    dialog = None
    if ctx.local.get("renaming"):
        def save() -> None:
            name = ctx.local["name_draft"].strip()
            if not name:
                ctx.toast(ctx.t("Name can't be empty", "名称不能为空"))
                return
            info["device_name"] = name
            ctx.local["renaming"] = False

        dialog = ui.Dialog(
            ctx.t("Device name", "设备名称"),
            [ctx.field("name_input", "name_draft", hint=ctx.t("Device name", "设备名称"), on_submit=save)],
            [ui.Button(ctx.t("Cancel", "取消"), lambda: ctx.local.update(renaming=False), style="text", rid=ui.NEGATIVE),
             ui.Button(ctx.t("OK", "确定"), save, style="text", rid=ui.POSITIVE)],
            on_dismiss=lambda: ctx.local.update(renaming=False),
        )
    return _page(ctx, ctx.t("About phone", "关于手机"), rows, dialog)
