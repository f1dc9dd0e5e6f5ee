"""The view base and the containers: views measured and placed in dp, painted into a display list, and
touched.

A screen function returns a tree of views. One layout pass gives every view its frame; the same frames
feed the renderer (pixels) and the accessibility export (bounds), so what is drawn and what the tree
reports always agree. Each view owns its touch behaviour (:meth:`View.tap`, :meth:`View.long_press`,
:meth:`View.drag`): the phone's input dispatch finds the view under the finger and asks it to act.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol, Sequence

from ..strings import system_text
from .theme import Color, Theme, hex_color

Handler = Callable[[], None]
Item = tuple  # one display-list entry, see render.Canvas


class Touch(Protocol):
    """What a touched view may do to the phone besides calling its handlers (see sim.input.Input)."""

    def focus(self, key: str | None) -> None:
        """Give the input focus to the text field with this focus key (None: to nothing)."""

    def before_handler(self) -> None:
        """Called before an app's handler runs, so a failing input can be rolled back."""

    def scroll_offset(self, rid: str) -> float:
        """How far the list ``rid`` of the screen is scrolled (dp)."""

    def set_scroll_offset(self, rid: str, offset: float) -> None:
        """Scroll the list ``rid`` of the screen to ``offset`` (dp)."""


@dataclass
class LayoutEnv:
    """What layout and painting need to know besides the tree itself."""

    theme: Theme
    focus: str | None = None
    scroll: dict[str, float] = field(default_factory=dict)
    language: str = "en"

    def t(self, text: str) -> str:
        """The toolkit's own text (a widget's state, a button's description) in the phone's language."""
        return system_text(self.language, text)

    def color(self, value: str | Color | None, default: str = "on_surface") -> Color:
        """A colour from a theme role name, '#RRGGBB' or an RGB tuple."""
        value = default if value is None else value
        if isinstance(value, tuple):
            return value
        if value.startswith("#"):
            return hex_color(value)
        return getattr(self.theme, value)

    def sp(self, size: float) -> float:
        """A text size scaled by the user's font-size setting."""
        return size * self.theme.text_scale


class View:
    """Base view: a frame, optional handlers and accessibility attributes."""

    cls = "android.view.View"
    focusable = False
    checkable = False
    scrollable = False
    password = False
    hint = ""  # the placeholder an empty text field shows (the tree's hint attribute)

    def __init__(
        self,
        *,
        rid: str | None = None,
        desc: str = "",
        on_click: Handler | None = None,
        on_long_click: Handler | None = None,
        enabled: bool = True,
        selected: bool = False,
        width: float | None = None,
        height: float | None = None,
        flex: float = 0,
        bg: str | Color | None = None,
        radius: float = 0,
    ) -> None:
        self.rid = rid
        self.desc = desc
        self.on_click = on_click if enabled else None
        self.on_long_click = on_long_click if enabled else None
        self.enabled = enabled
        self.selected = selected
        self.width = width
        self.height = height
        self.flex = flex
        self.bg = bg
        self.radius = radius
        self.children: list[View] = []
        self.frame = (0.0, 0.0, 0.0, 0.0)

    # accessibility -------------------------------------------------------
    @property
    def text(self) -> str:
        return ""

    @property
    def checked(self) -> bool:
        return False

    def focused(self, env: LayoutEnv) -> bool:
        return self.focusable and self.rid is not None and self.rid == env.focus

    # layout ---------------------------------------------------------------
    def natural_width(self, env: LayoutEnv) -> float | None:
        """The width this view wants in a row, or None to take what is offered."""
        return self.width

    def measure(self, width: float, env: LayoutEnv) -> float:
        """Height for a given width."""
        return self.height if self.height is not None else 0.0

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        """Fix this view's frame (and its children's)."""
        self.frame = (x, y, w, h)

    # painting -------------------------------------------------------------
    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        """Append display items for this view and its children."""
        if self.bg is not None:
            x, y, w, h = self.frame
            out.append(("rect", x, y, w, h, env.color(self.bg), self.radius))
        for child in self.children:
            child.paint(out, env)

    def walk(self) -> Iterator[View]:
        """This view and all descendants, depth first (one stack, not a generator per level)."""
        stack = [self]
        while stack:
            view = stack.pop()
            yield view
            stack.extend(reversed(view.children))

    # touch ----------------------------------------------------------------
    def shown_children(self) -> list[View]:
        """The children on screen, bottom to top: what touches reach and the tree shows."""
        return self.children

    def taps(self) -> bool:
        """Whether a tap on this view is this view's to handle."""
        return self.on_click is not None

    def tap(self, touch: Touch, x: float, y: float) -> None:
        """A tap at (x, y) dp: the focus leaves any text field and the click handler runs."""
        touch.focus(None)
        touch.before_handler()
        if self.on_click is not None:
            self.on_click()

    def long_presses(self) -> bool:
        return self.on_long_click is not None

    def long_press(self, touch: Touch, x: float, y: float) -> None:
        if self.on_long_click is not None:
            touch.before_handler()
            self.on_long_click()

    def drags(self) -> bool:
        """Whether a swipe starting on this view moves it (a scrolling list, a slider)."""
        return False

    def drag(self, touch: Touch, start: tuple[float, float], end: tuple[float, float], factor: float) -> None:
        """A swipe from ``start`` to ``end`` (dp); ``factor`` 2 for a fling."""


# containers ---------------------------------------------------------------
def _remembered(view: View, width: float, env: LayoutEnv, measure: Callable[[float, LayoutEnv], float]) -> float:
    """A container's height for ``width``, measured once per width and text scale: a parent's measure and
    place, and every ancestor's, ask again for the same answer."""
    key = (width, env.theme.text_scale)
    cached = getattr(view, "_measured", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    height = measure(width, env)
    view._measured = (key, height)  # type: ignore[attr-defined]
    return height


class Column(View):
    """Children stacked vertically; children with ``flex`` share the leftover height."""

    cls = "android.widget.LinearLayout"

    def __init__(self, children: Sequence[View | None] = (), *, gap: float = 0, pad: float = 0, **kw: Any) -> None:
        super().__init__(**kw)
        self.children = [c for c in children if c is not None]
        self.gap = gap
        self.pad = pad

    def _flow_children(self) -> list[View]:
        """The children stacked by the column (overlays are placed separately)."""
        return self.children

    def measure(self, width: float, env: LayoutEnv) -> float:
        if self.height is not None:
            return self.height
        return _remembered(self, width, env, self._measure)

    def _measure(self, width: float, env: LayoutEnv) -> float:
        inner = width - 2 * self.pad
        heights = [c.measure(inner, env) for c in self._flow_children()]
        return sum(heights) + self.gap * max(0, len(heights) - 1) + 2 * self.pad

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        self.frame = (x, y, w, h)
        inner = w - 2 * self.pad
        flow = self._flow_children()
        heights = [None if c.flex else c.measure(inner, env) for c in flow]  # None: a flex child's share, below
        flex_total = sum(c.flex for c in flow)
        spare = h - 2 * self.pad - sum(ch for ch in heights if ch is not None) - self.gap * max(0, len(flow) - 1)
        cy = y + self.pad
        for child, ch in zip(flow, heights):
            if ch is None:
                ch = max(0.0, spare) * child.flex / flex_total
            child.place(x + self.pad, cy, inner, ch, env)
            cy += ch + self.gap


class Row(View):
    """Children side by side, vertically centred; ``flex`` children share the leftover width."""

    cls = "android.widget.LinearLayout"

    def __init__(self, children: Sequence[View | None] = (), *, gap: float = 8, pad: float = 0, **kw: Any) -> None:
        super().__init__(**kw)
        self.children = [c for c in children if c is not None]
        self.gap = gap
        self.pad = pad
        self._widths_for: tuple[float, list[float]] | None = None

    def _widths(self, width: float, env: LayoutEnv) -> list[float]:
        """Each child's width in a row ``width`` wide (remembered: measure and place both ask)."""
        cached = self._widths_for
        if cached is not None and cached[0] == width:
            return cached[1]
        widths = self._split(width, env)
        self._widths_for = (width, widths)
        return widths

    def _split(self, width: float, env: LayoutEnv) -> list[float]:
        inner = width - 2 * self.pad - self.gap * max(0, len(self.children) - 1)
        natural = [None if c.flex else c.natural_width(env) for c in self.children]
        spare = max(0.0, inner - sum(n for n in natural if n is not None))
        weights = [c.flex or (1 if n is None else 0) for c, n in zip(self.children, natural)]
        total = sum(weights) or 1
        return [n if n is not None else spare * wt / total for n, wt in zip(natural, weights)]

    def natural_width(self, env: LayoutEnv) -> float | None:
        if self.width is not None:
            return self.width
        widths = [c.natural_width(env) for c in self.children]
        if any(w is None for w in widths) or any(c.flex for c in self.children):
            return None
        return sum(widths) + self.gap * max(0, len(widths) - 1) + 2 * self.pad

    def measure(self, width: float, env: LayoutEnv) -> float:
        if self.height is not None:
            return self.height
        return _remembered(self, width, env, self._measure)

    def _measure(self, width: float, env: LayoutEnv) -> float:
        heights = [c.measure(cw, env) for c, cw in zip(self.children, self._widths(width, env))]
        return max(heights, default=0.0) + 2 * self.pad

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        self.frame = (x, y, w, h)
        cx = x + self.pad
        inner_h = h - 2 * self.pad
        for child, cw in zip(self.children, self._widths(w, env)):
            ch = min(inner_h, child.measure(cw, env))
            child.place(cx, y + self.pad + (inner_h - ch) / 2, cw, ch, env)
            cx += cw + self.gap


class Spacer(View):
    """Empty space; with ``flex`` it pushes siblings apart."""

    def __init__(self, height: float = 0, width: float | None = None, flex: float = 0) -> None:
        super().__init__(height=height, width=width, flex=flex)


class Divider(View):
    """A thin horizontal rule."""

    def __init__(self) -> None:
        super().__init__(height=1)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, _ = self.frame
        out.append(("rect", x, y, w, 1, env.color("divider"), 0))


class Card(Column):
    """A padded surface with rounded corners."""

    def __init__(self, children: Sequence[View | None] = (), *, pad: float = 12, gap: float = 6, **kw: Any) -> None:
        kw.setdefault("bg", "surface")
        kw.setdefault("radius", 12)
        super().__init__(children, pad=pad, gap=gap, **kw)


class Rows:
    """The rows of a long list, built only as a :class:`ScrollList` reaches them (what a RecyclerView's
    adapter does): ``build(item)`` makes the row of one item. Rows must hold no text field (fields are
    numbered over the whole screen, so every one must exist)."""

    def __init__(self, items: Sequence[Any], build: Callable[[Any], View]) -> None:
        self.items = items
        self.build = build
        self._built: list[View] = []

    def __len__(self) -> int:
        return len(self.items)

    def row(self, index: int) -> View:
        """The row of item ``index`` (rows are built in order, once)."""
        while len(self._built) <= index:
            self._built.append(self.build(self.items[len(self._built)]))
        return self._built[index]


class ScrollList(Column):
    """A vertically scrolling list; its offset lives in ``env.scroll[rid]``.

    ``children`` are views, or :class:`Rows` for a long list: then only the rows down to the bottom of
    the viewport are built and measured, and the content height beyond them is estimated from their
    average height, as RecyclerView estimates its scroll range, until the last row is reached.

    ``from_end`` makes a list that grows at its end keep the end in view, as a messenger's conversation does
    (RecyclerView's stackFromEnd): it opens on the newest item and stays on it as items are added or the
    keyboard takes room; its position is kept as the distance from the end."""

    cls = "androidx.recyclerview.widget.RecyclerView"

    def __init__(self, children: Sequence[View | None] | Rows, *, rid: str = "list", gap: float = 0, pad: float = 0,
                 from_end: bool = False, **kw: Any) -> None:
        kw.setdefault("flex", 1)
        self.from_end = from_end
        self.rows = children if isinstance(children, Rows) else None
        super().__init__(() if self.rows is not None else children, gap=gap, pad=pad, rid=rid, **kw)
        self.content_height = 0.0
        self._visible: list[View] | None = None  # visible_children, once placed

    @property
    def scrollable(self) -> bool:  # type: ignore[override]
        return self.content_height > self.frame[3] + 0.5

    def max_offset(self) -> float:
        return max(0.0, self.content_height - self.frame[3])

    def place(self, x: float, y: float, w: float, h: float, env: LayoutEnv) -> None:
        self.frame = (x, y, w, h)
        self._visible = None
        inner = w - 2 * self.pad
        stored = max(0.0, env.scroll.get(self.rid or "", 0.0))
        heights = self._measure_rows(inner, float("inf") if self.from_end else stored + h, env)
        self.content_height = sum(heights) + self.gap * max(0, len(heights) - 1) + 2 * self.pad
        if self.rows is not None and len(heights) < len(self.rows):
            self.content_height += (len(self.rows) - len(heights)) * (sum(heights) / len(heights) + self.gap)
        offset = max(0.0, self.max_offset() - stored) if self.from_end else min(self.max_offset(), stored)
        env.scroll[self.rid or ""] = offset
        cy = y + self.pad - offset
        for child, ch in zip(self.children, heights):
            if cy < y + h and cy + ch > y:
                child.place(x + self.pad, cy, inner, ch, env)
            else:  # off screen: only its frame matters (it is neither drawn, exported nor touched)
                child.frame = (x + self.pad, cy, inner, ch)
            cy += ch + self.gap

    def _measure_rows(self, inner: float, bottom: float, env: LayoutEnv) -> list[float]:
        """The heights of the children; with :class:`Rows`, of the rows built until one ends below
        ``bottom`` (content coordinates) or none is left, which become the children."""
        if self.rows is None:
            return [c.measure(inner, env) for c in self.children]
        heights: list[float] = []
        end = self.pad
        while len(heights) < len(self.rows) and end <= bottom:
            heights.append(self.rows.row(len(heights)).measure(inner, env))
            end += heights[-1] + self.gap
        self.children = [self.rows.row(i) for i in range(len(heights))]
        return heights

    def visible_children(self) -> list[View]:
        """The children inside the list's frame, found once per layout (painting, the tree and every touch ask):
        the same list each time, to read, never change."""
        if self._visible is None:
            x, y, w, h = self.frame
            self._visible = [c for c in self.children if c.frame[1] < y + h and c.frame[1] + c.frame[3] > y]
        return self._visible

    def shown_children(self) -> list[View]:
        return self.visible_children()

    def drags(self) -> bool:
        return self.scrollable

    def drag(self, touch: Touch, start: tuple[float, float], end: tuple[float, float], factor: float) -> None:
        rid = self.rid or ""
        self.scroll_to(touch, touch.scroll_offset(rid) + (start[1] - end[1]) * factor)

    def scroll_to(self, touch: Touch, offset: float) -> None:
        """Keep the list scrolled ``offset`` dp from its top (clamped; stored from the end with ``from_end``)."""
        offset = min(self.max_offset(), max(0.0, offset))
        touch.set_scroll_offset(self.rid or "", self.max_offset() - offset if self.from_end else offset)

    def paint(self, out: list[Item], env: LayoutEnv) -> None:
        x, y, w, h = self.frame
        if self.bg is not None:
            out.append(("rect", x, y, w, h, env.color(self.bg), self.radius))
        out.append(("clip", x, y, w, h))
        for child in self.visible_children():
            child.paint(out, env)
        out.append(("unclip",))
        if self.scrollable:
            frac = self.frame[3] / self.content_height
            top = y + (h - h * frac) * (env.scroll.get(self.rid or "", 0.0) / self.max_offset())
            out.append(("rect", x + w - 3, top, 3, h * frac, env.color("divider"), 1.5))
