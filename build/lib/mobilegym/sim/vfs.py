"""The simulated phone's small in-memory file system (what `adb push/pull`, `ls`, `cat` see).

Paths are absolute POSIX paths. ``/storage/emulated/0`` and ``/storage/self/primary`` are
aliases of ``/sdcard``. Modification times come from the phone's simulated clock.
"""
from __future__ import annotations

import fnmatch
import posixpath
import stat
import threading
from dataclasses import dataclass
from typing import Callable, Iterator

_ALIASES = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard")
DEFAULT_DIRS = (
    "/sdcard/Download", "/sdcard/DCIM/Camera", "/sdcard/Pictures", "/sdcard/Documents",
    "/sdcard/Music", "/sdcard/Movies", "/sdcard/Android", "/data/local/tmp", "/system/bin",
    "/dev", "/proc", "/storage/emulated",
)


class VfsError(OSError):
    """A file system operation failed; ``errno`` and ``strerror`` are set like a real OSError."""


def _err(code: int, text: str, path: str) -> VfsError:
    return VfsError(code, text, path)


ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY, EINVAL = 2, 17, 20, 21, 39, 22


@dataclass
class Node:
    """A file (``data`` is bytes) or a directory (``data`` is None)."""

    data: bytes | None
    mode: int
    mtime_ms: int

    @property
    def is_dir(self) -> bool:
        return self.data is None

    @property
    def size(self) -> int:
        return 4096 if self.data is None else len(self.data)

    @property
    def st_mode(self) -> int:
        return (stat.S_IFDIR if self.is_dir else stat.S_IFREG) | (self.mode & 0o7777)


def normpath(path: str, cwd: str = "/") -> str:
    """An absolute, normalised path with the /sdcard aliases folded."""
    if not path:
        raise _err(ENOENT, "No such file or directory", path)
    full = posixpath.normpath(posixpath.join(cwd, path))
    if full.startswith("//"):
        full = full[1:]
    for alias in _ALIASES:
        if full == alias or full.startswith(alias + "/"):
            return "/sdcard" + full[len(alias):]
    return full


class VirtualFS:
    """A thread-safe dict path -> Node with POSIX-like operations."""

    def __init__(self, clock: Callable[[], int] = lambda: 0) -> None:
        self.clock = clock
        self.lock = threading.RLock()
        self.nodes: dict[str, Node] = {"/": Node(None, 0o755, 0)}
        for d in DEFAULT_DIRS:
            self.makedirs(d)

    # queries -------------------------------------------------------------------------
    def stat(self, path: str) -> Node:
        """The node at ``path``; VfsError(ENOENT) if missing."""
        p = normpath(path)
        with self.lock:
            node = self.nodes.get(p)
        if node is None:
            raise _err(ENOENT, "No such file or directory", path)
        return node

    def exists(self, path: str) -> bool:
        with self.lock:
            return normpath(path) in self.nodes

    def is_dir(self, path: str) -> bool:
        with self.lock:
            node = self.nodes.get(normpath(path))
        return node is not None and node.is_dir

    def read(self, path: str) -> bytes:
        node = self.stat(path)
        if node.is_dir:
            raise _err(EISDIR, "Is a directory", path)
        return node.data  # type: ignore[return-value]

    def listdir(self, path: str) -> list[tuple[str, Node]]:
        """Sorted (name, node) children of a directory."""
        p = normpath(path)
        node = self.stat(p)
        if not node.is_dir:
            raise _err(ENOTDIR, "Not a directory", path)
        prefix = p.rstrip("/") + "/"
        with self.lock:
            return sorted(
                (k[len(prefix):], v) for k, v in self.nodes.items()
                if k.startswith(prefix) and k != prefix and "/" not in k[len(prefix):]
            )

    def walk(self, path: str) -> Iterator[str]:
        """Every path at or below ``path``."""
        p = normpath(path)
        prefix = p.rstrip("/") + "/"
        with self.lock:
            keys = sorted(k for k in self.nodes if k == p or k.startswith(prefix))
        yield from keys

    def glob(self, pattern: str) -> list[str]:
        """Paths matching a shell pattern (``*`` and ``?`` do not cross ``/``)."""
        pat = normpath(pattern)
        depth = pat.count("/")
        with self.lock:
            return sorted(
                k for k in self.nodes
                if k != "/" and k.count("/") == depth and fnmatch.fnmatchcase(k, pat)
            )

    # mutations -----------------------------------------------------------------------
    def _parent_dir(self, p: str, path: str) -> None:
        parent = self.nodes.get(posixpath.dirname(p))
        if parent is None:
            raise _err(ENOENT, "No such file or directory", path)
        if not parent.is_dir:
            raise _err(ENOTDIR, "Not a directory", path)

    def write(self, path: str, data: bytes, mode: int = 0o660, append: bool = False,
              make_parents: bool = False) -> None:
        """Create or replace (or append to) a file."""
        p = normpath(path)
        with self.lock:
            if make_parents:
                self.makedirs(posixpath.dirname(p))
            self._parent_dir(p, path)
            old = self.nodes.get(p)
            if old is not None and old.is_dir:
                raise _err(EISDIR, "Is a directory", path)
            if append and old is not None:
                data = old.data + data  # type: ignore[operator]
            self.nodes[p] = Node(bytes(data), mode if old is None else old.mode, self.clock())

    def mkdir(self, path: str, parents: bool = False) -> None:
        p = normpath(path)
        with self.lock:
            if parents:
                self.makedirs(p)
                return
            if p in self.nodes:
                raise _err(EEXIST, "File exists", path)
            self._parent_dir(p, path)
            self.nodes[p] = Node(None, 0o771, self.clock())

    def makedirs(self, path: str) -> None:
        """mkdir -p."""
        p = normpath(path)
        with self.lock:
            parts = [x for x in p.split("/") if x]
            cur = ""
            for part in parts:
                cur += "/" + part
                node = self.nodes.get(cur)
                if node is None:
                    self.nodes[cur] = Node(None, 0o771, self.clock())
                elif not node.is_dir:
                    raise _err(ENOTDIR, "Not a directory", path)

    def remove(self, path: str, recursive: bool = False) -> None:
        """Delete a file, or a directory (empty unless ``recursive``)."""
        p = normpath(path)
        with self.lock:
            node = self.stat(p)
            if p == "/":
                raise _err(EINVAL, "Invalid argument", path)
            if node.is_dir:
                below = [k for k in self.walk(p) if k != p]
                if below and not recursive:
                    raise _err(ENOTEMPTY, "Directory not empty", path)
                for k in below:
                    del self.nodes[k]
            del self.nodes[p]

    def move(self, src: str, dst: str) -> None:
        """Rename a file or directory (into ``dst`` if it is a directory)."""
        s, d = normpath(src), normpath(dst)
        with self.lock:
            self.stat(s)
            if self.is_dir(d):
                d = posixpath.join(d, posixpath.basename(s))
            self._parent_dir(d, dst)
            for k in list(self.walk(s)):
                self.nodes[d + k[len(s):]] = self.nodes.pop(k)
