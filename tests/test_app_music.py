"""The Music app: every screen renders cleanly; playback follows the simulated clock; playlists and
Liked Songs can be edited through the UI."""
from __future__ import annotations

import pytest

from mobilegym.envs.music import playback as pb
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("music", "settings")
SALT_AND_STEEL = ["song_10", "song_11", "song_12", "song_13", "song_14"]
LENGTHS = {"song_10": 261, "song_11": 314, "song_12": 238, "song_13": 284, "song_14": 363}


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("music")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["music"]


def _texts(phone: Phone, rid: str) -> list[str]:
    return [n.text for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _by_desc(phone: Phone, rid: str, desc: str) -> None:
    target = next(n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid and n.desc == desc)
    phone.tap(*target.center)


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)


def _open_playlist(phone: Phone, name: str) -> None:
    tap(phone, "tab_3")
    tap(phone, "playlist_title", name)


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    for tab in range(4):
        tap(phone, f"tab_{tab}")
        assert_screen_ok(phone)                               # songs, albums, artists, playlists
    tap(phone, "tab_0")
    tap(phone, "song_menu")
    assert_screen_ok(phone)                                   # song menu
    tap(phone, "menu_add_to_playlist")
    assert_screen_ok(phone)                                   # playlist picker
    tap(phone, "button2")
    tap(phone, "tab_1")
    tap(phone, "album_item")
    assert_screen_ok(phone)                                   # album
    tap(phone, "album_artist")
    assert_screen_ok(phone)                                   # artist
    phone.key("back")
    phone.key("back")
    tap(phone, "search")
    assert_screen_ok(phone)                                   # empty search
    _type(phone, "search_input", "harbor")
    assert_screen_ok(phone)                                   # results: songs, albums, artists
    _type(phone, "search_input", "no such thing at all, really nothing")
    assert_screen_ok(phone)                                   # no results
    phone.key("back")                                         # unfocus the field
    phone.key("back")
    tap(phone, "mini_player")
    assert_screen_ok(phone)                                   # now playing
    phone.key("back")
    _open_playlist(phone, "Morning Run")
    assert_screen_ok(phone)                                   # playlist
    tap(phone, "delete_playlist")
    assert_screen_ok(phone)                                   # delete confirmation
    tap(phone, "button2")
    tap(phone, "add_songs")
    assert_screen_ok(phone)                                   # add songs
    phone.key("back")
    tap(phone, "edit_playlist")
    assert_screen_ok(phone)                                   # edit form
    phone.key("back")
    phone.key("back")
    tap(phone, "liked_songs_entry")
    assert_screen_ok(phone)                                   # liked songs
    phone.key("back")
    tap(phone, "new_playlist")
    assert_screen_ok(phone)                                   # new playlist form
    _type(phone, "playlist_name_input", "Empty one")
    tap(phone, "save_playlist")
    assert_screen_ok(phone)                                   # empty playlist
    phone.set_state({"apps": {"music": {"liked": [], "player": {"queue": [], "order": [], "index": 0}}}})
    phone.key("back")
    tap(phone, "liked_songs_entry")
    assert_screen_ok(phone)                                   # no liked songs, no mini player
    phone.key("back")
    phone.nav.push("music", "/player", {})
    assert_screen_ok(phone)                                   # nothing playing


def test_progress_follows_the_clock_through_the_queue() -> None:
    phone = _phone()
    assert _texts(phone, "mini_title") == ["Lighthouse Keeper"]
    tap(phone, "mini_player")
    assert node(phone, "elapsed_time").text == "1:23"
    tap(phone, "play_pause")                                  # plays from 1:23; the tap itself takes a second
    phone.wait(30)
    assert node(phone, "elapsed_time").text == "1:54"
    phone.wait(314 - 114 + 5)                                 # past the end of the song
    assert node(phone, "player_title").text == "Undertow"
    assert node(phone, "elapsed_time").text == "0:05"
    tap(phone, "play_pause")                                  # pause
    phone.wait(600)
    assert node(phone, "player_title").text == "Undertow"
    assert _state(phone)["player"]["position_ms"] == 5000


def test_playback_repeat_modes_and_end_of_queue() -> None:
    start = {"queue": SALT_AND_STEEL, "order": SALT_AND_STEEL, "index": 3, "playing": True, "position_ms": 0,
             "started_at_ms": 0, "shuffle": False, "repeat": "off"}
    assert pb.playback(start, LENGTHS, 10_000) == (3, 10_000, True)
    assert pb.playback(start, LENGTHS, (284 + 363 + 50) * 1000) == (4, 363_000, False)
    assert pb.playback({**start, "repeat": "one"}, LENGTHS, (284 + 7) * 1000) == (3, 7000, True)
    assert pb.playback({**start, "repeat": "all"}, LENGTHS, (284 + 363 + 9) * 1000) == (0, 9000, True)


def test_transport_controls() -> None:
    phone = _phone()
    tap(phone, "mini_player")
    tap(phone, "previous")                                    # 1:23 played: restarts the song
    assert node(phone, "elapsed_time").text == "0:00" and node(phone, "player_title").text == "Lighthouse Keeper"
    tap(phone, "previous")
    assert node(phone, "player_title").text == "Iron Coast"
    tap(phone, "next")
    tap(phone, "next")
    assert node(phone, "player_title").text == "Undertow"
    assert node(phone, "repeat").desc == "Repeat off"
    tap(phone, "repeat")
    tap(phone, "repeat")
    assert node(phone, "repeat").desc == "Repeat one" and _state(phone)["player"]["repeat"] == "one"
    tap(phone, "shuffle")
    player = _state(phone)["player"]
    assert player["shuffle"] and player["order"][0] == "song_12" and sorted(player["order"]) == sorted(SALT_AND_STEEL)
    tap(phone, "shuffle")
    player = _state(phone)["player"]
    assert player["order"] == SALT_AND_STEEL and player["order"][player["index"]] == "song_12"


def test_tapping_a_song_plays_it_in_its_list() -> None:
    phone = _phone()
    tap(phone, "search")
    _type(phone, "search_input", "gold coast")
    tap(phone, "song_title", "Gold Coast")
    player = _state(phone)["player"]
    assert player["playing"] and player["order"][player["index"]] == "song_34"
    assert _texts(phone, "mini_title") == ["Gold Coast"]
    tap(phone, "mini_play_pause")
    assert not _state(phone)["player"]["playing"]


def test_like_and_unlike() -> None:
    phone = _phone()
    tap(phone, "mini_player")
    tap(phone, "like")
    assert _state(phone)["liked"][0] == "song_11"
    assert node(phone, "like").desc == "Remove from Liked Songs"
    phone.key("back")
    tap(phone, "tab_3")
    tap(phone, "liked_songs_entry")
    assert _texts(phone, "song_title")[0] == "Lighthouse Keeper"
    _by_desc(phone, "unlike_song", "Remove Lighthouse Keeper from Liked Songs")
    assert "song_11" not in _state(phone)["liked"]
    _by_desc(phone, "song_menu", "More options for Light Years")
    tap(phone, "menu_like")
    assert "song_16" not in _state(phone)["liked"]


def test_create_rename_and_delete_a_playlist() -> None:
    phone = _phone()
    tap(phone, "tab_3")
    tap(phone, "new_playlist")
    tap(phone, "save_playlist")
    assert phone.current_route() == "/playlist/edit"          # a name is required
    _type(phone, "playlist_name_input", "morning run")
    tap(phone, "save_playlist")
    assert phone.current_route() == "/playlist/edit"          # names are unique, case aside
    _type(phone, "playlist_name_input", "Road Trip")
    tap(phone, "save_playlist")
    created = _state(phone)["playlists"][-1]
    assert created["name"] == "Road Trip" and created["song_ids"] == [] and created["created"] == "2026-03-16"
    assert phone.current_route() == f"/playlist?id={created['id']}"
    tap(phone, "edit_playlist")
    _type(phone, "playlist_name_input", "Highway Songs")
    tap(phone, "save_playlist")
    assert node(phone, "playlist_name").text == "Highway Songs"
    tap(phone, "delete_playlist")
    tap(phone, "button1")
    assert [p["name"] for p in _state(phone)["playlists"]] == ["Morning Run", "Focus Flow", "Dinner Party", "Rainy Day"]


def test_add_and_remove_playlist_songs() -> None:
    phone = _phone()
    _open_playlist(phone, "Rainy Day")
    tap(phone, "add_songs")
    _type(phone, "filter_input", "mira")
    assert _texts(phone, "song_title") == ["Last Train Home", "Light Years", "Paper Lanterns", "Taipei Rain"]
    tap(phone, "song_title", "Light Years")
    tap(phone, "song_title", "Taipei Rain")                   # already in: unchecks it
    tap(phone, "done")
    rainy = next(p for p in _state(phone)["playlists"] if p["name"] == "Rainy Day")
    assert rainy["song_ids"] == ["song_13", "song_37", "song_9", "song_16"]
    _by_desc(phone, "song_menu", "More options for River Stone")
    tap(phone, "menu_remove_from_playlist")
    phone.key("back")
    tap(phone, "tab_0")
    _by_desc(phone, "song_menu", "More options for Afterglow")
    tap(phone, "menu_add_to_playlist")
    _by_desc(phone, "playlist_option", "Rainy Day")
    rainy = next(p for p in _state(phone)["playlists"] if p["name"] == "Rainy Day")
    assert rainy["song_ids"] == ["song_13", "song_9", "song_16", "song_20"]


def test_chinese_labels() -> None:
    phone = _phone("zh")
    assert _texts(phone, "tab_0") == ["歌曲"]
    tap(phone, "tab_3")
    assert node(phone, "liked_songs_entry") is not None
    tap(phone, "liked_songs_entry")
    assert node(phone, "liked_meta").text.startswith("7 首歌曲")


# --- generated worlds -------------------------------------------------------------------------------

def _world_music(seed: int, language: str = "en") -> dict:
    from mobilegym.sim.app import load_app
    from mobilegym.sim.worldgen import World

    return World(seed, language, load_app).app_state("music")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_libraries_keep_the_invariants_tasks_rely_on(language: str) -> None:
    from mobilegym.envs.music.world import MAX_ALBUM_S
    from mobilegym.tasks.music.app import NEW_PLAYLIST_NAMES

    sizes = set()
    for seed in range(20):
        state = _world_music(seed, language)
        sizes.add((len(state["songs"]), len(state["albums"]), len(state["liked"]), len(state["playlists"])))
        for kind, key in (("artists", "name"), ("albums", "title"), ("songs", "title"), ("playlists", "name")):
            names = [item[key] for item in state[kind]]
            assert len(set(names)) == len(names), f"seed {seed}: two {kind} share a {key}"
            assert not any('"' in n or " · " in n or "," in n for n in names), names
        assert not {p["name"].casefold() for p in state["playlists"]} & {n.casefold() for n in NEW_PLAYLIST_NAMES}
        ids = {s["id"] for s in state["songs"]}
        assert set(state["liked"]) <= ids and len(state["liked"]) < len(ids)
        assert all(set(p["song_ids"]) <= ids for p in state["playlists"])
        for album in state["albums"]:
            tracks = sorted(s["track"] for s in state["songs"] if s["album_id"] == album["id"])
            assert tracks == list(range(1, len(tracks) + 1)) and len(tracks) >= 3
            assert sum(s["duration_s"] for s in state["songs"] if s["album_id"] == album["id"]) <= MAX_ALBUM_S
        player = state["player"]
        assert sorted(player["order"]) == sorted(player["queue"]) and player["queue"]
        assert 0 <= player["index"] < len(player["order"]) and not player["playing"]
    assert len(sizes) >= 15


def test_a_chinese_world_has_a_mostly_chinese_library() -> None:
    state = _world_music(4, "zh")
    chinese = [s for s in state["songs"] if any("\u4e00" <= ch <= "\u9fff" for ch in s["title"])]
    assert len(chinese) > len(state["songs"]) / 2


def test_album_lengths_leave_many_albums_a_minute_apart() -> None:
    from mobilegym.tasks.music.app import ALBUM_LENGTH_TOLERANCE_S, Music
    from mobilegym.judge import unambiguous

    for seed in range(10):
        state = _world_music(seed)
        music = Music(state)
        apart = unambiguous(state["albums"], lambda a: music.album_length_s(a["id"]), ALBUM_LENGTH_TOLERANCE_S)
        assert len(apart) >= min(4, len(state["albums"]))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_worlds_render_inside_the_screen(language: str) -> None:
    for seed in (0, 5):
        phone = SimDevice(apps=APPS, language=language)
        phone.reset_state(seed)
        phone.open_app("music")
        for tab in range(4):
            tap(phone, f"tab_{tab}")
            assert_screen_ok(phone)
        tap(phone, "tab_1")
        tap(phone, "album_title")
        assert_screen_ok(phone)                               # album
        tap(phone, "album_artist")
        assert_screen_ok(phone)                               # artist
        phone.key("back")
        phone.key("back")
        tap(phone, "tab_3")
        tap(phone, "playlist_title")
        assert_screen_ok(phone)                               # playlist
        tap(phone, "mini_player")
        assert_screen_ok(phone)                               # now playing


def test_preparers_make_the_named_things_in_any_world() -> None:
    import random

    from mobilegym.envs.music import prepare
    from mobilegym.judge.python.tasks import merge_into
    from mobilegym.sim.app import Prep

    for world in ("generated", "canonical"):
        phone = SimDevice(apps=APPS, world=world)
        phone.reset_state(3)
        doc = phone.get_state()
        prep = Prep(doc, random.Random("t|1"), "en")
        started = prep_doc = prepare.album_started(prep, "Afterglow Protocol", "DJ Solstice")["apps"]["music"]
        album = next(a for a in started["albums"] if a["title"] == "Afterglow Protocol")
        tracks = sorted((s for s in started["songs"] if s["album_id"] == album["id"]), key=lambda s: s["track"])
        head = started["songs"][0]
        phone.set_state({"apps": {"music": prep_doc}})
        phone.open_app("music")
        assert _texts(phone, "mini_title") == [head["title"]] and head["id"] != tracks[0]["id"]
        liked = prepare.liked_song(Prep(phone.get_state(), random.Random("t|2"), "en"), "Harbor Song", "The Harbor Lights")
        merge_into(doc, liked)
        state = liked["apps"]["music"]
        harbor = next(s for s in state["songs"] if s["title"] == "Harbor Song")
        assert state["liked"][-1] == harbor["id"] and len(state["liked"]) >= 2
