"""The chrome of a screen: the scaffold (top bar, body, bottom bar, floating button), dialogs and toasts."""
from __future__ import annotations

from typing import Any, Sequence

from .view import Column, Handler, Item, LayoutEnv, Row, ScrollList, Spacer, View
from .widgets import Button, IconButton, Text

FAB_CLEARANCE = 72  # room below a list's last row so it can scroll clear of a floating button (dp)


class TopBar(Row):
    """The app bar: a back arrow when ``on_back`` is given, a title and action icons."""

    def __init__(self, title: str, *, on_back: Handler | None = None, actions: Sequence[View] = (), **kw: Any) -> None:
        back = IconButton("←", "Navigate up", on_back, rid="navigate_up") if on_back is not None else None
        lead = None if back is not None else Spacer(width=4)
        title_view = Text(title, size=20, bold=True, rid="toolbar_title", flex=1)
        super().__init__([back or lead, title_view, *actions], gap=4, height=56, bg="surface", pad=4, **kw)
        self._back = back

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        super().place(x, y, w, h, env)
        if self._back is not None:
            self._back.desc = env.t("Navigate up")


class Fab(IconButton):
    """A floating action button, placed at the bottom right by Scaffold."""

    def __init__(self, glyph: str, desc: str, on_click: Handler, rid: str = "fab") -> None:
        super().__init__(glyph, desc, on_click, rid=rid, width=56, height=56, size=28, color="on_primary")

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x, y, w, h, env.color("primary"), 16))
        super().paint(out, env)


# an AlertDialog's framework resource-ids: its buttons by role, its title and message
POSITIVE, NEGATIVE, NEUTRAL = "android:id/button1", "android:id/button2", "android:id/button3"
ALERT_TITLE, MESSAGE, BUTTON_PANEL = "android:id/alertTitle", "android:id/message", "android:id/buttonPanel"
_BUTTON_ORDER = (NEUTRAL, NEGATIVE, POSITIVE)  # left to right, as Material lays them out


class Dialog(Column):
    """A modal dialog, shown in a window above its screen. While shown, only it receives taps; tapping outside
    it or the back key calls ``on_dismiss`` (without one, they do nothing).

    As an AlertDialog, its title is ``android:id/alertTitle``, a ``body`` given as a string is its message
    (``android:id/message``) and each button carries its role's id: ``POSITIVE`` (``android:id/button1``),
    ``NEGATIVE`` (``button2``) or ``NEUTRAL`` (``button3``), laid out neutral, negative, positive."""

    cls = "android.widget.FrameLayout"

    def __init__(
        self,
        title: str,
        body: str | Sequence[View | None],
        buttons: Sequence[Button],
        *,
        on_dismiss: Handler | None = None,
        rid: str = "android:id/parentPanel",
    ) -> None:
        roles = [b.rid for b in buttons]
        if any(r not in _BUTTON_ORDER for r in roles) or len(set(roles)) != len(roles):
            raise ValueError(f"dialog {title!r}: each button needs its own role id (ui.POSITIVE, ui.NEGATIVE or "
                             f"ui.NEUTRAL), got {roles}")
        header = Text(title, size=18, bold=True, max_lines=2, rid=ALERT_TITLE)
        if isinstance(body, str):
            body = [Text(body, color="muted", max_lines=4, rid=MESSAGE)]
        ordered = sorted(buttons, key=lambda b: _BUTTON_ORDER.index(b.rid))
        actions = Row([Spacer(flex=1), *ordered], gap=8, height=44, rid=BUTTON_PANEL)
        super().__init__([header, *body, actions], gap=12, pad=20, bg="surface", radius=20, rid=rid)
        self.on_dismiss = on_dismiss


class Drawer(Dialog):
    """A navigation drawer: a modal sheet the height of the screen sliding in from its start edge (Material's
    modal navigation drawer), ``width`` dp at most and 56 dp short of the screen's width; its rows scroll. As a
    dialog, it takes every tap while open and a tap on the dimmed screen beside it or Back closes it."""

    def __init__(self, title: str, rows: Sequence[View | None], *, on_dismiss: Handler | None = None,
                 rid: str = "drawer", width: float = 320.0) -> None:
        header = Text(title, size=16, bold=True, max_lines=2, rid=ALERT_TITLE)
        Column.__init__(self, [header, ScrollList(rows, rid=f"{rid}_list")], gap=12, pad=16, bg="surface", rid=rid)
        self.on_dismiss = on_dismiss
        self.max_width = width


class Scaffold(Column):
    """A screen: top bar, flexible body, optional bottom bar and floating button. A ``dialog`` is not part of
    the screen's view tree: the phone shows it in its own window above the screen (see sim.windows).
    ``on_back``, given while the screen is in a mode that Back ends first (a selection, an open search), is what
    the back key does instead of leaving the screen (after it has hidden the keyboard and closed a dialog)."""

    cls = "android.widget.FrameLayout"

    def __init__(
        self,
        body: View,
        *,
        top: View | None = None,
        bottom: View | None = None,
        fab: Fab | None = None,
        dialog: Dialog | None = None,
        on_back: Handler | None = None,
    ) -> None:
        body.flex = body.flex or 1
        super().__init__([top, body, bottom], bg="background")
        self.body = body
        self.flow = list(self.children)
        self.fab = fab
        self.dialog = dialog
        self.on_back = on_back
        if fab is not None:
            self.children.append(fab)

    def _flow_children(self) -> list[View]:
        return self.flow

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        super().place(x, y, w, h, env)
        if self.fab is not None:
            bx, by, bw, bh = self.body.frame
            self.fab.place(bx + bw - 72, by + bh - 72, 56, 56, env)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x, y, w, h, env.color("background"), 0))
        for child in self.flow:
            child.paint(out, env)
        if self.fab is not None:
            self.fab.paint(out, env)


class Toast(Text):
    """A short message on a dark pill, in a window of its own above the screen (it takes no touches)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, size=14, color=(255, 255, 255), align="center", rid="toast", max_lines=2)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x - 12, y - 8, w + 24, h + 16, (60, 60, 64), 16))
        super().paint(out, env)
