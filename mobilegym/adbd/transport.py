"""One host connection of the simulated adbd: the CNXN handshake and multiplexed streams.

The reader thread owns the socket's input; every stream's service runs in its own thread and
writes through ``Connection.send`` (one lock). A stream waits for the host's OKAY after each
WRTE, as the protocol requires, and acknowledges the host's WRTEs only while its unread input
is under ``Limits.window`` (back-pressure: a stalled service stops the host instead of
buffering without bound). Every wait has a deadline (:class:`Limits`).
"""
from __future__ import annotations

import logging
import select
import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable

from .auth import AUTH_SIGNATURE, AUTH_TOKEN, Authenticator, PublicKey
from .proto import (A_AUTH, A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_VERSION, A_VERSION_MIN,
                    A_VERSION_SKIP_CHECKSUM, A_WRTE, HEADER, MAX_PAYLOAD, MAX_PAYLOAD_V1, Message,
                    ProtocolError, check_payload, pack, parse_header)

log = logging.getLogger(__name__)
MAX_AUTH_TRIES = 8  # signatures (keys) a host may try per connection

Service = Callable[["Stream"], None]
Resolver = Callable[[str], "Service | None"]


@dataclass(frozen=True)
class Limits:
    """What one ADB client may hold on the server, and how long anything may wait.

    The defaults suit any ADB tool (an adb server opens one connection per device; adbutils,
    adb-shell and pure-python-adb a handful of streams at a time).
    """

    max_connections: int = 64             # connections in total
    max_connections_per_client: int = 16  # connections from one peer address
    max_streams: int = 32                 # open streams per connection (each runs in a thread)
    max_streams_per_client: int = 64      # open streams over all connections of one peer address
    window: int = 256 * 1024              # unread bytes a stream holds before it stops acknowledging
    handshake_timeout: float = 10.0       # s from accept to the host's CNXN
    idle_timeout: float = 900.0           # s without a message on a connection with no open stream;
    #                                       also the longest a service waits for the host's input
    message_timeout: float = 30.0         # s to receive the rest of a started message
    ack_timeout: float = 30.0             # s to wait for the host's OKAY after a WRTE
    send_timeout: float = 30.0            # s a socket send may block (the host is not reading)

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not value > 0:
                raise ValueError(f"Limits.{name} must be positive, got {value!r}")


class StreamBudget:
    """Open streams of one client (peer address), counted over all its connections."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.used >= self.limit:
                return False
            self.used += 1
            return True

    def give(self) -> None:
        with self._lock:
            self.used -= 1


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
        self._owe_okay = False      # the host's last WRTE is not acknowledged yet (window full)

    # called by the connection's reader ---------------------------------------------
    def on_okay(self) -> None:
        with self._cond:
            self._ready = True
            self._cond.notify_all()

    def on_data(self, data: bytes) -> bool:
        """Queue the host's bytes; True to acknowledge now, False to hold the OKAY back.

        Raises ProtocolError if the host writes again before its last WRTE was acknowledged.
        """
        with self._cond:
            if self._owe_okay:
                raise ProtocolError(f"host wrote to {self.name!r} before its last write was acknowledged")
            self._inbox += data
            self._cond.notify_all()
            if len(self._inbox) > self.conn.limits.window:
                self._owe_okay = True
                return False
            return True

    def on_close(self) -> None:
        with self._cond:
            self._eof = self._closed = True
            self._cond.notify_all()

    # used by services --------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def buffered(self) -> int:
        """Unread input bytes."""
        return len(self._inbox)

    def write(self, data: bytes) -> None:
        """Send bytes, split into WRTE messages of at most the negotiated payload size."""
        size = self.conn.max_payload
        for start in range(0, len(data), size):
            with self._cond:
                if not self._cond.wait_for(lambda: self._ready or self._closed, self.conn.limits.ack_timeout):
                    raise StreamClosed(f"host did not acknowledge data on {self.name!r}")
                if self._closed:
                    raise StreamClosed(f"stream {self.name!r} is closed")
                self._ready = False
            self.conn.send(Message(A_WRTE, self.local_id, self.remote_id, data[start:start + size]))

    def _take(self, n: int) -> bytes:
        chunk = bytes(self._inbox[:n])
        del self._inbox[:n]
        return chunk

    def _after_take(self) -> None:
        """Acknowledge the host's held-back write once the inbox is under the window again."""
        with self._cond:
            owe = self._owe_okay and len(self._inbox) <= self.conn.limits.window and not self._closed
            if owe:
                self._owe_okay = False
        if owe:
            try:
                self.conn.send(Message(A_OKAY, self.local_id, self.remote_id))
            except OSError:
                pass

    def _wait_input(self, ready: Callable[[], bool]) -> None:
        if not self._cond.wait_for(lambda: ready() or self._eof, self.conn.limits.idle_timeout):
            raise StreamClosed(f"no input on {self.name!r} for {self.conn.limits.idle_timeout:g} s")

    def read(self, limit: int = 1 << 20) -> bytes:
        """Up to ``limit`` bytes as soon as any arrive; b"" once the host closed the stream."""
        with self._cond:
            self._wait_input(lambda: bool(self._inbox))
            chunk = self._take(limit)
        self._after_take()
        return chunk

    def read_exact(self, n: int) -> bytes:
        """Exactly ``n`` bytes, or StreamClosed."""
        chunks, need = [], n
        while need:  # a read larger than the window must drain it piece by piece
            with self._cond:
                self._wait_input(lambda: len(self._inbox) >= min(need, self.conn.limits.window))
                if not self._inbox or (self._eof and len(self._inbox) < need):
                    raise StreamClosed(f"stream {self.name!r} closed mid-message")
                chunk = self._take(need)
            need -= len(chunk)
            chunks.append(chunk)
            self._after_take()
        return b"".join(chunks)

    def close(self) -> None:
        """Close our side (sends CLSE once)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._inbox.clear()
            self._cond.notify_all()
        self.conn.forget(self)
        try:
            self.conn.send(Message(A_CLSE, self.local_id, self.remote_id))
        except OSError:
            pass


class Connection:
    """The device side of one transport: handshake, stream table, message dispatch."""

    def __init__(self, sock: socket.socket, banner: str, resolve: Resolver, limits: Limits | None = None,
                 budget: StreamBudget | None = None, keys: tuple[PublicKey, ...] | None = None) -> None:
        self.sock = sock
        self.banner = banner
        self.resolve = resolve
        self.limits = limits or Limits()
        self.budget = budget or StreamBudget(self.limits.max_streams_per_client)
        self.version = A_VERSION_MIN
        self.max_payload = MAX_PAYLOAD_V1
        self._send_lock = threading.Lock()
        self._streams: dict[int, Stream] = {}
        self._streams_lock = threading.Lock()
        self._next_id = 1
        self._closed = threading.Event()
        self._connected = False
        # with authorized keys, the host must sign a token before CNXN is answered and any stream opens
        self._auth = Authenticator(keys) if keys else None
        self._auth_failures = 0
        self._host = (A_VERSION_MIN, MAX_PAYLOAD_V1)  # the host's CNXN: its version and largest payload
        self.threads: list[threading.Thread] = []
        sock.settimeout(self.limits.send_timeout)  # bounds sendall; reads wait in select()

    @property
    def stream_count(self) -> int:
        with self._streams_lock:
            return len(self._streams)

    def send(self, msg: Message) -> None:
        with_check = msg.command == A_CNXN or self.version < A_VERSION_SKIP_CHECKSUM
        data = pack(msg, with_check)
        with self._send_lock:
            if self._closed.is_set():
                raise ConnectionResetError("connection closed")
            try:
                self.sock.sendall(data)
            except OSError:  # a host that stopped reading (timeout) or went away: drop it
                self._closed.set()
                self._shutdown()
                raise

    def forget(self, stream: Stream) -> None:
        with self._streams_lock:
            gone = self._streams.pop(stream.local_id, None)
        if gone is not None:
            self.budget.give()

    # reading -----------------------------------------------------------------------
    def _recv_exact(self, n: int, first_deadline: float | None) -> bytes:
        """``n`` bytes; the first must arrive before ``first_deadline`` (None: no bound while
        idle is allowed), the rest within ``message_timeout``."""
        buf = bytearray()
        deadline = first_deadline
        while len(buf) < n:
            if self._closed.is_set():
                raise ConnectionResetError("connection closed")
            wait = 1.0 if deadline is None else max(0.0, min(1.0, deadline - time.monotonic()))
            try:
                readable, _, _ = select.select([self.sock], [], [], wait)
            except (ValueError, OSError):  # closed by another thread
                raise ConnectionResetError("connection closed") from None
            if not readable:
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError("idle" if not buf else "stalled mid-message")
                if deadline is None and not buf:
                    deadline = self._idle_deadline()
                continue
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionResetError("peer closed the connection")
            if not buf:
                deadline = time.monotonic() + self.limits.message_timeout
            buf += chunk
        return bytes(buf)

    def _idle_deadline(self) -> float | None:
        """When an idle connection is dropped: after the handshake timeout before CNXN, after the
        idle timeout with no open stream; never while a stream is open (its service has its own)."""
        if not self._connected:
            return self._accepted + self.limits.handshake_timeout
        if self.stream_count:
            return None
        return self._last_message + self.limits.idle_timeout

    def read_message(self) -> Message:
        head = self._recv_exact(HEADER.size, self._idle_deadline())
        command, arg0, arg1, length, check = parse_header(head, MAX_PAYLOAD)
        data = self._recv_exact(length, time.monotonic() + self.limits.message_timeout) if length else b""
        check_payload(command, data, check, self.version < A_VERSION_SKIP_CHECKSUM)
        self._last_message = time.monotonic()
        return Message(command, arg0, arg1, data)

    def serve(self) -> None:
        """Read and dispatch messages until the host goes away, a limit is hit or ``close``."""
        self._accepted = self._last_message = time.monotonic()
        try:
            while not self._closed.is_set():
                self._dispatch(self.read_message())
        except ProtocolError as exc:
            log.warning("adbd: dropping connection: %s", exc)
        except TimeoutError as exc:
            log.info("adbd: dropping connection: %s", exc)
        except OSError:
            pass
        finally:
            self.close()

    def _dispatch(self, msg: Message) -> None:
        if msg.command == A_CNXN:
            self._host = (msg.arg0, msg.arg1)
            if self._auth is not None and not self._connected:
                self.send(Message(A_AUTH, AUTH_TOKEN, 0, self._auth.new_token()))
            else:
                self._connect()
        elif msg.command == A_AUTH and self._auth is not None and not self._connected:
            self._authenticate(msg)
        elif self._auth is not None and not self._connected:
            return  # nothing but the handshake before the host has signed
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
                if stream.on_data(msg.data):
                    self.send(Message(A_OKAY, stream.local_id, stream.remote_id))
            else:  # the host closed the stream: wake its service and answer with our CLSE
                stream.on_close()
                self.forget(stream)
                self.send(Message(A_CLSE, stream.local_id, stream.remote_id))
        # STLS and SYNC are not used; AUTH only with authorized keys

    def _connect(self) -> None:
        """Answer the host's CNXN: the negotiated version and payload size, and our banner."""
        version, payload = self._host
        self._drop_streams()
        self._connected = True
        self.version = min(version, A_VERSION)
        self.max_payload = max(MAX_PAYLOAD_V1, min(payload, MAX_PAYLOAD))
        self.send(Message(A_CNXN, A_VERSION, MAX_PAYLOAD, self.banner.encode()))

    def _authenticate(self, msg: Message) -> None:
        """A host's answer to our token: a signature an authorized key verifies connects it; anything else (a
        wrong signature, an offered public key this phone cannot ask its user about) gets a new token, up to
        MAX_AUTH_TRIES, and the handshake timeout still applies."""
        assert self._auth is not None
        if msg.arg0 == AUTH_SIGNATURE and self._auth.accepts(msg.data):
            self._connect()
            return
        self._auth_failures += 1
        if self._auth_failures > MAX_AUTH_TRIES:
            raise ProtocolError(f"the host failed ADB authentication {MAX_AUTH_TRIES} times")
        if msg.arg0 == AUTH_SIGNATURE:
            self.send(Message(A_AUTH, AUTH_TOKEN, 0, self._auth.new_token()))
        else:
            log.info("adbd: refusing a host whose key is not authorized")

    def _open(self, remote_id: int, name: str) -> None:
        service = self.resolve(name)
        if service is None:
            log.info("adbd: refusing unknown service %r", name)
            self.send(Message(A_CLSE, 0, remote_id))
            return
        with self._streams_lock:
            if len(self._streams) >= self.limits.max_streams or not self.budget.take():
                service = None
            else:
                local_id = self._next_id
                self._next_id += 1
                stream = Stream(self, local_id, remote_id, name)
                self._streams[local_id] = stream
        if service is None:
            log.info("adbd: refusing %r: too many open streams (%d on this connection, at most %d per "
                     "connection and %d per client)", name, len(self._streams), self.limits.max_streams,
                     self.limits.max_streams_per_client)
            self.send(Message(A_CLSE, 0, remote_id))
            return
        self.send(Message(A_OKAY, local_id, remote_id))
        thread = threading.Thread(target=self._run_service, args=(service, stream), daemon=True,
                                  name=f"adbd-{name[:24]}")
        self.threads = [t for t in self.threads if t.is_alive()] + [thread]
        thread.start()

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
            self.budget.give()
            stream.on_close()

    def _shutdown(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def close(self) -> None:
        """Close the socket and wake every stream."""
        self._closed.set()
        self._drop_streams()
        self._shutdown()
        self.sock.close()
