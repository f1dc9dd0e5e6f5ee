"""Input dispatch: hit-testing through the window stack, the input focus, the keyboard's text and the keys.

A touch goes to the topmost window under the finger and there to the deepest view that takes that gesture;
the view itself acts (:meth:`ui.View.tap` and friends). Outside an open dialog a tap dismisses it (or does
nothing when it cannot be dismissed). A field taking the focus opens the keyboard (sim.ime) and is scrolled
into the room left above it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..actions import KEYS
from . import ime, ui
from .windows import Frame

if TYPE_CHECKING:
    from .phone import Phone


class Input:
    """Turns touches and keys into calls on views and on navigation. Implements :class:`ui.Touch`."""

    def __init__(self, phone: Phone) -> None:
        self.phone = phone

    @property
    def os(self) -> dict[str, Any]:
        return self.phone.doc["os"]

    # ui.Touch -------------------------------------------------------------------
    def focus(self, key: str | None) -> None:
        moved = key is not None and key != self.os["focus"]
        self.os["focus"] = key
        if moved:
            ime.focus_moved(self.os)
            self._reveal_focused()

    def before_handler(self) -> None:
        self.phone.world_doc.touch(self.os["foreground"])

    def scroll_offset(self, rid: str) -> float:
        return self.phone.frame().env.scroll.get(rid, 0.0)

    def set_scroll_offset(self, rid: str, offset: float) -> None:
        entry = self.phone.nav.current_entry()
        holder = entry["local"] if entry is not None else self.os["launcher"]
        holder.setdefault("scroll", {})[rid] = offset

    def _reveal_focused(self) -> None:
        """Scroll the list holding the focused field so the field shows above the keyboard (as Android
        scrolls a focused view into the window left by adjustResize)."""
        self.phone._changed()
        found = _field_in_list(self.phone.frame().app_roots(), self.os["focus"])
        if found is None:
            return
        rect, scroll_list = found
        _, top, _, height = scroll_list.frame
        y, h = rect[1], rect[3]
        offset = self.scroll_offset(scroll_list.rid or "")
        if y + h > top + height:
            offset += min(y - top, y + h - (top + height))
        elif y < top:
            offset -= top - y
        else:
            return
        scroll_list.scroll_to(self, offset)
        self.phone._changed()

    # touches (points in dp) ----------------------------------------------------------
    def tap(self, x: float, y: float) -> None:
        target = self.target(x, y, lambda v: v.taps())
        if target is not None:
            target.tap(self, x, y)

    def long_press(self, x: float, y: float) -> None:
        target = self.target(x, y, lambda v: v.long_presses())
        if target is not None:
            target.long_press(self, x, y)

    def drag(self, start: tuple[float, float], end: tuple[float, float], factor: float) -> None:
        target = self.target(*start, lambda v: v.drags())
        if target is not None:
            target.drag(self, start, end, factor)

    def target(self, x: float, y: float, want: Callable[[ui.View], bool]) -> ui.View | None:
        """The deepest view under (x, y) that ``want`` accepts, in the topmost touchable window there; outside
        a modal dialog, a view that dismisses it (None when it cannot be dismissed)."""
        frame: Frame = self.phone.frame()
        for window in reversed(frame.windows):
            if not window.touchable:
                continue
            if _contains(window.root.frame, x, y):
                return _deepest(window.root, x, y, want)
            if window.modal:
                on_dismiss = getattr(window.root, "on_dismiss", None)
                return _Dismiss(on_dismiss) if on_dismiss is not None else None
        return None

    # the keyboard ---------------------------------------------------------------------
    def focused_field(self) -> ui.TextField | None:
        focus = self.os["focus"]
        if focus is None:
            return None
        for root in self.phone.frame().app_roots():
            for view in root.walk():
                if isinstance(view, ui.TextField) and view.focus_key == focus:
                    return view
        return None

    def type_text(self, text: str, clear: bool) -> bool:
        """Type into the focused field; False when no field has focus (the text reaches nothing)."""
        field = self.focused_field()
        if field is None:
            return False
        self.before_handler()
        field.type(text, clear)
        return True

    def key(self, name: str) -> None:
        """One of :data:`KEYS` (checked by the caller)."""
        getattr(self, name)()

    def back(self) -> None:
        """Answered by an open system window (the shade closes, a permission request is denied, a call ignores
        it), else drops the focus, else dismisses an open dialog, else ends the screen's mode (its ``on_back``),
        else goes back."""
        frame = self.phone.frame()
        system = frame.system_window()
        if system is not None:
            if system.on_back is not None:
                system.on_back()
            return
        dialog = frame.dialog
        if self.os["focus"] is not None:
            self.os["focus"] = None
        elif dialog is not None and dialog.on_dismiss is not None:
            self.before_handler()
            dialog.on_dismiss()
        elif frame.content.on_back is not None:
            self.before_handler()
            frame.content.on_back()
        else:
            self.phone.nav.back()

    def home(self) -> None:
        self.phone.nav.home()

    def recent(self) -> None:
        self.phone.nav.toggle_recents()

    def enter(self) -> None:
        field = self.focused_field()
        if field is not None:
            self.before_handler()
            field.enter()

    def delete(self) -> None:
        field = self.focused_field()
        if field is not None:
            self.before_handler()
            field.delete()


def _field_in_list(roots: list[ui.View], focus: str | None) -> tuple[tuple[float, ...], ui.ScrollList] | None:
    """The focused field's frame and the innermost scrolling list holding it, or None (no such field, or not
    in a list). A field in a row the list left unplaced (off screen) has the frame of that row."""
    for root in roots:
        found = _search_field(root, focus, None, None)
        if found is not None:
            return found
    return None


def _search_field(view: ui.View, focus: str | None, holder: ui.ScrollList | None,
                  row: ui.View | None) -> tuple[tuple[float, ...], ui.ScrollList] | None:
    if isinstance(view, ui.TextField) and view.focus_key == focus:
        if holder is None or row is None:
            return None
        return (view.frame if view.frame[3] > 0 else row.frame), holder
    in_list = isinstance(view, ui.ScrollList)
    for child in view.children:
        found = _search_field(child, focus, view if in_list else holder, child if in_list else row)  # type: ignore[arg-type]
        if found is not None:
            return found
    return None


def _contains(frame: tuple[float, float, float, float], x: float, y: float) -> bool:
    fx, fy, fw, fh = frame
    return fx <= x < fx + fw and fy <= y < fy + fh


def _deepest(view: ui.View, x: float, y: float, want: Callable[[ui.View], bool]) -> ui.View | None:
    if not _contains(view.frame, x, y):
        return None
    for child in reversed(view.shown_children()):
        found = _deepest(child, x, y, want)
        if found is not None:
            return found
    return view if want(view) else None


class _Dismiss(ui.View):
    """A tap outside a dialog: dismisses it."""

    def __init__(self, on_dismiss: ui.Handler) -> None:
        super().__init__(on_click=on_dismiss)
