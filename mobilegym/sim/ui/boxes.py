"""Pixel boxes, shared by the painter and the tree export: (x0, y0, x1, y1), end-exclusive."""
from __future__ import annotations

Box = tuple[int, int, int, int]


def intersect(a: Box, b: Box) -> Box:
    """The part of ``a`` inside ``b`` (empty when x1 <= x0 or y1 <= y0); conditionals, not min/max: it runs for
    every item painted and every node exported."""
    return (a[0] if a[0] > b[0] else b[0], a[1] if a[1] > b[1] else b[1],
            a[2] if a[2] < b[2] else b[2], a[3] if a[3] < b[3] else b[3])
