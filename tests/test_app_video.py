"""The Video app: every screen renders cleanly in both languages; the player follows the simulated clock and
playing records history; likes and dislikes exclude each other; saving to lists; subscribing (unsubscribing asks
first); history removal and clearing (with a confirm dialog, cancel keeps it); posting comments (empty refused);
search; share to Messages; settings; the channel's Popular sort; the generated world's invariants."""
from __future__ import annotations

import datetime as dt

import pytest

from mobilegym.envs.video import library as lib
from mobilegym.envs.video.screens import results
from mobilegym.envs.video.world import generate
from mobilegym.screen_text import parse_nodes
from mobilegym.sim.clock import from_ms
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone
from mobilegym.sim.worldgen.world import World

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("video", "messages", "contacts", "settings")


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("video")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["video"]


def _nodes(phone: Phone, rid: str) -> list:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _open(phone: Phone, route: str) -> None:
    phone.launch("video", route)


def _upload(phone: Phone, index: int = 0) -> dict:
    """An uploaded (not live) video without a reaction."""
    return [v for v in lib.uploads(_state(phone)) if not v["reaction"]][index]


def _watch(phone: Phone, video: dict) -> None:
    _open(phone, f"/video?id={video['id']}")


def _tap_desc(phone: Phone, rid: str, desc: str) -> None:
    phone.tap(*next(n for n in _nodes(phone, rid) if n.desc == desc).center)


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    state = _state(phone)
    assert_screen_ok(phone)                                   # home feed
    for tab in (1, 2):
        tap(phone, f"tab_{tab}")
        assert_screen_ok(phone)                               # subscriptions, library
    live = lib.live_streams(state)[0]
    for route in ("/search", "/history", "/list?name=watch_later", "/list?name=favorites", "/settings",
                  f"/channel?id={live['channel_id']}", f"/video?id={_upload(phone)['id']}", f"/video?id={live['id']}"):
        _open(phone, route)
        assert_screen_ok(phone)
    _watch(phone, _upload(phone))
    tap(phone, "save_button")
    assert_screen_ok(phone)                                   # the save dialog
    _open(phone, "/history")
    tap(phone, "clear_history")
    assert_screen_ok(phone)                                   # the clear confirmation
    _open(phone, "/settings")
    tap(phone, "quality_row")
    assert_screen_ok(phone)                                   # the quality dialog
    phone.set_state({"apps": {"video": {"history": [], "watch_later": []}}})
    for route in ("/history", "/list?name=watch_later"):
        _open(phone, route)
        assert_screen_ok(phone)                               # empty lists
        assert node(phone, "empty")


def test_playing_follows_the_clock_and_records_history() -> None:
    phone = _phone()
    video = _upload(phone, 3)
    before = _state(phone)["history"]
    _watch(phone, video)
    assert node(phone, "elapsed_time").text.startswith("0:00 / ")
    tap(phone, "play_pause")
    state = _state(phone)
    assert state["player"]["video_id"] == video["id"] and state["player"]["playing"]
    assert state["history"][0]["video_id"] == video["id"]
    assert state["history"][0]["watched_at"] == from_ms(phone.time_ms()).isoformat(timespec="minutes")
    assert [h for h in state["history"][1:]] == [h for h in before if h["video_id"] != video["id"]]
    phone.wait(65)
    assert node(phone, "elapsed_time").text.startswith("1:0")
    tap(phone, "play_pause")                                  # pause
    paused = node(phone, "elapsed_time").text
    phone.wait(30)
    assert node(phone, "elapsed_time").text == paused and not _state(phone)["player"]["playing"]
    tap(phone, "play_pause")                                  # playing again moves the entry, never duplicates it
    assert [h["video_id"] for h in _state(phone)["history"]].count(video["id"]) == 1
    phone.wait(video["duration_s"] + 10)                      # a video stops at its end
    assert node(phone, "elapsed_time").text == f"{lib.duration_text(video['duration_s'])} / {lib.duration_text(video['duration_s'])}"
    assert node(phone, "play_pause").desc == "Play"


def test_seeking_moves_the_position_without_playing_or_recording() -> None:
    phone = _phone()
    video = _upload(phone, 2)
    history = _state(phone)["history"]
    _watch(phone, video)
    bar = node(phone, "progress_slider")
    x1, y1, x2, y2 = bar.bounds
    phone.tap((x1 + x2) // 2, (y1 + y2) // 2)
    player = _state(phone)["player"]
    assert player["video_id"] == video["id"] and not player["playing"]
    assert abs(player["position_s"] - video["duration_s"] / 2) <= video["duration_s"] * 0.05
    assert _state(phone)["history"] == history


def test_like_and_dislike_exclude_each_other() -> None:
    phone = _phone()
    video = _upload(phone)
    _watch(phone, video)
    likes = node(phone, "like_button").text
    tap(phone, "like_button")
    assert lib.video(_state(phone), video["id"])["reaction"] == "like" and node(phone, "like_button").checked
    tap(phone, "dislike_button")
    assert lib.video(_state(phone), video["id"])["reaction"] == "dislike"
    assert not node(phone, "like_button").checked and node(phone, "like_button").text == likes
    tap(phone, "dislike_button")
    assert lib.video(_state(phone), video["id"])["reaction"] == ""


def test_the_save_dialog_adds_and_removes_from_lists() -> None:
    phone = _phone()
    state = _state(phone)
    video = next(v for v in lib.uploads(state) if v["id"] not in state["watch_later"] + state["favorites"])
    _watch(phone, video)
    assert node(phone, "save_button").text == "☆ Save"
    tap(phone, "save_button")
    tap(phone, "save_watch_later")
    tap(phone, "save_favorites")
    tap(phone, "button1")
    state = _state(phone)
    assert state["watch_later"][0] == video["id"] and state["favorites"][0] == video["id"]
    assert node(phone, "save_button").text == "★ Saved"
    tap(phone, "save_button")
    tap(phone, "save_favorites")                               # untick: removed
    phone.key("back")                                          # back dismisses the dialog
    assert video["id"] not in _state(phone)["favorites"] and not _nodes(phone, "save_watch_later")
    _open(phone, "/list?name=watch_later")
    assert node(phone, "list_count").text == f"{len(_state(phone)['watch_later'])} videos"
    _tap_desc(phone, "list_remove", f"Remove {video['title']} from Watch later")
    assert video["id"] not in _state(phone)["watch_later"]


def test_subscribing_takes_one_tap_and_unsubscribing_asks() -> None:
    phone = _phone()
    state = _state(phone)
    channel = next(c for c in state["channels"] if not c["subscribed"])
    _open(phone, f"/channel?id={channel['id']}")
    tap(phone, "subscribe_button")
    assert lib.channel(_state(phone), channel["id"])["subscribed"]
    assert node(phone, "subscribe_button").text == "Subscribed"
    tap(phone, "subscribe_button")
    assert node(phone, "alertTitle").text == f"Unsubscribe from {channel['name']}?"
    tap(phone, "button2")                                      # cancel keeps it
    assert lib.channel(_state(phone), channel["id"])["subscribed"]
    tap(phone, "subscribe_button")
    tap(phone, "button1")
    assert not lib.channel(_state(phone), channel["id"])["subscribed"]
    tap(phone, "tab_1") if _nodes(phone, "tab_1") else _open(phone, "/subscriptions")
    assert channel["name"] not in [n.text for n in _nodes(phone, "channel_name")]


def test_history_removes_one_entry_and_clears_only_after_confirming() -> None:
    phone = _phone()
    history = _state(phone)["history"]
    second = lib.video(_state(phone), history[1]["video_id"])
    _open(phone, "/history")
    _tap_desc(phone, "history_remove", f"Remove {second['title']} from history")
    assert _state(phone)["history"] == [history[0], *history[2:]]
    tap(phone, "clear_history")
    tap(phone, "button2")
    assert len(_state(phone)["history"]) == len(history) - 1
    tap(phone, "clear_history")
    tap(phone, "button1")
    assert _state(phone)["history"] == [] and not _nodes(phone, "clear_history")
    assert node(phone, "empty").text == "Videos you watch will show up here"


def test_posting_a_comment_refuses_an_empty_one() -> None:
    phone = _phone()
    video = _upload(phone)
    _watch(phone, video)
    header = node(phone, "comments_header").text
    tap(phone, "post_comment")
    assert lib.video(_state(phone), video["id"])["comments"] == []
    tap(phone, "comment_input")
    phone.type_text("  Really   useful, thanks!  ")
    phone.key("back")
    tap(phone, "post_comment")
    comments = lib.video(_state(phone), video["id"])["comments"]
    assert [c["text"] for c in comments] == ["Really useful, thanks!"]
    assert node(phone, "comment_input").text in ("", "Add a comment...")
    assert node(phone, "comment_text").text == "Really useful, thanks!"
    assert node(phone, "comment_author").text.startswith(_state(phone)["owner"])
    assert node(phone, "comments_header").text != header


def test_search_finds_channels_and_videos() -> None:
    phone = _phone()
    state = _state(phone)
    channel = state["channels"][0]
    channels, videos = results(state, channel["name"].upper())
    assert channels == [channel]
    assert {v["id"] for v in videos} == {v["id"] for v in state["videos"] if v["channel_id"] == channel["id"]}
    tap(phone, "search")
    tap(phone, "search_input")
    phone.type_text(channel["name"].lower())
    assert node(phone, "channel_name").text == channel["name"]
    tap(phone, "search_input")
    phone.type_text("zzzz nothing like this", clear=True)
    assert node(phone, "empty").text == "No results. Try other words."


def test_share_opens_messages_with_the_title() -> None:
    phone = _phone()
    video = _upload(phone)
    _watch(phone, video)
    tap(phone, "share_button")
    assert phone.current_app() == "messages" and phone.current_route().startswith("/compose")
    assert video["title"] in node(phone, "message_input").text


def test_settings_switch_autoplay_and_pick_a_quality() -> None:
    phone = _phone()
    before = _state(phone)["settings"]
    _open(phone, "/settings")
    tap(phone, "autoplay_row")
    assert _state(phone)["settings"]["autoplay"] is (not before["autoplay"])
    tap(phone, "quality_row")
    tap(phone, "quality_option", "360p")
    assert _state(phone)["settings"]["quality"] == "360p" and not _nodes(phone, "quality_option")
    tap(phone, "quality_row")
    tap(phone, "button2")                                      # cancel changes nothing
    assert _state(phone)["settings"]["quality"] == "360p"


def test_a_channel_sorts_by_popularity_and_lists_its_live_stream_first() -> None:
    phone = _phone()
    state = _state(phone)
    live = lib.live_streams(state)[0]
    _open(phone, f"/channel?id={live['channel_id']}")
    titles = [n.text for n in _nodes(phone, "video_title")]
    assert titles[0] == live["title"]
    tap(phone, "sort_popular")
    by_views = sorted(lib.uploads(state, live["channel_id"]), key=lambda v: -v["views"])
    assert [n.text for n in _nodes(phone, "video_title")][1:3] == [v["title"] for v in by_views][:2]
    tap(phone, "video_title", live["title"])
    assert not _nodes(phone, "play_pause") and not _nodes(phone, "like_button")
    assert lib.time_text("en", live["live_at"]) in node(phone, "live_time").text


def test_chinese_screens_speak_chinese() -> None:
    phone = _phone("zh")
    assert node(phone, "tab_0").text == "首页"
    _open(phone, "/history")
    tap(phone, "clear_history")
    assert node(phone, "alertTitle").text == "清空历史记录？" and node(phone, "button1").text == "清空"


def test_counts_and_times_read_as_the_apps_print_them() -> None:
    assert [lib.count_text("en", n) for n in (812, 3_540, 35_400, 1_234_567, 12_500_000)] == ["812", "3.5K", "35K", "1.2M", "12M"]
    assert [lib.count_text("zh", n) for n in (8_123, 1_203_000, 250_000_000)] == ["8,123", "120.3万", "2.5亿"]
    now = dt.datetime(2026, 3, 16, 9, 0)
    assert lib.ago_text("en", "2026-03-13T09:00", now) == "3 days ago"
    assert lib.ago_text("zh", "2026-01-10T09:00", now) == "2个月前"
    assert lib.time_text("en", "2026-03-18T20:30") == "Mar 18, 8:30 PM"
    assert lib.duration_text(3725) == "1:02:05"


@pytest.mark.parametrize("language", ["en", "zh"])
def test_generated_worlds_keep_their_invariants(language: str) -> None:
    for seed in range(60):
        world = World(seed, language, {})
        state = generate(world)
        now = world.now.isoformat(timespec="minutes")
        titles = [v["title"] for v in state["videos"]]
        assert len(titles) == len(set(titles)) and not any(" · " in t for t in titles)
        uploads = [v for v in state["videos"] if not v["live_at"]]
        assert all(v["uploaded"] < now for v in state["videos"])
        assert len({v["uploaded"] for v in uploads}) == len(uploads)
        assert all(v["live_at"] > now and v["views"] == 0 for v in state["videos"] if v["live_at"])
        live = {v["id"] for v in state["videos"] if v["live_at"]}
        watched = [h["watched_at"] for h in state["history"]]
        assert watched == sorted(watched, reverse=True) and len(set(watched)) == len(watched)
        assert all(lib.video(state, h["video_id"])["uploaded"] < h["watched_at"] < now for h in state["history"])
        assert not live & set(state["watch_later"] + state["favorites"] + [h["video_id"] for h in state["history"]])
        assert state["watch_later"] and state["favorites"] and any(c["subscribed"] for c in state["channels"])

