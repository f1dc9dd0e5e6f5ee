"""One host connection of the simulated adbd: the CNXN handshake and multiplexed streams.

The reader thread owns the socket's input; every stream's service runs in its own thread and
writes through ``Connection.send`` (one lock). A stream waits for the host's OKAY after each
WRTE, as the protocol requires.
"""
from __future__ import annotations

import logging
import socket
import threading
from typing import Callable

from .adbd_proto import (A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_VERSION_MIN,
                         A_VERSION_SKIP_CHECKSUM, A_WRTE, MAX_PAYLOAD, MAX_PAYLOAD_V1, Message,
                         ProtocolError, pack, read_message)

log = logging.getLogger(__name__)
ACK_TIMEOUT_S = 30.0

Service = Callable[["Stream"], None]
Resolver = Callable[[str], "Service | None"]


class StreamClosed(ConnectionError):
    """The stream (or its whole connection) was closed."""


class Stream:
    """A bidirectional byte stream between a host socket and one service."""

    def __init__(self, conn: Connection, local_id: int, remote_id: int, name: str) -> None:
        self.conn = conn
        self.local_id = local_id
        self.remote_id = remote_id
        self.name = name
        self._cond = threading.Condition()
        self._inbox = bytearray()
        self._ready = True          # may send the next WRTE
        self._eof = False           # the host closed its side
        self._closed = False

    # called by the connection's reader ---------------------------------------------
    def on_okay(self) -> None:
        with self._cond:
            self._ready = True
            self._cond.notify_all()

    def on_data(self, data: bytes) -> None:
        with self._cond:
            self._inbox += data
            self._cond.notify_all()

    def on_close(self) -> None:
        with self._cond:
            self._eof = self._closed = True
            self._cond.notify_all()

    # used by services --------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def write(self, data: bytes) -> None:
        """Send bytes, split into WRTE messages of at most the negotiated payload size."""
        size = self.conn.max_payload
        for start in range(0, len(data), size):
            with self._cond:
                if not self._cond.wait_for(lambda: self._ready or self._closed, ACK_TIMEOUT_S):
                    raise StreamClosed(f"host did not acknowledge data on {self.name!r}")
                if self._closed:
                    raise StreamClosed(f"stream {self.name!r} is closed")
                self._ready = False
            self.conn.send(Message(A_WRTE, self.local_id, self.remote_id, data[start:start + size]))

    def read(self, limit: int = 1 << 20) -> bytes:
        """Up to ``limit`` bytes as soon as any arrive; b"" once the host closed the stream."""
        with self._cond:
            self._cond.wait_for(lambda: self._inbox or self._eof)
            chunk = bytes(self._inbox[:limit])
            del self._inbox[:limit]
            return chunk

    def read_exact(self, n: int) -> bytes:
        """Exactly ``n`` bytes, or StreamClosed."""
        with self._cond:
            self._cond.wait_for(lambda: len(self._inbox) >= n or self._eof)
            if len(self._inbox) < n:
                raise StreamClosed(f"stream {self.name!r} closed mid-message")
            chunk = bytes(self._inbox[:n])
            del self._inbox[:n]
            return chunk

    def close(self) -> None:
        """Close our side (sends CLSE once)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        self.conn.forget(self)
        try:
            self.conn.send(Message(A_CLSE, self.local_id, self.remote_id))
        except OSError:
            pass


class Connection:
    """The device side of one transport: handshake, stream table, message dispatch."""

    def __init__(self, sock: socket.socket, banner: str, resolve: Resolver) -> None:
        self.sock = sock
        self.banner = banner
        self.resolve = resolve
        self.version = A_VERSION_MIN
        self.max_payload = MAX_PAYLOAD_V1
        self._send_lock = threading.Lock()
        self._streams: dict[int, Stream] = {}
        self._streams_lock = threading.Lock()
        self._next_id = 1
        self._closed = threading.Event()

    def send(self, msg: Message) -> None:
        with_check = msg.command == A_CNXN or self.version < A_VERSION_SKIP_CHECKSUM
        data = pack(msg, with_check)
        with self._send_lock:
            self.sock.sendall(data)

    def forget(self, stream: Stream) -> None:
        with self._streams_lock:
            self._streams.pop(stream.local_id, None)

    def serve(self) -> None:
        """Read and dispatch messages until the host goes away or ``close`` is called."""
        try:
            while not self._closed.is_set():
                msg = read_message(self.sock, MAX_PAYLOAD, self.version < A_VERSION_SKIP_CHECKSUM)
                self._dispatch(msg)
        except ProtocolError as exc:
            log.warning("adbd: dropping connection: %s", exc)
        except OSError:
            pass
        finally:
            self.close()

    def _dispatch(self, msg: Message) -> None:
        if msg.command == A_CNXN:
            self._drop_streams()
            self.version = min(msg.arg0, A_VERSION)
            self.max_payload = max(MAX_PAYLOAD_V1, min(msg.arg1, MAX_PAYLOAD))
            self.send(Message(A_CNXN, A_VERSION, MAX_PAYLOAD, self.banner.encode()))
        elif msg.command == A_OPEN:
            self._open(msg.arg0, msg.data.rstrip(b"\0").decode("utf-8", "replace"))
        elif msg.command in (A_OKAY, A_WRTE, A_CLSE):
            with self._streams_lock:
                stream = self._streams.get(msg.arg1)
            if stream is None or (stream.remote_id != msg.arg0 and msg.command != A_CLSE):
                return
            if msg.command == A_OKAY:
                stream.on_okay()
            elif msg.command == A_WRTE:
                stream.on_data(msg.data)
                self.send(Message(A_OKAY, stream.local_id, stream.remote_id))
            else:
                self.forget(stream)
                stream.on_close()
        # AUTH, STLS and SYNC are not used: this device never asks for authentication

    def _open(self, remote_id: int, name: str) -> None:
        service = self.resolve(name)
        if service is None:
            log.info("adbd: refusing unknown service %r", name)
            self.send(Message(A_CLSE, 0, remote_id))
            return
        with self._streams_lock:
            local_id = self._next_id
            self._next_id += 1
            stream = Stream(self, local_id, remote_id, name)
            self._streams[local_id] = stream
        self.send(Message(A_OKAY, local_id, remote_id))
        threading.Thread(target=self._run_service, args=(service, stream), daemon=True,
                         name=f"adbd-{name[:24]}").start()

    @staticmethod
    def _run_service(service: Service, stream: Stream) -> None:
        try:
            service(stream)
        except (StreamClosed, OSError):
            pass
        except Exception:  # a broken service must not take the connection down
            log.exception("adbd: service %r failed", stream.name)
        finally:
            stream.close()

    def _drop_streams(self) -> None:
        with self._streams_lock:
            streams, self._streams = list(self._streams.values()), {}
        for stream in streams:
            stream.on_close()

    def close(self) -> None:
        """Close the socket and wake every stream."""
        self._closed.set()
        self._drop_streams()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
