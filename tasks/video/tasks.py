"""Video tasks.

Task index:
    LikeVideo                 operate  L1  like a named video
    WatchLaterCount           query    L1  how many videos Watch later holds
    SubscribeToVideoChannel   operate  L2  subscribe to the channel of a searched video
    LastWatched               query    L2  the video watched most recently
    RemoveFromHistory         operate  L2  remove one video from the watch history
    PostComment               operate  L2  post a given comment on a video
    LikeMostViewed            operate  L3  like a channel's most viewed video
    SaveLongestToWatchLater   operate  L3  add a channel's longest video to Watch later
    BiggestSubscription       query    L3  the subscribed channel with the most subscribers
    UnsubscribeStale          operate  L4  unsubscribe from every channel silent for N days
    PruneWatchedFromLater     hybrid   L4  remove the watched videos from Watch later, report how many remain
    ShareLatestVideo          operate  L3  cross-app: text a contact the title of a channel's newest video
    SaveRecommendedVideo      operate  L3  cross-app: add the video a contact texted about to Watch later
    LiveStreamEvent           operate  L4  cross-app: a Calendar event for a live stream, and text a contact its time
    LikeRecommendedTellChannel operate L3  cross-app: like the video a contact texted about, reply with its channel
    ForumVideoToWatchLater    operate  L4  cross-app: save the video a Forum post recommends, text a contact its channel
"""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks, sim_datetime, copy_state
from mobilegym.envs.contacts.numbers import same_number
from mobilegym.envs.video import library as lib
from mobilegym.judge.result import check

from ..calendar.app import CALENDAR_ADD_EVENT_CHANGES, Calendar
from ..contacts.app import Contacts
from ..cross_app.app import check_names_one
from ..l10n import localised
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages, text_from_contact
from .app import (MIN_LATER_UNWATCHED, MIN_LATER_WATCHED, MIN_RIVAL_STREAMS, MIN_STALE, VIDEO_COMMENT_CHANGES,
                  VIDEO_HISTORY_REMOVE_CHANGES, VIDEO_REACTION_CHANGES, VIDEO_SUBSCRIBE_CHANGES,
                  VIDEO_UNSUBSCRIBE_CHANGES, VIDEO_WATCH_LATER_ADD_CHANGES, VIDEO_WATCH_LATER_REMOVE_CHANGES, Video)


def recommendation_distractors(apps, name: str, video: dict) -> dict[str, tuple[int, int]]:
    """What a "the video {name} recommended in Messages" task must pick out: the other conversations, and the
    other uploads of the video's channel."""
    numbers = [p["number"] for p in Contacts(apps["contacts"]).contact(name)["phones"]]
    others = [c for c in apps["messages"]["conversations"] if not any(same_number(c["address"], n) for n in numbers)]
    return {"other conversations in Messages": (len(others), 2),
            "other uploads of its channel": (len(lib.uploads(apps["video"], video["channel_id"])) - 1, 2)}


def _video_state(device) -> dict:
    return copy_state(device)["apps"]["video"]


def _apply(device, patch) -> None:
    if patch:
        device.set_state(patch)


class LikeVideo(CriteriaTask):
    """Verdict: the video is liked (a dislike, or another video liked, fails by the check or the diff)."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["search", "toggle"]
    templates = {"en": ["Like the video '{video.title}' in Video", "Give '{video.title}' a thumbs up in the Video app"],
                 "zh": ["在视频里给《{video.title}》点赞"]}
    parameters = {"video": {"sampler": Video.sample_unliked_video}}
    criteria = {".videos[id={video.id}].reaction": "like"}
    expected_changes = VIDEO_REACTION_CHANGES


@localised(zh={"fields": [{"label": "视频数"}]})
class WatchLaterCount(AnswerTask):
    """Verdict: the answer is the number of videos in Watch later.
    Injection: Watch later and Favourites never hold as many videos (one more goes to Watch later)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many videos are in my Watch later list in Video?", "Count the videos I saved to Watch later"],
                 "zh": ["视频里我的“稍后再看”有几个视频？"]}
    answer = staticmethod(lambda task, apps_init: len(apps_init["video"]["watch_later"]))
    answer_fields = [{"type": "number", "label": "Videos"}]

    def set_up(self, device) -> None:
        _apply(device, Video.prepare_state_with_lists_apart(_video_state(device)))


class SubscribeToVideoChannel(CriteriaTask):
    """Verdict: the channel that posted the video is subscribed (any other subscription change fails by the diff)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "navigation"]
    templates = {"en": ["Search Video for '{video.title}' and subscribe to the channel that posted it",
                        "Find the video '{video.title}' and follow its channel"],
                 "zh": ["在视频里搜索《{video.title}》，关注发布它的频道"]}
    parameters = {"video": {"sampler": Video.sample_video_of_unsubscribed}}
    criteria = {".channels[id={video.channel_id}].subscribed": True}
    expected_changes = VIDEO_SUBSCRIBE_CHANGES


@localised(zh={"fields": [{"label": "视频标题"}]})
class LastWatched(AnswerTask):
    """Verdict: the answer is the title of the newest history entry (the other titles are rivals).
    Injection: that title has no digit (the newest such entry moves to the top)."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval"]
    templates = {"en": ["Which video did I watch last in Video?", "What's the most recent video in my watch history?"],
                 "zh": ["我在视频里最近看的是哪个视频？"]}
    answer_fields = [{"type": "text", "label": "Video title"}]

    def set_up(self, device) -> None:
        _apply(device, Video.prepare_state_with_plain_last_watched(_video_state(device)))

    def get_answer(self, input):
        app = Video(input.apps_init["video"])
        return app.video(app.history()[0]["video_id"])["title"]


class RemoveFromHistory(BaseTask):
    """Verdict: the history holds its initial entries but the requested one."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion"]
    templates = {"en": ["Remove '{entry.title}' from my watch history in Video",
                        "I don't want '{entry.title}' in my Video history, delete just that one"],
                 "zh": ["把《{entry.title}》从视频的历史记录里删掉"]}
    parameters = {"entry": {"sampler": Video.sample_history_entry}}
    expected_changes = VIDEO_HISTORY_REMOVE_CHANGES

    def check_goals(self, input):
        want = [h["id"] for h in Video(input.apps_init["video"]).history() if h["id"] != self.p.entry["id"]]
        have = [h["id"] for h in Video(input.apps["video"]).history()]
        return [check("history", want, have, want == have)]


class PostComment(BaseTask):
    """Verdict: exactly one comment was posted, on the video, with the given text (case, spaces and end
    punctuation aside)."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["search", "form-filling", "messaging"]
    templates = {"en": ["Post the comment \"{text}\" on the video '{video.title}' in Video",
                        "Leave a comment on '{video.title}' saying: {text}"],
                 "zh": ["在视频《{video.title}》下发表评论：{text}"]}
    parameters = {"video": {"sampler": Video.sample_unliked_video}, "text": {"sampler": Video.sample_comment}}
    expected_changes = VIDEO_COMMENT_CHANGES

    def check_goals(self, input):
        posted = Video(input.apps["video"]).new_comments(Video(input.apps_init["video"]), self.p.video["id"])
        ok = len(posted) == 1 and Messages.same_text(self.p.text, posted[0])
        return [check("comment posted", [self.p.text], posted, ok)]


class LikeMostViewed(CriteriaTask):
    """Verdict: the channel's most viewed upload is liked (sampled so it leads the next by 15% and is not the
    channel's newest); liking another video fails by the diff."""

    objective = "operate"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["navigation", "comparison", "toggle"]
    templates = {"en": ["Like the most viewed video of the channel {channel.name} in Video",
                        "Open {channel.name}'s channel, find its most popular video by views and like it"],
                 "zh": ["在视频里找到频道“{channel.name}”播放量最高的视频，给它点赞"]}
    parameters = {"channel": {"sampler": Video.sample_channel_most_viewed}}
    criteria = {".videos[id={channel.video}].reaction": "like"}
    expected_changes = ["video.videos[id={channel.video}].reaction"]

    def distractors(self, apps, os_state):
        uploads = lib.uploads(apps["video"], self.p.channel["id"])
        top = next(n for n, v in enumerate(uploads) if v["id"] == self.p.channel["video"])
        return {"other uploads of the channel": (len(uploads) - 1, 2), "newer uploads listed above it": (top, 1)}


class SaveLongestToWatchLater(BaseTask):
    """Verdict: Watch later holds its initial videos plus the channel's longest upload (sampled so it runs 30 s
    longer than the next and is in neither list)."""

    objective = "operate"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["navigation", "comparison", "list-management"]
    templates = {"en": ["Add the longest video of the channel {channel.name} to my Watch later list in Video",
                        "Save {channel.name}'s longest video to Watch later"],
                 "zh": ["把视频里频道“{channel.name}”时长最长的视频加入“稍后再看”"]}
    parameters = {"channel": {"sampler": Video.sample_channel_longest}}
    expected_changes = VIDEO_WATCH_LATER_ADD_CHANGES

    def distractors(self, apps, os_state):
        uploads = lib.uploads(apps["video"], self.p.channel["id"])
        top = next(n for n, v in enumerate(uploads) if v["id"] == self.p.channel["video"])
        return {"other uploads of the channel": (len(uploads) - 1, 2), "newer uploads listed above it": (top, 1)}

    def check_goals(self, input):
        before = Video(input.apps_init["video"]).require(".watch_later")
        after = Video(input.apps["video"]).require(".watch_later")
        want = sorted([*before, self.p.channel["video"]])
        return [check("Watch later", want, sorted(after), sorted(after) == want)]


@localised(zh={"fields": [{"label": "频道名称"}]})
class BiggestSubscription(AnswerTask):
    """Verdict: the answer names the subscribed channel with the most subscribers (other channels are rivals).
    Injection: a subscribed channel drawn uniformly is the biggest, leading the next by 20% or more."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["comparison", "information-retrieval"]
    templates = {"en": ["Of the channels I subscribe to in Video, which one has the most subscribers?",
                        "Which of my Video subscriptions is the biggest channel by subscriber count?"],
                 "zh": ["我在视频里关注的频道中，哪个粉丝最多？"]}
    answer_fields = [{"type": "text", "label": "Channel"}]

    def distractors(self, apps, os_state):
        channels = apps["video"]["channels"]
        biggest = max((c["subscribers"] for c in channels if c["subscribed"]))
        return {"other subscriptions": (sum(c["subscribed"] for c in channels) - 1, 2),
                "bigger channels not subscribed": (sum(not c["subscribed"] and c["subscribers"] > biggest
                                                       for c in channels), 1)}

    def set_up(self, device) -> None:
        _apply(device, Video.prepare_state_with_clear_biggest(_video_state(device),
                                                             self.rng if self.spreads else None))

    def get_answer(self, input):
        channels = [c for c in input.apps_init["video"]["channels"] if c["subscribed"]]
        return max(channels, key=lambda c: c["subscribers"])["name"]


class UnsubscribeStale(BaseTask):
    """Verdict: the subscriptions are the initial ones minus every channel whose newest upload is more than
    ``days`` days old (no channel's newest upload is within five days of the line).
    Injection: when no day count splits the subscriptions so, uploads move (older, or one made recent)."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "aggregate"
    capabilities = ["filtering", "date-reasoning", "confirmation-dialog"]
    templates = {"en": ["In Video, unsubscribe from every channel I follow that hasn't uploaded a video in the last {days} days",
                        "Clean up my Video subscriptions: drop each channel whose newest upload is more than {days} days old"],
                 "zh": ["在视频里取消关注所有最近{days}天没有发布新视频的频道"]}
    parameters = {"days": {"sampler": Video.sample_stale_days}}
    expected_changes = VIDEO_UNSUBSCRIBE_CHANGES

    def distractors(self, apps, os_state):
        now, state = sim_datetime(os_state), apps["video"]
        ages = [Video.latest_upload_age_days(state, c["id"], now) for c in state["channels"] if c["subscribed"]]
        return {"stale subscriptions": (sum(a > self.p.days for a in ages), MIN_STALE),
                "recent subscriptions": (sum(a <= self.p.days for a in ages), 1)}

    def inject(self, device) -> None:
        state = copy_state(device)
        _apply(device, Video.prepare_state_with_stale_split(state["apps"]["video"], self.p.days, sim_datetime(state["os"])))

    def check_goals(self, input):
        init = input.apps_init["video"]
        now = sim_datetime(input.os_init)
        names = {c["id"]: c["name"] for c in init["channels"]}
        keep = [c["id"] for c in init["channels"]
                if c["subscribed"] and Video.latest_upload_age_days(init, c["id"], now) <= self.p.days]
        have = Video(input.apps["video"]).subscribed()
        return [check("subscriptions", sorted(names[i] for i in keep), sorted(names[i] for i in have),
                      sorted(have) == sorted(keep))]


@localised(zh={"fields": [{"label": "剩余视频数"}]})
class PruneWatchedFromLater(BaseTask):
    """Verdict: Watch later holds exactly its initial videos that are not in the watch history (in their order),
    and the answer is how many that is.
    Injection: Watch later holds at least two watched videos and two to eight unwatched ones (the count drawn from
    seven, tasks/spread.py)."""

    objective = "hybrid"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["filtering", "deletion", "counting"]
    templates = {"en": ["Remove from my Watch later list in Video every video I've already watched (the ones in my "
                        "history), then tell me how many videos are left in Watch later",
                        "Clean up Watch later: take out the videos that are in my watch history, and tell me how many remain"],
                 "zh": ["把视频“稍后再看”里已经看过的视频（历史记录里有的）都移除，然后告诉我“稍后再看”还剩几个视频"]}
    expected_changes = VIDEO_WATCH_LATER_REMOVE_CHANGES
    answer_fields = [{"type": "number", "label": "Videos left"}]

    def set_up(self, device) -> None:
        _apply(device, Video.prepare_state_with_watched_in_watch_later(
            _video_state(device), self.spread.count(2, 7) if self.spreads else None))

    def distractors(self, apps, os_state):
        watched = {h["video_id"] for h in apps["video"]["history"]}
        later = apps["video"]["watch_later"]
        return {"watched in Watch later": (sum(v in watched for v in later), MIN_LATER_WATCHED),
                "unwatched in Watch later": (sum(v not in watched for v in later), MIN_LATER_UNWATCHED)}

    def _kept(self, init: dict) -> list[str]:
        watched = {h["video_id"] for h in init["history"]}
        return [v for v in init["watch_later"] if v not in watched]

    def check_goals(self, input):
        want = self._kept(input.apps_init["video"])
        have = Video(input.apps["video"]).require(".watch_later")
        titles = {v["id"]: v["title"] for v in input.apps_init["video"]["videos"]}
        return [check("Watch later", [titles[v] for v in want], [titles.get(v, v) for v in have], list(have) == want),
                *build_answer_checks(len(want), input.answer, field="videos_left")]


class ShareLatestVideo(BaseTask):
    """Verdict: the contact got a text naming the channel's newest upload and none of its other uploads."""

    scope = "cross-app"
    app = "video"
    related_apps = ["video", "messages", "contacts"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "messaging"]
    templates = {"en": ["Text {name} the title of the newest video from the channel {channel.name} in Video",
                        "Send {name} a message with the title of {channel.name}'s latest upload"],
                 "zh": ["把视频里频道“{channel.name}”最新发布的视频标题发短信告诉{name}"]}
    parameters = {"channel": {"sampler": Video.sample_channel_latest}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def distractors(self, apps, os_state):
        uploads = lib.uploads(apps["video"])
        newest = lib.uploads(apps["video"], self.p.channel["id"])[0]
        return {"other uploads of the channel": (len(self.p.channel["others"]), 2),
                "newer uploads of other channels": (sum(v["uploaded"] > newest["uploaded"] for v in uploads), 1)}

    def check_goals(self, input):
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [messages.check_sent(self.p.name, numbers, "a text", lambda text: True),
                check_names_one("video named", messages.texts_to(numbers), self.p.channel["title"],
                                self.p.channel["others"])]


class SaveRecommendedVideo(BaseTask):
    """Verdict: Watch later holds its initial videos plus the one the contact recommended.
    Injection: an unread text from the contact's first number recommends a video in neither list."""

    scope = "cross-app"
    app = "video"
    related_apps = ["video", "messages", "contacts"]
    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "list-management"]
    templates = {"en": ["{name} texted me about a video. Add it to my Watch later list in Video.",
                        "Check which video {name} recommended in Messages and save it to Watch later"],
                 "zh": ["{name}发短信给我推荐了一个视频，把它加到视频的“稍后再看”里"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}, "video": {"sampler": Video.sample_not_saved}}
    expected_changes = [*VIDEO_WATCH_LATER_ADD_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        return recommendation_distractors(apps, self.p.name, self.p.video)

    def inject(self, device) -> None:
        text_from_contact(device, self.p.name, f"vid_{self.p.video['id']}",
                          lambda language: Video.recommendation_text(self.p.video["title"], language))

    def check_goals(self, input):
        before = Video(input.apps_init["video"]).require(".watch_later")
        after = Video(input.apps["video"]).require(".watch_later")
        want = sorted([*before, self.p.video["id"]])
        return [check("Watch later", want, sorted(after), sorted(after) == want)]


class LiveStreamEvent(BaseTask):
    """Verdict: a new Calendar event titled as the live stream, on its date, starting at its time, and a text to
    the contact stating the stream's date and start time."""

    scope = "cross-app"
    app = "video"
    related_apps = ["video", "calendar", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "form-filling", "messaging"]
    templates = {"en": ["{stream.channel} has a live stream coming up in Video. Add it to my calendar (titled with the "
                        "stream's title, at its start time, one hour long) and text {name} the day and time it starts.",
                        "Put {stream.channel}'s upcoming live stream in Calendar: same title, starting when the stream "
                        "starts, lasting an hour. Then send {name} a message saying when it starts."],
                 "zh": ["视频里频道“{stream.channel}”有一场直播预告。把它加到日历里（标题用直播标题，开始时间就是直播时间，"
                        "时长一小时），再发短信告诉{name}直播哪天几点开始"]}
    parameters = {"stream": {"sampler": Video.sample_live_stream}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES]


    def inject(self, device) -> None:
        state = copy_state(device)
        _apply(device, Video.prepare_state_with_rival_stream(
            state["apps"]["video"], self.p.stream["id"], state["os"].get("language", "en"), sim_datetime(state["os"])))

    def distractors(self, apps, os_state):
        channel = lib.video(apps["video"], self.p.stream["id"])["channel_id"]
        rivals = [v for v in lib.live_streams(apps["video"]) if v["channel_id"] != channel]
        return {"other channels' live streams": (len(rivals), MIN_RIVAL_STREAMS)}
    def check_goals(self, input):
        start = dt.datetime.fromisoformat(self.p.stream["live_at"])
        end = start + dt.timedelta(hours=1)
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        event = calendar.new_event(self.p.stream["title"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Calendar.check_event("live stream event", event, {"date": start.date().isoformat(), "all_day": False,
                                                                  "start": start.strftime("%H:%M"),
                                                                  "end": end.strftime("%H:%M")}),
                *messages.check_sent_facts(self.p.name, numbers, {"day": start.date().isoformat(),
                                                                  "start time": start.strftime("%H:%M")},
                                           os_state=input.os_init)]


REWORDED = re.compile(r"\b(Rain|Snow|Thunderstorm|Shower)\b|\d[:°]")  # words a reply may fairly reword


def sample_recommendable_video(rng, state):
    """An upload without a reaction (its title unique) whose title does not hold its channel's name (a name with
    no word a reply may fairly reword), as
    {id, title, channel_id, channel, others} (others: every other channel's name)."""
    names = {c["id"]: c["name"] for c in state["channels"]}
    pool = [v for v in lib.uploads(state) if not v["reaction"] and Video._unique_title(state, v)
            and names[v["channel_id"]].casefold() not in v["title"].casefold()
            and not REWORDED.search(names[v["channel_id"]])]
    chosen = Video._pick(rng, pool, "upload to recommend")
    return {**chosen, "channel": names[chosen["channel_id"]],
            "others": [n for cid, n in names.items() if cid != chosen["channel_id"]]}


class LikeRecommendedTellChannel(BaseTask):
    """Verdict: the video the contact recommended is liked, and a text to the contact names its channel and no
    other channel. Injection: an unread text from the contact's first number recommends the video."""

    scope = "cross-app"
    app = "video"
    related_apps = ["video", "messages", "contacts"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "toggle", "messaging"]
    templates = {"en": ["{name} texted me about a video. Like it in Video, then reply to {name} with the name of the "
                        "channel that posted it.",
                        "Find the video {name} recommended in Messages, give it a thumbs up in Video and text {name} "
                        "back which channel it is from"],
                 "zh": ["{name}发短信给我推荐了一个视频。在视频里给它点赞，然后回短信告诉{name}这个视频是哪个频道发布的"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}, "video": {"sampler": sample_recommendable_video}}
    expected_changes = [*VIDEO_REACTION_CHANGES, *MESSAGES_SEND_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        return recommendation_distractors(apps, self.p.name, self.p.video)

    def inject(self, device) -> None:
        text_from_contact(device, self.p.name, f"vid_{self.p.video['id']}",
                          lambda language: Video.recommendation_text(self.p.video["title"], language))

    def check_goals(self, input):
        reaction = Video(input.apps["video"]).video(self.p.video["id"])["reaction"]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [check(f"reaction to {self.p.video['title']!r}", "like", reaction, reaction == "like"),
                *messages.check_sent_facts(self.p.name, numbers, {"channel": self.p.video["channel"]},
                                           rivals={"channel": self.p.video["others"]})]


FORUM_VIDEO_POST = {"en": ("A video you should not miss", 'Just watched "{title}" in the Video app and it is brilliant. '
                                                          'Highly recommend it!'),
                    "zh": ("推荐一个视频", "刚在视频里看了《{title}》，太精彩了，强烈推荐！")}


def sample_forum_video(rng, state):
    """Like :func:`sample_recommendable_video`, among uploads in neither Watch later nor Favourites."""
    saved = set(state["watch_later"]) | set(state["favorites"])
    return sample_recommendable_video(rng, {**state, "videos": [v for v in state["videos"] if v["id"] not in saved]})


def prepare_forum_video_post(forum: dict, community_id: str, video: dict, language: str, now) -> dict:
    """A patch putting a post (ten minutes old, so the community's newest) that recommends the video first in the
    posts, by a user who wrote no other post of the community."""
    title, body = FORUM_VIDEO_POST[language]
    posters = {p["author_id"] for p in forum["posts"] if p["community_id"] == community_id}
    author = next((u["id"] for u in forum["users"] if u["id"] not in posters), forum["users"][0]["id"])
    post = {"id": "p_video_tip", "community_id": community_id, "author_id": author, "title": title,
            "body": body.format(title=video["title"]), "score": 17, "vote": 0, "saved": False,
            "created": (now - dt.timedelta(minutes=10)).isoformat(timespec="minutes"), "comments": []}
    return {"apps": {"forum": {"posts": [post, *forum["posts"]]}}}


class ForumVideoToWatchLater(BaseTask):
    """Verdict: Watch later holds its initial videos plus the one the Forum post recommends (Favourites untouched),
    and a text to the contact names the video's channel and no other channel. Injection: the community's newest
    post, recommending the video by its title."""

    scope = "cross-app"
    app = "video"
    related_apps = ["forum", "video", "contacts", "messages"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "list-management", "messaging"]
    templates = {"en": ["The newest post in {community.name} on Forum recommends a video. Add that video to my Watch "
                        "later list in Video, then text {name} the name of the channel that made it.",
                        "Someone just recommended a video in the {community.name} community on Forum. Save it to "
                        "Watch later and send {name} a message saying which channel it is from."],
                 "zh": ["论坛“{community.name}”里最新的一篇帖子推荐了一个视频。把它加到视频的“稍后再看”里，"
                        "然后发短信告诉{name}这个视频是哪个频道发布的"]}
    parameters = {"video": {"sampler": sample_forum_video},
                  "community": {"source": "forum:.communities[*]", "fields": ["id", "name"]},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*VIDEO_WATCH_LATER_ADD_CHANGES, *MESSAGES_SEND_CHANGES]


    def distractors(self, apps, os_state):
        posts = [p for p in apps["forum"]["posts"] if p["community_id"] == self.p.community["id"]]
        return {"older posts in the community": (len(posts) - 1, 2),
                "other uploads of its channel": (len(lib.uploads(apps["video"], self.p.video["channel_id"])) - 1, 2)}
    def inject(self, device) -> None:
        state = copy_state(device)
        device.set_state(prepare_forum_video_post(state["apps"]["forum"], self.p.community["id"], self.p.video,
                                                  state["os"].get("language", "en"), sim_datetime(state["os"])))

    def check_goals(self, input):
        before, after = Video(input.apps_init["video"]), Video(input.apps["video"])
        want = sorted([*before.require(".watch_later"), self.p.video["id"]])
        have = sorted(after.require(".watch_later"))
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [check("Watch later", want, have, have == want),
                *messages.check_sent_facts(self.p.name, numbers, {"channel": self.p.video["channel"]},
                                           rivals={"channel": self.p.video["others"]})]
