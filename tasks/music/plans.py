"""Scripted plans for the Music suite: oracles and realistic mistakes, acting only through the UI."""
from __future__ import annotations

import re

from mobilegym.envs.music.screens import REPEAT_LABELS
from mobilegym.oracle import Driver, negative, plan
from mobilegym.screen_text import Node
from mobilegym.sim.strings import translate

from ..contacts.ui import compose
from .ui import add_song_to, recommended_song, search, song_menu, song_rows
from ..forum.ui import open_community


# --- helpers -------------------------------------------------------------------------------------------


def inside(node: Node, box: Node) -> bool:
    x, y = node.center
    return box.bounds[0] <= x < box.bounds[2] and box.bounds[1] <= y < box.bounds[3]


def open_album(d: Driver, title: str) -> None:
    search(d, title)
    d.tap(rid="album_title", text=title)


def open_playlist(d: Driver, name: str) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    d.tap(rid="playlist_title", text=name)


def create_playlist(d: Driver, name: str) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    d.tap(rid="new_playlist")
    d.type(name, rid="playlist_name_input")
    d.tap(rid="save_playlist")


def open_player(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="mini_player")


def like_from_menu(d: Driver, title: str) -> None:
    song_menu(d, title)
    d.tap(rid="menu_like")


# --- LikeSong ------------------------------------------------------------------------------------------

@plan("music.LikeSong")
def like_song(d: Driver) -> None:
    search(d, d.params["song"]["title"])
    like_from_menu(d, d.params["song"]["title"])


@negative("music.LikeSong", "likes another song of the same album")
def like_neighbour(d: Driver) -> None:
    title = d.params["song"]["title"]
    search(d, title)
    song_menu(d, title)
    d.tap(rid="menu_album")
    other = next(t for t, _, liked in song_rows(d) if t != title and not liked)
    like_from_menu(d, other)


@negative("music.LikeSong", "taps like twice, unliking it again")
def like_twice(d: Driver) -> None:
    search(d, d.params["song"]["title"])
    like_from_menu(d, d.params["song"]["title"])
    like_from_menu(d, d.params["song"]["title"])


# --- CreatePlaylist ------------------------------------------------------------------------------------

@plan("music.CreatePlaylist")
def create(d: Driver) -> None:
    create_playlist(d, d.params["name"])


@negative("music.CreatePlaylist", "typo in the name")
def create_typo(d: Driver) -> None:
    create_playlist(d, d.params["name"][:-1])


@negative("music.CreatePlaylist", "types the name but cancels")
def create_cancel(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    d.tap(rid="new_playlist")
    d.type(d.params["name"], rid="playlist_name_input")
    d.tap(rid="cancel")


# --- RenamePlaylist ------------------------------------------------------------------------------------

@plan("music.RenamePlaylist")
def rename(d: Driver) -> None:
    open_playlist(d, d.params["playlist"]["name"])
    d.tap(rid="edit_playlist")
    d.type(d.params["new_name"], rid="playlist_name_input")
    d.tap(rid="save_playlist")


@negative("music.RenamePlaylist", "creates a new playlist with the new name instead")
def rename_by_creating(d: Driver) -> None:
    create_playlist(d, d.params["new_name"])


# --- DeletePlaylist ------------------------------------------------------------------------------------

@plan("music.DeletePlaylist")
def delete(d: Driver) -> None:
    open_playlist(d, d.params["playlist"]["name"])
    d.tap(rid="delete_playlist")
    d.tap(rid="button1")


@negative("music.DeletePlaylist", "cancels the confirmation")
def delete_cancel(d: Driver) -> None:
    open_playlist(d, d.params["playlist"]["name"])
    d.tap(rid="delete_playlist")
    d.tap(rid="button2")


@negative("music.DeletePlaylist", "deletes a different playlist")
def delete_other(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    other = next(t for t in d.texts("playlist_title") if t != d.params["playlist"]["name"])
    d.tap(rid="playlist_title", text=other)
    d.tap(rid="delete_playlist")
    d.tap(rid="button1")


# --- AddSongToPlaylist ---------------------------------------------------------------------------------


@plan("music.AddSongToPlaylist")
def add_to_playlist(d: Driver) -> None:
    search(d, d.params["song"]["title"])
    add_song_to(d, d.params["song"]["title"], d.params["playlist"]["name"])


@negative("music.AddSongToPlaylist", "adds it to a different playlist")
def add_to_other_playlist(d: Driver) -> None:
    search(d, d.params["song"]["title"])
    song_menu(d, d.params["song"]["title"])
    d.tap(rid="menu_add_to_playlist")
    other = next(t for t in d.texts("playlist_option_name") if t != d.params["playlist"]["name"])
    d.tap(rid="playlist_option", desc=other)


@negative("music.AddSongToPlaylist", "adds the wrong song from the album")
def add_wrong_song(d: Driver) -> None:
    title = d.params["song"]["title"]
    search(d, title)
    song_menu(d, title)
    d.tap(rid="menu_album")
    other = next(t for t, _, _ in song_rows(d) if t != title)
    add_song_to(d, other, d.params["playlist"]["name"])


# --- RemoveSongFromPlaylist ----------------------------------------------------------------------------

@plan("music.RemoveSongFromPlaylist")
def remove_from_playlist(d: Driver) -> None:
    open_playlist(d, d.params["playlist"]["name"])
    song_menu(d, d.params["song"]["title"])
    d.tap(rid="menu_remove_from_playlist")


@negative("music.RemoveSongFromPlaylist", "removes a different song")
def remove_other_song(d: Driver) -> None:
    open_playlist(d, d.params["playlist"]["name"])
    other = next(t for t in d.texts("song_title") if t != d.params["song"]["title"])
    song_menu(d, other)
    d.tap(rid="menu_remove_from_playlist")


@negative("music.RemoveSongFromPlaylist", "opens the song menu and cancels")
def remove_cancel(d: Driver) -> None:
    open_playlist(d, d.params["playlist"]["name"])
    song_menu(d, d.params["song"]["title"])
    d.tap(rid="button2")


# --- PlaySong ------------------------------------------------------------------------------------------

def _start_song(d: Driver) -> None:
    search(d, d.params["song"]["title"])
    d.tap(rid="song_title", text=d.params["song"]["title"])


@plan("music.PlaySong")
def play_song(d: Driver) -> None:
    _start_song(d)


@negative("music.PlaySong", "starts it, then pauses")
def play_then_pause(d: Driver) -> None:
    _start_song(d)
    d.tap(rid="mini_play_pause")


@negative("music.PlaySong", "plays another song of its album")
def play_album_neighbour(d: Driver) -> None:
    title = d.params["song"]["title"]
    search(d, title)
    song_menu(d, title)
    d.tap(rid="menu_album")
    d.tap(rid="song_title", text=next(t for t, _, _ in song_rows(d) if t != title))


# --- SetPlaybackModes ----------------------------------------------------------------------------------

def _set_shuffle(d: Driver, on: bool) -> None:
    if d.find(rid="shuffle").selected != on:
        d.tap(rid="shuffle")


def _set_repeat(d: Driver, mode: str) -> None:
    label = REPEAT_LABELS[mode]
    while d.find(rid="repeat").desc != d.t(label, translate("mobilegym.envs.music", "zh", label)):
        d.tap(rid="repeat")


@plan("music.SetPlaybackModes")
def playback_modes(d: Driver) -> None:
    open_player(d)
    _set_shuffle(d, d.params["shuffle"])
    _set_repeat(d, d.params["repeat"])


@negative("music.SetPlaybackModes", "sets repeat but forgets shuffle")
def repeat_only(d: Driver) -> None:
    open_player(d)
    _set_repeat(d, d.params["repeat"])


@negative("music.SetPlaybackModes", "sets shuffle, then taps repeat one time too many")
def repeat_overshoot(d: Driver) -> None:
    open_player(d)
    _set_shuffle(d, d.params["shuffle"])
    _set_repeat(d, d.params["repeat"])
    d.tap(rid="repeat")


# --- NowPlayingSong ------------------------------------------------------------------------------------

@plan("music.NowPlayingSong")
def now_playing(d: Driver) -> None:
    d.open_app("Music")
    d.submit_answer([d.texts("mini_title")[0], d.texts("mini_artist")[0]])


@negative("music.NowPlayingSong", "skips ahead before reading")
def now_playing_skipped(d: Driver) -> None:
    open_player(d)
    d.tap(rid="next")
    d.submit_answer([d.texts("player_title")[0], d.texts("player_artist")[0]])


# --- AlbumSongCount ------------------------------------------------------------------------------------

@plan("music.AlbumSongCount")
def album_song_count(d: Driver) -> None:
    open_album(d, d.params["album"]["title"])
    d.submit_answer([int(d.texts("album_meta")[0].split()[0])])


@negative("music.AlbumSongCount", "counts every song by the artist")
def artist_song_count(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="tab_2")
    name = d.reveal(rid="artist_name", text=d.params["album"]["artist"])
    nodes = d.nodes()
    row = next(n for n in nodes if n.short_id == "artist_item" and inside(name, n))
    subtitle = next(n.text for n in nodes if d.t("song", "首歌曲") in n.text and inside(n, row))
    d.submit_answer([int(subtitle.split(" · ")[1].split()[0])])


# --- LongestSongByArtist -------------------------------------------------------------------------------

def _artist_songs(d: Driver) -> list[tuple[str, int, bool]]:
    """The artist's songs, from the library's Artists tab (a search for a prolific artist lists every song first)."""
    d.open_app("Music")
    d.tap(rid="tab_2")
    d.tap(rid="artist_name", text=d.params["artist"]["name"])
    return song_rows(d)


@plan("music.LongestSongByArtist")
def longest_song(d: Driver) -> None:
    d.submit_answer([max(_artist_songs(d), key=lambda row: row[1])[0]])


@negative("music.LongestSongByArtist", "picks the shortest song")
def shortest_song(d: Driver) -> None:
    d.submit_answer([min(_artist_songs(d), key=lambda row: row[1])[0]])


# --- LikeAlbumAndCount ---------------------------------------------------------------------------------

def _liked_count(d: Driver) -> int:
    d.key("back")
    d.key("back")
    d.tap(rid="tab_3")
    d.tap(rid="liked_songs_entry")
    return int(d.texts("liked_meta")[0].split()[0])


@plan("music.LikeAlbumAndCount")
def like_album(d: Driver) -> None:
    open_album(d, d.params["album"]["title"])
    for title, _, liked in song_rows(d):
        if not liked:
            like_from_menu(d, title)
    d.submit_answer([_liked_count(d)])


@negative("music.LikeAlbumAndCount", "likes the songs but reports the count from before")
def like_album_old_count(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    before = int(next(n.text for n in d.nodes() if d.t("song", "首歌曲") in n.text and
                      inside(n, d.find(rid="liked_songs_entry"))).split()[0])
    open_album(d, d.params["album"]["title"])
    for title, _, liked in song_rows(d):
        if not liked:
            like_from_menu(d, title)
    d.submit_answer([before])


@negative("music.LikeAlbumAndCount", "likes only the first song but reports the full count")
def like_album_partly(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    before = int(next(n.text for n in d.nodes() if d.t("song", "首歌曲") in n.text and
                      inside(n, d.find(rid="liked_songs_entry"))).split()[0])
    open_album(d, d.params["album"]["title"])
    unliked = [title for title, _, liked in song_rows(d) if not liked]
    like_from_menu(d, unliked[0])
    d.submit_answer([before + len(unliked)])


# --- ArtistPlaylist ------------------------------------------------------------------------------------

def _fill_with_artist(d: Driver, drop_last: bool = False) -> None:
    create_playlist(d, d.params["name"])
    d.tap(rid="add_songs")
    d.type(d.params["artist"]["name"], rid="filter_input")
    titles = d.collect("song_title", attr="text")
    for title in titles[:-1] if drop_last else titles:
        d.tap(rid="song_title", text=title)
    d.tap(rid="done")


@plan("music.ArtistPlaylist")
def artist_playlist(d: Driver) -> None:
    _fill_with_artist(d)


@negative("music.ArtistPlaylist", "misses the last song")
def artist_playlist_partial(d: Driver) -> None:
    _fill_with_artist(d, drop_last=True)


@negative("music.ArtistPlaylist", "creates the playlist but adds nothing")
def artist_playlist_empty(d: Driver) -> None:
    create_playlist(d, d.params["name"])


# --- AlbumLengthTimer ----------------------------------------------------------------------------------

def _start_timer(d: Driver, seconds: int, start: bool = True) -> None:
    d.open_app("Clock")
    d.tap(rid="tab_1")
    d.type(str(seconds // 60), rid="minutes_input")
    d.type(str(seconds % 60), rid="seconds_input")
    if start:
        d.tap(rid="start")


def _album_length(d: Driver) -> int:
    open_album(d, d.params["album"]["title"])
    _, length = d.texts("album_meta")[0].split(" · ")
    minutes, _, seconds, _ = length.split()
    return int(minutes) * 60 + int(seconds)


@plan("music.AlbumLengthTimer")
def album_timer(d: Driver) -> None:
    _start_timer(d, _album_length(d))


@negative("music.AlbumLengthTimer", "uses the first song's length")
def first_song_timer(d: Driver) -> None:
    open_album(d, d.params["album"]["title"])
    _start_timer(d, song_rows(d)[0][1])


@negative("music.AlbumLengthTimer", "enters the length but never starts the timer")
def timer_not_started(d: Driver) -> None:
    _start_timer(d, _album_length(d), start=False)


# --- AddRecommendedSong -------------------------------------------------------------------------------


@plan("music.AddRecommendedSong")
def add_recommended(d: Driver) -> None:
    title, _ = recommended_song(d)
    search(d, title)
    add_song_to(d, title, d.params["playlist"]["name"])


@negative("music.AddRecommendedSong", "adds another song by the same artist")
def add_other_by_artist(d: Driver) -> None:
    title, artist = recommended_song(d)
    search(d, artist)
    other = [t for t, _, _ in song_rows(d) if t != title][-1]  # the list is scrolled to its end
    add_song_to(d, other, d.params["playlist"]["name"])


@negative("music.AddRecommendedSong", "adds it to Liked Songs instead")
def like_recommended(d: Driver) -> None:
    title, _ = recommended_song(d)
    search(d, title)
    like_from_menu(d, title)


# --- JSON tasks ----------------------------------------------------------------------------------------

def _road_trip(d: Driver, titles: list[str]) -> None:
    create_playlist(d, d.t("Road Trip", "自驾游"))
    d.tap(rid="add_songs")
    for title in titles:
        d.type(title, rid="filter_input")
        d.tap(rid="song_title", text=title)
    d.tap(rid="done")


@plan("music.road_trip_playlist")
def road_trip(d: Driver) -> None:
    _road_trip(d, [d.t("Gold Coast", "黄金海岸"), d.t("Neon Hearts", "霓虹之心")])


@negative("music.road_trip_playlist", "adds only one of the two songs")
def road_trip_partial(d: Driver) -> None:
    _road_trip(d, [d.t("Gold Coast", "黄金海岸")])


@plan("music.shuffle_repeat_one")
def shuffle_repeat_one(d: Driver) -> None:
    d.tap(rid="mini_player")
    _set_shuffle(d, True)
    _set_repeat(d, "one")


@negative("music.shuffle_repeat_one", "repeats the whole queue instead")
def shuffle_repeat_all(d: Driver) -> None:
    d.tap(rid="mini_player")
    _set_shuffle(d, True)
    _set_repeat(d, "all")


def _unlike_label(d: Driver, title: str) -> str:
    return d.t(f"Remove {title} from Liked Songs", f"将“{title}”移出我喜欢的音乐")


@plan("music.unlike_harbor_song")
def unlike_harbor_song(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    d.tap(rid="liked_songs_entry")
    d.tap(rid="unlike_song", desc=_unlike_label(d, d.t("Harbor Song", "港湾之歌")))


@negative("music.unlike_harbor_song", "unlikes the song above it")
def unlike_wrong_song(d: Driver) -> None:
    d.open_app("Music")
    d.tap(rid="tab_3")
    d.tap(rid="liked_songs_entry")
    titles = d.collect("song_title", attr="text")
    d.tap(rid="unlike_song", desc=_unlike_label(d, titles[titles.index(d.t("Harbor Song", "港湾之歌")) - 1]))


@plan("music.song_after_wait")
def song_after_wait(d: Driver) -> None:
    d.open_app("Music")
    d.submit_answer([d.texts("mini_title")[0]])


@negative("music.song_after_wait", "answers the album's first song")
def song_after_wait_first(d: Driver) -> None:
    open_album(d, d.t("Afterglow Protocol", "余晖协议"))
    d.submit_answer([d.texts("song_title")[0]])


@plan("music.download_album_offline")
def download_album(d: Driver) -> None:
    open_album(d, d.t("Salt and Steel", "盐与钢"))
    d.abort("The Music app has no download or offline option")


@negative("music.download_album_offline", "plays the album and claims it is downloaded")
def download_pretend(d: Driver) -> None:
    open_album(d, d.t("Salt and Steel", "盐与钢"))
    d.tap(rid="play_album")
    d.complete()


# --- LikeRecommendedTellAlbum -------------------------------------------------------------------------

def _like_recommended_album(d: Driver, like: bool = True) -> tuple[str, str]:
    """Like the song the contact recommends (from its row's menu); (its album's title, read on the album page,
    its artist)."""
    title, artist = recommended_song(d)
    search(d, title)
    if like:
        like_from_menu(d, title)
    song_menu(d, title)
    d.tap(rid="menu_album")
    return d.find(rid="album_title").text, artist


def _reply_album(d: Driver, album: str) -> None:
    compose(d, d.params["name"], d.t(f"Love it! It's on the album {album}.", f"很好听！这首歌收录在专辑《{album}》里。"))


@plan("music.LikeRecommendedTellAlbum")
def like_recommended_tell_album(d: Driver) -> None:
    _reply_album(d, _like_recommended_album(d)[0])


@negative("music.LikeRecommendedTellAlbum", "replies with the album but never likes the song")
def like_recommended_album_no_like(d: Driver) -> None:
    _reply_album(d, _like_recommended_album(d, like=False)[0])


@negative("music.LikeRecommendedTellAlbum", "likes it but replies with the artist's name instead")
def like_recommended_tell_artist(d: Driver) -> None:
    _, artist = _like_recommended_album(d)
    compose(d, d.params["name"], d.t(f"Love it! Great song by {artist}.", f"很好听！{artist}的歌真不错。"))


# --- ForumSongToPlaylist ------------------------------------------------------------------------------

def _forum_song(d: Driver) -> str:
    """The title the newest post of the community quotes, read on the post's page in Forum."""
    open_community(d, d.params["community"]["name"], "new")
    d.tap(rid="post_title", index=0)
    return re.search(r"[\"“《](.+?)[\"”》]", d.find(rid="post_body").text).group(1)


def _artist_of(d: Driver, title: str) -> str:
    """The artist of the song row titled ``title`` on screen ("title · artist · m:ss")."""
    return next(desc.split(" · ")[1] for desc in d.collect("song_item") if desc.split(" · ")[0] == title)


def _text_artist(d: Driver, artist: str) -> None:
    compose(d, d.params["name"], d.t(f"Found a great song on Forum, it's by {artist}.", f"在论坛发现一首好歌，是{artist}唱的。"))


@plan("music.ForumSongToPlaylist")
def forum_song_to_playlist(d: Driver) -> None:
    title = _forum_song(d)
    search(d, title)
    artist = _artist_of(d, title)
    add_song_to(d, title, d.params["playlist"]["name"])
    _text_artist(d, artist)


@negative("music.ForumSongToPlaylist", "likes the song instead of adding it to the playlist")
def forum_song_liked(d: Driver) -> None:
    title = _forum_song(d)
    search(d, title)
    artist = _artist_of(d, title)
    like_from_menu(d, title)
    _text_artist(d, artist)


@negative("music.ForumSongToPlaylist", "adds it but texts the song's title, not the artist")
def forum_song_text_title(d: Driver) -> None:
    title = _forum_song(d)
    search(d, title)
    add_song_to(d, title, d.params["playlist"]["name"])
    compose(d, d.params["name"], d.t(f"Listen to \"{title}\"!", f"听听《{title}》！"))
