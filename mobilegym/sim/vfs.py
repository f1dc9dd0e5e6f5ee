"""The simulated phone's small in-memory file system (what `adb push/pull`, `ls`, `cat` see).

Paths are absolute POSIX paths. ``/storage/emulated/0`` and ``/storage/self/primary`` are
aliases of ``/sdcard``. Modification times come from the phone's simulated clock.

As on a phone, ``/system`` (and the other system partitions) and the root directory are
read-only (EROFS), and the storage is finite: ``quota`` bytes of file data and ``max_nodes``
files and folders (ENOSPC beyond).
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
READ_ONLY = ("/system", "/system_ext", "/vendor", "/product", "/odm", "/apex")
DEFAULT_QUOTA = 128 * 1024 * 1024  # bytes of file data
DEFAULT_MAX_NODES = 20_000


class VfsError(OSError):
    """A file system operation failed; ``errno`` and ``strerror`` are set like a real OSError."""


def _err(code: int, text: str, path: str) -> VfsError:
    return VfsError(code, text, path)


ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY, EINVAL, ENOSPC, EROFS = 2, 17, 20, 21, 39, 22, 28, 30


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

    def __init__(self, clock: Callable[[], int] = lambda: 0, *, quota: int = DEFAULT_QUOTA,  # noqa: B008
                 max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.clock = clock
        self.quota = quota
        self.max_nodes = max_nodes
        self.lock = threading.RLock()
        self.nodes = {"/": Node(None, 0o755, 0)}
        for d in DEFAULT_DIRS:
            self._makedirs(d, d, check=False)

    @property
    def nodes(self) -> dict[str, Node]:
        """path -> Node. Assign a whole new dict (e.g. to restore a snapshot), never edit it in place."""
        return self._nodes

    @nodes.setter
    def nodes(self, nodes: dict[str, Node]) -> None:
        with self.lock:
            self._nodes = nodes
            self.used = sum(len(n.data) for n in nodes.values() if n.data is not None)

    @property
    def free(self) -> int:
        """Bytes that may still be written."""
        return max(0, self.quota - self.used)

    def _writable(self, p: str, path: str) -> None:
        """EROFS for the system partitions and for entries directly under ``/``."""
        if p == "/" or posixpath.dirname(p) == "/" or any(p == r or p.startswith(r + "/") for r in READ_ONLY):
            raise _err(EROFS, "Read-only file system", path)

    def _room(self, added_bytes: int, added_nodes: int, path: str) -> None:
        if added_bytes > 0 and self.used + added_bytes > self.quota:
            raise _err(ENOSPC, "No space left on device", path)
        if added_nodes > 0 and len(self._nodes) + added_nodes > self.max_nodes:
            raise _err(ENOSPC, "No space left on device", path)

    def __getstate__(self) -> dict:
        # a lock cannot be pickled or deep-copied: each copy gets its own
        state = self.__dict__.copy()
        del state["lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.lock = threading.RLock()

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
            self._writable(p, path)
            old = self.nodes.get(p)
            if old is not None and old.is_dir:
                raise _err(EISDIR, "Is a directory", path)
            old_size = 0 if old is None else len(old.data)  # type: ignore[arg-type]
            self._room(len(data) - (0 if append else old_size), int(old is None), path)
            if make_parents:
                self.makedirs(posixpath.dirname(p))
            self._parent_dir(p, path)
            if append and old is not None:
                data = old.data + data  # type: ignore[operator]
            data = bytes(data)
            self.nodes[p] = Node(data, mode if old is None else old.mode, self.clock())
            self.used += len(data) - old_size

    def mkdir(self, path: str, parents: bool = False) -> None:
        p = normpath(path)
        with self.lock:
            if parents:
                self.makedirs(p)
                return
            if p in self.nodes:
                raise _err(EEXIST, "File exists", path)
            self._writable(p, path)
            self._parent_dir(p, path)
            self._room(0, 1, path)
            self.nodes[p] = Node(None, 0o771, self.clock())

    def makedirs(self, path: str) -> None:
        """mkdir -p."""
        self._makedirs(normpath(path), path, check=True)

    def _makedirs(self, p: str, path: str, check: bool) -> None:
        with self.lock:
            cur = ""
            for part in [x for x in p.split("/") if x]:
                cur += "/" + part
                node = self.nodes.get(cur)
                if node is None:
                    if check:
                        self._writable(cur, path)
                        self._room(0, 1, path)
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
            self._writable(p, path)
            below = [k for k in self.walk(p) if k != p] if node.is_dir else []
            if below and not recursive:
                raise _err(ENOTEMPTY, "Directory not empty", path)
            for k in [*below, p]:
                gone = self.nodes.pop(k)
                self.used -= len(gone.data) if gone.data is not None else 0

    def move(self, src: str, dst: str) -> None:
        """Rename a file or directory (into ``dst`` if it is a directory)."""
        s, d = normpath(src), normpath(dst)
        with self.lock:
            moving = self.stat(s)
            if self.is_dir(d):
                d = posixpath.join(d, posixpath.basename(s))
            if d == s:
                return
            self._writable(s, src)
            self._writable(d, dst)
            self._parent_dir(d, dst)
            if d.startswith(s + "/"):
                raise _err(EINVAL, "Invalid argument", dst)
            replaced = self.nodes.get(d)
            if replaced is not None and (replaced.is_dir or moving.is_dir):
                raise _err(EEXIST, "File exists", dst)
            if replaced is not None:
                self.used -= len(replaced.data)  # type: ignore[arg-type]
            for k in list(self.walk(s)):
                self.nodes[d + k[len(s):]] = self.nodes.pop(k)
