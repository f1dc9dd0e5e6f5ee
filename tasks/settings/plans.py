"""Scripted plans for the Settings suite: an oracle and realistic mistakes per task."""
from __future__ import annotations

import re

from mobilegym.oracle import Driver, PlanError, negative, plan


def _row_value(d: Driver, rid: str) -> str:
    """The value a Settings row shows under its title (the row's second text)."""
    row = d.reveal(rid=rid)
    nodes = d.nodes()
    x1, y1, x2, y2 = row.bounds
    texts = [n.text for n in nodes if n.text and x1 <= n.bounds[0] and y1 <= n.bounds[1]
             and n.bounds[2] <= x2 and n.bounds[3] <= y2]
    if len(texts) < 2:
        raise PlanError(f"row {rid!r} shows no value on screen {d.route}")
    return texts[1]


def _open(d: Driver, entry: str) -> None:
    d.open_app("Settings")
    d.tap(rid=entry)


def _toggle(d: Driver, entry: str, row: str) -> None:
    """Open a Settings page, tap one switch row, declare the task done."""
    _open(d, entry)
    d.tap(rid=row)
    d.complete()


@plan("settings.ToggleWifi")
def toggle_wifi(d: Driver) -> None:
    _toggle(d, "network_entry", "wifi_row")


@negative("settings.ToggleWifi", "flips airplane mode instead of Wi-Fi")
def toggle_airplane(d: Driver) -> None:
    _toggle(d, "network_entry", "airplane_mode_row")


@plan("settings.SetBrightness")
def set_brightness(d: Driver) -> None:
    _open(d, "display_entry")
    d.drag_slider(d.params["level"] / 100, rid="brightness_slider")
    d.complete()


@negative("settings.SetBrightness", "stops the slider ten percent short")
def brightness_short(d: Driver) -> None:
    _open(d, "display_entry")
    d.drag_slider((d.params["level"] - 10) / 100, rid="brightness_slider")
    d.complete()


@plan("settings.SetFontSize")
def set_font_size(d: Driver) -> None:
    _open(d, "display_entry")
    d.tap(rid="font_size_entry")
    d.tap(rid=f"font_size_{d.params['size']}")
    d.complete()


@negative("settings.SetFontSize", "picks the neighbouring size")
def font_size_neighbour(d: Driver) -> None:
    sizes = ["small", "default", "large", "largest"]
    wrong = sizes[(sizes.index(d.params["size"]) + 1) % len(sizes)]
    _open(d, "display_entry")
    d.tap(rid="font_size_entry")
    d.tap(rid=f"font_size_{wrong}")
    d.complete()


@plan("settings.CheckDeviceModel")
def check_model(d: Driver) -> None:
    _open(d, "about_entry")
    d.submit_answer([_row_value(d, "model")])
    d.complete()


@negative("settings.CheckDeviceModel", "reports the device name instead of the model")
def check_model_name(d: Driver) -> None:
    _open(d, "about_entry")
    d.submit_answer([_row_value(d, "device_name")])
    d.complete()


def _used_gb(d: Driver) -> str:
    return re.match(r"([\d.]+) GB", _row_value(d, "storage")).group(1)


def _dark_mode_then_storage(d: Driver, dark: bool, used: bool) -> None:
    if dark:
        _open(d, "display_entry")
        d.tap(rid="dark_mode_row")
        d.key("back")
        d.tap(rid="about_entry")
    else:
        _open(d, "about_entry")
    value = _used_gb(d) if used else re.search(r"/ ([\d.]+) GB", _row_value(d, "storage")).group(1)
    d.submit_answer([value])
    d.complete()


@plan("settings.DarkModeAndStorage")
def dark_mode_and_storage(d: Driver) -> None:
    _dark_mode_then_storage(d, dark=True, used=True)


@negative("settings.DarkModeAndStorage", "right answer, dark theme never turned on")
def storage_without_dark_mode(d: Driver) -> None:
    _dark_mode_then_storage(d, dark=False, used=True)


@negative("settings.DarkModeAndStorage", "dark theme on, reports total storage")
def dark_mode_wrong_storage(d: Driver) -> None:
    _dark_mode_then_storage(d, dark=True, used=False)


@plan("settings.wifi_off")
def wifi_off(d: Driver) -> None:
    _toggle(d, "network_entry", "wifi_row")


@negative("settings.wifi_off", "turns on airplane mode instead")
def wifi_off_airplane(d: Driver) -> None:
    _toggle(d, "network_entry", "airplane_mode_row")


@plan("settings.dark_theme_on")
def dark_theme_on(d: Driver) -> None:
    _toggle(d, "display_entry", "dark_mode_row")


@negative("settings.dark_theme_on", "toggles adaptive brightness instead")
def dark_theme_wrong_row(d: Driver) -> None:
    _toggle(d, "display_entry", "adaptive_brightness_row")


@plan("settings.rename_device")
def rename_device(d: Driver) -> None:
    d.open_app("Settings")
    d.tap(rid="about_entry")
    d.tap(rid="device_name")
    d.type(d.t("Lab Phone", "实验室手机"), rid="name_input")
    d.tap(rid="button1")
    d.complete()


@negative("settings.rename_device", "types the name but cancels")
def rename_device_cancel(d: Driver) -> None:
    d.open_app("Settings")
    d.tap(rid="about_entry")
    d.tap(rid="device_name")
    d.type(d.t("Lab Phone", "实验室手机"), rid="name_input")
    d.tap(rid="button2")
    d.complete()


@plan("settings.storage_used")
def storage_used(d: Driver) -> None:
    d.open_app("Settings")
    d.tap(rid="about_entry")
    d.submit_answer([_used_gb(d)])
    d.complete()


@negative("settings.storage_used", "reports the total instead of the used storage")
def storage_total(d: Driver) -> None:
    d.open_app("Settings")
    d.tap(rid="about_entry")
    d.submit_answer([re.search(r"/ ([\d.]+) GB", _row_value(d, "storage")).group(1)])
    d.complete()


@plan("settings.enable_nfc")
def enable_nfc(d: Driver) -> None:
    d.open_app("Settings")
    d.tap(rid="network_entry")
    d.abort("This phone has no NFC setting")


@negative("settings.enable_nfc", "claims success without an NFC switch")
def enable_nfc_claims(d: Driver) -> None:
    d.open_app("Settings")
    d.tap(rid="network_entry")
    d.complete()
