"""Font lookup and resolution-independent text measurement (in dp).

Text is shaped by raqm, whose cost grows with the number of script runs (about 0.15 ms per run with the
CJK font), so a 10,000-character mix of scripts took seconds per measurement. What is laid out is
therefore bounded, whatever an app holds or an agent types:

- a line holds at most ``LINE_CHARS`` characters (more only fit with zero-width characters; the rest of
  such a word is cut with an ellipsis), and a text view shows at most ``MAX_LINES`` lines;
- a line is found by a galloping search from the previous line's length (a few measurements per line)
  instead of one measurement per word;
- a line mixing scripts more than ``BASIC_RUNS`` times (no language does; random text does) is laid out
  by Pillow's basic engine, without raqm's shaping, at about 1 % of the cost.
"""
from __future__ import annotations

import re
import struct
import sys
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from PIL import ImageFont

from .lru import ByteLRU

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_LATIN = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_NOTO_CJK = Path("/usr/share/fonts/opentype/noto")
_WQY = Path("/usr/share/fonts/truetype/wqy")
# (file, face index in the collection), best first: Noto Sans CJK SC (face 2 of Debian's fonts-noto-cjk), which
# has a bold weight, then WenQuanYi (regular only: bold CJK is drawn regular without Noto)
_CJK_CANDIDATES = {
    False: ((_NOTO_CJK / "NotoSansCJK-Regular.ttc", 2), (_WQY / "wqy-microhei.ttc", 0), (_WQY / "wqy-zenhei.ttc", 0)),
    True: ((_NOTO_CJK / "NotoSansCJK-Bold.ttc", 2), (_NOTO_CJK / "NotoSansCJK-Regular.ttc", 2),
           (_WQY / "wqy-microhei.ttc", 0), (_WQY / "wqy-zenhei.ttc", 0)),
}
# symbols and emoji neither DejaVu nor CJK fonts have (U+23F0 alarm clock, U+1F44D thumbs up...): Symbola
_SYMBOL_CANDIDATES = (Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),)
_INDEX: dict[str, int] = {}  # font file -> the face of its collection that is used
_REFERENCE_PX = 64
# The most characters a laid-out line holds. A 360 dp line shows at most about 130 visible characters at
# 10 sp, so only zero-width and combining characters reach the limit. Every string measured or drawn is
# at most this long (bounding its cost), and so is every cache key.
LINE_CHARS = 256
MAX_LINES = 50  # lines a text view shows at most (a 2400-pixel screen shows about 40 of 14 sp)
MAX_WIDTH = 1000.0  # dp: the width of a longer text is measured up to about this (a screen is 360 dp)
BASIC_RUNS = 8  # script runs in a line beyond which it is laid out by the basic engine
# Cached measurements: a few hundred bytes each, bounded by count (keys are at most LINE_CHARS long);
# wraps of longer texts are bounded by the bytes of their keys and lines.
WIDTH_CACHE = 8192
WRAP_CACHE = 8192
LONG_WRAP_BYTES = 2 << 20
FONT_CACHE = 32  # loaded faces: a map of the font file each (0.3-5 MB resident), one per file, size, engine
# Line breaks as str.splitlines knows them; a line handed to the shaper must hold none (raqm fails
# on CR, the information separators, NEL and U+2029).
_BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_WIDE = re.compile("[\u2e80-\U0001efff\U00020000-\U0010ffff]")  # CJK and beyond, emoji excepted


def single_line(text: str) -> str:
    """``text`` with every line break as a space: what one line of the shaper can take."""
    return _BREAKS.sub(" ", text) if _BREAKS.search(text) else text


def _first_paragraphs(text: str, count: int) -> Iterator[str]:
    """The first ``count`` paragraphs of ``text``, found lazily (a text may hold millions of breaks)."""
    start = 0
    for _ in range(count):
        match = _BREAKS.search(text, start)
        if match is None:
            yield text[start:]
            return
        yield text[start:match.start()]
        start = match.end()


def _is_wide(text: str) -> bool:
    return _WIDE.search(text) is not None


@lru_cache(maxsize=None)
def _cjk_path(bold: bool) -> str | None:
    for path, index in _CJK_CANDIDATES[bold]:
        if path.exists():
            _INDEX[str(path)] = index
            return str(path)
    return None


@lru_cache(maxsize=None)
def _symbol_path() -> str | None:
    return next((str(p) for p in _SYMBOL_CANDIDATES if p.exists()), None)


def font_path(text: str, bold: bool) -> str:
    """The font file that draws ``text``: DejaVu Sans, the CJK font when it has CJK characters, and else the
    first installed font (DejaVu, CJK, symbols) that has a glyph for every character of it (the one with the
    most, when none has all)."""
    if text.isascii():
        return _latin_path(bold)
    return _fallback(text[:LINE_CHARS], bold)


@lru_cache(maxsize=WIDTH_CACHE)
def _fallback(text: str, bold: bool) -> str:
    latin, cjk, symbols = _latin_path(bold), _cjk_path(bold), _symbol_path()
    order = [cjk, latin] if _is_wide(text) else [latin, cjk]
    paths = [p for p in (*order, symbols) if p is not None]
    needed = {ord(c) for c in text if unicodedata.category(c) not in _NO_GLYPH}
    best, best_missing = paths[0], None
    for path in paths:
        missing = len(needed - coverage(path))
        if missing == 0:
            return path
        if best_missing is None or missing < best_missing:
            best, best_missing = path, missing
    return best


@lru_cache(maxsize=None)
def _latin_path(bold: bool) -> str:
    path = _DEJAVU / _LATIN[bold]
    if not path.exists():
        raise FileNotFoundError(f"font {path} missing: install Debian's fonts-dejavu-core")
    return str(path)


def font_index(path: str) -> int:
    """The face of the font collection at ``path`` that text is drawn with (0 for a single font)."""
    return _INDEX.get(path, 0)


_NO_GLYPH = ("Cc", "Cf", "Zs", "Zl", "Zp")  # categories drawn without a glyph of their own


@lru_cache(maxsize=None)
def coverage(path: str) -> frozenset[int]:
    """The code points the face used from ``path`` maps to a glyph (its cmap: formats 4 and 12)."""
    data = Path(path).read_bytes()
    base = 0
    if data[:4] == b"ttcf":
        base = struct.unpack_from(">I", data, 12 + 4 * font_index(path))[0]
    tables = {data[base + 12 + 16 * i: base + 16 + 16 * i]: struct.unpack_from(">I", data, base + 20 + 16 * i)[0]
              for i in range(struct.unpack_from(">H", data, base + 4)[0])}
    cmap = tables[b"cmap"]
    subtables = {}
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        subtables[(platform, encoding)] = cmap + offset
    for key in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3), (0, 1), (0, 0)):
        if key in subtables:
            return frozenset(_cmap_codes(data, subtables[key]))
    raise ValueError(f"font {path} has no Unicode cmap")


def _cmap_codes(data: bytes, at: int) -> Iterator[int]:
    """The code points a cmap subtable (format 4 or 12) maps to a glyph other than .notdef."""
    kind = struct.unpack_from(">H", data, at)[0]
    if kind == 12:
        for i in range(struct.unpack_from(">I", data, at + 12)[0]):
            start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
            yield from range(start + (glyph == 0), end + 1)
        return
    if kind != 4:
        raise ValueError(f"cmap format {kind} is not supported")
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
    range_at = at + 16 + 6 * segments
    offsets = struct.unpack_from(f">{segments}H", data, range_at)
    for i, (start, end, delta, offset) in enumerate(zip(starts, ends, deltas, offsets)):
        for code in range(start, min(end, 0xFFFE) + 1):
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                glyph = struct.unpack_from(">H", data, range_at + 2 * i + offset + 2 * (code - start))[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                yield code


@lru_cache(maxsize=FONT_CACHE)
def font(path: str, px: int, basic: bool = False) -> ImageFont.FreeTypeFont:
    """A loaded font at a pixel size (laid out by Pillow's basic engine with ``basic``, else by raqm)."""
    return ImageFont.truetype(path, max(1, px), index=font_index(path),
                              layout_engine=ImageFont.Layout.BASIC if basic else None)


@lru_cache(maxsize=4096)
def _script(char: str) -> str | None:
    """What raqm starts a new run for, roughly: a letter's script (the first word of its name: LATIN,
    CJK, HEBREW...), "?" for private-use and unassigned characters, None for the characters every script
    shares (marks, digits, punctuation, symbols, spaces, controls)."""
    category = unicodedata.category(char)
    if category in ("Co", "Cn"):
        return "?"
    if category[0] != "L":
        return None
    return unicodedata.name(char, "?").split(" ", 1)[0]


def script_runs(text: str) -> int:
    """About how many runs raqm shapes ``text`` in (one per change of script)."""
    if text.isascii():
        return 1
    runs, last = 0, None
    for char in text:
        key = _script(char)
        if key is not None and key != last:
            runs, last = runs + 1, key
    return runs


def face(text: str, bold: bool, px: int) -> ImageFont.FreeTypeFont:
    """The font that lays out ``text`` at ``px`` pixels: its file (see :func:`font_path`) and engine."""
    return font(font_path(text, bold), px, script_runs(text) > BASIC_RUNS)


def rise(text: str, bold: bool, px: int) -> int:
    """How many pixels higher than its face puts it ``text`` is drawn so every face shares DejaVu's ascent: a
    face with a taller ascent (Noto Sans CJK: 1.16 em against 0.93) would otherwise sit its glyphs low in the
    line (a chip's Chinese label under its centre)."""
    ascent = face(text, bold, px).getmetrics()[0]
    return max(0, ascent - font(_latin_path(bold), px).getmetrics()[0])


def _measure(text: str, size: float, bold: bool) -> float:
    """The laid-out width of one line in dp (uncached)."""
    line = single_line(text)
    if _plain(bold).fullmatch(line) and _LIGATURES.search(line) is None:
        length = _plain_length(line, bold)
    else:
        length = face(text, bold, _REFERENCE_PX).getlength(line)
    return length * size / _REFERENCE_PX


def _plain_length(line: str, bold: bool) -> float:
    """What raqm measures for a plain line (see :func:`_plain`) from its characters' advances and its pairs'
    kerning: sums of 1/64 pixels, so the same float, at a fraction of shaping's cost."""
    metrics = _PLAIN_METRICS[bold]
    return sum(map(metrics.__getitem__, line)) + sum(map(metrics.__getitem__, map(str.__add__, line, line[1:])))


class _PlainMetrics(dict):
    """A weight's advances (key: a character) and kernings (key: a pair) in the Latin face, each measured by
    raqm when first asked."""

    def __init__(self, bold: bool) -> None:
        super().__init__()
        self.bold = bold

    def __missing__(self, key: str) -> float:
        latin = font(_latin_path(self.bold), _REFERENCE_PX)
        value = latin.getlength(key) if len(key) == 1 else latin.getlength(key) - self[key[0]] - self[key[1]]
        self[key] = value
        return value


@lru_cache(maxsize=None)
def _plain(bold: bool) -> re.Pattern[str]:
    """The lines whose width adds up from characters and pairs: printable ASCII and the common extra characters
    the Latin face has (all one script run, drawn by that face)."""
    covered = coverage(_latin_path(bold))
    extra = "".join(char for char in _PLAIN_EXTRA if ord(char) in covered)
    return re.compile(f"[ -~{re.escape(extra)}]*")


# Checked against raqm for every triple of these characters and printable ASCII (and by tests/test_text_metrics.py):
# widths add up but for DejaVu's ligatures (ff, fi, fl), which raqm draws as one glyph: such lines are shaped.
_PLAIN_EXTRA = "·…★°△–•›‹é”“‘’▲▼üãáíóñ—×→←€£"
_LIGATURES = re.compile("f[fil]")
_PLAIN_METRICS = {bold: _PlainMetrics(bold) for bold in (False, True)}


_cached_width = lru_cache(maxsize=WIDTH_CACHE)(_measure)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of one line of text in dp at ``size`` dp; the same at every render scale.

    A text longer than ``LINE_CHARS`` (never one line on screen) is measured piece by piece, up to
    ``MAX_LINES`` pieces and until it is wider than ``MAX_WIDTH``: what layout needs to know of it."""
    if len(text) <= LINE_CHARS:
        return _cached_width(text, size, bold)
    total = 0.0
    for start in range(0, min(len(text), MAX_LINES * LINE_CHARS), LINE_CHARS):
        total += _measure(text[start:start + LINE_CHARS], size, bold)
        if total > MAX_WIDTH:
            break
    return total


def natural_width(text: str, size: float, bold: bool = False) -> float:
    """The width of the widest paragraph of ``text`` (of the ``MAX_LINES`` that can show)."""
    return max(text_width(line, size, bold) for line in _first_paragraphs(text, MAX_LINES))


def wrap(text: str, size: float, bold: bool, width: float, max_lines: int | None) -> list[str]:
    """Greedy word wrap (character wrap for CJK) into at most ``max_lines`` lines (``MAX_LINES`` when
    None, or fewer); the last kept line is ellipsised if cut."""
    limit = MAX_LINES if max_lines is None else max(1, min(max_lines, MAX_LINES))
    if len(text) > LINE_CHARS:  # kept by bytes: the key alone may be megabytes
        return list(_LONG_WRAPS.get((text, size, bold, width, limit),
                                    lambda: _wrap_lines(text, size, bold, width, limit)))
    return list(_wrap(text, size, bold, width, limit))


def _wrap_lines(text: str, size: float, bold: bool, width: float, max_lines: int) -> tuple[str, ...]:
    lines: list[str] = []
    for paragraph in _first_paragraphs(text, max_lines + 1):
        lines.extend(_wrap_paragraph(paragraph, size, bold, width, max_lines - len(lines) + 1))
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = ellipsize(lines[-1] + "…", size, bold, width)
            break
    return tuple(lines)


_wrap = lru_cache(maxsize=WRAP_CACHE)(_wrap_lines)
_LONG_WRAPS: ByteLRU[tuple[str, float, bool, float, int], tuple[str, ...]] = ByteLRU(
    LONG_WRAP_BYTES, lambda key, lines: sys.getsizeof(key[0]) + sum(map(sys.getsizeof, lines)))


def _wrap_paragraph(text: str, size: float, bold: bool, width: float, limit: int) -> list[str]:
    """At most ``limit`` lines of the paragraph (the rest would be cut anyway), each ellipsised to
    ``width``. A line takes as many words (characters for CJK) as fit, and at least one; a word longer
    than ``LINE_CHARS`` is cut there. Spaces that would start a line are dropped, and so is the space
    a line breaks at (a line always follows it, if only an empty one)."""
    if len(text) <= LINE_CHARS and text_width(text, size, bold) <= width:
        return [text]
    wide = _is_wide(text)
    lines: list[str] = []
    start, end, previous = 0, len(text), 0
    while len(lines) < limit:
        if not wide:
            while start < end and text[start] == " ":
                start += 1
        ends = _line_ends(text, start, wide)
        guess = bisect_right(ends, start + previous) - 1  # lines of a paragraph are alike in length
        stop = ends[_longest_fit(text, start, ends, size, bold, width, guess)]
        previous = stop - start
        lines.append(ellipsize(text[start:stop], size, bold, width))
        if stop >= end:
            break
        if not wide:  # the space the line breaks at; a cut word's rest goes with it
            found = text.find(" ", stop)
            if found < 0:
                break
            stop = found + 1
        start = stop
    return lines


def _line_ends(text: str, start: int, wide: bool) -> list[int]:
    """Where a line beginning at ``start`` may end, ascending: after each character (CJK) or word; the
    line is at most ``LINE_CHARS`` long, except the first word, which is cut just beyond it."""
    bound = min(len(text), start + LINE_CHARS)
    if wide:
        return list(range(start + 1, bound + 1))
    first = text.find(" ", start, bound + 1)
    if first < 0:
        return [bound + (bound < len(text))]  # one word, cut past LINE_CHARS: ellipsize shows the cut
    ends = [first]
    while True:
        found = text.find(" ", ends[-1] + 1, bound + 1)
        if found < 0:
            break
        ends.append(found)
    if bound == len(text) and ends[-1] < bound:
        ends.append(bound)
    return ends


def _longest_fit(text: str, start: int, ends: list[int], size: float, bold: bool, width: float,
                 guess: int) -> int:
    """The index in ``ends`` of the longest line from ``start`` that fits ``width`` (0 when none does):
    a galloping search outward from the index ``guess``, then bisection (widths grow with the line)."""
    def fits(index: int) -> bool:
        return _measure(text[start:ends[index]], size, bold) <= width

    last = len(ends) - 1
    guess = min(max(guess, 0), last)
    step = 1
    if guess == 0 or fits(guess):
        good = guess
        while good + step <= last and fits(good + step):
            good += step
            step *= 2
        bad = min(good + step, last + 1)  # ends[bad] does not fit (or is past the last end)
    else:
        bad = guess
        while bad - step > 0 and not fits(bad - step):
            bad -= step
            step *= 2
        good = max(bad - step, 0)
    return _bisect(fits, good, bad)


def _bisect(fits: Callable[[int], bool], good: int, bad: int) -> int:
    """The largest n in [good, bad) with ``fits(n)``, given ``fits`` holds up to some point and not after
    it, ``fits(good)`` holds (or good is the floor) and ``fits(bad)`` does not."""
    while bad - good > 1:
        mid = (good + bad) // 2
        if fits(mid):
            good = mid
        else:
            bad = mid
    return good


def ellipsize(text: str, size: float, bold: bool, width: float) -> str:
    """Cut ``text`` with an ellipsis so it fits ``width`` dp: the longest prefix that fits, found by
    bisection (widths grow with the prefix). A text longer than ``LINE_CHARS`` is cut there first."""
    if len(text) <= LINE_CHARS and text_width(text, size, bold) <= width:
        return text

    def fits(count: int) -> bool:
        return _measure(text[:count] + "…", size, bold) <= width

    lo, hi = 0, len(text)  # text[:lo] + "…" fits (or lo == 0); text[:hi] + "…" does not
    if len(text) > LINE_CHARS:
        hi = LINE_CHARS - 1
        if fits(hi):
            return text[:hi] + "…"
    return text[:_bisect(fits, lo, hi)] + "…"
