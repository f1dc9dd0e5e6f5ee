"""The notification shade (pulled down from the status bar) and heads-up notifications, modelled on Android's
SystemUI: ``notification_panel`` > ``qs_frame`` > ``quick_settings_container`` with the quick-settings tiles,
and ``notification_stack_scroller`` with the notifications and "Clear all".

The shade is open while ``os.shade`` is true (view state, like the notifications). Its tiles switch the very
settings the Settings app and the status bar read (``apps.settings``): a tile's tap is a real change."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable
from urllib.parse import parse_qsl

from ..calendar_words import WEEKDAY_CHARS as WEEKDAYS_ZH
from . import notifications, ui
from .app import Ctx
from .clock import from_ms
from .ui import fonts

if TYPE_CHECKING:
    from .phone import Phone

SETTINGS = "settings"
SWIPE_DP = 16.0  # a vertical swipe at least this long opens (from the status bar) or closes the shade
TILE_H = 64.0
TILE_COLUMNS = 3
HEADS_UP_MARGIN = 8.0
# (settings key, glyph, label): the tiles, in Android's order
TILES = (
    ("wifi", "◉", "Wi-Fi"),
    ("bluetooth", "✱", "Bluetooth"),
    ("airplane_mode", "✈", "Airplane mode"),
    ("do_not_disturb", "⊖", "Do Not Disturb"),
    ("dark_mode", "◐", "Dark theme"),
    ("flashlight", "⚡", "Flashlight"),
)


def open_shade(phone: Phone) -> None:
    """Pull the shade down (the keyboard's focus stays with its field below)."""
    phone.doc["os"]["shade"] = True


def close_shade(phone: Phone) -> None:
    phone.doc["os"]["shade"] = False


def date_text(phone: Phone) -> str:
    """The shade's date: "Mon, Mar 16" / "3月16日 周一"."""
    now = from_ms(phone.doc["os"]["time_ms"])
    if phone.doc["os"]["language"] == "zh":
        return f"{now.month}月{now.day}日 周{WEEKDAYS_ZH[now.weekday()]}"
    return now.strftime("%a, %b %-d")


def open_notification(phone: Phone, notification: dict[str, Any]) -> None:
    """A tap on a notification: it goes away, the shade closes and its app opens at its route (the app's
    home when the route no longer shows, e.g. a thread deleted since)."""
    os_state = phone.doc["os"]
    notifications.remove(os_state, notification["id"])
    os_state["shade"] = False
    app = phone.apps.get(notification["app"])
    if app is None:
        return
    phone.nav.open(app.id)
    path, _, query = (notification["route"] or app.home).partition("?")
    params = dict(parse_qsl(query))
    if path not in app.screens or (path == phone.nav.current_entry()["path"] and not params):
        return
    phone.nav.push(app.id, path, params)
    try:
        app.screens[path](Ctx(phone, app, phone.nav.current_entry()))
    except Exception:  # noqa: BLE001 (the app cannot show it any more: stay on the screen below)
        phone.nav.pop(app.id)


class StatusBarPull(ui.Row):
    """The status bar (``bar``, its clock first) with the notification icons after the clock, and its touch
    behaviour: a swipe down starting on it pulls down the shade."""

    def __init__(self, bar: ui.Row, icons: list[ui.View], on_pull: ui.Handler) -> None:
        super().__init__([*bar.children[:1], *icons, *bar.children[1:]], gap=bar.gap, pad=bar.pad, bg=bar.bg,
                         rid=bar.rid)
        self.on_pull = on_pull

    def drags(self) -> bool:
        return True

    def drag(self, touch: ui.Touch, start: tuple[float, float], end: tuple[float, float], factor: float) -> None:
        if end[1] - start[1] >= SWIPE_DP:
            self.on_pull()


class Tile(ui.Toggle):
    """A quick-settings tile: a switch for one setting, named by its content-desc, its state ("On"/"Off")
    as its text, as Android's QSTileView reports a boolean tile."""

    cls = "android.widget.Switch"

    def __init__(self, key: str, glyph: str, label: str, on: bool, state: str,
                 on_change: Callable[[bool], None]) -> None:
        super().__init__(on, on_change, state, rid=f"qs_tile_{key}", desc=label, height=TILE_H, radius=20, flex=1)
        self.glyph = glyph

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x, y, w, h, env.color("primary" if self.is_on else "divider"), self.radius))
        fg = env.color("on_primary" if self.is_on else "on_surface")
        out.append(("text", x + 12, y + (h - 20) / 2 - 2, self.glyph, 20, fg, False))
        size = env.sp(12)
        room = w - 44
        out.append(("text", x + 38, y + h / 2 - size - 2, fonts.ellipsize(self.desc, size, True, room), size, fg, True))
        out.append(("text", x + 38, y + h / 2 + 2, fonts.ellipsize(self.label, size, False, room), size, fg, False))


class ShadePanel(ui.Column):
    """The pulled-down shade (``notification_panel``): a swipe up on it (off a scrolling list) closes it."""

    cls = "android.widget.FrameLayout"

    def __init__(self, children: list[ui.View | None], on_close: ui.Handler) -> None:
        super().__init__(children, gap=8, rid="notification_panel", bg="background")
        self.on_close = on_close

    def drags(self) -> bool:
        return True

    def drag(self, touch: ui.Touch, start: tuple[float, float], end: tuple[float, float], factor: float) -> None:
        if start[1] - end[1] >= SWIPE_DP:
            self.on_close()


class _Frame(ui.Column):
    cls = "android.widget.FrameLayout"


class HeadsUp(ui.Row):
    """A notification shown over the top of the screen for a while: a tap opens it, a swipe up puts it away
    (it stays in the shade)."""

    def __init__(self, children: list[ui.View | None], on_click: ui.Handler, on_dismiss: ui.Handler) -> None:
        super().__init__(children, gap=12, pad=12, rid="expandableNotificationRow", bg="surface", radius=16,
                         on_click=on_click)
        self.on_dismiss = on_dismiss

    def drags(self) -> bool:
        return True

    def drag(self, touch: ui.Touch, start: tuple[float, float], end: tuple[float, float], factor: float) -> None:
        if start[1] - end[1] >= SWIPE_DP or abs(end[0] - start[0]) >= 3 * SWIPE_DP:
            self.on_dismiss()


def _tiles(phone: Phone) -> list[ui.View]:
    settings = phone.doc["apps"].get(SETTINGS)
    if settings is None:  # no Settings app on this phone: nothing to switch
        return []

    def setter(key: str) -> Callable[[bool], None]:
        def change(value: bool) -> None:
            phone.world_doc.app_state(SETTINGS)[key] = value  # journaled: the input can be rolled back
        return change

    tiles: list[ui.View] = [
        Tile(key, glyph, phone.system_text(label), bool(settings.get(key, False)),
             phone.system_text("On") if settings.get(key, False) else phone.system_text("Off"), setter(key))
        for key, glyph, label in TILES
    ]
    return [ui.Row(tiles[i:i + TILE_COLUMNS], gap=8) for i in range(0, len(tiles), TILE_COLUMNS)]


def _notification_body(phone: Phone, notification: dict[str, Any]) -> list[ui.View | None]:
    app = phone.apps.get(notification["app"])
    label = (app.label_zh if phone.doc["os"]["language"] == "zh" else app.label) if app is not None else notification["app"]
    when = from_ms(notification["time_ms"]).strftime("%H:%M")
    icon = ui.Icon(app.glyph if app is not None else "●", size=32, badge=app.color if app is not None else "primary")
    texts = ui.Column([
        ui.Row([ui.Text(label, size=12, color="muted", rid="app_name_text"),
                ui.Text(when, size=12, color="muted", rid="time")], gap=6),
        ui.Text(notification["title"], size=15, bold=True, rid="title"),
        ui.Text(notification["text"], size=14, max_lines=2, rid="text") if notification["text"] else None,
    ], gap=2, flex=1)
    return [icon, texts]


def notification_row(phone: Phone, notification: dict[str, Any]) -> ui.View:
    return ui.Row(_notification_body(phone, notification), gap=12, pad=12, rid="expandableNotificationRow",
                  bg="surface", radius=16, on_click=lambda: open_notification(phone, notification))


def panel(phone: Phone) -> ShadePanel:
    """The shade's view tree: the date and time, the quick-settings tiles and the notification list."""
    os_state = phone.doc["os"]
    header = ui.Row([ui.Text(from_ms(os_state["time_ms"]).strftime("%H:%M"), size=28, rid="clock"),
                     ui.Text(date_text(phone), size=14, color="muted", rid="date"), ui.Spacer(flex=1)],
                    gap=12, pad=16, rid="header")
    qs = _Frame([_Frame(_tiles(phone), gap=8, pad=12, rid="quick_settings_container")], rid="qs_frame")
    items: list[ui.View | None] = [notification_row(phone, n) for n in os_state.get("notifications", [])]
    if items:
        clear = ui.Button(phone.system_text("Clear all"), lambda: notifications.clear(os_state),
                          style="outlined", rid="dismiss_text")
        items.append(ui.Row([ui.Spacer(flex=1), clear], gap=0))
    else:
        items.append(ui.Text(phone.system_text("No notifications"), color="muted", align="center", height=64,
                             rid="no_notifications"))
    stack = ui.ScrollList(items, rid="notification_stack_scroller", gap=8, pad=12)
    return ShadePanel([header, qs, stack], lambda: close_shade(phone))


def heads_up(phone: Phone) -> HeadsUp | None:
    """The heads-up notification shown now, if any."""
    os_state = phone.doc["os"]
    if os_state.get("heads_up"):  # it goes when its time is over: the frame depends on the exact clock
        phone.frame_cache.read_raw_clock()
    notification = notifications.heads_up(os_state)
    if notification is None:
        return None

    def dismiss() -> None:
        os_state["heads_up"] = None

    return HeadsUp(_notification_body(phone, notification), lambda: open_notification(phone, notification), dismiss)


def status_icons(phone: Phone) -> list[ui.View]:
    """The status bar's notification icons (at most four), each named as Android names them."""
    out: list[ui.View] = []
    zh = phone.doc["os"]["language"] == "zh"
    for notification in phone.doc["os"].get("notifications", [])[:4]:
        app = phone.apps.get(notification["app"])
        label = (app.label_zh if zh else app.label) if app is not None else notification["app"]
        desc = f"{label}通知：{notification['title']}" if zh else f"{label} notification: {notification['title']}"
        out.append(ui.Icon(app.glyph if app is not None else "●", size=14, desc=desc))
    return out
