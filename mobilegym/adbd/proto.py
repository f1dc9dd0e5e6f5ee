"""ADB transport framing: the 24-byte message header, commands and version constants."""
from __future__ import annotations

import socket
import struct
from dataclasses import dataclass


def _cmd(name: bytes) -> int:
    return struct.unpack("<I", name)[0]


A_SYNC, A_CNXN, A_OPEN = _cmd(b"SYNC"), _cmd(b"CNXN"), _cmd(b"OPEN")
A_OKAY, A_CLSE, A_WRTE = _cmd(b"OKAY"), _cmd(b"CLSE"), _cmd(b"WRTE")
A_AUTH, A_STLS = _cmd(b"AUTH"), _cmd(b"STLS")
NAMES = {A_SYNC: "SYNC", A_CNXN: "CNXN", A_OPEN: "OPEN", A_OKAY: "OKAY", A_CLSE: "CLSE",
         A_WRTE: "WRTE", A_AUTH: "AUTH", A_STLS: "STLS"}

A_VERSION_MIN = 0x01000000
A_VERSION_SKIP_CHECKSUM = 0x01000001
A_VERSION = 0x01000001
MAX_PAYLOAD = 1024 * 1024          # what we offer; the host's CNXN may lower it
MAX_PAYLOAD_V1 = 4 * 1024          # the limit before protocol version 0x01000001
HEADER = struct.Struct("<6I")


class ProtocolError(ConnectionError):
    """The peer sent something that is not a valid ADB message."""


@dataclass
class Message:
    """One ADB message: command, two arguments and a payload."""

    command: int
    arg0: int
    arg1: int
    data: bytes = b""

    @property
    def name(self) -> str:
        return NAMES.get(self.command, hex(self.command))


def checksum(data: bytes) -> int:
    """The legacy data check: the byte sum, modulo 2**32."""
    return sum(data) & 0xFFFFFFFF


def pack(msg: Message, with_checksum: bool = True) -> bytes:
    """Header + payload, ready for the wire."""
    check = checksum(msg.data) if with_checksum else 0
    head = HEADER.pack(msg.command, msg.arg0, msg.arg1, len(msg.data), check,
                       msg.command ^ 0xFFFFFFFF)
    return head + msg.data


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionResetError("peer closed the connection")
        buf += chunk
    return bytes(buf)


def parse_header(head: bytes, max_payload: int) -> tuple[int, int, int, int, int]:
    """(command, arg0, arg1, length, check) of a 24-byte header; ProtocolError on a bad magic or size."""
    command, arg0, arg1, length, check, magic = HEADER.unpack(head)
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic for command {command:#x}")
    if length > max_payload:
        raise ProtocolError(f"payload of {length} bytes exceeds the maximum {max_payload}")
    return command, arg0, arg1, length, check


def check_payload(command: int, data: bytes, check: int, verify_checksum: bool) -> None:
    if verify_checksum and check != checksum(data):
        raise ProtocolError(f"checksum mismatch on {NAMES.get(command, hex(command))}")


def read_message(sock: socket.socket, max_payload: int, verify_checksum: bool) -> Message:
    """Read one message (blocking); raise ProtocolError on a bad magic, size or checksum."""
    command, arg0, arg1, length, check = parse_header(_recv_exact(sock, HEADER.size), max_payload)
    data = _recv_exact(sock, length) if length else b""
    check_payload(command, data, check, verify_checksum)
    return Message(command, arg0, arg1, data)
