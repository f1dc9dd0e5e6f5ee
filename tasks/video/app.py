"""Accessor for the Video app's state: videos, channels, history and lists; samplers and injections."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.envs.video import library as lib
from mobilegym.envs.video import world
from mobilegym.sim.worldgen.pools import read_pool
from mobilegym.judge import BaseApp, sim_datetime

VIDEO_REACTION_CHANGES = ["video.videos[id={video.id}].reaction"]
VIDEO_SUBSCRIBE_CHANGES = ["video.channels[id={video.channel_id}].subscribed"]
VIDEO_UNSUBSCRIBE_CHANGES = ["video.channels[*].subscribed"]
VIDEO_HISTORY_REMOVE_CHANGES = ["video.history[-id={entry.id}]"]
VIDEO_COMMENT_CHANGES = ["video.videos[id={video.id}].comments[+]"]
VIDEO_WATCH_LATER_ADD_CHANGES = ["video.watch_later[+]"]
VIDEO_WATCH_LATER_REMOVE_CHANGES = ["video.watch_later[-*]"]
VIEWS_MARGIN = 1.15  # the most viewed video has at least 15% more views than the next
LENGTH_MARGIN_S = 30  # the longest video runs at least 30 s longer than the next
STALE_MARGIN_DAYS = 5  # no subscribed channel's newest upload is this close to the "N days" line
STALE_DAYS = (14, 30, 60, 90, 180)
BIGGEST_MARGIN = 1.2  # the biggest subscribed channel has 20% more subscribers than the next
COMMENTS = {
    "en": ("Thanks for explaining this so clearly!", "Great video, looking forward to the next one.",
           "This helped me a lot, thank you.", "Loved the part about the history of it.",
           "Could you make a follow-up on this topic?"),
    "zh": ("讲得太清楚了，谢谢！", "好视频，期待下一期。", "帮了我大忙，感谢。", "很喜欢里面讲历史的部分。", "能出一期续集吗？"),
}
MIN_LATER_WATCHED, MIN_LATER_UNWATCHED = 2, 2  # PruneWatchedFromLater's distractors, each way
MIN_STALE = 2  # UnsubscribeStale: subscribed channels past the line, at least (prepare_state_with_stale_split)
MIN_RIVAL_STREAMS = 1  # LiveStreamEvent: other channels' live streams, at least (prepare_state_with_rival_stream)


class Video(BaseApp):
    """The videos, channels, watch history, Watch later and Favourites."""

    def video(self, video_id: str) -> dict[str, Any]:
        return self.find(".videos", id=video_id)

    def history(self) -> list[dict[str, Any]]:
        return list(self.require(".history"))

    def subscribed(self) -> list[str]:
        """The ids of the subscribed channels, in channel order."""
        return [c["id"] for c in self.require(".channels") if c["subscribed"]]

    def new_comments(self, init: "Video", video_id: str) -> list[str]:
        """The texts of the comments posted on a video since the start."""
        before = {c["id"] for c in init.video(video_id)["comments"]}
        return [c["text"] for c in self.video(video_id)["comments"] if c["id"] not in before]

    # --- helpers shared by samplers and checks ---------------------------------------------------------------

    @staticmethod
    def _unique_title(state: dict[str, Any], item: dict[str, Any]) -> bool:
        return sum(v["title"] == item["title"] for v in state["videos"]) == 1

    @staticmethod
    def most_viewed(state: dict[str, Any], channel_id: str) -> dict[str, Any] | None:
        """The channel's most viewed upload, None unless it leads the next by VIEWS_MARGIN."""
        ranked = sorted(lib.uploads(state, channel_id), key=lambda v: -v["views"])
        if len(ranked) < 3 or ranked[0]["views"] < ranked[1]["views"] * VIEWS_MARGIN:
            return None
        return ranked[0]

    @staticmethod
    def longest(state: dict[str, Any], channel_id: str) -> dict[str, Any] | None:
        """The channel's longest upload, None unless it runs LENGTH_MARGIN_S longer than the next."""
        ranked = sorted(lib.uploads(state, channel_id), key=lambda v: -v["duration_s"])
        if len(ranked) < 3 or ranked[0]["duration_s"] - ranked[1]["duration_s"] < LENGTH_MARGIN_S:
            return None
        return ranked[0]

    @staticmethod
    def latest_upload_age_days(state: dict[str, Any], channel_id: str, now: dt.datetime) -> float:
        newest = lib.uploads(state, channel_id)[0]
        return (now - dt.datetime.fromisoformat(newest["uploaded"])).total_seconds() / 86400

    # --- samplers --------------------------------------------------------------------------------------------

    @staticmethod
    def _pick(rng: random.Random, videos: list[dict[str, Any]], what: str) -> dict[str, str]:
        if not videos:
            raise ValueError(f"video: no {what}")
        chosen = rng.choice(videos)
        return {"id": chosen["id"], "title": chosen["title"], "channel_id": chosen["channel_id"]}

    @staticmethod
    def sample_unliked_video(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        return Video._pick(rng, [v for v in lib.uploads(state) if not v["reaction"] and Video._unique_title(state, v)],
                           "upload without a reaction")

    @staticmethod
    def sample_video_of_unsubscribed(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An upload whose channel the owner does not subscribe to."""
        off = {c["id"] for c in state["channels"] if not c["subscribed"]}
        return Video._pick(rng, [v for v in lib.uploads(state) if v["channel_id"] in off], "video of an unsubscribed channel")

    @staticmethod
    def sample_comment(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        return rng.choice(COMMENTS[os_state.get("language", "en")])

    @staticmethod
    def sample_history_entry(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A history entry (not the newest, so the top row is not the answer by position), as {id, title}."""
        entries = state["history"][1:]
        if not entries:
            raise ValueError("video: the history has fewer than two videos")
        entry = rng.choice(entries)
        return {"id": entry["id"], "video_id": entry["video_id"], "title": lib.video(state, entry["video_id"])["title"]}

    @staticmethod
    def sample_channel_most_viewed(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A channel whose most viewed upload is clear, not liked yet and not its newest, as {id, name, video}."""
        pool = []
        for c in state["channels"]:
            top = Video.most_viewed(state, c["id"])
            if top is not None and not top["reaction"] and top["id"] != lib.uploads(state, c["id"])[0]["id"]:
                pool.append({"id": c["id"], "name": c["name"], "video": top["id"], "title": top["title"]})
        if not pool:
            raise ValueError("video: no channel has a clear most viewed video")
        return rng.choice(pool)

    @staticmethod
    def sample_channel_longest(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A channel whose longest upload is clear, in neither list and not its newest (a newer upload is listed
        above it), as {id, name, video, title}."""
        saved = set(state["watch_later"]) | set(state["favorites"])
        pool = []
        for c in state["channels"]:
            top = Video.longest(state, c["id"])
            if top is not None and top["id"] not in saved and top["id"] != lib.uploads(state, c["id"])[0]["id"]:
                pool.append({"id": c["id"], "name": c["name"], "video": top["id"], "title": top["title"]})
        if not pool:
            raise ValueError("video: no channel has a clear longest video")
        return rng.choice(pool)

    @staticmethod
    def sample_channel_latest(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """A channel with at least three uploads and not the newest one of all (another channel's upload is newer),
        its newest one as {id, name, video, title, others}."""
        newest = lib.uploads(state)[0]["channel_id"]
        pool = [c for c in state["channels"] if len(lib.uploads(state, c["id"])) >= 3 and c["id"] != newest]
        chosen = rng.choice(pool)
        uploads = lib.uploads(state, chosen["id"])
        return {"id": chosen["id"], "name": chosen["name"], "video": uploads[0]["id"], "title": uploads[0]["title"],
                "others": [v["title"] for v in uploads[1:]]}

    @staticmethod
    def sample_not_saved(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An upload in neither list."""
        saved = set(state["watch_later"]) | set(state["favorites"])
        return Video._pick(rng, [v for v in lib.uploads(state) if v["id"] not in saved and Video._unique_title(state, v)],
                           "unsaved video")

    @staticmethod
    def sample_live_stream(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An upcoming live stream of a channel with only that one, as {id, title, channel, live_at}."""
        counts = [v["channel_id"] for v in lib.live_streams(state)]
        pool = [v for v in lib.live_streams(state) if counts.count(v["channel_id"]) == 1]
        if not pool:
            raise ValueError("video: no upcoming live stream")
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "title": chosen["title"], "channel": lib.channel(state, chosen["channel_id"])["name"],
                "live_at": chosen["live_at"]}

    @staticmethod
    def sample_stale_days(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> int:
        """A number of days (STALE_DAYS: two weeks, one to six months, as the app's "2 months ago" counts) that
        splits the subscribed channels: some posted nothing in that many days, some did, and no channel's newest
        upload is within STALE_MARGIN_DAYS of the line (so "4 weeks ago" never decides it); preferring two or
        more stale. When no count does, 60 (:meth:`prepare_state_with_stale_split` then moves uploads)."""
        now = sim_datetime(os_state)
        ages = [Video.latest_upload_age_days(state, c["id"], now) for c in state["channels"] if c["subscribed"]]
        good, fallback = [], []
        for days in STALE_DAYS:
            stale = sum(a > days for a in ages)
            if 0 < stale < len(ages) and all(abs(a - days) > STALE_MARGIN_DAYS for a in ages):
                (good if stale >= 2 else fallback).append(days)
        return rng.choice(good or fallback or [60])

    @staticmethod
    def prepare_state_with_stale_split(state: dict[str, Any], days: int, now: dt.datetime) -> dict[str, Any] | None:
        """A patch making ``days`` split the subscribed channels clearly, or None when it does: uploads of a
        channel whose newest is near the line move 2 x STALE_MARGIN_DAYS + 1 days earlier; while fewer than
        MIN_STALE are stale, every upload of the first fresh one moves that many days more; when none is fresh, an
        upload of the last one nobody watched is made three days old."""
        subscribed = [c["id"] for c in state["channels"] if c["subscribed"]]
        moved: dict[str, dt.datetime] = {v["id"]: dt.datetime.fromisoformat(v["uploaded"]) for v in lib.uploads(state)}
        by_channel = {c: [v["id"] for v in lib.uploads(state, c)] for c in subscribed}

        def age(channel_id: str) -> float:
            return (now - max(moved[v] for v in by_channel[channel_id])).total_seconds() / 86400

        def shift(channel_id: str, by_days: int) -> None:
            for v in by_channel[channel_id]:
                moved[v] -= dt.timedelta(days=by_days)

        for c in subscribed:
            if abs(age(c) - days) <= STALE_MARGIN_DAYS:
                shift(c, 2 * STALE_MARGIN_DAYS + 1)
        while sum(age(c) > days for c in subscribed) < MIN_STALE:
            shift(next(c for c in subscribed if age(c) <= days), days + 2 * STALE_MARGIN_DAYS + 1)
        if all(age(c) > days for c in subscribed):
            watched = {h["video_id"] for h in state["history"]}
            fresh = next(v for v in by_channel[subscribed[-1]] if v not in watched)
            moved[fresh] = now - dt.timedelta(days=3, minutes=17)
        patch = {f"videos[id={v}]": {"uploaded": t.isoformat(timespec="minutes")} for v, t in moved.items()
                 if t.isoformat(timespec="minutes") != lib.video(state, v)["uploaded"]}
        return {"apps": {"video": patch}} if patch else None

    # --- injections -------------------------------------------------------------------------------------------

    @staticmethod
    def prepare_state_with_lists_apart(state: dict[str, Any]) -> dict[str, Any] | None:
        """A patch adding an unsaved upload to Watch later when both lists hold as many videos, or None."""
        if len(state["watch_later"]) != len(state["favorites"]):
            return None
        saved = set(state["watch_later"]) | set(state["favorites"])
        extra = next(v["id"] for v in lib.uploads(state) if v["id"] not in saved)
        return {"apps": {"video": {"watch_later": [extra, *state["watch_later"]]}}}

    @staticmethod
    def prepare_state_with_clear_biggest(state: dict[str, Any], rng: random.Random | None) -> dict[str, Any] | None:
        """A patch making a subscribed channel drawn uniformly the biggest (so the answer spreads over the
        channel pool, tasks/spread.py), with 30% more subscribers than the next when it does not lead by
        BIGGEST_MARGIN (so abbreviated counts tell them apart), and an unsubscribed channel bigger still (30% more,
        the trap) when none is; None when it holds already."""
        subscribed = sorted((c for c in state["channels"] if c["subscribed"]), key=lambda c: c["id"])
        if len(subscribed) < 2:
            return None
        chosen = rng.choice(subscribed) if rng else max(subscribed, key=lambda c: c["subscribers"])  # None: the biggest
        rival = max((c["subscribers"] for c in subscribed if c["id"] != chosen["id"]))
        patch, biggest = {}, chosen["subscribers"]
        if biggest < rival * BIGGEST_MARGIN:
            biggest = rival * 13 // 10
            patch[f"channels[id={chosen['id']}]"] = {"subscribers": biggest}
        others = [c for c in state["channels"] if not c["subscribed"]]
        if others and all(c["subscribers"] <= biggest for c in others):
            trap = max(others, key=lambda c: c["subscribers"])
            patch[f"channels[id={trap['id']}]"] = {"subscribers": biggest * 13 // 10}
        return {"apps": {"video": patch}} if patch else None

    @staticmethod
    def prepare_state_with_rival_stream(state: dict[str, Any], stream_id: str, language: str,
                                        now: dt.datetime) -> dict[str, Any] | None:
        """A patch adding an upcoming live stream (its pool title, a day after ``stream_id``'s, an hour later) of
        another channel until MIN_RIVAL_STREAMS other channels' streams are upcoming; None when they are."""
        stream = lib.video(state, stream_id)
        streams = lib.live_streams(state)
        if sum(v["channel_id"] != stream["channel_id"] for v in streams) >= MIN_RIVAL_STREAMS:
            return None
        titles = {e["name"]: e["live"] for e in read_pool(world.PACKAGE, "pools", language)["channels"]}
        taken = {v["title"] for v in state["videos"]}
        channel = next(c for c in state["channels"] if c["id"] != stream["channel_id"]
                       and titles.get(c["name"]) not in taken | {None})
        start = dt.datetime.fromisoformat(stream["live_at"]) + dt.timedelta(days=1, hours=1)
        rival = {**stream, "id": "v_live_rival", "title": titles[channel["name"]], "channel_id": channel["id"],
                 "comment_count": 12, "comments": [], "live_at": start.isoformat(timespec="minutes"),
                 "uploaded": (now - dt.timedelta(hours=3, minutes=11)).isoformat(timespec="minutes")}
        return {"apps": {"video": {"videos[]": rival}}}

    @staticmethod
    def prepare_state_with_watched_in_watch_later(state: dict[str, Any], unwatched: int | None = None
                                                  ) -> dict[str, Any] | None:
        """A patch making Watch later hold at least MIN_LATER_WATCHED watched videos (in the history) and at least
        MIN_LATER_UNWATCHED unwatched ones (exactly ``unwatched`` when given, and the uploads allow), adding videos
        to its front or dropping unwatched ones when needed; None when it does."""
        watched = [h["video_id"] for h in state["history"]]
        later = list(state["watch_later"])
        spare = [v for v in watched if v not in state["favorites"] and v not in later]
        while sum(v in watched for v in later) < MIN_LATER_WATCHED and spare:
            later.insert(0, spare.pop(0))
        saved = set(watched) | set(state["favorites"]) | set(later)
        fresh = [v["id"] for v in lib.uploads(state) if v["id"] not in saved]
        want = max(MIN_LATER_UNWATCHED, unwatched or 0)
        while sum(v not in watched for v in later) < want and fresh:
            later.insert(0, fresh.pop(0))
        while unwatched is not None and sum(v not in watched for v in later) > want:
            later.remove(next(v for v in reversed(later) if v not in watched))
        return None if later == state["watch_later"] else {"apps": {"video": {"watch_later": later}}}

    @staticmethod
    def prepare_state_with_plain_last_watched(state: dict[str, Any]) -> dict[str, Any] | None:
        """A patch making the newest history entry a video whose title has no digit (the newest such entry is
        watched again a minute after the current newest), or None when it is one. A title with digits takes
        hedges such as "<title>, Level 3, unit 30" that no other title rivals."""
        history = state["history"]
        plain = [h for h in history if not any(ch.isdigit() for ch in lib.video(state, h["video_id"])["title"])]
        if not plain or plain[0] is history[0]:
            return None
        when = (dt.datetime.fromisoformat(history[0]["watched_at"]) + dt.timedelta(minutes=1)).isoformat(timespec="minutes")
        moved = {**plain[0], "watched_at": when}
        return {"apps": {"video": {"history": [moved, *(h for h in history if h is not plain[0])]}}}

    @staticmethod
    def recommendation_text(title: str, language: str) -> str:
        if language == "zh":
            return f"强烈推荐你看看这个视频：“{title}”，一定要看！"
        return f"You have to watch this video: \"{title}\". Trust me!"
