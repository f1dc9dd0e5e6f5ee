"""UI steps on Music that other suites' plans use too (open, find, compose, read).

Plans import them from here, never from another suite's plans: this layer sits below every suite's plans."""
from __future__ import annotations

from mobilegym.oracle import Driver


def song_rows(d: Driver) -> list[tuple[str, int, bool]]:
    """(title, length in seconds, liked) of every song row of the open list."""
    rows = []
    for desc in d.collect("song_item"):
        title, _, length, *rest = desc.split(" · ")
        minutes, seconds = length.split(":")
        rows.append((title, int(minutes) * 60 + int(seconds), bool(rest)))
    return rows


def search(d: Driver, query: str) -> None:
    d.open_app("Music")
    d.tap(rid="search")
    d.type(query, rid="search_input")


def song_menu(d: Driver, title: str) -> None:
    """Open the options of a song row on the current screen."""
    d.tap(rid="song_menu", desc=d.t(f"More options for {title}", f"“{title}”的更多选项"))


def add_song_to(d: Driver, title: str, playlist: str) -> None:
    song_menu(d, title)
    d.tap(rid="menu_add_to_playlist")
    d.tap(rid="playlist_option", desc=playlist)


def recommended_song(d: Driver) -> tuple[str, str]:
    """(title, artist) of the song the contact recommends, read in their Messages thread."""
    d.open_app("Messages")
    d.tap(rid="conversation_item", desc=d.params["name"])
    text = next(t for t in reversed(d.collect("message_text", attr="text")) if "You have to hear" in t or "你一定要听听" in t)
    if "《" in text:
        return text.split("《", 1)[1].split("》", 1)[0], text.removeprefix("你一定要听听").split("的《", 1)[0]
    title, rest = text.split('"')[1], text.split('"')[2]
    return title, rest.split(" by ", 1)[1].split(",")[0]
