"""The Music library of a generated world: artists, albums of their songs (lengths, play counts), playlists,
Liked Songs and a paused player, drawn from the pools beside this file (English, or Chinese with a few
English artists on a Chinese phone).

Invariants the screens and tasks rely on: artist names, album titles, song titles and playlist names are
unique; titles hold no quote, no " · " and no comma; no album reaches an hour; no playlist takes a name that
tasks type in as a new one; the player holds a real queue.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any

from mobilegym.sim.worldgen import World
from mobilegym.languages import LANGUAGES
from mobilegym.sim.worldgen.draws import choice, randint, randrange, sample
from mobilegym.sim.worldgen.pools import read_pool

PACKAGE = __package__
MIN_ARTISTS, MAX_ARTISTS = 5, 9
ALBUMS_PER_ARTIST = (1, 1, 2, 2, 2, 3)
MIN_TRACKS, MAX_TRACKS = 3, 12
MAX_ALBUM_S = 58 * 60  # album lengths are shown in minutes and seconds below an hour
MIN_SONG_S, MAX_SONG_S = 118, 462
MIN_PLAYLISTS, MAX_PLAYLISTS = 2, 6
MIN_LIKED, MAX_LIKED = 3, 24
# names tasks type in as new playlists (tasks/music/app.py NEW_PLAYLIST_NAMES) never exist already
RESERVED_PLAYLISTS = frozenset(n.casefold() for n in ("Road Trip", "Gym Mix", "Sunday Morning", "Study Beats",
                                                      "Summer 2026", "Chill Vibes", "Late Night Drive", "Coffee Break",
                                                      "自驾游", "燃脂健身", "周日清晨", "学习时光", "2026 夏天", "放松一下",
                                                      "深夜兜风", "咖啡时间"))


def pools(language: str) -> dict[str, Any]:
    """The pool of a language (shared: read only)."""
    return read_pool(PACKAGE, "pools", language)


def genre_name(genre: str, language: str) -> str:
    """A genre as a phone in ``language`` names it (an English artist on a Chinese phone is filed under "独立流行",
    not "Indie Pop")."""
    return pools(language).get("genre_names", {}).get(genre, genre)


def song_length(rng: random.Random, mean: float = 228) -> int:
    """A song's length in seconds: mostly three to four and a half minutes."""
    return max(MIN_SONG_S, min(MAX_SONG_S, int(rng.gauss(mean, 45))))


def track_count(rng: random.Random) -> int:
    """An EP now and then, mostly a full album."""
    return randint(rng, MIN_TRACKS, 5) if rng.random() < 0.25 else randint(rng, 6, MAX_TRACKS)


def make_tracks(rng: random.Random, titles: list[str], count: int) -> list[tuple[str, int]]:
    """(title, seconds) for ``count`` tracks taken from ``titles`` (consumed), keeping the album under an hour;
    some albums run to short songs, some to long ones."""
    tracks: list[tuple[str, int]] = []
    total = 0
    mean = rng.uniform(170, 300)
    while titles and len(tracks) < count:
        seconds = song_length(rng, mean)
        if total + seconds > MAX_ALBUM_S:
            break
        tracks.append((titles.pop(), seconds))
        total += seconds
    return tracks


def _artists(world: World, rng: random.Random) -> list[tuple[dict[str, str], str]]:
    """(pool artist, language of its titles) for the world's artists."""
    count = randint(rng, MIN_ARTISTS, MAX_ARTISTS)
    if world.language == "zh":
        foreign = choice(rng, (0, 1, 1, 2))
        chosen = [(a, "zh") for a in sample(rng, pools("zh")["artists"], count - foreign)]
        chosen += [(a, "en") for a in sample(rng, pools("en")["artists"], foreign)]
        rng.shuffle(chosen)
        return chosen
    return [(a, "en") for a in sample(rng, pools("en")["artists"], count)]


def generate(world: World) -> dict[str, Any]:
    rng = world.rng("music")
    today = world.today
    song_titles = {lang: sample(rng, pools(lang)["songs"], len(pools(lang)["songs"])) for lang in LANGUAGES}
    album_titles = {lang: sample(rng, pools(lang)["albums"], len(pools(lang)["albums"])) for lang in LANGUAGES}
    artists: list[dict[str, Any]] = []
    albums: list[dict[str, Any]] = []
    songs: list[dict[str, Any]] = []
    for pooled, lang in _artists(world, rng):
        artist_id = f"artist_{len(artists) + 1}"
        genre = genre_name(pooled["genre"], world.language)
        artists.append({"id": artist_id, "name": pooled["name"], "genre": genre,
                        "monthly_listeners": rng.randrange(40, 4000) * 1000 + randrange(rng, 1000)})
        years = sorted(sample(rng, range(today.year - 14, today.year + 1), choice(rng, ALBUMS_PER_ARTIST)))
        for year in years:
            if not album_titles[lang] or len(song_titles[lang]) < MIN_TRACKS:
                break
            tracks = make_tracks(rng, song_titles[lang], track_count(rng))
            title = album_titles[lang].pop()
            if rng.random() < 0.25:  # a title track
                title = tracks[randrange(rng, len(tracks))][0]
                if title in {a["title"] for a in albums}:
                    title = album_titles[lang].pop()
            album_id = f"album_{len(albums) + 1}"
            albums.append({"id": album_id, "title": title, "artist_id": artist_id, "year": year, "genre": genre})
            for track, (song_title, seconds) in enumerate(tracks, 1):
                songs.append({"id": f"song_{len(songs) + 1}", "title": song_title, "artist_id": artist_id,
                              "album_id": album_id, "track": track, "duration_s": seconds,
                              "plays": int(rng.paretovariate(1.3) * 6) - 6 + randrange(rng, 4)})
    liked = [s["id"] for s in sample(rng, songs, min(len(songs) - 4, randint(rng, MIN_LIKED, MAX_LIKED)))]
    for song in songs:
        if song["id"] in liked:
            song["plays"] += rng.randrange(10, 120)
    return {"artists": artists, "albums": albums, "songs": songs,
            "playlists": _playlists(world, rng, songs, today), "liked": liked,
            "player": _player(rng, songs, albums)}


def _playlists(world: World, rng: random.Random, songs: list[dict[str, Any]], today: dt.date) -> list[dict[str, Any]]:
    pool = pools(world.language)
    names = [n for n in pool["playlists"] if n.casefold() not in RESERVED_PLAYLISTS]
    count = randint(rng, MIN_PLAYLISTS, MAX_PLAYLISTS)
    created = sorted(today - dt.timedelta(days=rng.randrange(3, 900)) for _ in range(count))
    playlists = []
    for i, name in enumerate(sample(rng, names, count)):
        members = sample(rng, songs, min(len(songs), randint(rng, 2, 14)))
        playlists.append({"id": f"pl_{i + 1}", "name": name, "description": choice(rng, pool["descriptions"]),
                          "song_ids": [s["id"] for s in members], "created": created[i].isoformat()})
    return playlists


def _player(rng: random.Random, songs: list[dict[str, Any]], albums: list[dict[str, Any]]) -> dict[str, Any]:
    """Paused in the middle of an album (shuffled now and then, repeat mostly off)."""
    album = choice(rng, albums)
    queue = [s["id"] for s in songs if s["album_id"] == album["id"]]  # generated in track order
    shuffle = rng.random() < 0.25
    order = list(queue)
    if shuffle:
        rng.shuffle(order)
    index = randrange(rng, len(order))
    length = next(s["duration_s"] for s in songs if s["id"] == order[index])
    return {"context": {"type": "album", "id": album["id"]}, "queue": queue, "order": order, "index": index,
            "playing": False, "position_ms": rng.randrange(5, length - 5) * 1000, "started_at_ms": None,
            "shuffle": shuffle, "repeat": choice(rng, ("off", "off", "off", "all", "one"))}
