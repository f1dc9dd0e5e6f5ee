"""`screenrecord`: an MP4 of the screen while the simulated clock runs, written with no video library.

The phone's time only moves when something moves it, so recording ``--time-limit N`` seconds moves
the clock N seconds (as `sleep N` does) and keeps a frame for each second; frames that do not change
are one longer sample. The video track is Motion JPEG (MP4 object type 0x6C) in an ISO base media
file: every frame a JPEG from Pillow, boxes written by hand; ffmpeg and VLC play it.
"""
from __future__ import annotations

import io
import struct

import numpy as np
from PIL import Image

from .common import advance_clock
from .registry import CommandError, Invocation
from ...sim.vfs import normpath

MAX_SECONDS = 180  # Android's limit for one recording
DEFAULT_SECONDS = 180
TIMESCALE = 1000  # ticks a second in the track
JPEG_QUALITY = 80
MATRIX = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
USAGE = "usage: screenrecord [--time-limit SECONDS] [--size WIDTHxHEIGHT] [--bit-rate RATE] [--verbose] FILE.mp4"


def _box(kind: bytes, *parts: bytes) -> bytes:
    body = b"".join(parts)
    return struct.pack(">I", 8 + len(body)) + kind + body


def _full(kind: bytes, version: int, flags: int, *parts: bytes) -> bytes:
    return _box(kind, struct.pack(">I", (version << 24) | flags), *parts)


def _descriptor(tag: int, body: bytes) -> bytes:
    return bytes([tag, len(body)]) + body  # every descriptor here is shorter than 128 bytes


def mp4_bytes(frames: list[bytes], durations_ms: list[int], width: int, height: int) -> bytes:
    """An MP4 file of JPEG ``frames``, each shown for its duration."""
    if not frames or len(frames) != len(durations_ms):
        raise ValueError("an MP4 needs at least one frame and one duration per frame")
    total = sum(durations_ms)
    decoder = _descriptor(0x04, bytes([0x6C, 0x11]) + max(map(len, frames)).to_bytes(3, "big")
                          + struct.pack(">II", 0, 0))
    esds = _full(b"esds", 0, 0, _descriptor(0x03, struct.pack(">HB", 1, 0) + decoder + _descriptor(0x06, b"\x02")))
    entry = _box(b"mp4v", bytes(6), struct.pack(">H", 1), bytes(16), struct.pack(">HH", width, height),
                 struct.pack(">II", 0x480000, 0x480000), bytes(4), struct.pack(">H", 1),
                 bytes([5]) + b"MJPEG".ljust(31, b"\0"), struct.pack(">Hh", 0x18, -1), esds)
    stts = b"".join(struct.pack(">II", 1, d) for d in durations_ms)

    def moov(data_offset: int) -> bytes:
        stbl = _box(b"stbl", _full(b"stsd", 0, 0, struct.pack(">I", 1), entry),
                    _full(b"stts", 0, 0, struct.pack(">I", len(frames)), stts),
                    _full(b"stsc", 0, 0, struct.pack(">IIII", 1, 1, len(frames), 1)),
                    _full(b"stsz", 0, 0, struct.pack(">II", 0, len(frames)), *(struct.pack(">I", len(f)) for f in frames)),
                    _full(b"stco", 0, 0, struct.pack(">II", 1, data_offset)))
        minf = _box(b"minf", _full(b"vmhd", 0, 1, bytes(8)),
                    _box(b"dinf", _full(b"dref", 0, 0, struct.pack(">I", 1), _full(b"url ", 0, 1))), stbl)
        mdia = _box(b"mdia", _full(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, TIMESCALE, total, 0x55C4, 0)),
                    _full(b"hdlr", 0, 0, bytes(4), b"vide", bytes(12), b"VideoHandler\0"), minf)
        tkhd = _full(b"tkhd", 0, 3, struct.pack(">IIIII", 0, 0, 1, 0, total), bytes(8), struct.pack(">hhhH", 0, 0, 0, 0),
                     MATRIX, struct.pack(">II", width << 16, height << 16))
        mvhd = _full(b"mvhd", 0, 0, struct.pack(">IIIIIH", 0, 0, TIMESCALE, total, 0x10000, 0x100), bytes(10), MATRIX,
                     bytes(24), struct.pack(">I", 2))
        return _box(b"moov", mvhd, _box(b"trak", tkhd, mdia))

    ftyp = _box(b"ftyp", b"isom", struct.pack(">I", 0x200), b"isomiso2mp41")
    head = len(ftyp) + len(moov(0)) + 8
    return ftyp + moov(head) + _box(b"mdat", *frames)


def _jpeg(pixels: np.ndarray, size: tuple[int, int] | None) -> bytes:
    image = Image.fromarray(pixels)
    if size is not None and image.size != size:
        image = image.resize(size, Image.BILINEAR)
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=JPEG_QUALITY)
    return buf.getvalue()


def _options(args: list[str]) -> tuple[int, tuple[int, int] | None, bool, str]:
    seconds, size, verbose, target, i = DEFAULT_SECONDS, None, False, None, 0
    while i < len(args):
        a = args[i]
        if a in ("--time-limit", "--size", "--bit-rate", "--output-format", "--display-id") and i + 1 < len(args):
            value = args[i + 1]
            if a == "--time-limit":
                if not value.isdigit() or int(value) == 0:
                    raise CommandError(f"Invalid value for time limit: '{value}'\n{USAGE}")
                seconds = int(value)
                if seconds > MAX_SECONDS:
                    raise CommandError(f"Time limit {seconds}s exceeds maximum {MAX_SECONDS}s")
            elif a == "--size":
                w, _, h = value.partition("x")
                if not (w.isdigit() and h.isdigit() and 16 <= int(w) <= 4096 and 16 <= int(h) <= 4096):
                    raise CommandError(f"Invalid size '{value}', must be width x height\n{USAGE}")
                size = (int(w), int(h))
            elif a == "--output-format" and value != "mp4":
                raise CommandError(f"screenrecord: only --output-format mp4 is supported, got {value!r}")
            i += 2
        elif a in ("--verbose", "-v", "--bugreport", "--rotate"):
            verbose = verbose or a in ("--verbose", "-v")
            i += 1
        elif a.startswith("-"):
            raise CommandError(f"screenrecord: unknown option {a}\n{USAGE}")
        else:
            if target is not None:
                raise CommandError(f"screenrecord: one output file, got {target} and {a}\n{USAGE}")
            target = a
            i += 1
    if target is None or target == "-":
        raise CommandError(f"screenrecord: must specify output file (an .mp4 path on the phone)\n{USAGE}")
    return seconds, size, verbose, target


def record(inv: Invocation) -> int:
    """Run `screenrecord` (the command function)."""

    seconds, size, verbose, target = _options(inv.args[1:])
    shell = inv.shell
    path = normpath(target, shell.cwd)
    frames: list[bytes] = []
    durations: list[int] = []
    last: np.ndarray | None = None
    with shell.lock:
        for second in range(seconds + 1):
            if second:
                advance_clock(inv, 1, "screenrecord")
            pixels = shell.call(shell.phone.screenshot)
            if last is not None and np.array_equal(pixels, last):
                durations[-1] += TIMESCALE
                continue
            frames.append(_jpeg(pixels, size))
            durations.append(TIMESCALE)
            last = pixels
    durations[-1] -= TIMESCALE  # the last frame is the moment the recording stops
    if durations[-1] == 0:
        durations[-1] = 1
    h, w = last.shape[:2]  # type: ignore[union-attr]
    width, height = size or (w, h)
    shell.files.write(path, mp4_bytes(frames, durations, width, height))
    if verbose:
        inv.out(f"Main display is {w}x{h} @60.00fps (orientation=ROTATION_0)\nConfigured recording: {width}x{height}, "
                f"Motion JPEG, {seconds}s of the simulated clock\nStopped after {seconds}s ({len(frames)} distinct "
                "frames)\n")
    return 0
