"""Scripted plans for the Forum suite: oracles and realistic mistakes, acting only through the UI."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.oracle import Driver, PlanError, negative, plan

from ..contacts.ui import compose
from ..cross_app.ui import add_event
from ..mail.ui import send_new
from .ui import home, open_community


# --- helpers -------------------------------------------------------------------------------------------


def open_post(d: Driver, title: str) -> None:
    home(d)
    d.tap(rid="search_button")
    d.type(title, rid="search_input")
    d.tap(rid="post_title", text=title)


def first_post(d: Driver, index: int = 0) -> None:
    """Open the index-th post of the list on screen."""
    d.tap(rid="post_item", index=index)


def score(d: Driver) -> str:
    return d.find(rid="post_score").text


def comment_count(d: Driver) -> int:
    return int(re.match(r"\d+", d.find(rid="comment_count").text).group(0))


# --- SavePost ------------------------------------------------------------------------------------------

@plan("forum.SavePost")
def save_post(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.tap(rid="save_toggle")


@negative("forum.SavePost", "upvotes the post instead")
def save_post_upvote(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.tap(rid="post_upvote")


@negative("forum.SavePost", "taps save twice, unsaving it")
def save_post_twice(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.tap(rid="save_toggle")
    d.tap(rid="save_toggle")


# --- PostScore / CommentCount --------------------------------------------------------------------------

@plan("forum.PostScore")
def post_score(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.submit_answer([score(d)])


@negative("forum.PostScore", "reports the number of comments")
def post_score_comments(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.submit_answer([str(comment_count(d))])


@plan("forum.CommentCount")
def count_comments(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.submit_answer([str(comment_count(d))])


@negative("forum.CommentCount", "counts only the top-level comments")
def count_top_level(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    total = comment_count(d)
    seen: list[str] = []
    while True:  # a top-level comment has a Reply button
        seen += [n.desc for n in d.nodes() if n.short_id == "reply_button" and n.desc not in seen]
        if not d.scroll():
            break
    d.submit_answer([str(len(seen) if len(seen) != total else len(seen) + 1)])


# --- UpvoteTopPost -------------------------------------------------------------------------------------

@plan("forum.UpvoteTopPost")
def upvote_top(d: Driver) -> None:
    open_community(d, d.params["community"]["name"], "top")
    first_post(d)
    d.tap(rid="post_upvote")


@negative("forum.UpvoteTopPost", "downvotes it")
def downvote_top(d: Driver) -> None:
    open_community(d, d.params["community"]["name"], "top")
    first_post(d)
    d.tap(rid="post_downvote")


@negative("forum.UpvoteTopPost", "upvotes the second post of the Top list")
def upvote_second(d: Driver) -> None:
    open_community(d, d.params["community"]["name"], "top")
    first_post(d, 1)
    d.tap(rid="post_upvote")


# --- NewestPostAuthor / FollowNewestAuthor -------------------------------------------------------------

def newest_author(d: Driver) -> str:
    open_community(d, d.params["community"]["name"], "new")
    first_post(d)
    return d.find(rid="post_author").text


@plan("forum.NewestPostAuthor")
def newest_post_author(d: Driver) -> None:
    d.submit_answer([newest_author(d)])


@negative("forum.NewestPostAuthor", "names the author of the oldest post")
def oldest_post_author(d: Driver) -> None:
    open_community(d, d.params["community"]["name"], "new")
    first_post(d)
    newest = d.find(rid="post_author").text
    open_community(d, d.params["community"]["name"], "new")
    while d.scroll():
        pass
    d.tap(rid="post_item", index=len([n for n in d.nodes() if n.short_id == "post_item"]) - 1)
    author = d.find(rid="post_author").text
    d.submit_answer([author if author != newest else author + "x"])


@plan("forum.FollowNewestAuthor")
def follow_newest(d: Driver) -> None:
    newest_author(d)
    d.tap(rid="post_author")
    d.tap(rid="follow_button")


@negative("forum.FollowNewestAuthor", "opens the profile but never taps Follow")
def follow_newest_forgets(d: Driver) -> None:
    newest_author(d)
    d.tap(rid="post_author")


@negative("forum.FollowNewestAuthor", "follows then unfollows")
def follow_newest_twice(d: Driver) -> None:
    newest_author(d)
    d.tap(rid="post_author")
    d.tap(rid="follow_button")
    d.tap(rid="follow_button")


# --- DeleteMyComment -----------------------------------------------------------------------------------

def open_my_comment(d: Driver) -> None:
    open_post(d, d.params["mine"]["title"])
    d.reveal(rid="comment_text", text=d.params["mine"]["text"])
    items = [n for n in d.nodes() if n.short_id in ("comment_text", "delete_comment")]
    at = next(i for i, n in enumerate(items) if n.short_id == "comment_text" and n.text == d.params["mine"]["text"])
    index = sum(1 for n in items[:at] if n.short_id == "delete_comment")
    d.tap(rid="delete_comment", index=index)


@plan("forum.DeleteMyComment")
def delete_my_comment(d: Driver) -> None:
    open_my_comment(d)
    d.tap(rid="button1")


@negative("forum.DeleteMyComment", "cancels the confirmation")
def delete_my_comment_cancel(d: Driver) -> None:
    open_my_comment(d)
    d.tap(rid="button2")


# --- CreatePost ----------------------------------------------------------------------------------------

def write_post(d: Driver, community: str, confirm: bool = True) -> None:
    open_community(d, community)
    d.tap(rid="create_post")
    d.type(d.params["new"]["title"], rid="title_input")
    d.type(d.params["new"]["body"], rid="body_input")
    d.tap(rid="post_button")
    d.tap(rid="button1" if confirm else "button2")


@plan("forum.CreatePost")
def create_post(d: Driver) -> None:
    write_post(d, d.params["new"]["name"])


@negative("forum.CreatePost", "cancels at the confirmation")
def create_post_cancel(d: Driver) -> None:
    write_post(d, d.params["new"]["name"], confirm=False)


@negative("forum.CreatePost", "posts in another community")
def create_post_elsewhere(d: Driver) -> None:
    home(d)
    d.tap(rid="tab_1")
    names = [n.text for n in d.nodes() if n.short_id == "community_name"]
    write_post(d, next(n for n in names if n != d.params["new"]["name"]))


# --- ReplyTopComment -----------------------------------------------------------------------------------

@plan("forum.ReplyTopComment")
def reply_top_comment(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.tap(rid="reply_button")          # comments are listed by points: the first is the most voted
    d.type(d.params["text"], rid="comment_input")
    d.tap(rid="send_comment")


@negative("forum.ReplyTopComment", "comments on the post instead of replying")
def reply_as_comment(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.type(d.params["text"], rid="comment_input")
    d.tap(rid="send_comment")


@negative("forum.ReplyTopComment", "replies to the second comment")
def reply_second(d: Driver) -> None:
    open_post(d, d.params["post"]["title"])
    d.tap(rid="reply_button", index=1)
    d.type(d.params["text"], rid="comment_input")
    d.tap(rid="send_comment")


# --- BiggestJoinedCommunity ----------------------------------------------------------------------------

def communities(d: Driver) -> list[tuple[str, int, bool]]:
    """(name, members, joined) of every community on the Communities tab."""
    home(d)
    d.tap(rid="tab_1")
    seen: dict[str, tuple[str, int, bool]] = {}
    while True:
        for n in d.nodes():
            if n.short_id == "community_item":
                name = n.desc.split(" · ")[0]
                members = int(re.search(r"([\d,]+)", n.desc[len(name):]).group(1).replace(",", ""))
                seen[name] = (name, members, "Joined" in n.desc or "已加入" in n.desc)
        if not d.scroll():
            return list(seen.values())


@plan("forum.BiggestJoinedCommunity")
def biggest_joined(d: Driver) -> None:
    d.submit_answer([max((c for c in communities(d) if c[2]), key=lambda c: c[1])[0]])


@negative("forum.BiggestJoinedCommunity", "names the biggest community of all")
def biggest_overall(d: Driver) -> None:
    d.submit_answer([max(communities(d), key=lambda c: c[1])[0]])


@negative("forum.BiggestJoinedCommunity", "names the smallest joined community")
def smallest_joined(d: Driver) -> None:
    d.submit_answer([min((c for c in communities(d) if c[2]), key=lambda c: c[1])[0]])


# --- VoteSaveFollowedPost ------------------------------------------------------------------------------

AGE = re.compile(r"(\d+)(m|h|d|分钟前|小时前|天前)")
MINUTES = {"m": 1, "h": 60, "d": 1440, "分钟前": 1, "小时前": 60, "天前": 1440}


def newest_followed(d: Driver) -> tuple[str, str]:
    """(handle, title) of the newest post by someone followed: every followed profile's posts, by age shown."""
    home(d)
    d.tap(rid="tab_2")
    d.tap(rid="profile_tab_2")
    handles = [n.text for n in d.nodes() if n.short_id == "following_name"]
    best: tuple[int, str, str] | None = None
    for handle in handles:
        d.tap(rid="following_name", text=handle)
        for n in d.nodes():
            if n.short_id == "post_item":
                title, *_, age = n.desc.split(" · ")
                value, unit = AGE.fullmatch(age).groups()
                minutes = int(value) * MINUTES[unit]
                if best is None or minutes < best[0]:
                    best = (minutes, handle, title)
        d.key("back")
    return best[1], best[2]


@plan("forum.VoteSaveFollowedPost")
def vote_save_followed(d: Driver) -> None:
    _, title = newest_followed(d)
    open_post(d, title)
    d.tap(rid="post_upvote")
    d.tap(rid="save_toggle")


@negative("forum.VoteSaveFollowedPost", "upvotes but forgets to save")
def vote_only_followed(d: Driver) -> None:
    _, title = newest_followed(d)
    open_post(d, title)
    d.tap(rid="post_upvote")


# --- cross-app -----------------------------------------------------------------------------------------

def post_title_at(d: Driver, community: str, sort: str, index: int = 0) -> str:
    open_community(d, community, sort)
    return d.find(rid="post_title", index=index).text


@plan("forum.ShareTopPostByText")
def share_top_by_text(d: Driver) -> None:
    compose(d, d.params["name"], post_title_at(d, d.params["community"]["name"], "top"))


@negative("forum.ShareTopPostByText", "sends the second post of the Top list")
def share_second_by_text(d: Driver) -> None:
    compose(d, d.params["name"], post_title_at(d, d.params["community"]["name"], "top", 1))


@negative("forum.ShareTopPostByText", "sends only the community's name")
def share_community_by_text(d: Driver) -> None:
    compose(d, d.params["name"], d.params["community"]["name"])


@plan("forum.MailNewestPost")
def mail_newest(d: Driver) -> None:
    title = post_title_at(d, d.params["community"]["name"], "new")
    send_new(d, d.params["name"], d.t("Forum post", "论坛帖子"), title)


@negative("forum.MailNewestPost", "mails the second-newest post")
def mail_second_newest(d: Driver) -> None:
    title = post_title_at(d, d.params["community"]["name"], "new", 1)
    send_new(d, d.params["name"], d.t("Forum post", "论坛帖子"), title)


def _meetup(d: Driver) -> dict:
    """Read the meetup post (the Newest of its community); the plan then uses the episode's sampled facts."""
    m = d.params["meetup"]
    open_community(d, m["name"], "new")
    d.tap(rid="post_title", text=m["title"])
    body = d.find(rid="post_body").text
    if m["place"] not in body:
        raise PlanError(f"the meetup post does not name {m['place']!r}: {body!r}")
    return m


@plan("forum.MeetupToCalendar")
def meetup_to_calendar(d: Driver) -> None:
    m = _meetup(d)
    add_event(d, m["event"], dt.date.fromisoformat(m["date"]), m["start"], m["end"])
    compose(d, d.params["name"], d.t(f"The meetup is at {m['place']}", f"聚会地点在{m['place']}"))


@negative("forum.MeetupToCalendar", "adds the event but never texts")
def meetup_no_text(d: Driver) -> None:
    m = _meetup(d)
    add_event(d, m["event"], dt.date.fromisoformat(m["date"]), m["start"], m["end"])


@negative("forum.MeetupToCalendar", "puts the event an hour late")
def meetup_late(d: Driver) -> None:
    m = _meetup(d)
    hour = int(m["start"][:2]) + 1
    add_event(d, m["event"], dt.date.fromisoformat(m["date"]), f"{hour:02d}{m['start'][2:]}", f"{hour + 1:02d}{m['start'][2:]}")
    compose(d, d.params["name"], d.t(f"The meetup is at {m['place']}", f"聚会地点在{m['place']}"))


# --- JSON tasks ----------------------------------------------------------------------------------------

@plan("forum.join_birdwatching")
def join_birdwatching(d: Driver) -> None:
    open_community(d, d.t("Birdwatching", "观鸟小组"))
    d.tap(rid="join_button")


@negative("forum.join_birdwatching", "taps Join twice, leaving again")
def join_birdwatching_twice(d: Driver) -> None:
    open_community(d, d.t("Birdwatching", "观鸟小组"))
    d.tap(rid="join_button")
    d.tap(rid="join_button")


@plan("forum.live_audio_room")
def live_audio_room(d: Driver) -> None:
    home(d)
    d.tap(rid="tab_1")
    d.abort("Forum has no live audio rooms: communities only hold posts and comments")


@negative("forum.live_audio_room", "creates a post announcing a room and claims it is live")
def live_audio_room_post(d: Driver) -> None:
    home(d)
    d.tap(rid="create_post")
    d.tap(rid="community_picker")
    d.tap(rid="community_option")
    d.type(d.t("Live audio room now!", "语音直播间开播啦！"), rid="title_input")
    d.tap(rid="post_button")
    d.tap(rid="button1")
    d.complete()


@plan("forum.award_first_post")
def award_first_post(d: Driver) -> None:
    home(d)
    first_post(d)
    d.abort("Forum has no coins or awards: a post can only be voted on, saved or commented")


@negative("forum.award_first_post", "upvotes the post instead and says it is done")
def award_first_post_upvote(d: Driver) -> None:
    home(d)
    first_post(d)
    d.tap(rid="post_upvote")
    d.complete()


# --- FollowNewestAuthorTell ----------------------------------------------------------------------------

def _follow_newest(d: Driver, taps: int = 1) -> str:
    """Open the community's newest post, follow its author from their profile; their username."""
    handle = newest_author(d)
    d.tap(rid="post_author")
    for _ in range(taps):
        d.tap(rid="follow_button")
    return handle


def _text_handle(d: Driver, handle: str) -> None:
    compose(d, d.params["name"], d.t(f"You should follow {handle} on Forum", f"推荐你在论坛关注{handle}"))


@plan("forum.FollowNewestAuthorTell")
def follow_newest_tell(d: Driver) -> None:
    _text_handle(d, _follow_newest(d))


@negative("forum.FollowNewestAuthorTell", "texts the username but never taps Follow")
def follow_newest_tell_no_follow(d: Driver) -> None:
    _text_handle(d, _follow_newest(d, taps=0))


@negative("forum.FollowNewestAuthorTell", "follows the author of the top post instead, and texts that name")
def follow_top_tell(d: Driver) -> None:
    for index in range(3):  # the best-scored post by someone else than the newest poster and the owner
        open_community(d, d.params["community"]["name"], "top")
        first_post(d, index)
        handle = d.find(rid="post_author").text
        if handle != d.params["community"]["handle"]:
            d.tap(rid="post_author")
            if d.find(rid="follow_button"):
                break
    d.tap(rid="follow_button")
    _text_handle(d, handle)
