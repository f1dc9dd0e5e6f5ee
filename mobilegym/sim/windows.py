"""The window stack of one laid-out screen: the activity (an app's screen, the launcher or recents), a
dialog above it, the keyboard while a text field has the focus (the activity is laid out above it, as
adjustResize does), a toast, the system bars, and the system's windows over them (a heads-up notification,
the notification shade, a permission dialog, an incoming call). Input reaches the topmost window under the
finger; the accessibility tree shows the active window (the topmost of the activity, a dialog, the shade, a
permission dialog and a call)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import ime, interruptions, shade, ui
from .app import Ctx
from .nav import LAUNCHER_PACKAGE
from .system_ui import NAV_H, STATUS_H, SYSTEM_PACKAGE, launcher, navigation_bar, recents, status_bar, theme_for

if TYPE_CHECKING:
    from .phone import Phone

ACTIVITY, DIALOG, TOAST, STATUS_BAR, NAVIGATION_BAR = "activity", "dialog", "toast", "status_bar", "navigation_bar"
HEADS_UP, SHADE, PERMISSION, CALL, IME = "heads_up", "shade", "permission", "call", "ime"
ACTIVE_KINDS = (ACTIVITY, DIALOG, SHADE, PERMISSION, CALL)  # the windows that can take the input focus
FULL_SCREEN = (SHADE, CALL)  # system windows over the whole screen: the tree shows them alone
DIALOG_MAX_W = 320.0  # dp
DIALOG_MARGIN = 24.0  # dp each side
DRAWER_GAP = 56.0  # dp of the screen a navigation drawer leaves showing (Material)
TOAST_MARGIN = 32.0  # dp: each side, and above the bottom of the activity


@dataclass
class Window:
    """One window: its root view, the package it belongs to, its kind, and (a dialog) the area it dims."""

    root: ui.View
    package: str
    kind: str
    dim: tuple[float, float, float, float] | None = None
    on_back: ui.Handler | None = None  # a system window's answer to the back key (None: it ignores it)

    @property
    def modal(self) -> bool:
        return self.kind in (DIALOG, PERMISSION)

    @property
    def system(self) -> bool:
        """The shade, a permission dialog or a call: the back key is theirs before the app's."""
        return self.kind in (SHADE, PERMISSION, CALL)

    @property
    def touchable(self) -> bool:
        return self.kind != TOAST

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        if self.dim is not None:
            out.append(("shade", *self.dim))
        self.root.paint(out, env)


@dataclass
class Frame:
    """One laid-out screen: the windows bottom to top, and what input dispatch needs."""

    env: ui.LayoutEnv
    windows: list[Window]

    def _root(self, kind: str) -> ui.View | None:
        return next((w.root for w in self.windows if w.kind == kind), None)

    @property
    def content(self) -> ui.Scaffold:
        """The activity's view tree (an app's screen, the launcher or recents)."""
        return next(w.root for w in self.windows if w.kind == ACTIVITY)  # type: ignore[return-value]

    @property
    def package(self) -> str:
        return next(w.package for w in self.windows if w.kind == ACTIVITY)

    @property
    def dialog(self) -> ui.Dialog | None:
        return self._root(DIALOG)  # type: ignore[return-value]

    @property
    def status(self) -> ui.View:
        return self._root(STATUS_BAR)  # type: ignore[return-value]

    @property
    def nav(self) -> ui.View:
        return self._root(NAVIGATION_BAR)  # type: ignore[return-value]

    def active(self) -> Window:
        """The window that has the input focus: the topmost system window or dialog, else the activity."""
        return next(w for w in reversed(self.windows) if w.kind in ACTIVE_KINDS)

    def system_window(self) -> Window | None:
        """The topmost system window (shade, permission dialog, call), if one is open."""
        return next((w for w in reversed(self.windows) if w.system), None)

    def app_roots(self) -> list[ui.View]:
        """The roots of the activity and its dialog (where the screen's text fields are)."""
        return [w.root for w in self.windows if w.kind in (ACTIVITY, DIALOG)]

    def tree_windows(self) -> list[tuple[ui.View, str]]:
        """What the accessibility tree shows, as uiautomator dumps it: the active window, then the toast and
        the system bars (kept so agents and plans find the navigation buttons and messages in the tree). The
        shade and a call cover the screen: the tree is theirs alone, as a real dump of them is."""
        active = self.active()
        if active.kind in FULL_SCREEN:
            return [(active.root, active.package)]
        return [(w.root, w.package) for w in self.windows if w is active or w.kind not in ACTIVE_KINDS]

    def items(self) -> list[tuple]:
        """The display list of the whole screen."""
        out: list[tuple] = []
        for window in self.windows:
            window.paint(out, self.env)
        return out


def compose(phone: Phone) -> Frame:
    """Build and lay out the current screen's windows from the world document."""
    doc = phone.doc
    os_state = doc["os"]
    entry = phone.nav.current_entry()
    scroll = dict(entry["local"].get("scroll", {})) if entry is not None else dict(os_state["launcher"].get("scroll", {}))
    env = ui.LayoutEnv(theme_for(doc), focus=os_state["focus"], scroll=scroll, language=os_state["language"])
    if os_state["overlay"] == "recents":
        content, package = recents(phone), LAUNCHER_PACKAGE
    elif entry is None:
        content, package = launcher(phone), LAUNCHER_PACKAGE
    else:
        app = phone.apps[os_state["foreground"]]
        content, package = app.screens[entry["path"]](Ctx(phone, app, entry)), app.package
    dialog = content.dialog
    roots = [content, *([dialog] if dialog is not None else [])]
    ui.key_fields(*roots)
    width, height = phone.size_dp
    keyboard = ime.keyboard_window(phone.input, roots, env.theme)
    keyboard_h = ime.keyboard_height(height) if keyboard is not None else 0.0
    area = (0.0, STATUS_H, width, height - STATUS_H - NAV_H - keyboard_h)
    content.place(*area, env)
    windows = [Window(content, package, ACTIVITY)]
    if dialog is not None:
        _place_dialog(dialog, area, env)
        windows.append(Window(dialog, package, DIALOG, dim=area))
    if keyboard is not None:
        keyboard.place(0.0, height - NAV_H - keyboard_h, width, keyboard_h, env)
        windows.append(Window(keyboard, ime.IME_PACKAGE, IME))
    if os_state.get("toast"):
        toast = ui.Toast(os_state["toast"])
        _place_toast(toast, area, env)
        windows.append(Window(toast, package, TOAST))
    status = shade.StatusBarPull(status_bar(doc), shade.status_icons(phone), lambda: shade.open_shade(phone))
    nav = navigation_bar(phone)
    status.place(0, 0, width, STATUS_H, env)
    nav.place(0, height - NAV_H, width, NAV_H, env)
    windows.append(Window(status, SYSTEM_PACKAGE, STATUS_BAR))
    windows += _system_windows(phone, env, (0.0, 0.0, width, height - NAV_H))
    windows.append(Window(nav, SYSTEM_PACKAGE, NAVIGATION_BAR))
    return Frame(env, windows)


def _system_windows(phone: Phone, env: ui.LayoutEnv, screen: tuple[float, float, float, float]) -> list[Window]:
    """The heads-up notification, the shade, a permission dialog and a call, bottom to top, laid out over
    ``screen`` (all of it but the navigation bar, which stays on top)."""
    os_state = phone.doc["os"]
    x, y, w, h = screen
    out: list[Window] = []
    notice = shade.heads_up(phone)
    if notice is not None:
        margin = shade.HEADS_UP_MARGIN
        notice.place(x + margin, y + margin, w - 2 * margin, notice.measure(w - 2 * margin, env), env)
        out.append(Window(notice, SYSTEM_PACKAGE, HEADS_UP))
    if os_state.get("shade"):
        panel = shade.panel(phone)
        panel.place(x, y, w, h, env)
        out.append(Window(panel, SYSTEM_PACKAGE, SHADE, on_back=lambda: shade.close_shade(phone)))
    interruption = os_state.get("interruption")
    if interruption and interruption["kind"] == interruptions.PERMISSION:
        dialog = interruptions.permission_dialog(phone, interruption)
        area = (x, y + STATUS_H, w, h - STATUS_H)
        _place_dialog(dialog, area, env)
        out.append(Window(dialog, interruptions.PERMISSION_PACKAGE, PERMISSION, dim=area, on_back=dialog.on_dismiss))
    elif interruption and interruption["kind"] == interruptions.CALL:
        call = interruptions.call_screen(phone, interruption)
        call.place(x, y, w, h, env)
        out.append(Window(call, interruptions.DIALER_PACKAGE, CALL))
    return out


def _place_dialog(dialog: ui.Dialog, area: tuple[float, float, float, float], env: ui.LayoutEnv) -> None:
    x, y, w, h = area
    if isinstance(dialog, ui.Drawer):  # from the start edge, the area's height
        dialog.place(x, y, min(w - DRAWER_GAP, dialog.max_width), h, env)
        return
    dw = min(w - 2 * DIALOG_MARGIN, DIALOG_MAX_W)
    dh = dialog.measure(dw, env)
    dialog.place(x + (w - dw) / 2, y + (h - dh) / 2, dw, dh, env)


def _place_toast(toast: ui.Toast, area: tuple[float, float, float, float], env: ui.LayoutEnv) -> None:
    x, y, w, h = area
    tw = min(w - 2 * TOAST_MARGIN, toast.natural_width(env) or w)
    th = toast.measure(tw, env)
    toast.place(x + (w - tw) / 2, y + h - th - TOAST_MARGIN, tw, th, env)
