"""The system UI: status bar, navigation bar, launcher, recents and the theme the settings choose."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..calendar_words import MONTH_ABBRS, WEEKDAY_ABBRS, WEEKDAY_CHARS
from . import ui
from .clock import from_ms, status_time
from .ui.theme import DARK, FONT_SCALES, LIGHT, Theme

if TYPE_CHECKING:
    from .phone import Phone

STATUS_H = 24.0
NAV_H = 48.0
SYSTEM_PACKAGE = "com.android.systemui"
LAUNCHER_COLUMNS = 4


def theme_for(doc: dict[str, Any]) -> Theme:
    """Light or dark, with the text scale of the Settings app's font size."""
    settings = doc["apps"].get("settings", {})
    base = DARK if settings.get("dark_mode") else LIGHT
    scale = FONT_SCALES.get(settings.get("font_size", "default"), 1.0)
    return base if scale == 1.0 else Theme(**{**base.__dict__, "text_scale": scale})


def status_bar(doc: dict[str, Any]) -> ui.View:
    settings = doc["apps"].get("settings", {})
    icons = []
    if settings.get("airplane_mode"):
        icons.append("✈")
    elif settings.get("wifi"):
        icons.append("◉")
    if settings.get("bluetooth"):
        icons.append("✱")
    return ui.Row(
        [ui.Text(status_time(doc), size=12, bold=True, rid="clock"), ui.Spacer(flex=1),
         ui.Text(" ".join([*icons, "100%"]), size=12, rid="status_icons")],
        pad=4, gap=4, bg="status_bar", rid="status_bar",
    )


class NavButton(ui.IconButton):
    """A navigation-bar button: a tap is exactly its key, within the tap's own input (one clock tick); it
    neither moves the focus nor counts as an app's handler."""

    def tap(self, touch: ui.Touch, x: float, y: float) -> None:
        if self.on_click is not None:
            self.on_click()


def navigation_bar(phone: Phone) -> ui.View:
    keys = phone.input
    return ui.Row(
        [ui.Spacer(flex=1),
         NavButton("◀", phone.system_text("Back"), keys.back, rid="back", width=72),
         ui.Spacer(flex=1),
         NavButton("●", phone.system_text("Home"), keys.home, rid="home", width=72),
         ui.Spacer(flex=1),
         NavButton("■", phone.system_text("Overview"), keys.recent, rid="recent_apps", width=72),
         ui.Spacer(flex=1)],
        gap=0, bg="nav_bar", rid="navigation_bar",
    )


def _glance(phone: Phone) -> ui.View:
    """The date line at the top of the home screen, as Android's At a Glance shows it."""
    now = from_ms(phone.doc["os"]["time_ms"])
    text = phone.system_text("{weekday}, {month_name} {day}", "glance", weekday=WEEKDAY_ABBRS[now.weekday()],
                             month_name=MONTH_ABBRS[now.month - 1], day=now.day, month=now.month,
                             weekday_char=WEEKDAY_CHARS[now.weekday()])
    return ui.Row([ui.Text(text, size=22, rid="date")], pad=16, height=64)


def launcher(phone: Phone) -> ui.Scaffold:
    order = phone.doc["os"]["launcher"]["order"]
    zh = phone.doc["os"]["language"] == "zh"
    cells: list[ui.View] = []
    for app_id in order:
        app = phone.apps[app_id]
        label = app.label_zh if zh else app.label
        cells.append(ui.Column(
            [ui.Icon(app.glyph, size=56, badge=app.color, shape="square", desc=""),
             ui.Text(label, size=12, align="center", max_lines=1)],
            gap=4, pad=4, rid="app_icon", desc=label, on_click=lambda a=app_id: phone.nav.open(a), flex=1,
        ))
    while len(cells) % LAUNCHER_COLUMNS:
        cells.append(ui.Spacer(flex=1))
    rows = [ui.Row(cells[i:i + LAUNCHER_COLUMNS], gap=4) for i in range(0, len(cells), LAUNCHER_COLUMNS)]
    return ui.Scaffold(ui.ScrollList(rows, rid="workspace", gap=16, pad=16), top=_glance(phone))


def recents(phone: Phone) -> ui.Scaffold:
    cards: list[ui.View] = []
    for app_id in phone.doc["os"]["recents"]:
        app = phone.apps[app_id]
        label = app.label_zh if phone.doc["os"]["language"] == "zh" else app.label
        cards.append(ui.ListItem(
            label, leading=ui.Icon(app.glyph, size=40, badge=app.color, shape="square"),
            rid="task_view", desc=label, on_click=lambda a=app_id: phone.nav.open(a), bg="surface", radius=12,
        ))
    empty = ui.Text(phone.system_text("No recent items"), color="muted", align="center", height=80)
    body = ui.ScrollList(cards or [empty], rid="recents_list", gap=12, pad=16)
    clear = ui.Row([ui.Spacer(flex=1), ui.Button(phone.system_text("Clear all"), phone.nav.clear_recents,
                                                 style="text", rid="clear_all"), ui.Spacer(flex=1)], height=56)
    return ui.Scaffold(body, top=ui.TopBar(phone.system_text("Recent apps")), bottom=clear if cards else None)
