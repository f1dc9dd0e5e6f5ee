"""Named errors of the environment server: an HTTP status, a code clients can switch on, a message."""
from __future__ import annotations


class ServeError(Exception):
    """A request the server refuses or could not carry out; sent as ``{"error": code, "message": ...}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, object]:
        return {"error": self.code, "message": self.message, "status": self.status}


def bad_request(code: str, message: str) -> ServeError:
    return ServeError(400, code, message)


def unknown_session(session: object) -> ServeError:
    return ServeError(404, "unknown_session", f"no session {session!r} (closed, reaped after idling, or never made)")
