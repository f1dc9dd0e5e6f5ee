"""`content query|insert|update|delete`: Android's content providers over the world document.

| URI | rows | state |
|---|---|---|
| content://com.android.contacts/contacts (content://contacts/people) | one per contact | apps.contacts.contacts |
| content://com.android.contacts/raw_contacts | one per contact | apps.contacts.contacts |
| content://com.android.contacts/data[/phones,/emails] | name, phone, email, organization, note rows | apps.contacts.contacts |
| content://sms[/inbox,/sent] | one per message, newest first | apps.messages.conversations |
| content://com.android.calendar/events, /calendars | events, calendars | apps.calendar |
| content://settings/system, /global, /secure | name, value | apps.settings (see settings.py) |

Output is Android 14's: ``Row: 0 _id=1, display_name=Alice Chen`` (NULL for null values) or
``No result found.``. ``--where`` takes SQL-like conditions (``=``, ``!=``, ``<``, ``>``, ``<=``,
``>=``, ``LIKE``, ``IS [NOT] NULL`` joined by AND/OR); ``--bind NAME:TYPE:VALUE`` with types
b s i l f d n. ``_id`` is the number at the end of the state's id (``contact_03`` -> 3).
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Any, Callable

from ...sim.clock import from_ms, to_ms
from . import settings as settings_map
from .registry import CommandError, Invocation, command

Row = dict[str, Any]
PHONE_TYPES = {"home": 1, "mobile": 2, "work": 3, "fax_work": 4, "fax_home": 5, "pager": 6, "other": 7}
MIME = {"name": "vnd.android.cursor.item/name", "phone": "vnd.android.cursor.item/phone_v2",
        "email": "vnd.android.cursor.item/email_v2", "org": "vnd.android.cursor.item/organization",
        "note": "vnd.android.cursor.item/note"}
USAGE = """usage: adb shell content [subcommand] [options]

usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>]
usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...]
usage: adb shell content update --uri <URI> [--user <USER_ID>] [--where <WHERE>] --bind <BINDING> [--bind <BINDING>...]
usage: adb shell content delete --uri <URI> [--user <USER_ID>] [--where <WHERE>]
"""


class ProviderError(CommandError):
    def __init__(self, uri: str, message: str) -> None:
        super().__init__(f"Error while accessing provider:{uri.removeprefix('content://').split('/')[0]}\n"
                         f"java.lang.IllegalArgumentException: {message}")


# --------------------------------------------------------------------------- ids
def _num(state_id: str) -> int | None:
    m = re.search(r"(\d+)$", str(state_id))
    return int(m.group(1)) if m else None


def numeric_ids(items: list[dict[str, Any]]) -> list[int]:
    """Android-style integer ids: the digits ending each state id, or positions if they clash."""
    nums = [_num(item.get("id", "")) for item in items]
    if None in nums or len(set(nums)) != len(nums):
        return list(range(1, len(items) + 1))
    return nums  # type: ignore[return-value]


def _new_id(inv: Invocation, prefix: str) -> tuple[str, int]:
    """A fresh id the way apps make them (os.seq) and the patch that records it."""
    seq = inv.shell.call(inv.shell.phone.get_state)["os"].get("seq", 100) + 1
    return f"{prefix}_{seq}", seq


# --------------------------------------------------------------------------- where / bind
_TOKEN = re.compile(r"\s*(?:('(?:[^']|'')*')|(\"(?:[^\"]|\"\")*\")|(<=|>=|!=|<>|==|=|<|>|\(|\))|([^\s=<>!()'\"]+))")


def _tokens(text: str) -> list[str]:
    out, i = [], 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if m is None or m.end() == i:
            if text[i:].strip():
                raise CommandError(f"content: cannot parse --where at {text[i:]!r}")
            break
        out.append(next(g for g in m.groups() if g is not None))
        i = m.end()
    return out


def _literal(token: str) -> Any:
    if token[:1] in ("'", '"'):
        return token[1:-1].replace(token[0] * 2, token[0])
    if token.upper() == "NULL":
        return None
    try:
        return int(token)
    except ValueError:
        try:
            return float(token)
        except ValueError:
            return token


def _like(pattern: str, value: str) -> bool:
    """SQL LIKE (case-insensitive; % any run, _ one character) without a regex engine."""
    p, v = pattern.lower(), value.lower()
    pi = vi = 0
    star, mark = -1, 0
    while vi < len(v):
        if pi < len(p) and (p[pi] == "_" or p[pi] == v[vi]):
            pi, vi = pi + 1, vi + 1
        elif pi < len(p) and p[pi] == "%":
            star, mark, pi = pi, vi, pi + 1
        elif star >= 0:
            pi, mark = star + 1, mark + 1
            vi = mark
        else:
            return False
    while pi < len(p) and p[pi] == "%":
        pi += 1
    return pi == len(p)


def _compare(left: Any, op: str, right: Any) -> bool:
    if op == "LIKE":
        return left is not None and right is not None and _like(str(right), str(left))
    if left is None or right is None:
        return False
    if isinstance(left, (int, float)) and not isinstance(right, (int, float)):
        try:
            right = float(right)
        except ValueError:
            left = str(left)
    elif isinstance(right, (int, float)) and not isinstance(left, (int, float)):
        try:
            left = float(left)
        except ValueError:
            right = str(right)
    try:
        return {"=": left == right, "==": left == right, "!=": left != right, "<>": left != right,
                "<": left < right, ">": left > right, "<=": left <= right, ">=": left >= right}[op]
    except TypeError:
        return False


def parse_where(text: str | None) -> Callable[[Row], bool]:
    """`a=1 AND (b LIKE '%x%' OR c IS NULL)` -> predicate over a row."""
    if not text:
        return lambda row: True
    tokens = _tokens(text)
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        if pos >= len(tokens):
            raise CommandError(f"content: incomplete --where {text!r}")
        pos += 1
        return tokens[pos - 1]

    def primary() -> Callable[[Row], bool]:
        if peek() == "(":
            take()
            inner = disjunction()
            if take() != ")":
                raise CommandError(f"content: missing ')' in --where {text!r}")
            return inner
        if (peek() or "").upper() == "NOT":
            take()
            inner = primary()
            return lambda row: not inner(row)
        column = take()
        op = take().upper()
        if op == "IS":
            negate = (peek() or "").upper() == "NOT"
            if negate:
                take()
            if take().upper() != "NULL":
                raise CommandError(f"content: expected NULL in --where {text!r}")
            return lambda row: (row.get(column) is None) != negate
        if op not in ("=", "==", "!=", "<>", "<", ">", "<=", ">=", "LIKE"):
            raise CommandError(f"content: unsupported operator {op!r} in --where {text!r}")
        value = _literal(take())
        return lambda row: _compare(row.get(column), op, value)

    def conjunction() -> Callable[[Row], bool]:
        parts = [primary()]
        while (peek() or "").upper() == "AND":
            take()
            parts.append(primary())
        return lambda row: all(p(row) for p in parts)

    def disjunction() -> Callable[[Row], bool]:
        parts = [conjunction()]
        while (peek() or "").upper() == "OR":
            take()
            parts.append(conjunction())
        return lambda row: any(p(row) for p in parts)

    predicate = disjunction()
    if pos != len(tokens):
        raise CommandError(f"content: unexpected {tokens[pos]!r} in --where {text!r}")
    return predicate


def parse_bind(spec: str) -> tuple[str, Any]:
    name, _, rest = spec.partition(":")
    kind, _, value = rest.partition(":")
    if not name or kind not in ("b", "s", "i", "l", "f", "d", "n"):
        raise CommandError(f"Error: Invalid binding: {spec}\n{USAGE}")
    try:
        if kind == "n":
            return name, None
        if kind == "b":
            return name, value.lower() in ("true", "1")
        if kind in ("i", "l"):
            return name, int(value)
        if kind in ("f", "d"):
            return name, float(value)
    except ValueError:
        raise CommandError(f"Error: Invalid binding value: {spec}") from None
    return name, value


# --------------------------------------------------------------------------- providers
class Provider:
    """Rows of one URI, and the writes it accepts."""

    def __init__(self, inv: Invocation, uri: str) -> None:
        self.inv = inv
        self.uri = uri
        self.state = inv.shell.call(inv.shell.phone.get_state)

    def app(self, app_id: str) -> dict[str, Any]:
        found = self.state["apps"].get(app_id)
        if found is None:
            raise ProviderError(self.uri, f"Unknown URL {self.uri}")
        return found

    def patch(self, app_id: str, patch: dict[str, Any], seq: int | None = None) -> None:
        full: dict[str, Any] = {"apps": {app_id: patch}}
        if seq is not None:
            full["os"] = {"seq": seq}
        self.inv.shell.call(self.inv.shell.phone.set_state, full)

    def rows(self) -> list[Row]:
        raise ProviderError(self.uri, f"Unknown URL {self.uri}")

    def insert(self, values: Row) -> None:
        raise CommandError(f"java.lang.UnsupportedOperationException: Insert not supported on {self.uri}")

    def update(self, values: Row, where: Callable[[Row], bool]) -> int:
        raise CommandError(f"java.lang.UnsupportedOperationException: Update not supported on {self.uri}")

    def delete(self, where: Callable[[Row], bool]) -> int:
        raise CommandError(f"java.lang.UnsupportedOperationException: Delete not supported on {self.uri}")


def _id_filter(uri_id: int | None, where: Callable[[Row], bool]) -> Callable[[Row], bool]:
    return where if uri_id is None else (lambda row: row.get("_id") == uri_id and where(row))


class Contacts(Provider):
    def __init__(self, inv: Invocation, uri: str, table: str, uri_id: int | None) -> None:
        super().__init__(inv, uri)
        self.table = table  # contacts | raw_contacts | data | phones | emails
        self.uri_id = uri_id
        self.contacts = self.app("contacts").get("contacts", [])
        self.ids = numeric_ids(self.contacts)

    def _contact_row(self, cid: int, c: dict[str, Any]) -> Row:
        row = {"_id": cid, "contact_id": cid} if self.table == "raw_contacts" else {"_id": cid}
        row |= {"lookup": f"0r{cid}-{c.get('id')}", "display_name": c.get("name"),
                "display_name_primary": c.get("name"), "starred": int(bool(c.get("favorite"))),
                "has_phone_number": int(bool(c.get("phones"))), "account_type": None, "deleted": 0}
        if self.table == "contacts":
            del row["account_type"], row["deleted"]
        return row

    def _data_rows(self) -> list[Row]:
        rows: list[Row] = []
        for cid, c in zip(self.ids, self.contacts):
            base = {"contact_id": cid, "raw_contact_id": cid, "display_name": c.get("name")}
            items: list[tuple[str, Any, Any]] = [("name", c.get("name"), None)]
            items += [("phone", p.get("number"), PHONE_TYPES.get(p.get("type"), 7)) for p in c.get("phones", [])]
            if c.get("email"):
                items.append(("email", c["email"], 1))
            if c.get("company"):
                items.append(("org", c["company"], 1))
            if c.get("notes"):
                items.append(("note", c["notes"], None))
            for k, (kind, data1, data2) in enumerate(items):
                rows.append({"_id": cid * 100 + k, **base, "mimetype": MIME[kind], "data1": data1,
                             "data2": data2, "data3": None})
        if self.table == "phones":
            rows = [r for r in rows if r["mimetype"] == MIME["phone"]]
        elif self.table == "emails":
            rows = [r for r in rows if r["mimetype"] == MIME["email"]]
        return rows

    def rows(self) -> list[Row]:
        if self.table in ("contacts", "raw_contacts"):
            rows = [self._contact_row(cid, c) for cid, c in zip(self.ids, self.contacts)]
        else:
            rows = self._data_rows()
        return [r for r in rows if self.uri_id is None or r["_id"] == self.uri_id]

    def insert(self, values: Row) -> None:
        contacts = list(self.contacts)
        if self.table == "raw_contacts":
            new_id, seq = _new_id(self.inv, "contact")
            contacts.append({"id": new_id, "name": str(values.get("display_name") or ""), "phones": [],
                             "email": "", "company": "", "birthday": "", "notes": "",
                             "favorite": bool(values.get("starred"))})
            self.patch("contacts", {"contacts": contacts}, seq)
            return
        if self.table != "data":
            raise CommandError("java.lang.UnsupportedOperationException: Aggregate contacts are created "
                               "automatically (insert into content://com.android.contacts/raw_contacts)")
        raw = values.get("raw_contact_id")
        index = self.ids.index(raw) if raw in self.ids else None
        if index is None:
            raise CommandError(f"java.lang.IllegalArgumentException: raw_contact_id is required and must exist, got {raw!r}")
        contact = dict(contacts[index])
        mime, data1 = values.get("mimetype"), values.get("data1")
        if mime == MIME["name"]:
            contact["name"] = str(data1 or "")
        elif mime == MIME["phone"]:
            kind = {v: k for k, v in PHONE_TYPES.items()}.get(values.get("data2"), "mobile")
            contact["phones"] = [*contact.get("phones", []), {"type": kind, "number": str(data1 or "")}]
        elif mime == MIME["email"]:
            contact["email"] = str(data1 or "")
        elif mime == MIME["org"]:
            contact["company"] = str(data1 or "")
        elif mime == MIME["note"]:
            contact["notes"] = str(data1 or "")
        else:
            raise CommandError(f"java.lang.IllegalArgumentException: unsupported mimetype {mime!r}")
        contacts[index] = contact
        self.patch("contacts", {"contacts": contacts})

    def delete(self, where: Callable[[Row], bool]) -> int:
        if self.table not in ("contacts", "raw_contacts"):
            return super().delete(where)
        keep = _id_filter(self.uri_id, where)
        gone = {row["_id"] for row in self.rows() if keep(row)}
        contacts = [c for cid, c in zip(self.ids, self.contacts) if cid not in gone]
        if gone:
            self.patch("contacts", {"contacts": contacts})
        return len(gone)


class Sms(Provider):
    def __init__(self, inv: Invocation, uri: str, box: str | None, uri_id: int | None) -> None:
        super().__init__(inv, uri)
        self.box = box  # None (all), "inbox", "sent"
        self.uri_id = uri_id
        self.conversations = self.app("messages").get("conversations", [])

    def rows(self) -> list[Row]:
        thread_ids = numeric_ids(self.conversations)
        every = [m for conv in self.conversations for m in conv.get("messages", [])]
        msg_ids = iter(numeric_ids(every))
        rows = []
        for tid, conv in zip(thread_ids, self.conversations):
            messages = conv.get("messages", [])
            unread = max(0, int(conv.get("unread", 0) or 0))
            incoming = [i for i, m in enumerate(messages) if m.get("incoming")]
            unread_at = set(incoming[len(incoming) - unread:]) if unread else set()
            for i, m in enumerate(messages):
                kind = 1 if m.get("incoming") else 2
                rows.append({"_id": next(msg_ids), "thread_id": tid, "address": conv.get("address"), "person": None,
                             "date": m.get("time_ms"), "date_sent": m.get("time_ms") if kind == 1 else 0,
                             "read": 0 if i in unread_at else 1, "status": -1, "type": kind,
                             "body": m.get("text"), "seen": 1})
        if self.box is not None:
            rows = [r for r in rows if r["type"] == (1 if self.box == "inbox" else 2)]
        if self.uri_id is not None:
            rows = [r for r in rows if r["_id"] == self.uri_id]
        return sorted(rows, key=lambda r: -(r["date"] or 0))

    def insert(self, values: Row) -> None:
        address, body = values.get("address"), values.get("body")
        if not address:
            raise CommandError("java.lang.IllegalArgumentException: address is required")
        kind = int(values.get("type") or (2 if self.box == "sent" else 1))
        with self.inv.shell.lock:
            now = self.inv.shell.phone.time_ms()
        stamp = values.get("date")
        new_id, seq = _new_id(self.inv, "msg")
        message = {"id": new_id, "text": str(body or ""), "time_ms": int(stamp) if stamp is not None else now,
                   "incoming": kind == 1}
        conversations = [dict(c) for c in self.conversations]
        conv = next((c for c in conversations if c.get("address") == str(address)), None)
        if conv is None:
            conv = {"id": f"conv_{seq}", "address": str(address), "unread": 0, "messages": []}
            conversations.append(conv)
        conv["messages"] = [*conv.get("messages", []), message]
        if kind == 1 and not values.get("read"):
            conv["unread"] = int(conv.get("unread", 0) or 0) + 1
        self.patch("messages", {"conversations": conversations}, seq)

    def delete(self, where: Callable[[Row], bool]) -> int:
        keep = _id_filter(self.uri_id, where)
        doomed = [(r["thread_id"], r["date"], r["body"]) for r in self.rows() if keep(r)]
        if not doomed:
            return 0
        thread_ids = numeric_ids(self.conversations)
        conversations = []
        for tid, conv in zip(thread_ids, self.conversations):
            left = [m for m in conv.get("messages", []) if (tid, m.get("time_ms"), m.get("text")) not in doomed]
            if left:
                conversations.append({**conv, "messages": left,
                                      "unread": min(int(conv.get("unread", 0) or 0), sum(m.get("incoming", False) for m in left))})
        self.patch("messages", {"conversations": conversations})
        return len(doomed)


def _event_times(e: dict[str, Any]) -> tuple[int | None, int | None]:
    try:
        day = dt.datetime.strptime(e["date"], "%Y-%m-%d")
        if e.get("all_day"):
            return to_ms(day), to_ms(day + dt.timedelta(days=1))
        start = dt.datetime.strptime(f"{e['date']} {e.get('start') or '00:00'}", "%Y-%m-%d %H:%M")
        end = dt.datetime.strptime(f"{e['date']} {e.get('end') or e.get('start') or '00:00'}", "%Y-%m-%d %H:%M")
        if end < start:
            end += dt.timedelta(days=1)
        return to_ms(start), to_ms(end)
    except (KeyError, TypeError, ValueError):
        return None, None


def _color(text: Any) -> int | None:
    try:
        value = 0xFF000000 | int(str(text).lstrip("#")[-6:], 16)
    except ValueError:
        return None
    return value - (1 << 32)  # Android stores ARGB as a signed int


class Calendar(Provider):
    def __init__(self, inv: Invocation, uri: str, table: str, uri_id: int | None) -> None:
        super().__init__(inv, uri)
        self.table = table  # events | calendars
        self.uri_id = uri_id
        state = self.app("calendar")
        self.calendars = state.get("calendars", [])
        self.events = state.get("events", [])

    def _calendar_id(self, name: Any) -> int | None:
        return next((i for i, c in enumerate(self.calendars, 1) if c.get("name") == name), None)

    def rows(self) -> list[Row]:
        if self.table == "calendars":
            rows = [{"_id": i, "name": c.get("name"), "calendar_displayName": c.get("name"),
                     "calendar_color": _color(c.get("color")), "visible": 1, "sync_events": 1,
                     "account_name": "mobilegym", "account_type": "LOCAL", "calendar_access_level": 700,
                     "ownerAccount": "mobilegym"} for i, c in enumerate(self.calendars, 1)]
        else:
            rows = []
            for eid, e in zip(numeric_ids(self.events), self.events):
                start, end = _event_times(e)
                rows.append({"_id": eid, "calendar_id": self._calendar_id(e.get("calendar")), "title": e.get("title"),
                             "dtstart": start, "dtend": end, "allDay": int(bool(e.get("all_day"))),
                             "eventLocation": e.get("location") or None, "description": e.get("notes") or None,
                             "eventTimezone": "UTC", "calendar_displayName": e.get("calendar"),
                             "hasAlarm": int(e.get("reminder") is not None), "deleted": 0})
        return [r for r in rows if self.uri_id is None or r["_id"] == self.uri_id]

    def insert(self, values: Row) -> None:
        if self.table != "events":
            return super().insert(values)
        for key in ("dtstart", "title"):
            if values.get(key) is None:
                raise CommandError(f"java.lang.IllegalArgumentException: {key} is required")
        start_ms = int(values["dtstart"])
        end_ms = int(values.get("dtend") or start_ms + 3600_000)
        if end_ms < start_ms:
            raise CommandError("java.lang.IllegalArgumentException: dtend is before dtstart")
        cal_index = int(values.get("calendar_id") or 1) - 1
        if not 0 <= cal_index < max(1, len(self.calendars)):
            raise CommandError(f"java.lang.IllegalArgumentException: no calendar {values.get('calendar_id')}")
        start, end = from_ms(start_ms), from_ms(end_ms)
        new_id, seq = _new_id(self.inv, "evt")
        event = {"id": new_id, "title": str(values["title"]), "date": f"{start:%Y-%m-%d}",
                 "start": f"{start:%H:%M}", "end": f"{end:%H:%M}", "all_day": bool(values.get("allDay")),
                 "location": str(values.get("eventLocation") or ""), "notes": str(values.get("description") or ""),
                 "calendar": self.calendars[cal_index]["name"] if self.calendars else "",
                 "reminder": None}
        self.patch("calendar", {"events": [*self.events, event]}, seq)

    def delete(self, where: Callable[[Row], bool]) -> int:
        if self.table != "events":
            return super().delete(where)
        keep = _id_filter(self.uri_id, where)
        gone = {r["_id"] for r in self.rows() if keep(r)}
        if gone:
            self.patch("calendar", {"events": [e for i, e in zip(numeric_ids(self.events), self.events) if i not in gone]})
        return len(gone)


class Settings(Provider):
    def __init__(self, inv: Invocation, uri: str, namespace: str) -> None:
        super().__init__(inv, uri)
        self.ns = namespace
        self.settings_state = self.state["apps"].get("settings", {})

    def rows(self) -> list[Row]:
        extra = self.inv.shell.extra_settings
        rows = []
        for i, line in enumerate(settings_map.listing(self.settings_state, extra, self.ns), 1):
            name, _, value = line.partition("=")
            rows.append({"_id": i, "name": name, "value": None if value == "null" else value})
        return rows

    def _put(self, name: str, value: Any) -> None:
        text = "" if value is None else str(value)
        try:
            patch = settings_map.put_patch(self.settings_state, self.ns, name, text)
        except ValueError as exc:
            raise CommandError(f"Error: bad value for {self.ns} {name}: {exc}") from None
        if patch is None:
            self.inv.shell.extra_settings[(self.ns, name)] = text
        else:
            self.patch("settings", patch)

    def insert(self, values: Row) -> None:
        if not values.get("name"):
            raise CommandError("java.lang.IllegalArgumentException: name is required")
        self._put(str(values["name"]), values.get("value"))

    def update(self, values: Row, where: Callable[[Row], bool]) -> int:
        names = [r["name"] for r in self.rows() if where(r)]
        for name in names:
            self._put(name, values.get("value"))
        return len(names)

    def delete(self, where: Callable[[Row], bool]) -> int:
        names = [r["name"] for r in self.rows() if where(r)]
        return sum(self.inv.shell.extra_settings.pop((self.ns, n), None) is not None for n in names)


def provider_for(inv: Invocation, uri: str) -> Provider:
    m = re.fullmatch(r"content://([^/?#]+)((?:/[^/?#]+)*)/?", uri)
    if m is None:
        raise CommandError(f"Error: invalid URI {uri!r}\n{USAGE}")
    authority, parts = m.group(1), [p for p in m.group(2).split("/") if p]
    uri_id = int(parts.pop()) if parts and parts[-1].isdigit() else None
    path = "/".join(parts)
    if authority in ("com.android.contacts", "contacts"):
        table = {"contacts": "contacts", "people": "contacts", "raw_contacts": "raw_contacts", "data": "data",
                 "data/phones": "phones", "phones": "phones", "data/emails": "emails"}.get(path)
        if table is not None:
            return Contacts(inv, uri, table, uri_id)
    elif authority in ("sms", "mms-sms") and path in ("", "inbox", "sent"):
        return Sms(inv, uri, path or None, uri_id)
    elif authority == "com.android.calendar" and path in ("events", "calendars"):
        return Calendar(inv, uri, path, uri_id)
    elif authority == "settings" and path in settings_map.NAMESPACES and uri_id is None:
        return Settings(inv, uri, path)
    else:
        raise ProviderError(uri, f"Unknown authority {authority}")
    raise ProviderError(uri, f"Unknown URL {uri}")


def _format(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sort_key(value: Any) -> tuple[int, Any]:
    """SQLite's order: NULL, then numbers, then text."""
    if value is None:
        return (0, 0)
    if isinstance(value, (int, float)):
        return (1, value)
    return (2, str(value).lower())


def _sort(rows: list[Row], order: str | None) -> list[Row]:
    for clause in reversed([c.strip() for c in (order or "").split(",") if c.strip()]):
        column, _, direction = clause.partition(" ")
        rows = sorted(rows, key=lambda r: _sort_key(r.get(column)), reverse=direction.strip().upper() == "DESC")
    return rows


@command("content")
def content(inv: Invocation) -> int:
    args = inv.args[1:]
    if not args or args[0] not in ("query", "insert", "update", "delete"):
        if args and args[0] in ("help", "--help", "-h"):
            inv.out(USAGE)
            return 0
        raise CommandError(f"Error: unsupported operation{': ' + args[0] if args else ''}\n{USAGE}")
    verb, options, binds, i = args[0], {}, {}, 1
    while i < len(args):
        flag = args[i]
        if flag in ("--uri", "--user", "--projection", "--where", "--sort", "--bind", "--extra", "--arg",
                    "--method") and i + 1 < len(args):
            if flag == "--bind":
                name, value = parse_bind(args[i + 1])
                binds[name] = value
            else:
                options[flag[2:]] = args[i + 1]
            i += 2
        else:
            raise CommandError(f"Error: Unsupported argument: {flag}\n{USAGE}")
    if "uri" not in options:
        raise CommandError(f"Error: Content provider URI not specified\n{USAGE}")
    provider = provider_for(inv, options["uri"])
    where = parse_where(options.get("where"))
    if verb == "query":
        rows = _sort([r for r in provider.rows() if where(r)], options.get("sort"))
        projection = [c for c in options.get("projection", "").replace(",", ":").split(":") if c] or None
        if not rows:
            inv.out("No result found.\n")
        for n, row in enumerate(rows):
            columns = projection or list(row)
            inv.out(f"Row: {n} " + ", ".join(f"{c}={_format(row.get(c))}" for c in columns) + "\n")
    elif verb == "insert":
        if not binds:
            raise CommandError(f"Error: Bindings not specified\n{USAGE}")
        provider.insert(binds)
    elif verb == "update":
        if not binds:
            raise CommandError(f"Error: Bindings not specified\n{USAGE}")
        provider.update(binds, where)
    else:
        provider.delete(where)
    return 0
