"""The canvas: fast paths draw exactly the pixels of the general ones."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from mobilegym.device.sim import SimDevice
from mobilegym.sim.ui.render import Canvas

from .uitools import CORE_APPS

WHITE, BLUE = (255, 255, 255), (30, 90, 200)


@pytest.mark.parametrize("w, h, radius", [(40, 20, 6), (7, 30, 12), (100, 100, 50), (5, 5, 1.5), (61, 17, 8.5),
                                          (64, 64, 10.5), (65, 64, 10.5), (300, 120, 30)])
def test_rounded_rects_equal_pillows_drawn_and_clipped(w: int, h: int, radius: float) -> None:
    # small ones (up to SMALL_ROUNDED_PX) are pasted through a cached mask, larger ones drawn: both are
    # Pillow's rounded_rectangle, pixel for pixel, and so is one cut by a clip
    rect = ("rect", 10, 10, w, h, BLUE, radius)
    drawn = Image.new("RGB", (400, 400), WHITE)
    ImageDraw.Draw(drawn).rounded_rectangle((10, 10, 10 + w - 1, 10 + h - 1),
                                            radius=min(radius, (w - 1) / 2, (h - 1) / 2), fill=BLUE)
    painted = Canvas(400, 400, 1.0, WHITE).draw([rect])
    clipped = Canvas(400, 400, 1.0, WHITE).draw([("clip", 0, 0, 400, 10 + h - 1), rect, ("unclip",)])
    a, b, c = np.asarray(drawn), np.asarray(painted), np.asarray(clipped)
    assert (a != 255).any()  # the rect was drawn
    assert np.array_equal(a, b)
    assert np.array_equal(a[:10 + h - 1], c[:10 + h - 1])
    assert (c[10 + h - 1:] == 255).all()  # nothing outside the clip


@pytest.mark.parametrize("scale", [1.0, 0.37, 0.1])
def test_pixels_is_the_image_as_a_read_only_array(scale: float) -> None:
    phone = SimDevice(render_scale=scale, apps=CORE_APPS)
    phone.open_app("settings")
    frame = phone.frame()
    canvas = Canvas(*phone.render_size, phone.density * scale, frame.env.theme.background)
    image = canvas.draw(frame.items())
    pixels = canvas.pixels()
    assert pixels.shape == (image.height, image.width, 3) and pixels.dtype == np.uint8
    assert np.array_equal(pixels, np.asarray(image))
    assert not pixels.flags.writeable
    assert np.array_equal(phone.screenshot(), pixels)


def test_background_rects_at_the_start_are_skipped_without_changing_pixels() -> None:
    items = [("rect", 0, 0, 200, 200, WHITE, 0), ("rect", 5, 5, 20, 20, BLUE, 4), ("rect", 0, 0, 50, 50, WHITE, 0)]
    full = Canvas(200, 200, 1.0, WHITE).draw(items)
    assert np.asarray(full)[10, 10].tolist() == list(WHITE)  # the later white rect still paints over blue
    assert np.array_equal(np.asarray(full), np.asarray(Canvas(200, 200, 1.0, (0, 0, 0)).draw(items)))
