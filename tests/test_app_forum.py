"""The Forum app: every screen renders cleanly in both languages; the feeds sort hot, new and top; votes toggle;
saving, joining and following change state; comments and replies post, a blank one does not; creating a post and
deleting the owner's post or comment happen only after their confirm dialogs; search finds posts and communities."""
from __future__ import annotations

import datetime as dt

import pytest

from mobilegym.envs.forum import feed
from mobilegym.envs.forum.screens import search_results
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone

from .apptools import assert_screen_ok
from .uitools import node, tap

APPS = ("forum", "settings")
MY_POST = "p_14"        # the owner's post in Hiking (canonical world)
THREAD = "p_11"         # "Compost smells bad, help": 9 comments, 4 top-level, the owner's cm_48 among them
GARDENING = "c_3"       # joined


def _phone(language: str = "en") -> Phone:
    phone = SimDevice(apps=APPS, language=language)
    phone.open_app("forum")
    return phone


def _state(phone: Phone) -> dict:
    return phone.get_state()["apps"]["forum"]


def _nodes(phone: Phone, rid: str) -> list:
    return [n for n in parse_nodes(phone.a11y_xml()) if n.short_id == rid]


def _post(phone: Phone, post_id: str) -> dict:
    return feed.post(_state(phone), post_id)


def _type(phone: Phone, rid: str, text: str) -> None:
    tap(phone, rid)
    phone.type_text(text, clear=True)
    phone.key("back")                                         # hide the keyboard


@pytest.mark.parametrize("language, look", [("en", {}), ("zh", {}), ("en", {"dark_mode": True, "font_size": "largest"})])
def test_every_screen_renders_inside_the_screen(language: str, look: dict) -> None:
    phone = _phone(language)
    phone.set_state({"apps": {"settings": look}})
    assert_screen_ok(phone)                                   # home feed
    for sort in ("new", "top"):
        tap(phone, f"sort_{sort}")
        assert_screen_ok(phone)
    tap(phone, "search_button")
    _type(phone, "search_input", "r")
    assert_screen_ok(phone)                                   # search results
    for route in ("/communities", f"/community?id={GARDENING}", f"/post?id={THREAD}", f"/post?id={MY_POST}",
                  "/user?id=u_1", "/me", "/compose", "/post?id=gone"):
        phone.launch("forum", route)
        assert_screen_ok(phone)
    phone.launch("forum", "/me")
    for tab in range(3):
        tap(phone, f"profile_tab_{tab}")
        assert_screen_ok(phone)                               # posts, saved, following
    phone.launch("forum", f"/post?id={MY_POST}")
    tap(phone, "delete_post")
    assert_screen_ok(phone)                                   # delete confirmation
    phone.launch("forum", "/compose")
    tap(phone, "community_picker")
    assert_screen_ok(phone)                                   # community picker


def test_the_home_feed_holds_joined_communities_in_each_sort() -> None:
    phone = _phone()
    state = _state(phone)
    joined = {c["id"] for c in state["communities"] if c["joined"]}
    now = dt.datetime(2026, 3, 16, 9, 0)
    for sort in ("hot", "new", "top"):
        tap(phone, f"sort_{sort}")
        shown = [n.text for n in _nodes(phone, "post_title")]
        expected = [p["title"] for p in feed.sorted_posts(feed.home_posts(state), sort, now)]
        assert shown and shown == expected[:len(shown)], sort
    assert all(p["community_id"] in joined for p in feed.home_posts(state))
    tops = feed.sorted_posts(feed.home_posts(state), "top", now)
    assert [feed.score(p) for p in tops] == sorted((feed.score(p) for p in tops), reverse=True)
    with pytest.raises(ValueError, match="unknown sort 'best'"):
        feed.sorted_posts(state["posts"], "best", now)


def test_votes_toggle_and_move_the_score() -> None:
    phone = _phone()
    phone.launch("forum", f"/post?id={THREAD}")
    base = _post(phone, THREAD)["score"]
    tap(phone, "post_upvote")
    assert _post(phone, THREAD)["vote"] == 1 and node(phone, "post_score").text == str(base + 1)
    tap(phone, "post_downvote")
    assert _post(phone, THREAD)["vote"] == -1 and node(phone, "post_score").text == str(base - 1)
    tap(phone, "post_downvote")                               # the same arrow again takes the vote back
    assert _post(phone, THREAD)["vote"] == 0 and node(phone, "post_score").text == str(base)
    first = feed.thread(_post(phone, THREAD))[0][0]["id"]
    tap(phone, "comment_upvote")                              # comments are listed by points
    assert [c["id"] for c in _post(phone, THREAD)["comments"] if c["vote"]] == [first]


def test_save_join_and_follow_change_state_and_show_on_the_profile() -> None:
    phone = _phone()
    phone.launch("forum", f"/post?id={THREAD}")
    tap(phone, "save_toggle")
    assert _post(phone, THREAD)["saved"] and node(phone, "toast").text == "Post saved"
    phone.launch("forum", "/me")
    tap(phone, "profile_tab_1")
    assert "Compost smells bad, help" in [n.text for n in _nodes(phone, "post_title")]
    phone.launch("forum", "/community?id=c_1")                # Travel, not joined
    members = node(phone, "community_members").text
    tap(phone, "join_button")
    assert feed.community(_state(phone), "c_1")["joined"] and node(phone, "join_button").text == "Joined"
    assert node(phone, "community_members").text != members
    phone.launch("forum", "/user?id=u_2")
    tap(phone, "follow_button")
    assert feed.user(_state(phone), "u_2")["following"] and node(phone, "follow_button").text == "Following"
    phone.launch("forum", "/me")
    tap(phone, "profile_tab_2")
    assert "urban_forager" in [n.text for n in _nodes(phone, "following_name")]


def test_a_comment_and_a_reply_post_and_a_blank_one_does_not() -> None:
    phone = _phone()
    phone.launch("forum", f"/post?id={THREAD}")
    before = list(_post(phone, THREAD)["comments"])
    tap(phone, "send_comment")
    assert node(phone, "toast").text == "Write a comment first" and _post(phone, THREAD)["comments"] == before
    _type(phone, "comment_input", "Add more browns, like dry leaves.")
    tap(phone, "send_comment")
    added = _post(phone, THREAD)["comments"][-1]
    assert (added["author_id"], added["parent"], added["text"]) == ("me", "", "Add more browns, like dry leaves.")
    assert node(phone, "comment_count").text == f"{len(before) + 1} comments"
    top = feed.thread(_post(phone, THREAD))[0][0]
    tap(phone, "reply_button")
    assert node(phone, "replying_to").text.startswith("Replying to ")
    phone.key("back")                                         # back ends the reply first, the screen stays
    assert phone.current_route().startswith("/post") and not _nodes(phone, "replying_to")
    tap(phone, "reply_button")
    _type(phone, "comment_input", "Agreed!")
    tap(phone, "send_comment")
    reply = _post(phone, THREAD)["comments"][-1]
    assert (reply["parent"], reply["text"]) == (top["id"], "Agreed!")


def test_deleting_a_comment_and_a_post_needs_the_confirmation() -> None:
    phone = _phone()
    phone.launch("forum", f"/post?id={THREAD}")
    before = _post(phone, THREAD)["comments"]
    count = len(before)
    target = next(c for c, _ in feed.thread(_post(phone, THREAD)) if c["author_id"] == "me")
    tap(phone, "delete_comment")                              # the owner's first comment on screen
    assert node(phone, "alertTitle").text == "Delete comment?"
    tap(phone, "button2")
    assert len(_post(phone, THREAD)["comments"]) == count
    tap(phone, "delete_comment")
    tap(phone, "button1")
    left = [c["id"] for c in _post(phone, THREAD)["comments"]]
    assert left == [c["id"] for c in before if target["id"] not in (c["id"], c["parent"])]
    assert not _nodes(phone, "delete_post")                   # not the owner's post: no delete
    phone.launch("forum", f"/post?id={MY_POST}")
    tap(phone, "delete_post")
    tap(phone, "button2")
    assert any(p["id"] == MY_POST for p in _state(phone)["posts"])
    tap(phone, "delete_post")
    tap(phone, "button1")
    assert all(p["id"] != MY_POST for p in _state(phone)["posts"])


def test_creating_a_post_validates_and_asks_first() -> None:
    phone = _phone()
    phone.launch("forum", f"/community?id={GARDENING}")
    tap(phone, "create_post")
    count = len(_state(phone)["posts"])
    assert node(phone, "community_picker").text == "Gardening"
    tap(phone, "post_button")
    assert node(phone, "toast").text == "Add a title"
    _type(phone, "title_input", "Slugs ate my lettuce")
    _type(phone, "body_input", "Beer traps or copper tape?")
    tap(phone, "post_button")
    assert node(phone, "alertTitle").text == "Post to Gardening?"
    tap(phone, "button2")
    assert len(_state(phone)["posts"]) == count
    tap(phone, "post_button")
    tap(phone, "button1")
    new = _state(phone)["posts"][0]
    assert (new["community_id"], new["author_id"], new["title"], new["body"]) == \
        (GARDENING, "me", "Slugs ate my lettuce", "Beer traps or copper tape?")
    assert phone.current_route().startswith("/post") and node(phone, "post_title").text == "Slugs ate my lettuce"


def test_compose_without_a_community_asks_for_one() -> None:
    phone = _phone()
    tap(phone, "create_post")
    _type(phone, "title_input", "Hello")
    tap(phone, "post_button")
    assert node(phone, "toast").text == "Choose a community"
    tap(phone, "community_picker")
    tap(phone, "community_option", "Books")
    assert node(phone, "community_picker").text == "Books"


def test_search_finds_posts_and_communities() -> None:
    phone = _phone()
    tap(phone, "search_button")
    _type(phone, "search_input", "GARDEN")
    assert [n.text for n in _nodes(phone, "community_name")] == ["Gardening"]
    _type(phone, "search_input", "no such words here")
    assert node(phone, "empty").text == "No results"
    assert search_results(_state(phone), "  ") == ([], [])


def test_chinese_screens_speak_chinese() -> None:
    phone = _phone("zh")
    assert node(phone, "sort_hot").text == "热门" and node(phone, "tab_1").text == "社区"
    phone.launch("forum", "/communities")
    assert node(phone, "joined_header").text == "已加入的社区"
    assert any("位成员" in n.desc for n in _nodes(phone, "community_item"))


def test_ages_follow_the_phone_clock() -> None:
    item = {"created": "2026-03-16T08:15"}
    now = dt.datetime(2026, 3, 16, 9, 0)
    assert feed.age("en", item, now) == "45m" and feed.age("zh", item, now) == "45分钟前"
    assert feed.age("en", item, now + dt.timedelta(hours=5)) == "5h"
    assert feed.age("zh", item, now + dt.timedelta(days=3)) == "3天前"
