"""Paints display lists into screenshots incrementally: a display list seen recently gets its pixels back,
and one that differs from the previous only in part is painted by redrawing that part over the previous
image, in place (the previous list keeps its pixels, not its image).

Why the pixels are the same as a full paint: each item changes only pixels inside its extent (under its
clip), and a pixel's final colour depends only on the items covering it, in order. The two lists, each item
paired with its clip, share a prefix and a suffix; every other item lies inside the dirty box, so outside it
both images have the same items in the same order, and inside it everything is painted again from the
background.
"""
from __future__ import annotations

import numpy as np
from PIL import Image

from .boxes import Box
from .render import Canvas, Geometry
from .theme import Color

KEEP_IMAGES = 3  # recent screenshots kept per phone (one of 1080x2400 holds ~18 MB: image and array)
MAX_DIRTY = 0.5  # above this share of the screen, paint afresh

Placed = list[tuple[tuple, Box]]


def placed(canvas: Geometry, items: list[tuple]) -> Placed:
    """The painting items (rect, text, shade) each with the clip it is painted under, in order."""
    width, height = canvas.size
    clips: list[Box] = [(0, 0, width, height)]
    out: Placed = []
    for item in items:
        kind = item[0]
        if kind == "clip":
            clips.append(canvas.clip_box(item, clips[-1]))
        elif kind == "unclip":
            clips.pop()
        else:
            out.append((item, clips[-1]))
    return out


def dirty_box(canvas: Geometry, old: Placed, new: Placed, limit: float = float("inf")) -> Box | None:
    """The bounding box of every item outside the common prefix and suffix of the two lists (None: equal);
    once its area passes ``limit`` pixels, the whole canvas."""
    n = min(len(old), len(new))
    start = 0
    while start < n and old[start] == new[start]:
        start += 1
    end = 0
    while end < n - start and old[-1 - end] == new[-1 - end]:
        end += 1
    changed = old[start:len(old) - end] + new[start:len(new) - end]
    if not changed:
        return None
    x0 = y0 = 1 << 30
    x1 = y1 = -1
    for item, clip in changed:
        box = canvas.extent(item, clip)
        if box[2] > box[0] and box[3] > box[1]:
            x0, y0, x1, y1 = min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3])
            if (x1 - x0) * (y1 - y0) > limit:
                return (0, 0, *canvas.size)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else (0, 0, 0, 0)


class _Shot:
    """One painted display list: its canvas settings, items, placed items, image (None once another shot painted
    over it) and pixels."""

    def __init__(self, key: tuple, items: list[tuple], placed_items: Placed, image: Image.Image | None,
                 pixels: np.ndarray) -> None:
        self.key, self.items, self.placed, self.image, self.pixels = key, items, placed_items, image, pixels


class Painter:
    """Turns display lists into read-only (H, W, 3) arrays. ``keep=False`` paints every list afresh.

    A changed part is repainted over the newest image painted with the same settings, in place: that image passes
    to the new shot (the old shots keep their pixels, so an equal list still gets them back). The image of a shot
    that leaves the recent ones is kept as a spare for the next full paint (no new screen-sized allocation)."""

    def __init__(self, keep: bool = True, images: int = KEEP_IMAGES) -> None:
        self.keep = keep
        self.images = images
        self._recent: list[_Shot] = []  # newest last
        self._spare: Image.Image | None = None  # an image no shot holds, to paint the next full frame on

    def paint(self, items: list[tuple], size: tuple[int, int], scale: float, background: Color) -> np.ndarray:
        key = (size, scale, background)
        for index, shot in enumerate(self._recent):
            if shot.key == key and shot.items == items:
                self._recent.append(self._recent.pop(index))
                return shot.pixels
        if not self.keep:
            canvas = Canvas(*size, scale, background)
            canvas.draw(items)
            return canvas.pixels()
        geometry = Geometry(*size, scale)
        now = placed(geometry, items)
        base = next((shot for shot in reversed(self._recent) if shot.key == key and shot.image is not None), None)
        limit = MAX_DIRTY * size[0] * size[1]
        box = dirty_box(geometry, base.placed, now, limit) if base is not None else (0, 0, *size)
        if box is None:  # the same painting items under the same clips: the same image and pixels
            shot = _Shot(key, items, now, base.image, base.pixels)  # type: ignore[union-attr]
        elif (box[2] - box[0]) * (box[3] - box[1]) <= limit:
            image = self._take(base.image)  # type: ignore[union-attr]
            canvas = Canvas(*size, scale, background, image=image)
            if box[2] > box[0] and box[3] > box[1]:
                canvas.repaint(items, box)
            shot = _Shot(key, items, now, image, canvas.pixels())
        else:
            spare, self._spare = self._spare, None
            usable = spare is not None and spare.size == size
            canvas = Canvas(*size, scale, background, image=spare if usable else None, blank=usable)
            canvas.draw(items)
            shot = _Shot(key, items, now, canvas.image, canvas.pixels())
        leaving, self._recent = self._recent[:-(self.images - 1)], [*self._recent[-(self.images - 1):], shot]
        for old in leaving:
            if old.image is not None and all(kept.image is not old.image for kept in self._recent):
                self._spare = old.image
        return shot.pixels

    def _take(self, image: Image.Image) -> Image.Image:
        """``image``, to be painted over: every shot that holds it lets it go."""
        for shot in self._recent:
            if shot.image is image:
                shot.image = None
        return image
