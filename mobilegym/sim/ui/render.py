"""Paints a display list (in dp) into a Pillow image at any pixel scale."""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from . import fonts
from .boxes import Box, intersect
from .lru import ByteLRU
from .theme import Color

_MIN_TEXT_PX = 5  # below this, glyphs are unreadable: draw a bar of the text's extent instead
# Masks kept between frames, bounded by their pixels (a line of text is ~1 KB at RL scale and ~13 KB at
# 1080x2400) and by count, so a fuzzer typing new text every step or a full-resolution screen cannot
# fill memory: ~11 MB of 8,192 lines at RL scale, 32 MB of ~2,500 lines at 1080x2400.
GLYPH_BYTES = 32 << 20
GLYPH_ITEMS = 8192
ROUNDED_BYTES = 2 << 20
# Up to this many pixels a rounded rectangle is pasted through its cached mask (Pillow's rounded_rectangle costs
# more in Python than that at RL scale); larger ones are drawn
SMALL_ROUNDED_PX = 4096
SMALL_PASTE_PX = 1024  # up to this many mask pixels a colour is pasted as such, above it as a tile
_MASK_OVERHEAD = 512  # bytes of Python and Pillow objects around a mask's pixels

Glyphs = tuple[Image.Image | None, int, int]


def _mask_bytes(mask: Image.Image | None) -> int:
    return _MASK_OVERHEAD + (mask.width * mask.height if mask is not None else 0)


_GLYPHS: ByteLRU[tuple[str, int, bool], Glyphs] = ByteLRU(GLYPH_BYTES, lambda _, glyphs: _mask_bytes(glyphs[0]),
                                                          GLYPH_ITEMS)
_ROUNDED: ByteLRU[tuple[int, int, float], Image.Image] = ByteLRU(ROUNDED_BYTES, lambda _, mask: _mask_bytes(mask))


def _glyphs(text: str, px: int, bold: bool) -> Glyphs:
    """A line of text rendered once as an alpha mask, with its offset from the text origin.
    Pasting the ink through it blends exactly as ``ImageDraw.text`` does (the same fill code)."""
    return _GLYPHS.get((text, px, bold), lambda: _draw_glyphs(text, px, bold))


def _draw_glyphs(text: str, px: int, bold: bool) -> Glyphs:
    # the face's own mask of the line's ink box (one layout pass): the pixels ImageDraw.text draws there
    # (raised by fonts.rise: every face's glyphs sit on the line as DejaVu's do)
    core, (left, top) = fonts.face(text, bold, px).getmask2(fonts.single_line(text), "L")
    width, height = core.size
    if width <= 0 or height <= 0:
        return None, 0, 0
    return Image.Image()._new(core), left, top - fonts.rise(text, bold, px)


def _rounded(width: int, height: int, radius: float) -> Image.Image:
    """A filled rounded rectangle as a 0/255 mask (Pillow draws shapes without anti-aliasing, so pasting
    a colour through it sets exactly the pixels ``rounded_rectangle`` would)."""
    return _ROUNDED.get((width, height, radius), lambda: _draw_rounded(width, height, radius))


def _draw_rounded(width: int, height: int, radius: float) -> Image.Image:
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    return mask


class Geometry:
    """Where display items land on a ``width`` x ``height`` pixel canvas at ``scale`` pixels per dp, without
    pixels: what the painter measures changes with."""

    def __init__(self, width: int, height: int, scale: float) -> None:
        self.size = (width, height)
        self.scale = scale

    def _box(self, x: float, y: float, w: float, h: float) -> Box:
        s = self.scale
        return (round(x * s), round(y * s), round((x + w) * s), round((y + h) * s))

    def clip_box(self, item: tuple, clip: Box) -> Box:
        """The clip a ``("clip", ...)`` item sets inside ``clip``."""
        return intersect(self._box(*item[1:5]), clip)

    def extent(self, item: tuple, clip: Box) -> Box:
        """The pixels a rect, text or shade item may change when painted inside ``clip`` (x0 >= x1 or y0 >= y1:
        none); it mirrors :class:`Canvas`'s painting methods."""
        if item[0] != "text":
            return intersect(self._box(*item[1:5]), clip)
        x, y, text, size, _, bold = item[1:]
        text = text[:fonts.LINE_CHARS]
        px = round(size * self.scale)
        if px < _MIN_TEXT_PX:
            return intersect(self._box(x, y + size * 0.2, fonts.text_width(text, size, bold), size * 0.6), clip)
        mask, left, top = _glyphs(text, px, bold)
        if mask is None:
            return (0, 0, 0, 0)
        x0, y0 = round(x * self.scale) + left, round(y * self.scale) + top
        return intersect((x0, y0, x0 + mask.width, y0 + mask.height), clip)


class Canvas(Geometry):
    """Draws display items; ``scale`` is pixels per dp. Clip regions (scrolling lists) are applied
    by cutting each shape to the region, so no layer is ever copied."""

    def __init__(self, width: int, height: int, scale: float, background: Color,
                 image: Image.Image | None = None, *, blank: bool = False) -> None:
        """A blank canvas, or one that paints over ``image`` (an RGB image of that size, changed in place; with
        ``blank`` it is first filled with the background, so it paints as a new canvas does)."""
        super().__init__(width, height, scale)
        self.background = background
        self.image = Image.new("RGB", (width, height), background) if image is None else image
        self._draw = ImageDraw.Draw(self.image)
        self._clips: list[Box] = [(0, 0, width, height)]
        self._inks: dict[Color, int] = {}  # Pillow's ink value of each colour drawn (what ImageDraw computes per call)
        self._painters = {"rect": self._rect, "text": self._text, "clip": self._clip, "unclip": self._unclip,
                          "shade": self._shade}
        if blank and image is not None:
            self._fill((0, 0, width - 1, height - 1), background)

    def draw(self, items: list[tuple]) -> Image.Image:
        """Paint every item in order and return the image. Leading rectangles in the background
        colour are skipped: on the blank canvas they change no pixel (a screen's own background)."""
        first = 0
        while first < len(items) and items[first][0] == "rect" and items[first][5] == self.background:
            first += 1
        painters = self._painters
        for item in items[first:]:
            painters[item[0]](*item[1:])
        return self.image

    def repaint(self, items: list[tuple], box: Box) -> None:
        """Paint ``items`` again inside ``box`` only, from the background up; the rest of the image is kept.
        Inside the box the pixels are those a full :meth:`draw` gives (shapes are cut to clips exactly)."""
        self._fill((box[0], box[1], box[2] - 1, box[3] - 1), self.background)
        whole = self._clips
        self._clips = [intersect(box, whole[0])]
        try:
            self.draw(items)
        finally:
            self._clips = whole

    def pixels(self) -> np.ndarray:
        """The image as a read-only (H, W, 3) uint8 array: one pass of Pillow's raw encoder into one
        buffer (``Image.tobytes`` encodes in 64 KiB pieces and joins them: a second full copy)."""
        width, height = self.image.size
        encoder = Image._getencoder("RGB", "raw", "RGB")
        try:
            encoder.setimage(self.image.im, (0, 0, width, height))
            _, status, data = encoder.encode(width * height * 3)
        finally:
            encoder.cleanup()
        if status <= 0:
            raise RuntimeError(f"raw encoder status {status} for a {width}x{height} frame")
        return np.frombuffer(data, np.uint8).reshape(height, width, 3)

    def _paste(self, color: Color, box: Box, mask: Image.Image) -> None:
        """Paste ``color`` through ``mask`` placed at ``box``, cut to the current clip."""
        cut = intersect(box, self._clips[-1])
        if cut[2] <= cut[0] or cut[3] <= cut[1]:
            return
        if cut != box:
            mask = mask.crop((cut[0] - box[0], cut[1] - box[1], cut[2] - box[0], cut[3] - box[1]))
        # at Pillow's core (what Image.paste does, without its checks): a small mask takes the colour itself (the
        # fewest calls), a larger one a solid tile (the fastest per pixel); both blend to the same pixels
        if mask.width * mask.height <= SMALL_PASTE_PX:
            self.image.im.paste(color, cut, mask.im)
        else:
            self.image.im.paste(Image.core.fill("RGB", mask.size, color), cut, mask.im)

    def _rect(self, x: float, y: float, w: float, h: float, color: Color, radius: float) -> None:
        # the hottest painter (at RL scale most text is drawn as a bar): its box computed inline
        s = self.scale
        x0, y0, x1, y1 = round(x * s), round(y * s), round((x + w) * s), round((y + h) * s)
        bw, bh = x1 - x0, y1 - y0
        if bw <= 0 or bh <= 0:
            return
        if radius:
            r = radius * s
            if r >= 1 and min(bw, bh) >= 3:
                self._rounded_rect((x0, y0, x1, y1), r, color)
                return
        x0, y0, x1, y1 = intersect((x0, y0, x1, y1), self._clips[-1])
        if x1 > x0 and y1 > y0:
            self._fill((x0, y0, x1 - 1, y1 - 1), color)

    def _rounded_rect(self, box: Box, r: float, color: Color) -> None:
        bw, bh = box[2] - box[0], box[3] - box[1]
        r = min(r, (bw - 1) / 2, (bh - 1) / 2)
        if intersect(box, self._clips[-1]) == box and bw * bh > SMALL_ROUNDED_PX:
            # drawn: the same pixels as through the mask, faster
            self._draw.rounded_rectangle((box[0], box[1], box[2] - 1, box[3] - 1), radius=r, fill=color)
        else:
            self._paste(color, box, _rounded(bw, bh, r))

    def _fill(self, corners: Box, color: Color) -> None:
        """Fill the rectangle between two corner pixels (both included) as ``ImageDraw.rectangle`` does."""
        ink = self._inks.get(color)
        if ink is None:
            ink = self._inks[color] = self._draw.draw.draw_ink(color)
        self._draw.draw.draw_rectangle(corners, ink, 1)

    def _text(self, x: float, y: float, text: str, size: float, color: Color, bold: bool) -> None:
        text = text[:fonts.LINE_CHARS]  # what a line can show (views lay out no longer lines)
        px = round(size * self.scale)
        if px < _MIN_TEXT_PX:
            self._rect(x, y + size * 0.2, fonts.text_width(text, size, bold), size * 0.6, color, 0)
            return
        mask, left, top = _glyphs(text, px, bold)
        if mask is not None:
            x0, y0 = round(x * self.scale) + left, round(y * self.scale) + top
            self._paste(color, (x0, y0, x0 + mask.width, y0 + mask.height), mask)

    def _clip(self, x: float, y: float, w: float, h: float) -> None:
        self._clips.append(intersect(self._box(x, y, w, h), self._clips[-1]))

    def _unclip(self) -> None:
        self._clips.pop()

    def _shade(self, x: float, y: float, w: float, h: float) -> None:
        x0, y0, x1, y1 = intersect(self._box(x, y, w, h), self._clips[-1])
        if x1 <= x0 or y1 <= y0:
            return
        region = self.image.crop((x0, y0, x1, y1))
        self.image.paste(Image.eval(region, lambda v: v * 3 // 5), (x0, y0))
