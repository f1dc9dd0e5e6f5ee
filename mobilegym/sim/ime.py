"""The on-screen keyboard, an input method modelled on Gboard: its layouts and what its keys do.

While a text field has the focus the keyboard shows in its own window (see sim.windows). Its keys are
leaf ``android.widget.FrameLayout`` nodes of package :data:`IME_PACKAGE` with an empty text, the key's
label in content-desc and resource-ids ``key_pos_<row>_<col>`` / ``key_pos_shift`` / ``key_pos_del`` /
``key_pos_space`` / ``key_pos_ime_action`` / ``key_pos_switch_to_symbol``, as a real Gboard dump shows them.

Pages: letters (shift is one-shot: it capitalises the next letter; a long press on shift locks the
capitals), symbols ("?123") and more symbols ("=\\<"); a number field gets the numeric pad instead. A
long press on a top-row letter types the digit shown in its corner. The language key switches the
keyboard between English and 中文: the space bar shows the language and, in 中文, the bottom-row comma and
full stop type "，" and "。". On a Chinese phone the keys' descriptions, the action key, the space bar, the
language key ("英"/"中") and the symbol pages' return key ("返回") are labelled as Chinese Gboard labels them;
the keys stay QWERTY. Letters always type Latin: pinyin composition is not modelled (type Chinese
text with the ``type`` action). A key types exactly what ``type`` of the same character does.

The keyboard's own state (page, shift, language) lives in ``doc["os"]["ime"]``: view state, like the focus.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Protocol

from . import suggestions, ui
from .strings import system_text
from ..languages import LANGUAGES
from .ui import fonts
from .ui.theme import Color, Theme

IME_PACKAGE = "com.google.android.inputmethod.latin"
KEYBOARD_H = 260.0  # dp on a tall screen
MAX_SHARE = 0.42  # of the screen's height, on short screens
HEADER_H = 40.0  # the suggestion strip above the keys
STRIP_ID, SUGGESTION_ID = "keyboard_header_view_holder", "softkey_candidate"
SLOTS = (1, 0, 2)  # the strip's thirds, left to right, by rank: the best suggestion in the middle, as Gboard shows it
LETTERS, SYMBOLS, MORE_SYMBOLS, NUMBERS = "letters", "symbols", "more_symbols", "numbers"
PAGES = (LETTERS, SYMBOLS, MORE_SYMBOLS)  # the number pad is not a page: a number field gets it
SHIFT_OFF, SHIFT_ON, SHIFT_LOCK = "off", "on", "lock"
ACTION_LABELS = {"done": "Done", "next": "Next", "search": "Search", "send": "Send", "go": "Go", "enter": "Enter"}
CHAR, SHIFT, DELETE, PAGE, SPACE, ACTION, LANGUAGE = "char", "shift", "delete", "page", "space", "action", "language"


class KeySink(Protocol):
    """What the keys act on (implemented by sim.input.Input)."""

    @property
    def os(self) -> dict[str, Any]:
        """The ``os`` part of the world document."""

    def type_text(self, text: str, clear: bool) -> bool:
        """Type into the focused field, as the ``type`` action does (False: no field has focus)."""

    def delete(self) -> None:
        """The delete key."""

    def enter(self) -> None:
        """The enter key: the focused field's enter behaviour."""

    def focus(self, key: str | None) -> None:
        """Move the focus to another field (None: drop it, hiding the keyboard)."""


def initial_state(language: str) -> dict[str, str]:
    """The keyboard's state on a fresh phone: letters, no shift, the phone's language."""
    return {"page": LETTERS, "shift": SHIFT_OFF, "language": language if language in LANGUAGES else "en"}


_KNOWN = {"page": PAGES, "shift": (SHIFT_OFF, SHIFT_ON, SHIFT_LOCK), "language": tuple(LANGUAGES)}


def read_state(os: dict[str, Any]) -> dict[str, str]:
    """The keyboard's state in ``os``, read without writing: what the keyboard does not know (no state, a
    value patched in that names no page) reads as the initial state's."""
    found = os.get("ime")
    default = initial_state(os.get("language", "en"))
    if not isinstance(found, dict):
        return default
    return {name: found[name] if found.get(name) in values else default[name] for name, values in _KNOWN.items()}


def state_of(os: dict[str, Any]) -> dict[str, str]:
    """The keyboard's live state in ``os``, to change (made well-formed first)."""
    found = os.get("ime")
    clean = read_state(os)
    if found != clean:
        os["ime"] = found = clean
    return found


def focus_moved(os: dict[str, Any]) -> None:
    """A field took the focus: its keyboard opens on the letters page without shift (the language stays)."""
    state_of(os).update(page=LETTERS, shift=SHIFT_OFF)


def keyboard_height(screen_h: float) -> float:
    """The keyboard window's height (dp) on a screen ``screen_h`` dp tall."""
    return min(KEYBOARD_H, round(screen_h * MAX_SHARE))


# layouts --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Key:
    """One key: its resource-id (without package), content-desc, drawn label, what it does, its width in key
    widths (a row is 10 wide), and the character a long press types."""

    rid: str
    desc: str
    label: str
    kind: str = CHAR
    value: str = ""
    width: float = 1.0
    alt: str = ""

    @property
    def function(self) -> bool:
        """Drawn as a function key (darker), as shift, delete and the page keys are."""
        return self.kind in (SHIFT, DELETE, PAGE, LANGUAGE)


Rows = tuple[tuple[Key, ...], ...]


def _chars(row: int, chars: str, first: int = 0, alts: str = "", edges: float = 1.0) -> list[Key]:
    """Character keys ``key_pos_<row>_<first+i>``; the first and last are ``edges`` wide."""
    keys = []
    for i, ch in enumerate(chars):
        width = edges if i in (0, len(chars) - 1) else 1.0
        keys.append(Key(f"key_pos_{row}_{first + i}", ch, ch, CHAR, ch, width, alts[i] if alts else ""))
    return keys


def _labeller(locale: str) -> Callable[[str], str]:
    """The phone's labels for the keyboard's English ones (Gboard's own in the phone's language, which need
    not be the keyboard's), from the simulator's catalog."""
    return lambda text: system_text(locale, text, "keyboard")


def _bottom(page: str, language: str, action: str, locale: str) -> tuple[Key, ...]:
    t = _labeller(locale)
    switch = (Key("key_pos_switch_to_symbol", t("Symbol keyboard"), "?123", PAGE, SYMBOLS, 1.5) if page == LETTERS
              else Key("key_pos_switch_to_alpha", t("Letter keyboard"), t("ABC"), PAGE, LETTERS, 1.5))
    comma, stop = ("，", "。") if language == "zh" else (",", ".")
    return (switch,
            Key("key_pos_bottom_symbol_1", comma, comma, CHAR, comma),
            Key("key_pos_language_switch", t("Switch input language"),
                "中" if language == "zh" else "英" if locale == "zh" else "EN", LANGUAGE),
            Key("key_pos_space", t("Space"), t(LANGUAGES[language]), SPACE, " ", 4.0),
            Key("key_pos_bottom_symbol_2", stop, stop, CHAR, stop),
            Key("key_pos_ime_action", t(ACTION_LABELS[action]), "", ACTION, width=1.5))


@lru_cache(maxsize=64)
def layout(page: str, upper: bool, language: str, action: str, locale: str = "en") -> Rows:
    """The rows of keys of a page (``NUMBERS``: the numeric pad) for a field whose action key is ``action``, typing
    ``language``, on a phone whose language is ``locale``."""
    t = _labeller(locale)
    if page == NUMBERS:
        pad = [_chars(r, chars) for r, chars in enumerate(("123-", "456", "789", ",0."))]
        pad[1].append(Key("key_pos_space", t("Space"), "␣", SPACE, " "))
        pad[2].append(Key("key_pos_del", t("Delete"), "⌫", DELETE))
        pad[3].append(Key("key_pos_ime_action", t(ACTION_LABELS[action]), "", ACTION))
        return tuple(tuple(Key(k.rid, k.desc, k.label, k.kind, k.value, 2.5) for k in row) for row in pad)
    delete = Key("key_pos_del", t("Delete"), "⌫", DELETE, width=1.5)
    if page == LETTERS:
        case = str.upper if upper else str.lower
        shift = Key("key_pos_shift", t("Shift"), "⇧", SHIFT, width=1.5)
        rows = [_chars(0, case("qwertyuiop"), alts="1234567890"), _chars(1, case("asdfghjkl"), edges=1.5),
                [shift, *_chars(2, case("zxcvbnm"), first=1), delete]]
    elif page == SYMBOLS:
        more = Key("key_pos_2_0", t("More symbols"), "=\\<", PAGE, MORE_SYMBOLS, 1.5)
        rows = [_chars(0, "1234567890"), _chars(1, "@#$_&-+()/"), [more, *_chars(2, "*\"':;!?", first=1), delete]]
    elif page == MORE_SYMBOLS:
        back = Key("key_pos_2_0", t("Symbol keyboard"), "?123", PAGE, SYMBOLS, 1.5)
        rows = [_chars(0, "~`|•√π÷×¶∆"), _chars(1, "£¢€¥^°={}\\"), [back, *_chars(2, "%©®™✓[]", first=1), delete]]
    else:
        raise ValueError(f"unknown keyboard page {page!r}; pages: {', '.join(PAGES)}")
    return (*(tuple(row) for row in rows), _bottom(page, language, action, locale))


def action_for(field: ui.TextField, has_next: bool) -> str:
    """The action key of ``field``: what it declares, else Enter (multi-line), Next (another field follows)
    or Done."""
    if field.ime_action is not None:
        return field.ime_action
    if field.lines > 1:
        return "enter"
    return "next" if has_next and field.on_submit is None else "done"


def focus_chain(roots: list[ui.View], focus: str | None) -> tuple[ui.TextField, str | None] | None:
    """The focused text field under ``roots`` and the focus key of the next field in its window, or None."""
    if focus is None:
        return None
    for root in roots:
        fields = [v for v in root.walk() if isinstance(v, ui.TextField)]
        for i, field in enumerate(fields):
            if field.focus_key == focus:
                return field, (fields[i + 1].focus_key if i + 1 < len(fields) else None)
    return None


# behaviour ----------------------------------------------------------------------------------------
class Keyboard:
    """What the keys of the keyboard shown for ``field`` do, to the field (through ``sink``) and to the
    keyboard's own state."""

    def __init__(self, sink: KeySink, field: ui.TextField, next_key: str | None) -> None:
        self.sink = sink
        self.field = field
        self.next_key = next_key
        self.action = action_for(field, next_key is not None)

    @property
    def state(self) -> dict[str, str]:
        return state_of(self.sink.os)

    def rows(self) -> Rows:
        """The keys shown now."""
        state = self.state_view()
        page = NUMBERS if self.field.input_type == "number" else state["page"]
        locale = "zh" if self.sink.os.get("language") == "zh" else "en"
        return layout(page, state["shift"] != SHIFT_OFF, state["language"], self.action, locale)

    def state_view(self) -> dict[str, str]:
        return read_state(self.sink.os)

    def suggestions(self) -> tuple[str, ...]:
        """The strip's words for the word being typed, best first (none in a password or number field)."""
        if self.field.password or self.field.input_type != "text":
            return ()
        return suggestions.suggest(suggestions.current_word(self.field.value))

    def pick(self, word: str) -> None:
        """A tap on a suggestion: it replaces the word being typed, and a space follows."""
        self.sink.type_text(suggestions.apply(self.field.value, word), True)

    def press(self, key: Key) -> None:
        """A tap on ``key``."""
        state = self.state
        if key.kind in (CHAR, SPACE):
            self.sink.type_text(key.value, False)
            if key.kind == CHAR and state["shift"] == SHIFT_ON and key.value.isalpha():
                state["shift"] = SHIFT_OFF
        elif key.kind == SHIFT:
            state["shift"] = SHIFT_ON if state["shift"] == SHIFT_OFF else SHIFT_OFF
        elif key.kind == DELETE:
            self.sink.delete()
        elif key.kind == PAGE:
            state.update(page=key.value, shift=SHIFT_OFF)
        elif key.kind == LANGUAGE:
            order = list(LANGUAGES)
            state["language"] = order[(order.index(state["language"]) + 1) % len(order)]
        elif key.kind == ACTION:
            self._act()

    def long_press(self, key: Key) -> None:
        """A long press: shift locks the capitals, a top-row letter types its digit."""
        if key.kind == SHIFT:
            self.state["shift"] = SHIFT_LOCK
        elif key.alt:
            self.sink.type_text(key.alt, False)

    def _act(self) -> None:
        """The action key: the field's own enter behaviour (submit, or a new line); without one, Next moves
        the focus to the next field and the other actions close the keyboard."""
        field = self.field
        if field.on_submit is not None or field.lines > 1:
            self.sink.enter()
        elif self.action == "next" and self.next_key is not None:
            self.sink.focus(self.next_key)
        else:
            self.sink.focus(None)


# views ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Palette:
    """Gboard's colours (the keyboard has its own theme, light or dark with the system)."""

    background: Color
    key: Color
    function: Color
    label: Color
    hint: Color
    action: Color
    on_action: Color


LIGHT = Palette((232, 234, 237), (255, 255, 255), (210, 214, 220), (32, 33, 36), (95, 99, 104), (26, 115, 232),
                (255, 255, 255))
DARK = Palette((32, 33, 36), (60, 64, 67), (85, 89, 94), (232, 234, 237), (154, 160, 166), (138, 180, 248),
               (32, 33, 36))
_ACTION_GLYPHS = {"done": "✓", "next": "→", "search": "⚲", "send": "➤", "go": "→", "enter": "↵"}


def palette_for(theme: Theme) -> Palette:
    """The dark palette under a dark system theme, else the light one."""
    return DARK if sum(theme.background) < 384 else LIGHT


class KeyView(ui.View):
    """One key: a leaf FrameLayout whose tap is the key press (it neither moves the focus nor runs an app's
    handler itself)."""

    cls = "android.widget.FrameLayout"

    def __init__(self, key: Key, board: Keyboard, selected: bool) -> None:
        long = (lambda: board.long_press(key)) if key.kind == SHIFT or key.alt else None
        super().__init__(rid=key.rid, desc=key.desc, on_click=lambda: board.press(key), on_long_click=long,
                         selected=selected)

    def tap(self, touch: ui.Touch, x: float, y: float) -> None:
        if self.on_click is not None:
            self.on_click()

    def long_press(self, touch: ui.Touch, x: float, y: float) -> None:
        if self.on_long_click is not None:
            self.on_long_click()

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        """Painted by the keyboard as a whole (see :func:`_paint_keys`)."""


class _KeyHolder(ui.View):
    """The FrameLayout the keys are flat children of."""

    cls = "android.widget.FrameLayout"


class SuggestionView(ui.View):
    """One suggestion of the strip: a leaf FrameLayout with the word as its content-desc; a tap picks it."""

    cls = "android.widget.FrameLayout"

    def __init__(self, word: str, board: Keyboard) -> None:
        super().__init__(rid=SUGGESTION_ID, desc=word, on_click=lambda: board.pick(word))

    def tap(self, touch: ui.Touch, x: float, y: float) -> None:
        if self.on_click is not None:
            self.on_click()

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        """Painted by the keyboard as a whole (see :func:`_paint_strip`)."""


class KeyboardView(ui.View):
    """The keyboard window's root: a FrameLayout holding the suggestion strip and one FrameLayout of flat keys."""

    cls = "android.widget.FrameLayout"

    def __init__(self, board: Keyboard, palette: Palette) -> None:
        super().__init__()
        self.board = board
        self.palette = palette
        self.rows = board.rows()
        shift = board.state_view()["shift"]
        self.shift = shift
        self.words = board.suggestions()
        strip = _KeyHolder(rid=STRIP_ID)
        strip.children = [SuggestionView(word, board) for _, word in _slotted(self.words)]  # left to right
        holder = _KeyHolder()
        holder.children = [KeyView(k, board, k.kind == SHIFT and shift != SHIFT_OFF) for row in self.rows for k in row]
        self.children = [strip, holder]

    def place(self, x: float, y: float, w: float, h: float, env: ui.LayoutEnv) -> None:
        self.frame = (x, y, w, h)
        strip, holder = self.children
        strip.frame = (x, y, w, HEADER_H)
        for view, (slot, _) in zip(strip.children, _slotted(self.words)):
            view.frame = (x + slot * w / len(SLOTS), y, w / len(SLOTS), HEADER_H)
        holder.frame = (x, y + HEADER_H, w, h - HEADER_H)
        for view, frame in zip(holder.children, _key_frames(self.rows, self.frame)):
            view.frame = frame

    def paint(self, out: list[ui.Item], env: ui.LayoutEnv) -> None:
        out.extend(_paint_keys(self.rows, self.shift, self.board.action, self.palette, self.frame))
        if self.words:
            out.extend(_paint_strip(self.words, self.palette, self.frame))


@lru_cache(maxsize=64)
def _key_frames(rows: Rows, frame: tuple[float, float, float, float]) -> tuple[tuple[float, float, float, float], ...]:
    """Each key's touch area (dp), row by row: the keys tile the area below the suggestion strip."""
    x, y, w, h = frame
    row_h = (h - HEADER_H) / len(rows)
    out = []
    for r, row in enumerate(rows):
        unit = w / sum(k.width for k in row)
        kx, ky = x, y + HEADER_H + r * row_h
        for key in row:
            out.append((kx, ky, key.width * unit, row_h))
            kx += key.width * unit
    return tuple(out)


@lru_cache(maxsize=64)
def _paint_keys(rows: Rows, shift: str, action: str, palette: Palette,
                frame: tuple[float, float, float, float]) -> tuple[ui.Item, ...]:
    """The keyboard's display list (the same keys, shift and place always paint the same)."""
    x, y, w, h = frame
    out: list[ui.Item] = [("rect", x, y, w, h, palette.background, 0)]
    keys = [(key, i == 0) for row in rows for i, key in enumerate(row)]
    for (key, first), (kx, ky, kw, kh) in zip(keys, _key_frames(rows, frame)):
        if key.kind == CHAR and key.width == 1.5:  # a letter whose touch area reaches the edge: a normal key
            kx, kw = (kx + kw / 3 if first else kx), kw * 2 / 3
        bx, by, bw, bh = kx + 3, ky + 4, kw - 6, kh - 8
        fill = palette.action if key.kind == ACTION else palette.function if key.function else palette.key
        if key.kind == SHIFT and shift != SHIFT_OFF:
            fill = palette.hint
        out.append(("rect", bx, by, bw, bh, fill, 6))
        label = _ACTION_GLYPHS[action] if key.kind == ACTION else key.label
        size = 22.0 if len(label) == 1 and key.kind == CHAR else 18.0 if len(label) == 1 else 14.0
        color = palette.on_action if key.kind == ACTION else palette.label
        lw = fonts.text_width(label, size)
        out.append(("text", bx + (bw - lw) / 2, by + (bh - size) / 2 - 1, label, size, color, False))
        if key.kind == SHIFT and shift == SHIFT_LOCK:
            out.append(("rect", bx + bw / 2 - 6, by + bh - 9, 12, 2, color, 0))
        if key.alt:
            out.append(("text", bx + bw - 9, by + 2, key.alt, 9.0, palette.hint, False))
    return tuple(out)


@lru_cache(maxsize=256)
def _paint_strip(words: tuple[str, ...], palette: Palette, frame: tuple[float, float, float, float]) -> tuple[ui.Item, ...]:
    """The suggestions drawn in the strip, each centred in its third, with a divider between thirds."""
    x, y, w, _ = frame
    third = w / len(SLOTS)
    out: list[ui.Item] = [("rect", x + i * third, y + 10, 1, HEADER_H - 20, palette.function, 0) for i in (1, 2)]
    size = 16.0
    for rank, (word, slot) in enumerate(zip(words, SLOTS)):
        label = fonts.ellipsize(word, size, rank == 0, third - 12)
        lw = fonts.text_width(label, size, rank == 0)
        out.append(("text", x + slot * third + (third - lw) / 2, y + (HEADER_H - size) / 2, label, size, palette.label,
                    rank == 0))
    return tuple(out)


def _slotted(words: tuple[str, ...]) -> list[tuple[int, str]]:
    """(third of the strip, word) for each suggestion, left to right."""
    return sorted(zip(SLOTS, words))


def keyboard_window(sink: KeySink, roots: list[ui.View], theme: Theme) -> KeyboardView | None:
    """The keyboard for the focused field under ``roots`` (not placed yet), or None when no field has the focus."""
    found = focus_chain(roots, sink.os.get("focus"))
    if found is None:
        return None
    return KeyboardView(Keyboard(sink, *found), palette_for(theme))
