"""Adapters for RL libraries: fixed-size numeric observations and discrete actions.

Every wrapper is an ordinary Gymnasium wrapper around ``MobileGym-v0`` (its observation is the
dict of "screenshot", "a11y" and "instruction"), so they compose with Gymnasium's own.

Observations:
    ImageObservation     "screenshot" -> uint8 (H, W, 3) image of a chosen size
    InstructionEncoding  "instruction" -> a fixed-size integer array (bag of hashed tokens,
                         hashed-token ids, or UTF-8 bytes)
    ElementTable         "a11y" -> "elements" (a float table, flattened), "element_class" and
                         "element_mask": the first K salient nodes of the accessibility tree
    SelectObservation    one entry of a dict observation (for image-only policies)

Actions:
    GridActions          Discrete: tap the centre of a cell of a cols x rows grid, or a key
    ElementActions       Discrete: tap the k-th row of the element table, or a key;
                         ``action_masks()`` for maskable algorithms (sb3-contrib MaskablePPO)

``make_sb3_env(task, obs=..., action=...)`` builds the whole stack; ``import mobilegym.wrappers``
also registers it as ``MobileGymSB3-v0`` for ``gym.make`` / ``gym.make_vec``.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zlib
from functools import lru_cache
from typing import Any, NamedTuple, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import register, registry
from PIL import Image

from .actions import KEYS
from .env import MobileGymEnv
from .rewards import REWARD_MODES
from .screen_text import Node, node_from_element

SB3_ENV_ID = "MobileGymSB3-v0"

# ---------------------------------------------------------------------------------------------
# text hashing (stable across processes and machines: crc32, never Python's salted hash())

_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
TEXT_BITS = 16


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens; each CJK character is a token of its own."""
    return _TOKEN.findall(text.lower())


def token_id(token: str, vocab: int) -> int:
    """A token's hashed id in [1, vocab) (0 is padding)."""
    return zlib.crc32(token.encode("utf-8")) % (vocab - 1) + 1


def text_hash(text: str) -> int:
    """A 16-bit hash of a label (lower-cased, whitespace-normalised); 0 for no text."""
    norm = " ".join(text.lower().split())
    return zlib.crc32(norm.encode("utf-8")) & 0xFFFF if norm else 0


# ---------------------------------------------------------------------------------------------
# the element table

ELEMENT_CLASSES = (
    "android.view.View", "android.view.ViewGroup", "android.widget.FrameLayout", "android.widget.LinearLayout",
    "android.widget.RelativeLayout", "android.widget.TextView", "android.widget.Button",
    "android.widget.ImageButton", "android.widget.ImageView", "android.widget.EditText", "android.widget.Switch",
    "android.widget.CheckBox", "android.widget.RadioButton", "android.widget.CompoundButton",
    "android.widget.ToggleButton", "android.widget.SeekBar", "android.widget.ProgressBar", "android.widget.Spinner",
    "androidx.recyclerview.widget.RecyclerView", "android.widget.ScrollView", "android.widget.ListView",
    "android.webkit.WebView",
)
CLASS_IDS = {name: i + 2 for i, name in enumerate(ELEMENT_CLASSES)}  # 0: no element, 1: other class
FLAGS = ("clickable", "checkable", "checked", "scrollable", "focused", "selected", "editable")
ELEMENT_FEATURES = ("x1", "y1", "x2", "y2", *FLAGS, "instruction_match", *(f"text_bit{i}" for i in range(TEXT_BITS)))


class Element(NamedTuple):
    """One row of the element table: an a11y node, the label it is known by, and whether it is editable."""

    node: Node
    label: str
    editable: bool

    @property
    def cls(self) -> str:
        return self.node.cls

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        return self.node.bounds

    @property
    def resource_id(self) -> str:
        return self.node.resource_id

    @property
    def center(self) -> tuple[int, int]:
        return self.node.center

    @property
    def clickable(self) -> bool:
        return self.node.clickable

    @property
    def checked(self) -> bool:
        return self.node.checked

    @property
    def flags(self) -> tuple[bool, ...]:
        """The FLAGS, in order."""
        n = self.node
        return (n.clickable, n.checkable, n.checked, n.scrollable, n.focused, n.selected, self.editable)


def _first_text(node: ET.Element) -> str:
    for el in node.iter("node"):
        label = el.get("text") or el.get("content-desc")
        if label:
            return label
    return ""


# Shared by every env in the process (batched vector workers and DummyVecEnv step many envs in
# turn): big enough that each env's current screen stays cached between its steps.
@lru_cache(maxsize=256)
def parse_elements(xml: str, max_elements: int) -> tuple[Element, ...]:
    """The salient nodes of a uiautomator dump, in document order, at most ``max_elements``.

    Salient: interactive nodes (clickable, long-clickable, checkable, scrollable or editable),
    labelled with their own text or content-desc, else the first text found inside them; and
    nodes with text outside any interactive node. Layout-only nodes are left out.
    """
    out: list[Element] = []

    def visit(node: ET.Element, inside_interactive: bool) -> None:
        if len(out) >= max_elements:
            return
        get = node.get
        editable = get("class", "").endswith("EditText")
        interactive = (editable or get("clickable") == "true" or get("long-clickable") == "true"
                       or get("checkable") == "true" or get("scrollable") == "true")
        own = get("text") or get("content-desc") or ""
        if interactive or (own and not inside_interactive):
            label = own or (_first_text(node) if interactive else "")
            out.append(Element(node_from_element(node), label, editable))
        for child in node:
            visit(child, inside_interactive or interactive)

    for top in ET.fromstring(xml):
        visit(top, False)
    return tuple(out)


def _overlap(label: str, wanted: set[str]) -> float:
    """The fraction of a label's tokens found in ``wanted``."""
    tokens = tokenize(label)
    return sum(t in wanted for t in tokens) / len(tokens) if tokens else 0.0


def _screen_size(env: gym.Env) -> tuple[int, int]:
    """The device's screen size (width, height), from the action space's coordinates (a RemoteEnv has no device)."""
    coords = env.unwrapped.action_space.coords  # type: ignore[attr-defined]
    return coords.width, coords.height


def _xml_of(env: gym.Env, obs: dict[str, Any]) -> str:
    xml = obs.get("a11y") if isinstance(obs, dict) else None
    return xml if isinstance(xml, str) else env.unwrapped.device.a11y_xml()  # type: ignore[attr-defined]


def _require_key(env: gym.Env, key: str, wrapper: str) -> None:
    space = env.observation_space
    if not isinstance(space, spaces.Dict) or key not in space.spaces:
        raise ValueError(f"{wrapper} needs the observation entry {key!r} (pass obs_parts including it)")


class ElementTable(gym.ObservationWrapper):
    """Replaces ``"a11y"`` (XML) with a fixed-size table of its first ``max_elements`` salient nodes.

    New entries (K = max_elements, F = len(ELEMENT_FEATURES) = 28):
        ``elements``       float32 (K * F,), row-major K x F, rows in document order, zeros past the
                           last element. Per row: bounds x1, y1, x2, y2 divided by the screen size;
                           the flags clickable, checkable, checked, scrollable, focused, selected,
                           editable (0/1); instruction_match, the fraction of the label's tokens
                           that occur in the instruction; the 16 bits of ``text_hash(label)`` (0/1).
        ``element_class``  int64 (K,) in [0, 2 + len(ELEMENT_CLASSES)): 0 no element, 1 a class not
                           in ELEMENT_CLASSES, else 2 + its index there.
        ``element_mask``   int8 (K,): 1 where the row holds an element.
    """

    def __init__(self, env: gym.Env, max_elements: int = 32) -> None:
        super().__init__(env)
        _require_key(env, "a11y", "ElementTable")
        if max_elements < 1:
            raise ValueError(f"max_elements must be positive, got {max_elements}")
        self.max_elements = max_elements
        self.screen = _screen_size(env)
        k, f = max_elements, len(ELEMENT_FEATURES)
        entries = {name: s for name, s in env.observation_space.spaces.items() if name != "a11y"}
        entries["elements"] = spaces.Box(0.0, 1.0, (k * f,), np.float32)
        entries["element_class"] = spaces.MultiDiscrete(np.full(k, 2 + len(ELEMENT_CLASSES), np.int64))
        entries["element_mask"] = spaces.MultiBinary(k)
        self.observation_space = spaces.Dict(entries)
        self._last: tuple[tuple[str, str], dict[str, np.ndarray]] | None = None  # (tree, instruction) -> arrays

    def table(self, elements: Sequence[Element], instruction: str = "") -> dict[str, np.ndarray]:
        """The three arrays for a list of elements (``instruction`` feeds instruction_match)."""
        k, n = self.max_elements, min(len(elements), self.max_elements)
        rows = np.zeros((k, len(ELEMENT_FEATURES)), np.float32)
        classes = np.zeros(k, np.int64)
        mask = np.zeros(k, np.int8)
        if n:
            shown = elements[:n]
            wanted = set(tokenize(instruction))
            w, h = self.screen
            rows[:n, :4] = np.clip(np.array([el.bounds for el in shown], np.float32) / (w, h, w, h), 0.0, 1.0)
            rows[:n, 4:4 + len(FLAGS)] = [el.flags for el in shown]
            rows[:n, 4 + len(FLAGS)] = [_overlap(el.label, wanted) for el in shown]
            codes = np.array([text_hash(el.label) for el in shown], np.int64)
            rows[:n, 5 + len(FLAGS):] = (codes[:, None] >> np.arange(TEXT_BITS)) & 1
            classes[:n] = [CLASS_IDS.get(el.cls, 1) for el in shown]
            mask[:n] = 1
        return {"elements": rows.reshape(-1), "element_class": classes, "element_mask": mask}

    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        instruction = observation.get("instruction")
        if not isinstance(instruction, str):
            instruction = self.env.unwrapped.instruction  # type: ignore[attr-defined]
        out = {name: value for name, value in observation.items() if name != "a11y"}
        key = (observation["a11y"], instruction)
        if self._last is None or self._last[0] != key:  # a step that changes nothing on screen keeps its tree
            self._last = key, self.table(parse_elements(key[0], self.max_elements), instruction)
        out.update({name: array.copy() for name, array in self._last[1].items()})
        return out


# ---------------------------------------------------------------------------------------------
# instruction and image


INSTRUCTION_MODES = ("bag", "tokens", "bytes")


class InstructionEncoding(gym.ObservationWrapper):
    """Replaces ``"instruction"`` (text) with a fixed-size integer array.

    Modes (tokens come from :func:`tokenize`, ids from :func:`token_id`, stable everywhere):
        ``"bag"``     int8 (vocab,): 1 at the id of every token of the instruction (MultiBinary).
        ``"tokens"``  int64 (length,): the ids of the first ``length`` tokens, 0-padded (MultiDiscrete).
        ``"bytes"``   int64 (length,): UTF-8 bytes + 1 of the first ``length`` bytes, 0-padded.
    """

    def __init__(self, env: gym.Env, mode: str = "bag", length: int = 16, vocab: int = 1024) -> None:
        super().__init__(env)
        _require_key(env, "instruction", "InstructionEncoding")
        if mode not in INSTRUCTION_MODES:
            raise ValueError(f"instruction mode must be one of {INSTRUCTION_MODES}, got {mode!r}")
        if length < 1 or vocab < 2:
            raise ValueError(f"length must be >= 1 and vocab >= 2, got length={length}, vocab={vocab}")
        self.mode, self.length, self.vocab = mode, length, vocab
        if mode == "bag":
            space: spaces.Space = spaces.MultiBinary(vocab)
        else:
            space = spaces.MultiDiscrete(np.full(length, vocab if mode == "tokens" else 257, np.int64))
        self.observation_space = spaces.Dict({**env.observation_space.spaces, "instruction": space})
        self._cache: tuple[str, np.ndarray] | None = None

    def encode(self, text: str) -> np.ndarray:
        """The array for one instruction."""
        if self.mode == "bag":
            out = np.zeros(self.vocab, np.int8)
            out[[token_id(t, self.vocab) for t in tokenize(text)]] = 1
            return out
        ids = ([token_id(t, self.vocab) for t in tokenize(text)] if self.mode == "tokens"
               else [b + 1 for b in text.encode("utf-8")])[:self.length]
        out = np.zeros(self.length, np.int64)
        out[:len(ids)] = ids
        return out

    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        text = observation["instruction"]
        if self._cache is None or self._cache[0] != text:
            self._cache = (text, self.encode(text))
        return {**observation, "instruction": self._cache[1].copy()}


class ImageObservation(gym.ObservationWrapper):
    """Resizes ``"screenshot"`` to ``size`` = (width, height), uint8 channel-last, under ``key``.

    Cheapest when the env already renders at that size: build it with a ``render_scale`` giving
    ``size`` (``make_sb3_env`` does) and no pixels are resized at all.
    """

    def __init__(self, env: gym.Env, size: tuple[int, int] | None = None, key: str = "image") -> None:
        super().__init__(env)
        _require_key(env, "screenshot", "ImageObservation")
        height, width, _ = env.observation_space["screenshot"].shape
        if size is not None and (len(size) != 2 or min(size) < 1):
            raise ValueError(f"size must be (width, height) in pixels, got {size!r}")
        self.size = (width, height) if size is None else (int(size[0]), int(size[1]))
        self.key = key
        entries = {name: s for name, s in env.observation_space.spaces.items() if name != "screenshot"}
        entries[key] = spaces.Box(0, 255, (self.size[1], self.size[0], 3), np.uint8)
        self.observation_space = spaces.Dict(entries)

    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        shot = observation["screenshot"]
        if shot.shape[:2] != (self.size[1], self.size[0]):
            shot = np.asarray(Image.fromarray(shot).resize(self.size, Image.Resampling.BILINEAR))
        out = {name: value for name, value in observation.items() if name != "screenshot"}
        out[self.key] = shot
        return out


class SelectObservation(gym.ObservationWrapper):
    """Keeps one entry of a dict observation as the whole observation (e.g. the image for CnnPolicy)."""

    def __init__(self, env: gym.Env, key: str) -> None:
        super().__init__(env)
        _require_key(env, key, "SelectObservation")
        self.key = key
        self.observation_space = env.observation_space[key]

    def observation(self, observation: dict[str, Any]) -> Any:
        return observation[self.key]


# ---------------------------------------------------------------------------------------------
# discrete actions

EXTRA_ACTIONS = (*KEYS, "complete")


def _extra_action(name: str) -> dict[str, Any]:
    return {"type": "complete"} if name == "complete" else {"type": "key", "key": name}


def _check_extras(extra: Sequence[str]) -> tuple[str, ...]:
    unknown = [e for e in extra if e not in EXTRA_ACTIONS]
    if unknown:
        raise ValueError(f"unknown extra action(s) {unknown}; choose from {EXTRA_ACTIONS}")
    return tuple(extra)


def _point(env: gym.Env, x: float, y: float) -> dict[str, float]:
    coords = env.unwrapped.coords  # type: ignore[attr-defined]
    return {"x": coords.from_device(x, "x"), "y": coords.from_device(y, "y")}


class GridActions(gym.ActionWrapper):
    """``Discrete(cols * rows + len(extra))``: action ``a < cols * rows`` taps the centre of grid cell
    (column ``a % cols``, row ``a // cols``) over the whole screen; the rest are the ``extra``
    actions in order (system keys, or "complete" to end the episode)."""

    def __init__(self, env: gym.Env, cols: int = 4, rows: int = 8, extra: Sequence[str] = ("back", "home")) -> None:
        super().__init__(env)
        if cols < 1 or rows < 1:
            raise ValueError(f"the grid needs at least one column and one row, got {cols}x{rows}")
        self.cols, self.rows = cols, rows
        self.extra = _check_extras(extra)
        self.action_space = spaces.Discrete(cols * rows + len(self.extra))
        width, height = _screen_size(env)
        self._taps = [{"type": "tap", **_point(env, (c + 0.5) * width / cols, (r + 0.5) * height / rows)}
                      for r in range(rows) for c in range(cols)]

    def action(self, action: Any) -> dict[str, Any]:
        index = int(action)
        if not 0 <= index < self.action_space.n:
            raise ValueError(f"grid action {action!r} is outside [0, {self.action_space.n})")
        return dict(self._taps[index]) if index < len(self._taps) else _extra_action(self.extra[index - len(self._taps)])

    def action_masks(self) -> np.ndarray:
        """Every grid action is always allowed."""
        return np.ones(self.action_space.n, bool)


class ElementActions(gym.Wrapper):
    """``Discrete(max_elements + len(extra))``: action ``k < max_elements`` taps the centre of row k of
    the element table (:func:`parse_elements` of the current screen, the same rows
    :class:`ElementTable` shows); the rest are the ``extra`` actions.

    A row that is empty or not clickable is a no-op (``wait`` 0 s: the step still counts);
    ``action_masks()`` marks which actions do something, for maskable algorithms.
    """

    def __init__(self, env: gym.Env, max_elements: int = 32, extra: Sequence[str] = ("back", "home")) -> None:
        super().__init__(env)
        if max_elements < 1:
            raise ValueError(f"max_elements must be positive, got {max_elements}")
        self.max_elements = max_elements
        self.extra = _check_extras(extra)
        self.action_space = spaces.Discrete(max_elements + len(self.extra))
        self.elements: tuple[Element, ...] = ()

    def _remember(self, obs: Any) -> None:
        self.elements = parse_elements(_xml_of(self.env, obs), self.max_elements)

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self._remember(obs)
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(self.action(action))
        self._remember(obs)
        return obs, reward, terminated, truncated, info

    def action(self, action: Any) -> dict[str, Any]:
        """The env action for a discrete index on the current screen."""
        index = int(action)
        if not 0 <= index < self.action_space.n:
            raise ValueError(f"element action {action!r} is outside [0, {self.action_space.n})")
        if index >= self.max_elements:
            return _extra_action(self.extra[index - self.max_elements])
        if index < len(self.elements) and self.elements[index].clickable:
            return {"type": "tap", **_point(self.env, *self.elements[index].center)}
        return {"type": "wait", "seconds": 0}

    def action_masks(self) -> np.ndarray:
        """True for the clickable rows and the extra actions."""
        mask = np.zeros(self.action_space.n, bool)
        mask[:len(self.elements)] = [el.clickable for el in self.elements]
        mask[self.max_elements:] = True
        return mask


class SuccessInfo(gym.Wrapper):
    """Adds ``info["is_success"]`` (the judge's verdict) on an episode's last step, as SB3's
    logger and EvalCallback expect."""

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if "judge" in info:
            info["is_success"] = bool(info["judge"]["success"])
        return obs, reward, terminated, truncated, info


# ---------------------------------------------------------------------------------------------
# one call

OBS_MODES = ("image", "multi", "a11y")
ACTION_MODES = ("grid", "element")
_OWNED = ("obs_parts", "reward_mode", "render_scale", "invalid_action")


def make_sb3_env(
    task: Any,
    *,
    obs: str = "multi",
    action: str = "element",
    reward: str = "auto_complete",
    render_scale: float = 0.1,
    image_size: tuple[int, int] | None = None,
    grid: tuple[int, int] = (4, 8),
    max_elements: int = 32,
    extra_actions: Sequence[str] = ("back", "home"),
    instruction: str = "bag",
    instruction_length: int = 16,
    vocab: int = 1024,
    env_url: str | None = None,
    token: str | None = None,
    **env_kwargs: Any,
) -> gym.Env:
    """A MobileGym env with numeric observations and a Discrete action space, ready for SB3.

    Args:
        task: what ``MobileGym-v0`` takes (id, suite, list, class, path).
        obs: ``"image"`` (a uint8 (H, W, 3) Box: CnnPolicy), ``"multi"`` (Dict of ``image``,
            ``instruction``, ``elements``, ``element_class``, ``element_mask``: MultiInputPolicy) or
            ``"a11y"`` (the same Dict without the image: MultiInputPolicy, no CNN).
        action: ``"grid"`` (:class:`GridActions` on ``grid`` = (cols, rows)) or ``"element"``
            (:class:`ElementActions`, with ``action_masks()``).
        reward: the env's ``reward_mode``: ``"auto_complete"`` (the episode ends with the judge's
            score as soon as the goal holds), ``"dense"`` (judge progress deltas), ``"shaped"``
            (dense with penalties, see :mod:`mobilegym.shaping`) or ``"final"``.
        render_scale: screenshot scale (0.1: 108 x 240 for the default 1080 x 2400 screen).
        image_size: (width, height) of the image; the env then renders at the smallest scale that
            covers it and only that small image is resized.
        extra_actions: actions after the taps: system keys and/or ``"complete"``.
        instruction, instruction_length, vocab: :class:`InstructionEncoding` settings.
        env_url, token: play on a ``mobilegym serve`` server (a :class:`~mobilegym.remote.RemoteEnv`) instead of
            a local env.
        env_kwargs: anything else ``MobileGym-v0`` takes (``shuffle_launcher``, ``apps``,
            ``max_steps``, ``language``, ``device``...).
    """
    locals_spec = dict(task=task, obs=obs, action=action, reward=reward, render_scale=render_scale,
                       image_size=image_size, grid=grid, max_elements=max_elements, extra_actions=extra_actions,
                       instruction=instruction, instruction_length=instruction_length, vocab=vocab, env_url=env_url, token=token,
                       **env_kwargs)
    if obs not in OBS_MODES:
        raise ValueError(f"obs must be one of {OBS_MODES}, got {obs!r}")
    if action not in ACTION_MODES:
        raise ValueError(f"action must be one of {ACTION_MODES}, got {action!r}")
    if reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {REWARD_MODES}, got {reward!r}")
    clash = [k for k in _OWNED if k in env_kwargs]
    if clash:
        raise ValueError(f"make_sb3_env sets {clash} itself (use obs=, reward=, render_scale=, image_size=)")
    if image_size is not None:
        width, height = env_kwargs.get("screen_size", (1080, 2400))
        render_scale = min(1.0, max(image_size[0] / width, image_size[1] / height))
    parts = ("screenshot", "a11y", "instruction") if obs != "a11y" else ("a11y", "instruction")
    if obs == "image":
        parts = ("screenshot", "a11y") if action == "element" else ("screenshot",)
    if env_url is not None:
        from .remote import RemoteEnv

        env: gym.Env = RemoteEnv(env_url, token=token, task=task, obs_parts=parts, reward_mode=reward,
                                 render_scale=render_scale, invalid_action="raise", **env_kwargs)
    else:
        env = MobileGymEnv(task, obs_parts=parts, reward_mode=reward, render_scale=render_scale,
                           invalid_action="raise", **env_kwargs)
    env = SuccessInfo(env)
    if action == "grid":
        env = GridActions(env, *grid, extra=extra_actions)
    else:
        env = ElementActions(env, max_elements, extra=extra_actions)
    if obs == "image":
        return _with_spec(SelectObservation(ImageObservation(env, image_size), "image"), locals_spec)
    env = ElementTable(env, max_elements)
    env = InstructionEncoding(env, instruction, instruction_length, vocab)
    if obs == "multi":
        env = ImageObservation(env, image_size)
    return _with_spec(env, locals_spec)


def _with_spec(env: gym.Env, kwargs: dict[str, Any]) -> gym.Env:
    """``env`` with the spec of ``MobileGymSB3-v0`` and these arguments, so ``env.spec`` tells what was made and
    ``gymnasium.make(env.spec)`` makes it again (as when it comes from ``gymnasium.make``)."""
    from gymnasium.envs.registration import EnvSpec

    spec = EnvSpec(id=SB3_ENV_ID, entry_point="mobilegym.wrappers:make_sb3_env", kwargs=kwargs)
    if isinstance(env, gym.Wrapper):
        env._cached_spec = spec  # the wrappers are part of what make_sb3_env makes, not extra ones
    else:
        env.spec = spec
    return env


if SB3_ENV_ID not in registry:
    register(id=SB3_ENV_ID, entry_point="mobilegym.wrappers:make_sb3_env")
