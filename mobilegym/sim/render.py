"""Paints a display list (in dp) into a Pillow image at any pixel scale."""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from . import fonts
from .theme import Color

_MIN_TEXT_PX = 5  # below this, glyphs are unreadable: draw a bar of the text's extent instead


@lru_cache(maxsize=8192)
def _glyphs(path: str, px: int, text: str) -> tuple[Image.Image | None, int, int]:
    """A line of text rendered once as an alpha mask, with its offset from the text origin.
    Pasting the ink through it blends exactly as ``ImageDraw.text`` does (the same fill code)."""
    face = fonts.font(path, px)
    left, top, right, bottom = face.getbbox(text)
    if right <= left or bottom <= top:
        return None, 0, 0
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255)
    return mask, left, top


class Canvas:
    """Draws display items; ``scale`` is pixels per dp."""

    def __init__(self, width: int, height: int, scale: float, background: Color) -> None:
        self.scale = scale
        self.image = Image.new("RGB", (width, height), background)
        self._layers: list[tuple[Image.Image, ImageDraw.ImageDraw, int, int]] = []
        self._push(self.image, 0, 0)

    def _push(self, image: Image.Image, ox: int, oy: int) -> None:
        self._layers.append((image, ImageDraw.Draw(image), ox, oy))

    def _box(self, x: float, y: float, w: float, h: float) -> tuple[int, int, int, int]:
        _, _, ox, oy = self._layers[-1]
        s = self.scale
        return (round(x * s) - ox, round(y * s) - oy, round((x + w) * s) - ox - 1, round((y + h) * s) - oy - 1)

    def draw(self, items: list[tuple]) -> Image.Image:
        """Paint every item in order and return the image."""
        for item in items:
            getattr(self, "_" + item[0])(*item[1:])
        return self.image

    def _rect(self, x: float, y: float, w: float, h: float, color: Color, radius: float) -> None:
        x0, y0, x1, y1 = self._box(x, y, w, h)
        if x1 < x0 or y1 < y0:
            return
        draw = self._layers[-1][1]
        r = radius * self.scale
        if r >= 1 and min(x1 - x0, y1 - y0) >= 2:
            draw.rounded_rectangle((x0, y0, x1, y1), radius=min(r, (x1 - x0) / 2, (y1 - y0) / 2), fill=color)
        else:
            draw.rectangle((x0, y0, x1, y1), fill=color)

    def _text(self, x: float, y: float, text: str, size: float, color: Color, bold: bool) -> None:
        px = round(size * self.scale)
        if px < _MIN_TEXT_PX:
            self._rect(x, y + size * 0.2, fonts.text_width(text, size, bold), size * 0.6, color, 0)
            return
        image, _, ox, oy = self._layers[-1]
        mask, left, top = _glyphs(fonts.font_path(text, bold), px, text)
        if mask is not None:
            x0, y0 = round(x * self.scale) - ox + left, round(y * self.scale) - oy + top
            image.paste(color, (x0, y0, x0 + mask.width, y0 + mask.height), mask)

    def _clip(self, x: float, y: float, w: float, h: float) -> None:
        x0, y0, x1, y1 = self._box(x, y, w, h)
        _, _, ox, oy = self._layers[-1]
        parent = self._layers[-1][0]
        sub = parent.crop((x0, y0, x1 + 1, y1 + 1))
        self._push(sub, x0 + ox, y0 + oy)

    def _unclip(self) -> None:
        sub, _, ox, oy = self._layers.pop()
        parent, _, pox, poy = self._layers[-1]
        parent.paste(sub, (ox - pox, oy - poy))

    def _shade(self, x: float, y: float, w: float, h: float) -> None:
        x0, y0, x1, y1 = self._box(x, y, w, h)
        image = self._layers[-1][0]
        region = image.crop((x0, y0, x1 + 1, y1 + 1))
        image.paste(Image.eval(region, lambda v: v * 3 // 5), (x0, y0))
