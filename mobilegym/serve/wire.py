"""Wire encoding: observations, infos and spaces as JSON, and the binary frame of MobileGym's own client.

A frame is ``b"MGF1"``, a 4-byte big-endian header length, a UTF-8 JSON header and then the blobs the
header points at (``{"$blob": i}``): raw screenshot bytes and long texts travel unescaped.
JSON responses (external clients) carry the screenshot base64-encoded as PNG or JPEG instead.
"""
from __future__ import annotations

import base64
import io
import json
import struct
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from gymnasium import spaces

from ..judge.result import jsonable

MAGIC = b"MGF1"
FORMATS = ("png", "jpeg", "raw")


@dataclass(frozen=True)
class ImageOptions:
    """How a session sends screenshots: ``png`` (default), ``jpeg`` at ``quality``, or ``raw`` RGB bytes."""

    format: str = "png"
    quality: int = 90

    @classmethod
    def parse(cls, value: Any) -> "ImageOptions":
        from .errors import bad_request

        value = {} if value is None else value
        if not isinstance(value, Mapping) or set(value) - {"format", "quality"}:
            raise bad_request("bad_image_options", f"image must be {{'format': one of {FORMATS}, 'quality': 1-95}}, "
                                                   f"got {value!r}")
        options = cls(value.get("format", "png"), value.get("quality", 90))
        if options.format not in FORMATS or isinstance(options.quality, bool) or not isinstance(
                options.quality, int) or not 1 <= options.quality <= 95:
            raise bad_request("bad_image_options", f"image format must be one of {FORMATS} and quality an integer "
                                                   f"in 1-95, got {value!r}")
        return options


def to_json(value: Any) -> Any:
    """A JSON-able copy of an info value: mappings (``Timings``) as dicts, tuples as lists, numpy as Python."""
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    return jsonable(value)


def encode_image(shot: np.ndarray, options: ImageOptions) -> bytes:
    if options.format == "raw":
        return np.ascontiguousarray(shot, np.uint8).tobytes()
    from PIL import Image

    out = io.BytesIO()
    if options.format == "png":
        Image.fromarray(shot).save(out, "PNG", compress_level=1)
    else:
        Image.fromarray(shot).save(out, "JPEG", quality=options.quality)
    return out.getvalue()


def decode_image(data: bytes, fmt: str, shape: tuple[int, ...]) -> np.ndarray:
    if fmt == "raw":
        return np.frombuffer(data, np.uint8).reshape(shape)
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def encode_obs(obs: Mapping[str, Any], options: ImageOptions, blobs: list[bytes] | None) -> dict[str, Any]:
    """The observation's wire form; with ``blobs`` (a frame), bytes and texts go there as blob references."""
    out: dict[str, Any] = {}
    for key, value in obs.items():
        if isinstance(value, np.ndarray):
            data = encode_image(value, options)
            ref: Any = {"$blob": len(blobs)} if blobs is not None else base64.b64encode(data).decode("ascii")
            if blobs is not None:
                blobs.append(data)
            out[key] = {"format": options.format, "shape": list(value.shape), "data": ref}
        elif isinstance(value, str) and blobs is not None and len(value) > 256:
            out[key] = {"$blob": len(blobs), "text": True}
            blobs.append(value.encode("utf-8", "surrogatepass"))
        else:
            out[key] = value
    return out


def decode_obs(obs: Mapping[str, Any], blobs: list[bytes] | None = None) -> dict[str, Any]:
    """The observation ``encode_obs`` encoded (screenshots as uint8 arrays)."""
    out: dict[str, Any] = {}
    for key, value in obs.items():
        if isinstance(value, Mapping) and "format" in value:
            ref = value["data"]
            data = blobs[ref["$blob"]] if isinstance(ref, Mapping) else base64.b64decode(ref)
            out[key] = decode_image(data, value["format"], tuple(value["shape"]))
        elif isinstance(value, Mapping) and value.get("text"):
            out[key] = blobs[value["$blob"]].decode("utf-8", "surrogatepass")
        else:
            out[key] = value
    return out


def pack_frame(header: Mapping[str, Any], blobs: list[bytes]) -> bytes:
    head = json.dumps({**header, "$blobs": [len(b) for b in blobs]}, separators=(",", ":")).encode()
    return b"".join([MAGIC, struct.pack(">I", len(head)), head, *blobs])


def unpack_frame(data: bytes) -> tuple[dict[str, Any], list[bytes]]:
    if data[:4] != MAGIC:
        raise ValueError("not a MobileGym frame")
    (size,) = struct.unpack(">I", data[4:8])
    header = json.loads(data[8:8 + size])
    blobs, at = [], 8 + size
    for length in header.pop("$blobs"):
        blobs.append(data[at:at + length])
        at += length
    return header, blobs


def describe_space(space: spaces.Space) -> dict[str, Any]:
    """A JSON description of the env's spaces (Dict, Box, UnicodeText, ActionSpace), for ``build_space``."""
    from ..actions import ActionSpace
    from ..env import UnicodeText

    if isinstance(space, spaces.Dict):
        return {"type": "dict", "spaces": {k: describe_space(s) for k, s in space.spaces.items()}}
    if isinstance(space, UnicodeText):
        return {"type": "text", "max_length": space.max_length, "min_length": space.min_length}
    if isinstance(space, spaces.Box):
        return {"type": "box", "low": float(space.low.min()), "high": float(space.high.max()),
                "shape": list(space.shape), "dtype": str(space.dtype)}
    if isinstance(space, ActionSpace):
        return {"type": "action", "coords": space.coords.name, "size": [space.coords.width, space.coords.height],
                "apps": list(space.apps), "sample_types": list(space.sample_types)}
    raise TypeError(f"cannot describe a {type(space).__name__} space on the wire")


def build_space(desc: Mapping[str, Any]) -> spaces.Space:
    """The space ``describe_space`` described."""
    from ..actions import ActionSpace, CoordinateSpace
    from ..env import UnicodeText

    kind = desc["type"]
    if kind == "dict":
        return spaces.Dict({k: build_space(d) for k, d in desc["spaces"].items()})
    if kind == "text":
        return UnicodeText(desc["max_length"], desc["min_length"])
    if kind == "box":
        return spaces.Box(desc["low"], desc["high"], tuple(desc["shape"]), np.dtype(desc["dtype"]))
    return ActionSpace(CoordinateSpace(desc["coords"], tuple(desc["size"])), apps=desc["apps"],
                       sample_types=desc["sample_types"])
