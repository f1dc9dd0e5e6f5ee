"""The widgets: text, icons, buttons, text fields, toggles, sliders, list rows and tabs. Each owns its
touch behaviour (a text field takes focus, a slider takes the value under the finger)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from . import fonts
from ..input_types import append_typed, check_ime_action, check_input_type
from .theme import Color
from .view import Column, Handler, Item, LayoutEnv, Row, Touch, View

LINE_HEIGHT = 1.35
ALIGNS = ("left", "center", "right")


class Text(View):
    """A text label, wrapped to ``max_lines`` (None for unlimited)."""

    cls = "android.widget.TextView"

    def __init__(
        self,
        text: str,
        *,
        size: float = 14,
        color: str | Color | None = None,
        bold: bool = False,
        max_lines: int | None = 1,
        align: str = "left",
        **kw: Any,
    ) -> None:
        if align not in ALIGNS:
            raise ValueError(f"align must be one of {ALIGNS}, got {align!r}")
        super().__init__(**kw)
        self.value = str(text)
        self.size = size
        self.color = color
        self.bold = bold
        self.max_lines = max_lines
        self.align = align
        self._lines: list[str] = []

    @property
    def text(self) -> str:
        return self.value

    def natural_width(self, env: LayoutEnv) -> float | None:
        if self.width is not None:
            return self.width
        return fonts.natural_width(self.value, env.sp(self.size), self.bold) + 1

    def _line_height(self, env: LayoutEnv) -> float:
        return env.sp(self.size) * LINE_HEIGHT

    def measure(self, width: float, env: LayoutEnv) -> float:
        if self.height is not None:
            return self.height
        if self.max_lines is not None and self.max_lines <= 1:  # wrap keeps exactly one line: no need to measure
            return self._line_height(env)
        lines = fonts.wrap(self.value, env.sp(self.size), self.bold, width, self.max_lines)
        return len(lines) * self._line_height(env)

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        self.frame = (x, y, w, h)
        self._lines = fonts.wrap(self.value, env.sp(self.size), self.bold, w, self.max_lines)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        super().paint(out, env)
        x, y, w, h = self.frame
        size, lh = env.sp(self.size), self._line_height(env)
        color = env.color(self.color)
        top = y + max(0.0, (h - lh * len(self._lines)) / 2)
        align, bold = self.align, self.bold
        for i, line in enumerate(self._lines):
            lw = fonts.text_width(line, size, bold)
            lx = x + (0 if align == "left" else (w - lw) / 2 if align == "center" else w - lw)
            out.append(("text", lx, top + i * lh + (lh - size) / 2, line, size, color, bold))


class Icon(View):
    """A glyph (from the symbol font) optionally on a coloured circle or rounded square."""

    cls = "android.widget.ImageView"

    def __init__(
        self,
        glyph: str,
        *,
        size: float = 24,
        color: str | Color | None = None,
        badge: str | Color | None = None,
        shape: str = "circle",
        **kw: Any,
    ) -> None:
        kw.setdefault("width", size)
        kw.setdefault("height", size)
        super().__init__(**kw)
        self.glyph = glyph
        self.size = size
        self.color = color
        self.badge = badge
        self.shape = shape

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        side = min(w, h)
        cx, cy = x + w / 2, y + h / 2
        if self.badge is not None:
            radius = side / 2 if self.shape == "circle" else side / 4
            out.append(("rect", cx - side / 2, cy - side / 2, side, side, env.color(self.badge), radius))
        glyph_size = side * (0.55 if self.badge is not None else 0.8)
        gw = fonts.text_width(self.glyph, glyph_size)
        default = "on_primary" if self.badge is not None else "on_surface"
        out.append(("text", cx - gw / 2, cy - glyph_size * 0.6, self.glyph, glyph_size, env.color(self.color, default), False))


class IconButton(Icon):
    """A tappable icon with a 48dp touch target; ``desc`` names it for the tree."""

    cls = "android.widget.ImageButton"

    def __init__(self, glyph: str, desc: str, on_click: Handler | None, **kw: Any) -> None:
        kw.setdefault("width", 48)
        kw.setdefault("height", 48)
        super().__init__(glyph, desc=desc, on_click=on_click, **kw)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        g = self.size
        out.append(("text", x + (w - fonts.text_width(self.glyph, g * 0.8)) / 2, y + h / 2 - g * 0.5, self.glyph, g * 0.8,
                    env.color(self.color), False))


class Image(View):
    """A placeholder picture: a tinted rounded block with a centred glyph."""

    cls = "android.widget.ImageView"

    def __init__(self, desc: str, *, color: str | Color = "primary", glyph: str = "", height: float = 120, **kw: Any) -> None:
        super().__init__(desc=desc, height=height, bg=color, radius=kw.pop("radius", 8), **kw)
        self.glyph = glyph

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        super().paint(out, env)
        if self.glyph:
            x, y, w, h = self.frame
            size = min(w, h) * 0.4
            gw = fonts.text_width(self.glyph, size)
            out.append(("text", x + (w - gw) / 2, y + (h - size) / 2, self.glyph, size, env.color("on_primary"), False))


class Button(View):
    """A push button: ``filled``, ``outlined`` or ``text`` style."""

    cls = "android.widget.Button"

    def __init__(self, text: str, on_click: Handler | None, *, style: str = "filled", **kw: Any) -> None:
        kw.setdefault("height", 40)
        super().__init__(on_click=on_click, radius=20, **kw)
        self.label = text
        self.style = style

    @property
    def text(self) -> str:
        return self.label

    def natural_width(self, env: LayoutEnv) -> float | None:
        return self.width if self.width is not None else fonts.text_width(self.label, env.sp(14), True) + 32

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        fg = env.color("muted") if not self.enabled else env.color("primary")
        if self.style == "filled":
            out.append(("rect", x, y, w, h, fg, self.radius))
            fg = env.color("on_primary")
        elif self.style == "outlined":
            out.append(("rect", x, y, w, h, fg, self.radius))
            out.append(("rect", x + 1, y + 1, w - 2, h - 2, env.color("surface"), self.radius - 1))
        size = env.sp(14)
        label = fonts.ellipsize(self.label, size, True, w - 8)
        tw = fonts.text_width(label, size, True)
        out.append(("text", x + (w - tw) / 2, y + (h - size) / 2, label, size, fg, True))


class TextField(View):
    """An editable text box. Typing goes to the focused field through ``on_change``, filtered by the
    field's ``input_type`` ("text", or "number": see :mod:`.input_types`); ``ime_action`` names the
    keyboard's action key ("search", "send"...; None: the keyboard chooses, see sim.ime)."""

    cls = "android.widget.EditText"
    focusable = True

    def __init__(
        self,
        rid: str,
        value: str,
        on_change: Callable[[str], None],
        *,
        hint: str = "",
        password: bool = False,
        on_submit: Handler | None = None,
        lines: int = 1,
        input_type: str = "text",
        ime_action: str | None = None,
        **kw: Any,
    ) -> None:
        kw.setdefault("height", 24 * lines + 24)
        super().__init__(rid=rid, on_click=lambda: None, radius=6, **kw)
        self.value = value
        self.on_change = on_change
        self.hint = hint
        self.password = password
        self.on_submit = on_submit
        self.lines = lines
        self.input_type = check_input_type(input_type)
        self.ime_action = check_ime_action(ime_action)
        self.focus_key = rid  # unique on the screen: see key_fields
        self._lines: list[str] = []

    def focused(self, env: LayoutEnv) -> bool:
        return self.focus_key == env.focus

    def type(self, text: str, clear: bool = False) -> None:
        """Type ``text`` at the end (after clearing with ``clear``): what the input type lets through."""
        self.on_change(append_typed(self.input_type, "" if clear else self.value, text))

    def tap(self, touch: Touch, x: float, y: float) -> None:
        """A tap focuses the field (the keyboard's text goes to it)."""
        touch.focus(self.focus_key)

    def enter(self) -> None:
        """The enter key: submits, or starts a new line in a multi-line field."""
        if self.on_submit is not None:
            self.on_submit()
        elif self.lines > 1:
            self.type("\n")

    def delete(self) -> None:
        """The delete key: removes the last character."""
        self.on_change(self.value[:-1])

    @property
    def text(self) -> str:
        """What the field holds (dots for a password); empty when it holds nothing: the hint is apart."""
        return "•" * len(self.value) if self.password else self.value

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        self.frame = (x, y, w, h)
        shown = self.text or self.hint
        self._lines = fonts.wrap(shown, env.sp(15), False, w - 24, self.lines)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        edge = env.color("primary") if self.focused(env) else env.color("divider")
        out.append(("rect", x, y, w, h, edge, self.radius))
        out.append(("rect", x + 1.5, y + 1.5, w - 3, h - 3, env.color("surface"), self.radius - 1))
        size = env.sp(15)
        color = env.color("on_surface" if self.value else "muted")
        for i, line in enumerate(self._lines):
            out.append(("text", x + 12, y + 12 + i * 24 + (24 - size) / 2 - 2, line, size, color, False))
        if self.focused(env):
            last = self._lines[-1] if self.value else ""
            cx = x + 12 + fonts.text_width(last, size)
            cy = y + 12 + (len(self._lines) - 1) * 24 if self.value else y + 12
            out.append(("rect", cx + 1, cy, 2, 22, env.color("primary"), 0))


def key_fields(*roots: View) -> None:
    """Give every text field under ``roots`` a unique focus key: its rid, with "#n" added for the n-th repeat
    of that rid (repeated rows such as a list of entries share a rid but are focused one at a time)."""
    seen: dict[str, int] = {}
    stack = list(reversed(roots))  # depth first, as View.walk, over every root in turn
    while stack:
        view = stack.pop()
        if isinstance(view, TextField):
            n = seen.get(view.rid, 0)
            seen[view.rid] = n + 1
            view.focus_key = view.rid if n == 0 else f"{view.rid}#{n}"
        if view.children:
            stack.extend(reversed(view.children))


class Toggle(View):
    """Base of two-state controls: tapping calls ``on_change(not checked)``; ``label`` is the a11y text."""

    checkable = True

    def __init__(self, checked: bool, on_change: Callable[[bool], None] | None, label: str = "", **kw: Any) -> None:
        handler = (lambda: on_change(not checked)) if on_change is not None else None
        super().__init__(on_click=handler, **kw)
        self.is_on = checked
        self.label = label

    @property
    def text(self) -> str:
        return self.label

    @property
    def checked(self) -> bool:
        return self.is_on


class Switch(Toggle):
    """An on/off switch; tapping it calls ``on_change(not checked)``."""

    cls = "android.widget.Switch"

    def __init__(self, rid: str | None, checked: bool, on_change: Callable[[bool], None] | None, **kw: Any) -> None:
        kw.setdefault("width", 44)
        kw.setdefault("height", 26)
        super().__init__(checked, on_change, rid=rid, **kw)

    _labels = ("ON", "OFF")

    @property
    def text(self) -> str:
        return self._labels[0] if self.is_on else self._labels[1]

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        super().place(x, y, w, h, env)
        self._labels = (env.t("ON"), env.t("OFF"))

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        track = env.color("primary") if self.is_on else env.color("divider")
        out.append(("rect", x, y + 3, w, h - 6, track, (h - 6) / 2))
        knob = h - 2
        kx = x + w - knob if self.is_on else x
        out.append(("rect", kx, y + 1, knob, knob, env.color("surface") if not self.is_on else env.color("on_primary"), knob / 2))


class Checkbox(Toggle):
    """A check box with an optional label to its right."""

    cls = "android.widget.CheckBox"

    def __init__(self, rid: str | None, checked: bool, on_change: Callable[[bool], None] | None, label: str = "", **kw: Any) -> None:
        kw.setdefault("height", 40)
        super().__init__(checked, on_change, label, rid=rid, **kw)

    def natural_width(self, env: LayoutEnv) -> float | None:
        if self.width is not None:
            return self.width
        return 32 + (fonts.text_width(self.label, env.sp(14)) + 4 if self.label else 0)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        box, by = 20, y + (h - 20) / 2
        fill = env.color("primary") if self.is_on else env.color("muted")
        out.append(("rect", x + 4, by, box, box, fill, 3))
        if not self.is_on:
            out.append(("rect", x + 6, by + 2, box - 4, box - 4, env.color("surface"), 2))
        else:
            out.append(("text", x + 7, by + 1, "✓", 16, env.color("on_primary"), True))
        if self.label:
            size = env.sp(14)
            out.append(("text", x + 32, y + (h - size) / 2, self.label, size, env.color("on_surface"), False))


class Radio(Checkbox):
    """A radio button: tapping selects it (``on_change(True)``)."""

    cls = "android.widget.RadioButton"

    def __init__(self, rid: str | None, checked: bool, on_select: Handler, label: str = "", **kw: Any) -> None:
        super().__init__(rid, checked, lambda _value: on_select(), label, **kw)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        cy = y + h / 2
        out.append(("rect", x + 4, cy - 10, 20, 20, env.color("primary" if self.is_on else "muted"), 10))
        out.append(("rect", x + 6, cy - 8, 16, 16, env.color("surface"), 8))
        if self.is_on:
            out.append(("rect", x + 9, cy - 5, 10, 10, env.color("primary"), 5))
        size = env.sp(14)
        out.append(("text", x + 32, cy - size / 2, self.label, size, env.color("on_surface"), False))


class Chip(Toggle):
    """A compact toggle pill (filter or day chip)."""

    cls = "android.widget.CompoundButton"

    def __init__(self, label: str, checked: bool, on_change: Callable[[bool], None] | None, **kw: Any) -> None:
        kw.setdefault("height", 36)
        super().__init__(checked, on_change, label, radius=18, **kw)

    def natural_width(self, env: LayoutEnv) -> float | None:
        return self.width if self.width is not None else fonts.text_width(self.label, env.sp(14)) + 24

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        out.append(("rect", x, y, w, h, env.color("primary" if self.is_on else "divider"), self.radius))
        size = env.sp(14)
        label = fonts.ellipsize(self.label, size, False, w - 4)
        tw = fonts.text_width(label, size)
        out.append(("text", x + (w - tw) / 2, y + (h - size) / 2, label, size,
                    env.color("on_primary" if self.is_on else "on_surface"), False))


class Slider(View):
    """A horizontal slider over [lo, hi]; taps and drags set the value under the finger."""

    cls = "android.widget.SeekBar"

    def __init__(
        self, rid: str, value: float, lo: float, hi: float, on_change: Callable[[float], None], *, step: float = 1, **kw: Any
    ) -> None:
        kw.setdefault("height", 32)
        super().__init__(rid=rid, on_click=lambda: None, **kw)
        self.value = value
        self.lo, self.hi, self.step = lo, hi, step
        self.on_change = on_change

    @property
    def text(self) -> str:
        return f"{self.value:g}"

    def tap(self, touch: Touch, x: float, y: float) -> None:
        touch.focus(None)
        touch.before_handler()
        self.on_change(self.value_at(x))

    def drags(self) -> bool:
        return True

    def drag(self, touch: Touch, start: tuple[float, float], end: tuple[float, float], factor: float) -> None:
        touch.before_handler()
        self.on_change(self.value_at(end[0]))

    def value_at(self, x_dp: float) -> float:
        """The value the slider takes when touched at ``x_dp``."""
        x, _, w, _ = self.frame
        frac = min(1.0, max(0.0, (x_dp - x - 10) / max(1.0, w - 20)))
        raw = self.lo + frac * (self.hi - self.lo)
        stepped = round(round((raw - self.lo) / self.step) * self.step + self.lo, 6)
        return int(stepped) if float(stepped).is_integer() else stepped

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        cy = y + h / 2
        frac = (self.value - self.lo) / ((self.hi - self.lo) or 1)
        out.append(("rect", x + 10, cy - 2, w - 20, 4, env.color("divider"), 2))
        out.append(("rect", x + 10, cy - 2, (w - 20) * frac, 4, env.color("primary"), 2))
        kx = x + 10 + (w - 20) * frac
        out.append(("rect", kx - 10, cy - 10, 20, 20, env.color("primary"), 10))


class ListItem(Row):
    """A tappable row: optional leading glyph, a title (``title_lines`` lines at most), a subtitle and a trailing
    view or text."""

    def __init__(
        self,
        title: str,
        *,
        subtitle: str | None = None,
        leading: View | None = None,
        trailing: View | str | None = None,
        title_rid: str | None = None,
        title_lines: int = 1,
        **kw: Any,
    ) -> None:
        texts: list[View | None] = [Text(title, size=16, max_lines=title_lines, rid=title_rid)]
        if subtitle:
            texts.append(Text(subtitle, size=13, color="muted", max_lines=2))
        tail = Text(trailing, size=14, color="muted") if isinstance(trailing, str) else trailing
        kw.setdefault("pad", 12)
        super().__init__([leading, Column(texts, gap=2, flex=1), tail], gap=12, **kw)
        toggle = self._toggle()
        if toggle is not None:  # a switch row: the row takes the tap, as an Android settings row does
            toggle.on_click = None

    def measure(self, width: float, env: LayoutEnv) -> float:
        return max(56.0, super().measure(width, env))

    def _toggle(self) -> Toggle | None:
        """The trailing toggle of a switch row (a row whose tap switches it, as in Settings): the row is
        clickable, checkable and checked; the toggle is checkable and checked but takes no taps itself."""
        tail = self.children[-1] if self.children else None
        return tail if isinstance(tail, Toggle) and self.on_click is not None else None

    @property
    def checkable(self) -> bool:  # type: ignore[override]
        return self._toggle() is not None

    @property
    def checked(self) -> bool:
        toggle = self._toggle()
        return toggle is not None and toggle.checked


class Tabs(Row):
    """A row of tabs; the selected one is underlined and reports ``selected``."""

    def __init__(self, labels: Sequence[str], selected: int, on_select: Callable[[int], None], *, rid_prefix: str = "tab", **kw: Any) -> None:
        tabs = [
            _Tab(label, i == selected, (lambda i=i: on_select(i)), rid=f"{rid_prefix}_{i}")
            for i, label in enumerate(labels)
        ]
        kw.setdefault("height", 48)
        kw.setdefault("bg", "surface")
        super().__init__(tabs, gap=0, **kw)


class _Tab(Text):
    def __init__(self, label: str, selected: bool, on_click: Handler, rid: str) -> None:
        super().__init__(label, size=14, bold=selected, align="center", color="primary" if selected else "muted",
                         on_click=on_click, selected=selected, rid=rid, flex=1)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        super().paint(out, env)
        if self.selected:
            x, y, w, h = self.frame
            out.append(("rect", x + 12, y + h - 3, w - 24, 3, env.color("primary"), 1.5))
