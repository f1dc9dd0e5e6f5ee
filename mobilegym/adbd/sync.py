"""The `sync:` service (adb push/pull/ls) over the phone's VirtualFS.

Requests: STAT, STA2, LST2, LIST, RECV, SEND, QUIT. Pushed files take their modification
time from the phone's clock, not the host's.
"""
from __future__ import annotations

import struct
import zlib
from typing import Callable

from .transport import Stream
from ..sim.vfs import EISDIR, ENOENT, Node, VfsError, VirtualFS, normpath

SYNC_DATA_MAX = 64 * 1024
MAX_PATH = 4096
STAT_V1 = struct.Struct("<4sIII")
STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")
DENT = struct.Struct("<4sIIII")
UID, GID = 2000, 1015  # shell : sdcard_rw


def _status(tag: bytes, value: int) -> bytes:
    return tag + struct.pack("<I", value)


def fail(message: str) -> bytes:
    data = message.encode("utf-8")
    return _status(b"FAIL", len(data)) + data


def _stat_v1(node: Node | None) -> bytes:
    if node is None:
        return STAT_V1.pack(b"STAT", 0, 0, 0)
    return STAT_V1.pack(b"STAT", node.st_mode, min(node.size, 0xFFFFFFFF), node.mtime_ms // 1000)


def _stat_v2(tag: bytes, path: str, node: Node | None) -> bytes:
    if node is None:
        return STAT_V2.pack(tag, ENOENT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    sec = node.mtime_ms // 1000
    ino = zlib.crc32(path.encode())
    return STAT_V2.pack(tag, 0, 0xFD00, ino, node.st_mode, 2 if node.is_dir else 1, UID, GID,
                        node.size, sec, sec, sec)


def _lookup(files: VirtualFS, path: str) -> Node | None:
    try:
        return files.stat(path)
    except VfsError:
        return None


def _list(files: VirtualFS, path: str) -> bytes:
    out = bytearray()
    node = _lookup(files, path)
    if node is not None and node.is_dir:
        parent = _lookup(files, normpath(path + "/..")) or node
        for name, child in [(".", node), ("..", parent), *files.listdir(path)]:
            raw = name.encode("utf-8")
            out += DENT.pack(b"DENT", child.st_mode, min(child.size, 0xFFFFFFFF),
                             child.mtime_ms // 1000, len(raw)) + raw
    return bytes(out + DENT.pack(b"DONE", 0, 0, 0, 0))


def _recv(files: VirtualFS, path: str) -> bytes:
    try:
        data = files.read(path)
    except VfsError as exc:
        return fail(f"open failed: {exc.strerror}")
    out = bytearray()
    for start in range(0, len(data), SYNC_DATA_MAX):
        chunk = data[start:start + SYNC_DATA_MAX]
        out += _status(b"DATA", len(chunk)) + chunk
    return bytes(out + _status(b"DONE", 0))


def _send(stream: Stream, files: VirtualFS, spec: str) -> bytes:
    """Receive DATA... DONE for "path,mode" and store the file."""
    path, _, mode_text = spec.rpartition(",")
    if not path:
        path, mode_text = spec, "33188"
    existing = _lookup(files, path)
    room = files.free + (existing.size if existing is not None and not existing.is_dir else 0) \
        if hasattr(files, "free") else None
    body, too_big = bytearray(), False
    while True:
        tag, size = struct.unpack("<4sI", stream.read_exact(8))
        if tag == b"DATA":
            if size > SYNC_DATA_MAX:
                return fail(f"data chunk of {size} bytes is larger than {SYNC_DATA_MAX}")
            chunk = stream.read_exact(size)
            if room is not None and len(body) + size > room:
                too_big = True  # keep reading to DONE (as adbd does), store nothing
                body.clear()
            elif not too_big:
                body += chunk
        elif tag == b"DONE":
            break
        else:
            return fail(f"unexpected {tag!r} during SEND")
    if too_big:
        return fail("couldn't create file: No space left on device")
    try:
        mode = int(mode_text) & 0o7777 if mode_text.isdigit() else 0o644
        if path.endswith("/") or files.is_dir(path):
            raise VfsError(EISDIR, "Is a directory", path)
        files.write(path, bytes(body), mode=mode, make_parents=True)
    except VfsError as exc:
        return fail(f"couldn't create file: {exc.strerror}")
    return _status(b"OKAY", 0)


def serve_sync(stream: Stream, files_of: Callable[[], VirtualFS]) -> None:
    """Answer sync requests until QUIT or the host closes the stream."""
    while True:
        try:
            head = stream.read_exact(8)
        except ConnectionError:
            return
        tag, length = struct.unpack("<4sI", head)
        if tag == b"QUIT":
            return
        if length > MAX_PATH:
            stream.write(fail(f"path too long ({length} bytes)"))
            return
        path = stream.read_exact(length).decode("utf-8", "replace")
        files = files_of()
        if tag == b"STAT":
            reply = _stat_v1(_lookup(files, path))
        elif tag in (b"STA2", b"LST2"):
            reply = _stat_v2(tag, path, _lookup(files, path))
        elif tag == b"LIST":
            reply = _list(files, path)
        elif tag == b"RECV":
            reply = _recv(files, path)
        elif tag == b"SEND":
            reply = _send(stream, files, path)
        else:
            stream.write(fail(f"unknown sync command {tag!r}"))
            return
        stream.write(reply)
