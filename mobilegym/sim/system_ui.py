"""The OS shell: status bar, navigation bar, launcher, recents and toasts, composed into a frame."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import ui
from .app import Ctx
from .clock import from_ms
from .nav import LAUNCHER, LAUNCHER_PACKAGE
from .ui.theme import DARK, FONT_SCALES, LIGHT, Theme

if TYPE_CHECKING:
    from .phone import Phone

STATUS_H = 24.0
NAV_H = 48.0
SYSTEM_PACKAGE = "com.android.systemui"
LAUNCHER_COLUMNS = 4


@dataclass
class Frame:
    """One laid-out screen: the windows bottom to top, and what input dispatch needs."""

    env: ui.LayoutEnv
    content: ui.Scaffold
    package: str
    status: ui.View
    nav: ui.View

    @property
    def windows(self) -> list[tuple[ui.View, str]]:
        return [(self.content, self.package), (self.status, SYSTEM_PACKAGE), (self.nav, SYSTEM_PACKAGE)]

    def items(self) -> list[tuple]:
        """The display list of the whole screen."""
        out: list[tuple] = []
        for view, _ in self.windows:
            view.paint(out, self.env)
        return out


def theme_for(doc: dict[str, Any]) -> Theme:
    """Light or dark, with the text scale of the Settings app's font size."""
    settings = doc["apps"].get("settings", {})
    base = DARK if settings.get("dark_mode") else LIGHT
    scale = FONT_SCALES.get(settings.get("font_size", "default"), 1.0)
    return base if scale == 1.0 else Theme(**{**base.__dict__, "text_scale": scale})


def compose(phone: Phone) -> Frame:
    """Build and lay out the current screen from the world document."""
    doc = phone.doc
    os_state = doc["os"]
    entry = phone.nav.current_entry()
    scroll = dict(entry["local"].get("scroll", {})) if entry is not None else dict(os_state["launcher"].get("scroll", {}))
    env = ui.LayoutEnv(theme_for(doc), focus=os_state["focus"], scroll=scroll)
    if os_state["overlay"] == "recents":
        content, package = _recents(phone), LAUNCHER_PACKAGE
    elif entry is None:
        content, package = _launcher(phone), LAUNCHER_PACKAGE
    else:
        app = phone.apps[os_state["foreground"]]
        content, package = app.screens[entry["path"]](Ctx(phone, app, entry)), app.package
    ui.key_fields(content)
    if os_state.get("toast"):
        content.show_toast(os_state["toast"])
    width, height = phone.size_dp
    status = _status_bar(doc)
    nav = _nav_bar(phone)
    content.place(0, STATUS_H, width, height - STATUS_H - NAV_H, env)
    status.place(0, 0, width, STATUS_H, env)
    nav.place(0, height - NAV_H, width, NAV_H, env)
    return Frame(env, content, package, status, nav)


def _status_bar(doc: dict[str, Any]) -> ui.View:
    settings = doc["apps"].get("settings", {})
    icons = []
    if settings.get("airplane_mode"):
        icons.append("✈")
    elif settings.get("wifi"):
        icons.append("◉")
    if settings.get("bluetooth"):
        icons.append("✱")
    clock = from_ms(doc["os"]["time_ms"]).strftime("%H:%M")
    return ui.Row(
        [ui.Text(clock, size=12, bold=True, rid="clock"), ui.Spacer(flex=1),
         ui.Text(" ".join([*icons, "100%"]), size=12, rid="status_icons")],
        pad=4, gap=4, bg="status_bar", rid="status_bar",
    )


def _nav_bar(phone: Phone) -> ui.View:
    # each button does exactly what its key does, within the tap's own input (one clock tick)
    return ui.Row(
        [ui.Spacer(flex=1),
         ui.IconButton("◀", "Back", phone._key_back, rid="back", width=72),
         ui.Spacer(flex=1),
         ui.IconButton("●", "Home", phone._key_home, rid="home", width=72),
         ui.Spacer(flex=1),
         ui.IconButton("■", "Overview", phone._key_recent, rid="recent_apps", width=72),
         ui.Spacer(flex=1)],
        gap=0, bg="nav_bar", rid="navigation_bar",
    )


def _launcher(phone: Phone) -> ui.Scaffold:
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
    return ui.Scaffold(ui.ScrollList(rows, rid="workspace", gap=16, pad=16))


def _recents(phone: Phone) -> ui.Scaffold:
    cards: list[ui.View] = []
    for app_id in phone.doc["os"]["recents"]:
        app = phone.apps[app_id]
        route = phone.doc["os"]["stacks"].get(app_id, [{"path": app.home}])[-1]["path"]
        cards.append(ui.ListItem(
            app.label, subtitle=route, leading=ui.Icon(app.glyph, size=40, badge=app.color, shape="square"),
            rid="task_view", desc=app.label, on_click=lambda a=app_id: phone.nav.open(a), bg="surface", radius=12,
        ))
    body = ui.ScrollList(cards or [ui.Text("No recent items", color="muted", align="center", height=80)],
                         rid="recents_list", gap=12, pad=16)
    clear = ui.Row([ui.Spacer(flex=1), ui.Button("Clear all", phone.nav.clear_recents, style="text", rid="clear_all"),
                    ui.Spacer(flex=1)], height=56)
    return ui.Scaffold(body, top=ui.TopBar("Recent apps"), bottom=clear if cards else None)
