"""The player as a pure function of its state and the simulated clock, and the transport actions.

``player``: ``queue`` (the source's song ids in order), ``order`` (play order: the queue, or a
shuffled copy), ``index`` (into ``order``), ``playing``, ``position_ms`` (at ``started_at_ms`` when
playing), ``shuffle``, ``repeat`` ("off", "all", "one") and ``context`` (what the queue came from).
"""
from __future__ import annotations

import random
from typing import Any, Mapping

REPEAT_MODES = ("off", "all", "one")
RESTART_MS = 3000  # "previous" restarts the song when it has played longer than this


def playback(player: Mapping[str, Any], durations: Mapping[str, int], now_ms: int) -> tuple[int, int, bool]:
    """(index into ``order``, position in ms, playing) at ``now_ms``: songs end and the queue advances."""
    order, index, position = player["order"], player["index"], player["position_ms"]
    if not order:
        return 0, 0, False
    if not player["playing"]:
        return index, position, False
    elapsed = position + now_ms - player["started_at_ms"]
    if player["repeat"] == "one":
        return index, elapsed % (durations[order[index]] * 1000), True
    lengths = [durations[song] * 1000 for song in order]
    if player["repeat"] == "all":
        elapsed_from_start = sum(lengths[:index]) + elapsed
        elapsed_from_start %= sum(lengths)
        index = 0
        while elapsed_from_start >= lengths[index]:
            elapsed_from_start -= lengths[index]
            index += 1
        return index, elapsed_from_start, True
    while elapsed >= lengths[index]:
        if index == len(order) - 1:
            return index, lengths[index], False
        elapsed -= lengths[index]
        index += 1
    return index, elapsed, True


def current_song(player: Mapping[str, Any], durations: Mapping[str, int], now_ms: int) -> str | None:
    """The id of the song at the play head, or None with an empty queue."""
    if not player["order"]:
        return None
    return player["order"][playback(player, durations, now_ms)[0]]


def settle(player: dict[str, Any], durations: Mapping[str, int], now_ms: int) -> None:
    """Write the clock-derived position back into the state (before any transport action)."""
    index, position, playing = playback(player, durations, now_ms)
    player.update(index=index, position_ms=position, playing=playing, started_at_ms=now_ms if playing else None)


def play_queue(player: dict[str, Any], song_ids: list[str], start: int, context: dict[str, Any], now_ms: int) -> None:
    """Start playing ``song_ids`` at position ``start`` (shuffling the rest when shuffle is on)."""
    player.update(queue=list(song_ids), context=dict(context), position_ms=0, playing=True, started_at_ms=now_ms)
    if player["shuffle"]:
        player.update(order=_shuffled(song_ids, song_ids[start], now_ms), index=0)
    else:
        player.update(order=list(song_ids), index=start)


def _shuffled(song_ids: list[str], first: str, seed: int) -> list[str]:
    rest = [s for s in song_ids if s != first]
    random.Random(seed).shuffle(rest)
    return [first, *rest]


def toggle_play(player: dict[str, Any], durations: Mapping[str, int], now_ms: int) -> None:
    """Pause, or play (from the start of the song when it had ended)."""
    settle(player, durations, now_ms)
    if player["playing"]:
        player.update(playing=False, started_at_ms=None)
        return
    if player["position_ms"] >= durations[player["order"][player["index"]]] * 1000:
        player["position_ms"] = 0
    player.update(playing=True, started_at_ms=now_ms)


def skip(player: dict[str, Any], durations: Mapping[str, int], now_ms: int, step: int) -> None:
    """Next (``step`` 1) or previous (-1) song; previous restarts a song that has played a while.
    Past either end the queue wraps; with repeat off, wrapping past the last song stops playback."""
    settle(player, durations, now_ms)
    if step < 0 and player["position_ms"] > RESTART_MS:
        player["position_ms"] = 0
    else:
        count = len(player["order"])
        target = player["index"] + step
        wrapped = target >= count
        player["index"] = target % count
        player["position_ms"] = 0
        if wrapped and player["repeat"] == "off":
            player["playing"] = False
    player["started_at_ms"] = now_ms if player["playing"] else None


def seek(player: dict[str, Any], durations: Mapping[str, int], now_ms: int, position_ms: int) -> None:
    """Move the play head within the current song."""
    settle(player, durations, now_ms)
    length = durations[player["order"][player["index"]]] * 1000
    player["position_ms"] = max(0, min(length, int(position_ms)))
    if player["playing"]:
        player["started_at_ms"] = now_ms


def set_shuffle(player: dict[str, Any], durations: Mapping[str, int], now_ms: int, on: bool) -> None:
    """Shuffle the songs after the current one, or restore the source order."""
    settle(player, durations, now_ms)
    current = player["order"][player["index"]] if player["order"] else None
    player["shuffle"] = on
    if current is None:
        return
    if on:
        player.update(order=_shuffled(player["queue"], current, now_ms), index=0)
    else:
        player.update(order=list(player["queue"]), index=player["queue"].index(current))


def cycle_repeat(player: dict[str, Any], durations: Mapping[str, int], now_ms: int) -> None:
    """off → all → one → off."""
    settle(player, durations, now_ms)
    player["repeat"] = REPEAT_MODES[(REPEAT_MODES.index(player["repeat"]) + 1) % len(REPEAT_MODES)]
