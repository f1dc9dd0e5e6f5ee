"""Accessor for the Music app's state: library (songs, albums, artists), playlists, Liked Songs, player."""
from __future__ import annotations

import random
from typing import Any, Mapping

from mobilegym.envs.music.playback import playback
from mobilegym.envs.music.screens import songs_tab
from mobilegym.judge import BaseApp, unambiguous
from mobilegym.judge.result import check

MUSIC_LIKE_CHANGES = ["music.liked[+]"]  # one song liked, none unliked
MUSIC_LIKE_MANY_CHANGES = ["music.liked[+*]"]  # songs only liked (the task's check says which)
MUSIC_NEW_PLAYLIST_CHANGES = ["music.playlists[+]"]  # the one playlist the task creates
MUSIC_ADD_TO_PLAYLIST_CHANGES = ["music.playlists[id={playlist.id}].song_ids[+]"]
MUSIC_REMOVE_FROM_PLAYLIST_CHANGES = ["music.playlists[id={playlist.id}].song_ids[-]"]
MUSIC_PLAYER_CHANGES = ["music.player"]
FIRST_SCREEN_ROWS = 10  # Songs-tab rows a tap on the opening screen may reach (8 at 1080x2400, more on tall screens)
ALBUM_LENGTH_TOLERANCE_S = 60  # a timer within a minute of an album's length is right (rounded to minutes)
NEAR_ALBUM_S = 300  # AlbumLengthTimer: a rival album is the artist's or this close in length (a near miss)
MIN_ALBUM_RIVALS = 1  # AlbumLengthTimer: rival albums, at least (sample_album_of_distinct_length)
MIN_TRIBUTE_SONGS = 1  # ArtistPlaylist: other artists' songs named after the artist (prepare_state_with_tribute_album)
TRIBUTE_ALBUM = {"en": "A Tribute to {artist}", "zh": "致敬{artist}"}
PLAYLIST_NAMES = {  # names tasks ask for new playlists, in the phone's language (no world uses them)
    "en": ("Road Trip", "Gym Mix", "Sunday Morning", "Study Beats", "Summer 2026", "Chill Vibes", "Late Night Drive",
           "Coffee Break"),
    "zh": ("自驾游", "燃脂健身", "周日清晨", "学习时光", "2026 夏天", "放松一下", "深夜兜风", "咖啡时间"),
}
NEW_PLAYLIST_NAMES = PLAYLIST_NAMES["en"] + PLAYLIST_NAMES["zh"]  # every name a task may ask for


class Music(BaseApp):
    """The library, playlists, liked songs and the player."""

    def song(self, song_id: str) -> dict[str, Any]:
        return self.find(".songs", id=song_id)

    def album(self, album_id: str) -> dict[str, Any]:
        return self.find(".albums", id=album_id)

    def artist(self, artist_id: str) -> dict[str, Any]:
        return self.find(".artists", id=artist_id)

    def playlist(self, playlist_id: str) -> dict[str, Any] | None:
        """A playlist by id, None when it no longer exists (the agent may have deleted it)."""
        found = self.find_all(".playlists", id=playlist_id)
        return found[0] if found else None

    def playlist_named(self, name: str) -> dict[str, Any] | None:
        """The playlist with this name (case and surrounding spaces ignored), None when there is none."""
        wanted = name.strip().casefold()
        return next((p for p in self.require(".playlists") if p["name"].strip().casefold() == wanted), None)

    def album_songs(self, album_id: str) -> list[dict[str, Any]]:
        """The album's songs in track order; raises when the album has none."""
        songs = sorted(self.find_all(".songs", album_id=album_id), key=lambda s: s["track"])
        if not songs:
            raise ValueError(f"music: album {album_id} has no songs")
        return songs

    def artist_songs(self, artist_id: str) -> list[dict[str, Any]]:
        """Every song by the artist; raises when there is none."""
        songs = self.find_all(".songs", artist_id=artist_id)
        if not songs:
            raise ValueError(f"music: artist {artist_id} has no songs")
        return songs

    def album_rivals(self, album_id: str) -> list[dict[str, Any]]:
        """The other albums by its artist or within NEAR_ALBUM_S of its length."""
        album, length = self.album(album_id), self.album_length_s(album_id)
        return [a for a in self.require(".albums") if a["id"] != album_id and (
            a["artist_id"] == album["artist_id"] or abs(self.album_length_s(a["id"]) - length) <= NEAR_ALBUM_S)]

    def tribute_songs(self, artist_id: str) -> list[dict[str, Any]]:
        """Other artists' songs whose title or album's title names the artist."""
        name = self.artist(artist_id)["name"].casefold()
        return [s for s in self.require(".songs") if s["artist_id"] != artist_id
                and (name in s["title"].casefold() or name in self.album(s["album_id"])["title"].casefold())]

    def album_length_s(self, album_id: str) -> int:
        """Total running time of an album in seconds."""
        return sum(s["duration_s"] for s in self.album_songs(album_id))

    def liked(self) -> list[str]:
        return list(self.require(".liked"))

    def now_playing(self, now_ms: int) -> tuple[str | None, bool]:
        """(song id at the play head, playing) at ``now_ms``, following the clock through the queue."""
        player = self.require(".player")
        durations = {s["id"]: s["duration_s"] for s in self.require(".songs")}
        if not player["order"]:
            return None, False
        index, _, playing = playback(player, durations, now_ms)
        return player["order"][index], playing

    def check_song_set(self, field: str, expected: list[str], actual: list[str] | None) -> dict[str, Any]:
        """The song ids are exactly ``expected`` (order aside, no duplicates); ``actual`` None: list missing."""
        titles = {s["id"]: s["title"] for s in self.require(".songs")}
        shown = sorted(titles[s] for s in actual) if actual is not None else "missing"
        ok = actual is not None and len(actual) == len(set(actual)) and set(actual) == set(expected)
        return check(field, sorted(titles[s] for s in expected), shown, ok)

    def check_playlist_songs(self, init: "Music", playlist: dict[str, Any], added: tuple[str, ...] = (),
                             removed: tuple[str, ...] = ()) -> dict[str, Any]:
        """The playlist holds exactly its initial songs, with ``added`` song ids put in and ``removed`` taken out."""
        before = init.playlist(playlist["id"])["song_ids"]
        expected = [s for s in before if s not in removed] + list(added)
        target = self.playlist(playlist["id"])
        return self.check_song_set(f"songs of {playlist['name']}", expected, target["song_ids"] if target else None)

    # --- samplers --------------------------------------------------------------------------------------

    @staticmethod
    def _song_ref(state: dict[str, Any], song: dict[str, Any]) -> dict[str, str]:
        artist = next(a for a in state["artists"] if a["id"] == song["artist_id"])
        return {"id": song["id"], "title": song["title"], "artist": artist["name"]}

    @staticmethod
    def sample_unliked_song(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A song not in Liked Songs as {id, title, artist}."""
        pool = [s for s in state["songs"] if s["id"] not in state["liked"]]
        if not pool:
            raise ValueError("music: every song is liked")
        return Music._song_ref(state, rng.choice(pool))

    @staticmethod
    def sample_song_not_playing(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A song other than the one loaded in the player and below the Songs tab's first screen (a tap on the
        opening screen must not play it: the agent searches or scrolls), as {id, title, artist}."""
        player = state["player"]
        loaded = player["order"][player["index"]] if player["order"] else None
        below = songs_tab(state["songs"])[FIRST_SCREEN_ROWS:]
        return Music._song_ref(state, rng.choice([s for s in below if s["id"] != loaded]))

    @staticmethod
    def sample_any_song(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """Any song as {id, title, artist}."""
        return Music._song_ref(state, rng.choice(state["songs"]))

    @staticmethod
    def sample_playlist(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A playlist with at least two songs, as {id, name}."""
        pool = [p for p in state["playlists"] if len(p["song_ids"]) >= 2]
        if not pool:
            raise ValueError("music: no playlist has two songs")
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "name": chosen["name"]}

    @staticmethod
    def sample_song_not_in_playlist(rng: random.Random, state: dict[str, Any], params: dict[str, Any]) -> dict[str, str]:
        """A song missing from the sampled ``playlist``."""
        members = next(p for p in state["playlists"] if p["id"] == params["playlist"]["id"])["song_ids"]
        return Music._song_ref(state, rng.choice([s for s in state["songs"] if s["id"] not in members]))

    @staticmethod
    def sample_song_in_playlist(rng: random.Random, state: dict[str, Any], params: dict[str, Any]) -> dict[str, str]:
        """A song of the sampled ``playlist``."""
        members = next(p for p in state["playlists"] if p["id"] == params["playlist"]["id"])["song_ids"]
        song_id = rng.choice(members)
        return Music._song_ref(state, next(s for s in state["songs"] if s["id"] == song_id))

    @staticmethod
    def sample_new_playlist_name(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A playlist name (in the phone's language) nobody uses yet."""
        taken = {p["name"].casefold() for p in state["playlists"]}
        pool = [n for n in PLAYLIST_NAMES[os_state.get("language", "en")] if n.casefold() not in taken]
        if not pool:
            raise ValueError("music: every candidate playlist name is taken")
        return rng.choice(pool)

    @staticmethod
    def sample_playlist_name(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """One of the names tasks ask for (in the phone's language), taken or not."""
        return rng.choice(PLAYLIST_NAMES[os_state.get("language", "en")])

    @staticmethod
    def sample_album_of_prolific_artist(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An album whose artist has other albums too, as {id, title, artist}."""
        counts: dict[str, int] = {}
        for album in state["albums"]:
            counts[album["artist_id"]] = counts.get(album["artist_id"], 0) + 1
        pool = [a for a in state["albums"] if counts[a["artist_id"]] > 1]
        if not pool:
            raise ValueError("music: no artist has more than one album")
        album = rng.choice(pool)
        artist = next(a for a in state["artists"] if a["id"] == album["artist_id"])
        return {"id": album["id"], "title": album["title"], "artist": artist["name"]}

    @staticmethod
    def sample_album_of_distinct_length(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An album as {id, title, artist} whose length is more than ALBUM_LENGTH_TOLERANCE_S from every other
        album's (so a timer for another album cannot pass for it), with MIN_ALBUM_RIVALS album_rivals."""
        music = Music(state)
        apart = unambiguous(state["albums"], lambda a: music.album_length_s(a["id"]), ALBUM_LENGTH_TOLERANCE_S)
        pool = [a for a in apart if len(music.album_rivals(a["id"])) >= MIN_ALBUM_RIVALS]
        if not pool:
            raise ValueError("music: no album's length is a minute apart from every other's, with a rival album")
        album = rng.choice(pool)
        artist = next(a for a in state["artists"] if a["id"] == album["artist_id"])
        return {"id": album["id"], "title": album["title"], "artist": artist["name"]}

    @staticmethod
    def sample_album_with_unliked_songs(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An album with at least two songs not yet liked."""
        pool = [a for a in state["albums"]
                if sum(s["album_id"] == a["id"] and s["id"] not in state["liked"] for s in state["songs"]) >= 2]
        album = rng.choice(pool)
        artist = next(a for a in state["artists"] if a["id"] == album["artist_id"])
        return {"id": album["id"], "title": album["title"], "artist": artist["name"]}

    @staticmethod
    def sample_artist_with_unique_longest(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An artist whose longest song is unique and not the longest of all (another artist's song is longer), as
        {id, name}."""
        longest = max(s["duration_s"] for s in state["songs"])

        def ok(artist_id: str) -> bool:
            lengths = [s["duration_s"] for s in state["songs"] if s["artist_id"] == artist_id]
            return (len(lengths) >= 2 and lengths.count(max(lengths)) == 1 and lengths.count(min(lengths)) == 1
                    and max(lengths) < longest)

        pool = [a for a in state["artists"] if ok(a["id"])]
        if not pool:
            raise ValueError("music: no artist has a unique longest song")
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "name": chosen["name"]}

    @staticmethod
    def prepare_state_with_loaded_song(state: dict[str, Any], song_id: str, position_ms: int) -> dict[str, Any]:
        """A patch loading ``song_id`` (paused at ``position_ms``) with its album as the queue."""
        song = next(s for s in state["songs"] if s["id"] == song_id)
        queue = [s["id"] for s in sorted((s for s in state["songs"] if s["album_id"] == song["album_id"]),
                                         key=lambda s: s["track"])]
        return {"apps": {"music": {"player": {
            "context": {"type": "album", "id": song["album_id"]}, "queue": queue, "order": queue,
            "index": queue.index(song_id), "playing": False, "position_ms": position_ms, "started_at_ms": None,
            "shuffle": False}}}}

    @staticmethod
    def prepare_state_with_modes(state: dict[str, Any], shuffle: bool, repeat: str) -> dict[str, Any]:
        """A patch setting the player's shuffle and repeat modes (shuffle off restores the queue's order)."""
        player = state["player"]
        changes: dict[str, Any] = {"shuffle": shuffle, "repeat": repeat}
        if not shuffle and player["shuffle"] and player["order"]:
            changes.update(order=list(player["queue"]), index=player["queue"].index(player["order"][player["index"]]))
        return {"apps": {"music": {"player": changes}}}

    @staticmethod
    def prepare_state_with_tribute_album(state: dict[str, Any], artist_id: str, language: str,
                                         rng: random.Random) -> dict[str, Any] | None:
        """A patch renaming another artist's album TRIBUTE_ALBUM (after the artist) until MIN_TRIBUTE_SONGS of its
        songs look like the artist's; None when enough do."""
        music = Music(state)
        if len(music.tribute_songs(artist_id)) >= MIN_TRIBUTE_SONGS:
            return None
        album = rng.choice([a for a in state["albums"] if a["artist_id"] != artist_id])
        title = TRIBUTE_ALBUM[language].format(artist=music.artist(artist_id)["name"])
        return {"apps": {"music": {f"albums[id={album['id']}]": {"title": title}}}}

    @staticmethod
    def recommendation_text(song: dict[str, str], language: str) -> str:
        """The text of a friend's song recommendation."""
        if language == "zh":
            return f"你一定要听听{song['artist']}的《{song['title']}》，这周我一直在单曲循环！"
        return f"You have to hear \"{song['title']}\" by {song['artist']}, it's been on repeat all week!"

    @staticmethod
    def gripe_text(song: dict[str, str], language: str) -> str:
        """The text of a friend tired of a song (naming it, recommending nothing)."""
        if language == "zh":
            return f"健身房今天一直在放{song['artist']}的《{song['title']}》，我都听烦了"
        return f"The gym played \"{song['title']}\" by {song['artist']} on loop today, I'm so sick of it"
