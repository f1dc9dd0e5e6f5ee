"""Scripted plans for the Video suite: oracles and realistic mistakes, acting only through the UI."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.calendar_words import MONTH_ABBRS as MONTH_ABBR
from mobilegym.oracle import Driver, negative, plan

from ..contacts.ui import collect, compose
from ..calendar.ui import today
from ..cross_app.ui import add_event, spoken_date
from ..forum.ui import open_community
from .ui import home, open_library, title_of

UPCOMING = ("Upcoming", "即将直播")


# --- helpers -------------------------------------------------------------------------------------------


def search(d: Driver, query: str) -> None:
    home(d)
    d.tap(rid="search")
    d.type(query, rid="search_input")


def open_video(d: Driver, title: str) -> None:
    search(d, title)
    d.tap(rid="video_title", text=title)


def open_channel(d: Driver, name: str) -> None:
    search(d, name)
    d.tap(rid="channel_name", text=name)


def uploads_shown(d: Driver) -> list[str]:
    """The descriptions of the video rows down the screen's list, live streams left out."""
    return [n.desc for n in collect(d, "video_item") if not any(f" · {u} · " in n.desc for u in UPCOMING)]


def open_row(d: Driver, desc: str) -> None:
    d.tap(rid="video_item", desc=desc)


def save_to(d: Driver, name: str) -> None:
    """On a video page: Save, tick a list, Done."""
    d.tap(rid="save_button")
    d.tap(rid=f"save_{name}")
    d.tap(rid="button1")


def seconds(desc: str) -> int:
    """The duration in a row's description ("Title · 12:34 · ...")."""
    parts = [int(x) for x in desc.split(" · ")[1].split(":")]
    total = 0
    for part in parts:
        total = total * 60 + part
    return total


def days_ago(desc: str) -> int:
    """About how many days ago a row's "3 weeks ago" / "2个月前" was (a month as 30 days)."""
    match = re.search(r"(\d+) (minute|hour|day|week|month|year)s? ago", desc) or \
        re.search(r"(\d+)(分钟|小时|天|周|个月|年)前", desc)
    if match is None:
        return 0
    unit = {"minute": 0, "hour": 0, "day": 1, "week": 7, "month": 30, "year": 365,
            "分钟": 0, "小时": 0, "天": 1, "周": 7, "个月": 30, "年": 365}[match.group(2)]
    return int(match.group(1)) * unit


# --- LikeVideo -----------------------------------------------------------------------------------------

@plan("video.LikeVideo")
def like_video(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.tap(rid="like_button")
    d.complete()


@negative("video.LikeVideo", "dislikes it instead")
def dislike_video(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.tap(rid="dislike_button")
    d.complete()


@negative("video.LikeVideo", "likes it, then taps like again (undoing it)")
def like_twice(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.tap(rid="like_button")
    d.tap(rid="like_button")
    d.complete()


# --- WatchLaterCount ----------------------------------------------------------------------------------

def _list_count(d: Driver, entry: str) -> int:
    open_library(d, entry)
    return int(re.search(r"\d+", d.find(rid="list_count").text).group())


@plan("video.WatchLaterCount")
def watch_later_count(d: Driver) -> None:
    d.submit_answer([_list_count(d, "watch_later_entry")])
    d.complete()


@negative("video.WatchLaterCount", "counts Favourites instead")
def favourites_count(d: Driver) -> None:
    d.submit_answer([_list_count(d, "favorites_entry")])
    d.complete()


# --- SubscribeToVideoChannel -------------------------------------------------------------------------

@plan("video.SubscribeToVideoChannel")
def subscribe_channel(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.tap(rid="subscribe_button")
    d.complete()


@negative("video.SubscribeToVideoChannel", "subscribes, then taps again and confirms unsubscribing")
def subscribe_and_undo(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.tap(rid="subscribe_button")
    d.tap(rid="subscribe_button")
    d.tap(rid="button1")
    d.complete()


@negative("video.SubscribeToVideoChannel", "only likes the video")
def like_instead_of_subscribe(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.tap(rid="like_button")
    d.complete()


# --- LastWatched --------------------------------------------------------------------------------------

@plan("video.LastWatched")
def last_watched(d: Driver) -> None:
    open_library(d, "history_entry")
    d.submit_answer([d.texts("video_title")[0]])
    d.complete()


@negative("video.LastWatched", "gives the second video of the history")
def second_watched(d: Driver) -> None:
    open_library(d, "history_entry")
    d.submit_answer([d.texts("video_title")[1]])
    d.complete()


@negative("video.LastWatched", "gives the newest upload of the home feed")
def newest_upload(d: Driver) -> None:
    home(d)
    newest = title_of(uploads_shown(d)[0])
    open_library(d, "history_entry")
    if newest == d.texts("video_title")[0]:  # the same video: the mistake names the history's second instead
        newest = d.texts("video_title")[1]
    d.submit_answer([newest])
    d.complete()


# --- RemoveFromHistory --------------------------------------------------------------------------------

def _remove_desc(d: Driver, title: str) -> str:
    return d.t(f"Remove {title} from history", f"从历史记录中删除“{title}”")


@plan("video.RemoveFromHistory")
def remove_from_history(d: Driver) -> None:
    open_library(d, "history_entry")
    d.tap(rid="history_remove", desc=_remove_desc(d, d.params["entry"]["title"]))
    d.complete()


@negative("video.RemoveFromHistory", "clears the whole history")
def clear_whole_history(d: Driver) -> None:
    clear_history(d)


@negative("video.RemoveFromHistory", "removes the newest entry instead")
def remove_newest(d: Driver) -> None:
    clear_history_one(d)


# --- PostComment --------------------------------------------------------------------------------------

@plan("video.PostComment")
def post_comment(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.type(d.params["text"], rid="comment_input")
    d.tap(rid="post_comment")
    d.complete()


@negative("video.PostComment", "types the comment but never posts it")
def comment_unposted(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    d.type(d.params["text"], rid="comment_input")
    d.complete()


@negative("video.PostComment", "posts it twice")
def comment_twice(d: Driver) -> None:
    open_video(d, d.params["video"]["title"])
    for _ in range(2):
        d.type(d.params["text"], rid="comment_input")
        d.tap(rid="post_comment")
    d.complete()


# --- LikeMostViewed -----------------------------------------------------------------------------------

@plan("video.LikeMostViewed")
def like_most_viewed(d: Driver) -> None:
    open_channel(d, d.params["channel"]["name"])
    d.tap(rid="sort_popular")
    open_row(d, uploads_shown(d)[0])
    d.tap(rid="like_button")
    d.complete()


@negative("video.LikeMostViewed", "likes the channel's newest video")
def like_newest(d: Driver) -> None:
    open_channel(d, d.params["channel"]["name"])
    open_row(d, uploads_shown(d)[0])
    d.tap(rid="like_button")
    d.complete()


# --- SaveLongestToWatchLater --------------------------------------------------------------------------

def _longest(d: Driver) -> str:
    open_channel(d, d.params["channel"]["name"])
    return max(uploads_shown(d), key=seconds)


@plan("video.SaveLongestToWatchLater")
def save_longest(d: Driver) -> None:
    open_row(d, _longest(d))
    save_to(d, "watch_later")
    d.complete()


@negative("video.SaveLongestToWatchLater", "saves it to Favourites")
def save_longest_favourites(d: Driver) -> None:
    open_row(d, _longest(d))
    save_to(d, "favorites")
    d.complete()


@negative("video.SaveLongestToWatchLater", "saves the shortest one")
def save_shortest(d: Driver) -> None:
    open_channel(d, d.params["channel"]["name"])
    open_row(d, min(uploads_shown(d), key=seconds))
    save_to(d, "watch_later")
    d.complete()


# --- BiggestSubscription ------------------------------------------------------------------------------

def _count(text: str) -> float:
    """An abbreviated count ("2.9M subscribers", "291.6万粉丝") as a number."""
    match = re.search(r"([\d.,]+)\s*(K|M|B|万|亿)?", text)
    scale = {"K": 1e3, "M": 1e6, "B": 1e9, "万": 1e4, "亿": 1e8, None: 1}[match.group(2)]
    return float(match.group(1).replace(",", "")) * scale


def _subscriptions(d: Driver) -> list[tuple[str, float]]:
    home(d, 1)
    return sorted(((n.desc.split(" · ")[0], _count(n.desc.split(" · ")[1])) for n in collect(d, "channel_item")),
                  key=lambda row: -row[1])


@plan("video.BiggestSubscription")
def biggest_subscription(d: Driver) -> None:
    d.submit_answer([_subscriptions(d)[0][0]])
    d.complete()


@negative("video.BiggestSubscription", "gives the second biggest")
def second_biggest(d: Driver) -> None:
    d.submit_answer([_subscriptions(d)[1][0]])
    d.complete()


# --- UnsubscribeStale ---------------------------------------------------------------------------------

def _subscriptions_page(d: Driver) -> tuple[list[str], list[str]]:
    """(channel names, video row descriptions) down the Subscriptions tab, in one walk down its list."""
    home(d, 1)
    names: list[str] = []
    rows: list[str] = []
    while True:
        for n in d.nodes():
            if n.short_id == "channel_name" and n.text not in names:
                names.append(n.text)
            elif n.short_id == "video_item" and n.desc not in rows:
                rows.append(n.desc)
        if not d.scroll():
            return names, rows


def _stale(d: Driver) -> list[str]:
    """The subscribed channels whose newest upload is at least ``days`` days old, read in the Subscriptions tab
    (each channel's first video in "Latest from your channels" is its newest)."""
    names, rows = _subscriptions_page(d)
    newest = {name: next(r for r in rows if f" · {name} · " in r) for name in names}
    return [name for name in names if days_ago(newest[name]) >= d.params["days"]]


def _unsubscribe(d: Driver, names: list[str]) -> None:
    """From the Subscriptions tab: open each channel, unsubscribe (confirming), come back."""
    for name in names:
        d.tap(rid="tab_1")  # the tab opens at the top of its list, where the channels are
        d.tap(rid="channel_name", text=name)
        d.tap(rid="subscribe_button")
        d.tap(rid="button1")
        d.key("back")


@plan("video.UnsubscribeStale")
def unsubscribe_stale(d: Driver) -> None:
    _unsubscribe(d, _stale(d))
    d.complete()


@negative("video.UnsubscribeStale", "unsubscribes from only the first stale channel")
def unsubscribe_one_stale(d: Driver) -> None:
    stale = _stale(d)
    _unsubscribe(d, stale[:1] if len(stale) > 1 else [])
    d.complete()


@negative("video.UnsubscribeStale", "unsubscribes from an active channel instead")
def unsubscribe_active(d: Driver) -> None:
    names, _ = _subscriptions_page(d)
    stale = _stale(d)
    _unsubscribe(d, [name for name in names if name not in stale][:1])
    d.complete()


# --- ShareLatestVideo ---------------------------------------------------------------------------------

def _share_nth(d: Driver, n: int) -> None:
    open_channel(d, d.params["channel"]["name"])
    open_row(d, uploads_shown(d)[n])
    d.tap(rid="share_button")
    d.type(d.params["name"], rid="recipient_input")
    d.tap(rid="suggestion_name", text=d.params["name"])
    d.tap(rid="send")


@plan("video.ShareLatestVideo")
def share_latest(d: Driver) -> None:
    _share_nth(d, 0)
    d.complete()


@negative("video.ShareLatestVideo", "shares the second newest")
def share_second(d: Driver) -> None:
    _share_nth(d, 1)
    d.complete()


@negative("video.ShareLatestVideo", "shares it but names the older videos too")
def share_with_others(d: Driver) -> None:
    open_channel(d, d.params["channel"]["name"])
    titles = [title_of(x) for x in uploads_shown(d)]
    compose(d, d.params["name"], "; ".join(titles[:3]))
    d.complete()


# --- SaveRecommendedVideo -----------------------------------------------------------------------------

def _recommended(d: Driver) -> str:
    """The title a contact's recommendation quotes, read in their Messages thread."""
    d.open_app("Messages")
    d.tap(rid="conversation_item", desc=d.params["name"])
    text = next(t for t in reversed(collect(d, "message_text")) if "watch this video" in t.text or "推荐你看看" in t.text).text
    return re.search(r"[\"“](.+?)[\"”]", text).group(1)


@plan("video.SaveRecommendedVideo")
def save_recommended(d: Driver) -> None:
    open_video(d, _recommended(d))
    save_to(d, "watch_later")
    d.complete()


@negative("video.SaveRecommendedVideo", "saves it to Favourites")
def save_recommended_favourites(d: Driver) -> None:
    open_video(d, _recommended(d))
    save_to(d, "favorites")
    d.complete()


# --- LiveStreamEvent ----------------------------------------------------------------------------------

def _stream(d: Driver) -> tuple[str, dt.datetime]:
    """(title, start) of the channel's upcoming live stream, read on its page."""
    now = today(d)
    open_channel(d, d.params["stream"]["channel"])
    row = next(n.desc for n in collect(d, "video_item") if any(f" · {u} · " in n.desc for u in UPCOMING))
    open_row(d, row)
    label = d.find(rid="live_time").text
    en = re.search(r"(\w{3}) (\d+), (\d+):(\d\d) (AM|PM)", label)
    if en is not None:
        month, day = MONTH_ABBR.index(en.group(1)) + 1, int(en.group(2))
        hour = int(en.group(3)) % 12 + (12 if en.group(5) == "PM" else 0)
        minute = int(en.group(4))
    else:
        zh = re.search(r"(\d+)月(\d+)日 (\d\d):(\d\d)", label)
        month, day, hour, minute = (int(x) for x in zh.groups())
    year = now.year + (1 if month < now.month else 0)
    return d.find(rid="video_page_title").text, dt.datetime(year, month, day, hour, minute)


def _live_event(d: Driver, shift_hours: int = 0, tell: bool = True) -> None:
    title, start = _stream(d)
    start += dt.timedelta(hours=shift_hours)
    end = start + dt.timedelta(hours=1)
    add_event(d, title, start.date(), start.strftime("%H:%M"), end.strftime("%H:%M"))
    if tell:
        when = f"{spoken_date(d, start.date())} {start.strftime('%H:%M')}"
        compose(d, d.params["name"], d.t(f"The live stream starts {when}, join me!", f"直播{when}开始，一起看吧！"))
    d.complete()


@plan("video.LiveStreamEvent")
def live_stream_event(d: Driver) -> None:
    _live_event(d)


@negative("video.LiveStreamEvent", "adds the event but never texts the friend")
def live_stream_no_text(d: Driver) -> None:
    _live_event(d, tell=False)


@negative("video.LiveStreamEvent", "puts everything an hour late")
def live_stream_hour_late(d: Driver) -> None:
    _live_event(d, shift_hours=1)


# --- JSON tasks ----------------------------------------------------------------------------------------

def _open_settings(d: Driver) -> None:
    open_library(d, "settings_entry")


@plan("video.autoplay_off")
def autoplay_off(d: Driver) -> None:
    _open_settings(d)
    d.tap(rid="autoplay_row")
    d.complete()


@negative("video.autoplay_off", "changes the playback quality instead")
def autoplay_quality(d: Driver) -> None:
    _open_settings(d)
    d.tap(rid="quality_row")
    d.tap(rid="quality_option", index=4)
    d.complete()


@plan("video.clear_history")
def clear_history(d: Driver) -> None:
    open_library(d, "history_entry")
    d.tap(rid="clear_history")
    d.tap(rid="button1")
    d.complete()


@negative("video.clear_history", "cancels the confirmation")
def clear_history_cancel(d: Driver) -> None:
    open_library(d, "history_entry")
    d.tap(rid="clear_history")
    d.tap(rid="button2")
    d.complete()


@negative("video.clear_history", "removes only the top entry")
def clear_history_one(d: Driver) -> None:
    open_library(d, "history_entry")
    d.tap(rid="history_remove", index=0)
    d.complete()


def _potatoes(d: Driver) -> None:
    open_video(d, d.t("Crispy Smashed Potatoes in 20 Minutes", "二十分钟搞定脆皮土豆"))


@plan("video.download_offline")
def download_offline(d: Driver) -> None:
    _potatoes(d)
    d.abort("The Video app has no download or offline option: a video page only offers like, dislike, save and share")


@negative("video.download_offline", "saves it to Watch later and claims it is downloaded")
def download_pretend(d: Driver) -> None:
    _potatoes(d)
    save_to(d, "watch_later")
    d.complete()


@plan("video.picture_in_picture")
def picture_in_picture(d: Driver) -> None:
    _open_settings(d)
    d.abort("Video's settings have only autoplay and playback quality: there is no picture-in-picture option")


@negative("video.picture_in_picture", "turns autoplay off instead and says done")
def picture_in_picture_autoplay(d: Driver) -> None:
    _open_settings(d)
    d.tap(rid="autoplay_row")
    d.complete()


def _noodles(d: Driver) -> None:
    open_video(d, d.t("Ten-Minute Garlic Noodles", "十分钟蒜香拌面"))


@plan("video.save_cooking_video")
def save_cooking_video(d: Driver) -> None:
    _noodles(d)
    save_to(d, "favorites")
    d.complete()


@negative("video.save_cooking_video", "saves it to Watch later")
def save_cooking_watch_later(d: Driver) -> None:
    _noodles(d)
    save_to(d, "watch_later")
    d.complete()


# --- PruneWatchedFromLater ----------------------------------------------------------------------------

def _prune(d: Driver, keep_one_watched: bool = False) -> int:
    """Remove the Watch later videos whose titles the history lists; the count left."""
    open_library(d, "history_entry")
    watched = {title_of(n.desc) for n in collect(d, "video_item")}
    open_library(d, "watch_later_entry")
    later = [title_of(n.desc) for n in collect(d, "video_item")]
    doomed = [t for t in later if t in watched]
    for title in doomed[1:] if keep_one_watched else doomed:
        d.tap(rid="list_remove", desc=d.t(f"Remove {title} from Watch later", f"从稍后再看移除“{title}”"))
    d.key("back")  # reopen the list at its top, where its count is
    d.tap(rid="watch_later_entry")
    return int(re.search(r"\d+", d.find(rid="list_count").text).group())


@plan("video.PruneWatchedFromLater")
def prune_watched(d: Driver) -> None:
    d.submit_answer([_prune(d)])
    d.complete()


@negative("video.PruneWatchedFromLater", "leaves one watched video in and reports the count")
def prune_all_but_one(d: Driver) -> None:
    d.submit_answer([_prune(d, keep_one_watched=True)])
    d.complete()


@negative("video.PruneWatchedFromLater", "removes them but reports how many were removed")
def prune_counts_removed(d: Driver) -> None:
    open_library(d, "watch_later_entry")
    before = int(re.search(r"\d+", d.find(rid="list_count").text).group())
    left = _prune(d)
    d.submit_answer([before - left if before - left != left else left + 1])
    d.complete()


# --- LikeRecommendedTellChannel -----------------------------------------------------------------------

def _like_recommended(d: Driver, twice: bool = False) -> str:
    """Like the video the contact recommends; the name of its channel, read on its page."""
    open_video(d, _recommended(d))
    d.tap(rid="like_button")
    if twice:
        d.tap(rid="like_button")
    return d.find(rid="channel_link").text


@plan("video.LikeRecommendedTellChannel")
def like_recommended_tell_channel(d: Driver) -> None:
    channel = _like_recommended(d)
    compose(d, d.params["name"], d.t(f"Liked it! It's from {channel}.", f"已点赞！这个视频是{channel}发布的。"))
    d.complete()


@negative("video.LikeRecommendedTellChannel", "likes it but replies with the video's title only")
def like_recommended_tell_title(d: Driver) -> None:
    _like_recommended(d)
    compose(d, d.params["name"], d.t(f"Liked \"{d.params['video']['title']}\"!", f"已点赞《{d.params['video']['title']}》！"))
    d.complete()


@negative("video.LikeRecommendedTellChannel", "taps like twice (undoing it), then replies")
def like_recommended_twice(d: Driver) -> None:
    channel = _like_recommended(d, twice=True)
    compose(d, d.params["name"], d.t(f"Liked it! It's from {channel}.", f"已点赞！这个视频是{channel}发布的。"))
    d.complete()


# --- ForumVideoToWatchLater ---------------------------------------------------------------------------

def _forum_video(d: Driver) -> str:
    """The title the newest post of the community quotes, read on the post's page in Forum."""
    open_community(d, d.params["community"]["name"], "new")
    d.tap(rid="post_title", index=0)
    return re.search(r"[\"“《](.+?)[\"”》]", d.find(rid="post_body").text).group(1)


def _save_forum_video(d: Driver, where: str = "watch_later") -> str:
    """Save the recommended video to a list; the name of its channel."""
    open_video(d, _forum_video(d))
    save_to(d, where)
    return d.find(rid="channel_link").text


def _text_channel(d: Driver, channel: str) -> None:
    compose(d, d.params["name"], d.t(f"Saw a great video recommended on Forum, it's by {channel}.",
                                     f"论坛上有人推荐了一个好视频，是{channel}发布的。"))


@plan("video.ForumVideoToWatchLater")
def forum_video_to_watch_later(d: Driver) -> None:
    _text_channel(d, _save_forum_video(d))
    d.complete()


@negative("video.ForumVideoToWatchLater", "saves it to Favourites instead")
def forum_video_to_favourites(d: Driver) -> None:
    _text_channel(d, _save_forum_video(d, "favorites"))
    d.complete()


@negative("video.ForumVideoToWatchLater", "saves it but texts the video's title, not the channel")
def forum_video_text_title(d: Driver) -> None:
    title = _forum_video(d)
    open_video(d, title)
    save_to(d, "watch_later")
    compose(d, d.params["name"], d.t(f"Check out \"{title}\"!", f"去看看《{title}》！"))
    d.complete()
