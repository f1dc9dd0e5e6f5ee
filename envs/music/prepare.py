"""Preparers of the Music app for JSON tasks (setup action ``prepare``): make a named song or album exist in
whatever world the phone holds (seeded tracks, lengths and years when it has to be made), like a song, or
start an album some minutes ago. Each returns a patch of the whole document. Titles, artists and genres may be
given per language ({"en": ..., "zh": ...}); an English genre reads as the phone's language names it."""
from __future__ import annotations

import copy
from typing import Any

from mobilegym.sim.app import Prep

from ..l10n import in_language
from .app import APP
from .world import MIN_TRACKS, genre_name, make_tracks, pools, song_length

GENRES = ("Pop", "Rock", "Indie", "Electronic", "Folk", "Jazz", "R&B")
Text = str | dict[str, str]  # a text, or one per language


class Library:
    """A working copy of the library that grows what a task names, and the patch that says so."""

    def __init__(self, prep: Prep) -> None:
        self.prep = prep
        self.state = copy.deepcopy(prep.state("music"))

    def _next_id(self, kind: str, items: list[dict[str, Any]]) -> str:
        numbers = [int(i["id"].rsplit("_", 1)[1]) for i in items if i["id"].rsplit("_", 1)[-1].isdigit()]
        return f"{kind}_{max(numbers, default=0) + 1}"

    def text(self, value: Text, what: str) -> str:
        """A title or name in the phone's language."""
        return in_language(value, self.prep.language, what)

    def artist(self, name: Text, genre: Text = "") -> dict[str, Any]:
        """The artist called ``name``, added when missing."""
        name = self.text(name, "artist name")
        found = next((a for a in self.state["artists"] if a["name"] == name), None)
        if found is None:
            rng = self.prep.rng
            genre = genre_name(self.text(genre, "genre") or rng.choice(GENRES), self.prep.language)
            found = {"id": self._next_id("artist", self.state["artists"]), "name": name,
                     "genre": genre, "monthly_listeners": rng.randrange(40, 4000) * 1000}
            self.state["artists"].append(found)
        return found

    def _add_album(self, title: str, artist: dict[str, Any], tracks: list[tuple[str, int]]) -> dict[str, Any]:
        album = {"id": self._next_id("album", self.state["albums"]), "title": title, "artist_id": artist["id"],
                 "year": self.prep.now.year - self.prep.rng.randrange(0, 12), "genre": artist["genre"]}
        self.state["albums"].append(album)
        for number, (song_title, seconds) in enumerate(tracks, 1):
            self.state["songs"].append({"id": self._next_id("song", self.state["songs"]), "title": song_title,
                                        "artist_id": artist["id"], "album_id": album["id"], "track": number,
                                        "duration_s": seconds, "plays": self.prep.rng.randrange(0, 200)})
        return album

    def album(self, title: Text, artist_name: Text, genre: Text = "") -> dict[str, Any]:
        """The album called ``title``, made by ``artist_name`` with seeded new tracks when missing."""
        title = self.text(title, "album title")
        found = next((a for a in self.state["albums"] if a["title"] == title), None)
        if found is not None:
            return found
        rng = self.prep.rng
        taken = {s["title"] for s in self.state["songs"]} | {title}
        titles = [t for t in pools(self.prep.language)["songs"] if t not in taken]
        rng.shuffle(titles)
        return self._add_album(title, self.artist(artist_name, genre),
                               make_tracks(rng, titles, rng.randint(MIN_TRACKS + 1, 8)))

    def song(self, title: Text, artist_name: Text, genre: Text = "") -> dict[str, Any]:
        """The song called ``title``, released as a single by ``artist_name`` when missing."""
        title = self.text(title, "song title")
        found = next((s for s in self.state["songs"] if s["title"] == title), None)
        if found is not None:
            return found
        album = self._add_album(title, self.artist(artist_name, genre), [(title, song_length(self.prep.rng))])
        return next(s for s in self.state["songs"] if s["album_id"] == album["id"])

    def tracks(self, album_id: str) -> list[dict[str, Any]]:
        return sorted((s for s in self.state["songs"] if s["album_id"] == album_id), key=lambda s: s["track"])

    def patch(self, *keys: str) -> dict[str, Any]:
        return {"apps": {"music": {key: self.state[key] for key in ("artists", "albums", "songs", *keys)}}}


@APP.preparer("album")
def album(prep: Prep, title: Text, artist: Text, genre: Text = "") -> dict[str, Any]:
    """The album exists (seeded tracks when it is made)."""
    library = Library(prep)
    library.album(title, artist, genre)
    return library.patch()


@APP.preparer("song")
def song(prep: Prep, title: Text, artist: Text, genre: Text = "") -> dict[str, Any]:
    """The song exists (a single when it is made)."""
    library = Library(prep)
    library.song(title, artist, genre)
    return library.patch()


@APP.preparer("liked_song")
def liked_song(prep: Prep, title: Text, artist: Text, genre: Text = "") -> dict[str, Any]:
    """The song exists and is the oldest of at least two Liked Songs: ``.liked[-1]`` is it, so a JSON
    evaluator can tell it was the one removed (``.liked[-1]`` now equals ``.liked[-2]`` before)."""
    library = Library(prep)
    target = library.song(title, artist, genre)
    liked = [s for s in library.state["liked"] if s != target["id"]]
    if not liked:
        liked = [prep.rng.choice([s["id"] for s in library.state["songs"] if s["id"] != target["id"]])]
    library.state["liked"] = [*liked, target["id"]]
    return library.patch("liked")


@APP.preparer("album_started")
def album_started(prep: Prep, title: Text, artist: Text, genre: Text = "") -> dict[str, Any]:
    """The album (made when missing) started playing from its first track some minutes ago: the play head
    is inside a seeded later track with at least three minutes of it left. That song is moved to the front of
    the song list (no screen shows that order), so a JSON evaluator reads the answer at ``.songs[0].title``."""
    library = Library(prep)
    found = library.album(title, artist, genre)
    tracks = library.tracks(found["id"])
    if len(tracks) < 2:
        raise ValueError(f"music: the album {title!r} has fewer than two tracks")
    rng = prep.rng
    fits = [k for k in range(1, min(len(tracks), 4)) if tracks[k]["duration_s"] >= 200]
    if not fits:
        tracks[1]["duration_s"] = max(tracks[1]["duration_s"], 200 + rng.randrange(60))
        fits = [1]
    k = rng.choice(fits)
    into = rng.randrange(10, tracks[k]["duration_s"] - 180)
    elapsed_s = sum(t["duration_s"] for t in tracks[:k]) + into
    ids = [t["id"] for t in tracks]
    now_ms = prep.doc["os"]["time_ms"]
    library.state["player"] = {"context": {"type": "album", "id": found["id"]}, "queue": ids, "order": list(ids),
                               "index": 0, "playing": True, "position_ms": 0, "started_at_ms": now_ms - elapsed_s * 1000,
                               "shuffle": False, "repeat": "off"}
    songs = library.state["songs"]
    songs.insert(0, songs.pop(next(i for i, s in enumerate(songs) if s["id"] == tracks[k]["id"])))
    return library.patch("player")


@APP.preparer("playback_modes")
def playback_modes(prep: Prep, shuffle: bool, repeat: str) -> dict[str, Any]:
    """The player's shuffle and repeat modes (turning shuffle off puts the queue back in its own order)."""
    player = prep.state("music")["player"]
    changes: dict[str, Any] = {"shuffle": shuffle, "repeat": repeat}
    if not shuffle and player["shuffle"] and player["order"]:
        changes.update(order=list(player["queue"]), index=player["queue"].index(player["order"][player["index"]]))
    return {"apps": {"music": {"player": changes}}}
