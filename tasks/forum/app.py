"""Accessor for the Forum app's state: posts, comments, communities and people; samplers and injections."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.calendar_words import MONTH_ABBRS as MONTH_ABBR, WEEKDAY_ABBRS as WEEKDAYS, WEEKDAY_CHARS as WEEKDAYS_ZH
from mobilegym.envs.forum import feed
from mobilegym.envs.forum.world import ME, pools
from mobilegym.judge import BaseApp, sim_today
from mobilegym.judge.vocabulary import normalize_text
from mobilegym.judge.result import check

FORUM_SAVE_CHANGES = ["forum.posts[id={post.id}].saved"]
FORUM_TOP_VOTE_CHANGES = ["forum.posts[id={community.top}].vote"]
FORUM_FOLLOW_CHANGES = ["forum.users[id={community.author}].following"]
FORUM_REPLY_CHANGES = ["forum.posts[id={post.id}].comments[+]"]
FORUM_DELETE_COMMENT_CHANGES = ["forum.posts[id={mine.post}].comments[-]"]
FORUM_NEW_POST_CHANGES = ["forum.posts[+]"]
FORUM_VOTE_SAVE_CHANGES = ["forum.posts[id={post.id}].vote", "forum.posts[id={post.id}].saved"]
# texts tasks ask to write, in the phone's language
REPLIES = {"en": ("Thanks, this helped a lot!", "Great point, I had not thought of that.", "Agreed, well said.",
                  "Could you share where you found this?"),
           "zh": ("谢谢，帮了大忙！", "说得好，我之前没想到。", "同意，说得太对了。", "能说说你是在哪里看到的吗？")}
MY_COMMENTS = {"en": ("I might try this next weekend.", "Following for updates.", "Did anyone else notice this?"),
               "zh": ("下周末我也想试试。", "蹲一个后续。", "还有人注意到这个吗？")}
NEW_POSTS = {"en": (("Looking for a weekend buddy", "Anyone nearby free on Saturday mornings?"),
                    ("What got you started?", "Curious how everyone here got into it."),
                    ("Small win today", "Finally stuck with it for a whole month."),
                    ("Beginner question about gear", "What is the one thing you wish you had bought first?")),
             "zh": (("找周末搭子", "附近有人周六上午有空吗？"), ("大家是怎么入坑的", "好奇大家当初是怎么开始的。"),
                    ("今天的小成就", "终于坚持了整整一个月。"), ("新手装备求问", "你最希望自己一开始就买的是哪样东西？"))}


MEETUP_PLACES = {"en": ("Riverside Park north gate", "Maple Street Library", "Harbor Cafe on 5th Street",
                         "Old Mill Brewery patio"),
                 "zh": ("滨江公园北门", "枫叶路图书馆", "港口咖啡馆", "老磨坊创意园")}
MEETUP_TIMES = ("09:30", "10:00", "14:00", "16:30", "18:30", "19:00")
MIN_TOP_COMMENTS, MIN_COMMENTS = 2, 3  # ReplyTopComment: top-level comments and comments on the post, at least
RIVAL_MEETUP = {"en": "Next meetup: save the date", "zh": "下次聚会，记得来"}  # MeetupToCalendar's other community's meetup
MIN_FOLLOWED_POSTERS = 2  # VoteSaveFollowedPost: people followed who posted, at least (prepare_state_with_followed_poster)


def language(os_state: Mapping[str, Any]) -> str:
    return os_state.get("language", "en")


class Forum(BaseApp):
    """Posts with their comment threads, communities and the people the owner follows."""

    def posts(self) -> list[dict[str, Any]]:
        return self.require(".posts")

    def post(self, post_id: str) -> dict[str, Any] | None:
        return next((p for p in self.posts() if p["id"] == post_id), None)

    def new_posts(self, init: "Forum") -> list[dict[str, Any]]:
        """Posts made since the start."""
        before = {p["id"] for p in init.posts()}
        return [p for p in self.posts() if p["id"] not in before]

    def new_comments(self, init: "Forum", post_id: str) -> list[dict[str, Any]]:
        """Comments added to a post since the start."""
        old = init.post(post_id)
        before = {c["id"] for c in old["comments"]} if old else set()
        now = self.post(post_id)
        return [c for c in now["comments"] if c["id"] not in before] if now else []

    # --- checks --------------------------------------------------------------------------------------

    def check_reply(self, init: "Forum", post_id: str, parent_id: str, parent_who: str, text: str) -> list[dict]:
        """Exactly one new comment on the post: the owner's reply to ``parent_id`` saying ``text`` (case, spaces
        and end punctuation aside)."""
        added = self.new_comments(init, post_id)
        if len(added) != 1:
            return [check("new comments", 1, len(added), False)]
        reply = added[0]
        parent = next((c for c in self.post(post_id)["comments"] if c["id"] == reply["parent"]), None)
        to = feed.handle(self.state, parent["author_id"]) + f" ({parent['id']})" if parent else "the post itself"
        return [check("reply to", f"{parent_who} ({parent_id})", to, reply["parent"] == parent_id),
                check("reply text", text, reply["text"], normalize_text(reply["text"]) == normalize_text(text))]

    # --- samplers ------------------------------------------------------------------------------------

    @staticmethod
    def sample_unsaved_post(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        chosen = rng.choice([p for p in state["posts"] if not p["saved"]])
        return {"id": chosen["id"], "title": chosen["title"]}

    @staticmethod
    def sample_commented_post(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """A post with comments (see :meth:`prepare_state_with_unique_count`)."""
        chosen = rng.choice([p for p in state["posts"] if p["comments"]])
        return {"id": chosen["id"], "title": chosen["title"]}

    @staticmethod
    def top_post(state: dict[str, Any], community_id: str) -> dict[str, Any]:
        """The community's post with the highest score (scores are distinct)."""
        return max(feed.community_posts(state, community_id), key=feed.score)

    @staticmethod
    def newest_post(state: dict[str, Any], community_id: str) -> dict[str, Any]:
        return max(feed.community_posts(state, community_id), key=lambda p: p["created"])

    @staticmethod
    def sample_community_top(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A community and its top post (the highest score), as {id, name, top, title}; never the community of
        the app's top post (so another community has a higher-scored post)."""
        def pick(c: dict[str, Any]) -> dict[str, str]:
            top = Forum.top_post(state, c["id"])
            return {"id": c["id"], "name": c["name"], "top": top["id"], "title": top["title"]}

        best = max(state["posts"], key=feed.score)["community_id"]
        return rng.choice([pick(c) for c in state["communities"] if feed.community_posts(state, c["id"]) and c["id"] != best])

    @staticmethod
    def sample_newest_author(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A community whose newest post is by another user, who wrote no other community's newest post, and is
        not the app's newest post (so another community has a newer one), as {id, name, author, handle, post}."""
        newest = {c["id"]: Forum.newest_post(state, c["id"]) for c in state["communities"]
                  if feed.community_posts(state, c["id"])}
        authors = [p["author_id"] for p in newest.values()]
        latest = max(state["posts"], key=lambda p: p["created"])
        pool = [(cid, p) for cid, p in newest.items()
                if p["author_id"] != ME and authors.count(p["author_id"]) == 1 and p is not latest]
        if not pool:
            raise ValueError("forum: no community's newest post has an author of its own")
        cid, p = rng.choice(pool)
        return {"id": cid, "name": feed.community(state, cid)["name"], "author": p["author_id"],
                "handle": feed.handle(state, p["author_id"]), "post": p["id"]}

    @staticmethod
    def sample_top_comment(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A post with MIN_TOP_COMMENTS or more top-level comments (and MIN_COMMENTS comments) whose most-voted
        comment is a top-level one by another user, as {id, title, comment, who}."""
        pool = []
        for p in state["posts"]:
            if sum(not c["parent"] for c in p["comments"]) >= MIN_TOP_COMMENTS and len(p["comments"]) >= MIN_COMMENTS:
                best = max(p["comments"], key=feed.score)
                if not best["parent"] and best["author_id"] != ME:
                    pool.append({"id": p["id"], "title": p["title"], "comment": best["id"],
                                 "who": feed.handle(state, best["author_id"])})
        if not pool:
            raise ValueError("forum: no post has a top-level comment with the most votes")
        return rng.choice(pool)

    @staticmethod
    def sample_reply(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        return rng.choice(REPLIES[language(os_state)])

    @staticmethod
    def sample_my_comment(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, Any]:
        """One of the owner's comments without replies, as {post, title, id, text, new}: an existing one, or
        (``new``) one :meth:`prepare_state_with_my_comment` adds to a post where no comment says the same."""
        mine = [(p, c) for p in state["posts"] for c in p["comments"]
                if c["author_id"] == ME and not any(r["parent"] == c["id"] for r in p["comments"])
                and sum(x["text"] == c["text"] for x in p["comments"]) == 1]
        if mine and rng.randrange(2) == 0:
            p, c = rng.choice(mine)
            return {"post": p["id"], "title": p["title"], "id": c["id"], "text": c["text"], "new": False}
        p = rng.choice(state["posts"])
        pool = MY_COMMENTS[language(os_state)]
        text = rng.choice([t for t in pool if all(c["text"] != t for c in p["comments"])])
        # an id of this draw's own (post and text): deleting another draw's made-up comment is not this one
        return {"post": p["id"], "title": p["title"], "id": f"cm_mine_{p['id']}_{pool.index(text)}", "text": text,
                "new": True}

    @staticmethod
    def sample_new_post(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A community and a title and body no post has, as {community, name, title, body}."""
        c = rng.choice(state["communities"])
        titles = {p["title"] for p in state["posts"]}
        title, body = rng.choice([x for x in NEW_POSTS[language(os_state)] if x[0] not in titles])
        return {"community": c["id"], "name": c["name"], "title": title, "body": body}

    @staticmethod
    def biggest_joined(state: dict[str, Any]) -> dict[str, Any]:
        return max((c for c in state["communities"] if c["joined"]), key=lambda c: c["members"])

    @staticmethod
    def newest_followed_post(state: dict[str, Any]) -> dict[str, Any] | None:
        """The newest post by a user the owner follows, or None."""
        followed = {u["id"] for u in state["users"] if u["following"]}
        return max((p for p in state["posts"] if p["author_id"] in followed), key=lambda p: p["created"], default=None)

    @staticmethod
    def _meetup_body(lang: str, day: dt.date, start: str, place: str) -> str:
        """A meetup post's body naming its date, time and place."""
        hour, minute = map(int, start.split(":"))
        if lang == "zh":
            when = f"{day.month}月{day.day}日（周{WEEKDAYS_ZH[day.weekday()]}） {start}"
            return f"时间：{when}。地点：{place}。欢迎大家来玩，不用报名。"
        clock = f"{(hour - 1) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"
        when = f"{WEEKDAYS[day.weekday()]}, {MONTH_ABBR[day.month - 1]} {day.day} at {clock}"
        return f"We're meeting on {when} at {place}. Everyone is welcome, no sign-up needed."

    @staticmethod
    def sample_meetup(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, Any]:
        """A meetup :meth:`prepare_state_with_meetup` announces in a joined community, 2 to 9 days ahead, as
        {community, name, author, title, body, event, date, start, end, place, rival}; ``rival`` is another
        community's meetup at another date, time and place: {community, author, title, body, place}."""
        lang = language(os_state)
        c = rng.choice([c for c in state["communities"] if c["joined"]])
        day = sim_today(os_state) + dt.timedelta(days=rng.randint(2, 9))
        start = rng.choice(MEETUP_TIMES)
        hour, minute = map(int, start.split(":"))
        place = rng.choice(MEETUP_PLACES[lang])
        title = "线下聚会，一起来！" if lang == "zh" else "Meetup: come say hi!"
        event = f"{c['name']}聚会" if lang == "zh" else f"{c['name']} meetup"
        other = rng.choice([o for o in state["communities"] if o["id"] != c["id"]])
        rival_place = rng.choice([x for x in MEETUP_PLACES[lang] if x != place])
        rival_day = day + dt.timedelta(days=rng.randint(1, 5))
        rival_body = Forum._meetup_body(lang, rival_day, rng.choice([t for t in MEETUP_TIMES if t != start]), rival_place)
        return {"community": c["id"], "name": c["name"], "author": rng.choice(state["users"])["id"], "title": title,
                "body": Forum._meetup_body(lang, day, start, place), "event": event, "date": day.isoformat(),
                "start": start, "end": f"{hour + 1:02d}:{minute:02d}", "place": place,
                "rival": {"community": other["id"], "author": rng.choice(state["users"])["id"],
                          "title": RIVAL_MEETUP[lang], "body": rival_body, "place": rival_place}}

    # --- injections ----------------------------------------------------------------------------------

    @staticmethod
    def prepare_state_with_meetup(state: dict[str, Any], meetup: Mapping[str, Any], now: dt.datetime) -> dict[str, Any]:
        """A patch putting the meetup post (made two hours ago) first in the posts, and the rival meetup's post
        (RIVAL_MEETUP, made five hours ago, at a minute and score no post has) in its place by time."""
        post = {"id": "p_meetup", "community_id": meetup["community"], "author_id": meetup["author"],
                "title": meetup["title"], "body": meetup["body"], "score": 23, "vote": 0, "saved": False,
                "created": (now - dt.timedelta(hours=2)).isoformat(timespec="minutes"), "comments": []}
        posts = [post, *state["posts"]]
        rival = meetup.get("rival")
        if rival:
            taken = {p["created"] for p in posts}
            when = next(m for m in (now - dt.timedelta(minutes=300 + k) for k in range(60))
                        if m.isoformat(timespec="minutes") not in taken).isoformat(timespec="minutes")
            scores = {p["score"] for p in posts}
            posts.append({"id": "p_meetup_rival", "community_id": rival["community"], "author_id": rival["author"],
                          "title": rival["title"], "body": rival["body"],
                          "score": next(n for n in range(31, 999) if n not in scores), "vote": 0, "saved": False,
                          "created": when, "comments": []})
            posts.sort(key=lambda p: p["created"], reverse=True)
        return {"apps": {"forum": {"posts": posts}}}

    @staticmethod
    def prepare_state_with_unique_count(state: dict[str, Any], post_id: str, language: str, now: str,
                                        spread: Any) -> dict[str, Any] | None:
        """A patch giving the post a comment count drawn uniformly from the first twelve counts from one up that
        no other post has (tasks/spread.py): top-level comments by other users (pool texts) are added, or
        comments no reply hangs from removed. None when the post has that count already."""
        from ..spread import COUNT_SPAN

        post = feed.post(state, post_id)
        others = {len(p["comments"]) for p in state["posts"] if p["id"] != post_id}
        free = [n for n in range(1, 1000) if n not in others][:COUNT_SPAN]
        target, rng = spread.choice(free), spread.rng  # spread: the task's Spread (tasks/spread.py)
        comments = list(post["comments"])
        while len(comments) > target:
            parents = {c["parent"] for c in comments}
            comments.remove(rng.choice([c for c in comments if c["id"] not in parents]))
        texts = [t for t in pools(language)["comments"] if all(c["text"] != t for c in comments)]
        users = [u["id"] for u in state["users"]]
        n = 0
        while len(comments) < target:
            comments.append({"id": f"cm_task_{n + 1}", "parent": "", "author_id": users[n % len(users)],
                             "text": texts[n % len(texts)], "score": n, "vote": 0, "created": now})
            n += 1
        if comments == post["comments"]:
            return None
        return {"apps": {"forum": {f"posts[id={post_id}]": {"comments": comments}}}}

    @staticmethod
    def prepare_state_with_spread_author(state: dict[str, Any], community_id: str, language: str,
                                         spread: Any) -> dict[str, Any]:
        """A patch making the community's newest post the work of a handle drawn over the worlds from the whole
        handle pool (tasks/spread.py): that user (added when the world has none) wrote no other community's
        newest post, whose author is handed to a user who wrote none."""
        users = [dict(u) for u in state["users"]]
        handle = spread.choice(sorted(pools(language)["handles"]))
        user = next((u for u in users if u["handle"] == handle), None)
        if user is None:
            user = {"id": f"u_{1 + max(int(u['id'][2:]) for u in users)}", "handle": handle,
                    "bio": spread.rng.choice(pools(language)["bios"]), "followers": spread.rng.randint(3, 9000),
                    "following": False}
            users.append(user)
        newest = {c["id"]: Forum.newest_post(state, c["id"]) for c in state["communities"]
                  if feed.community_posts(state, c["id"])}
        taken = {p["author_id"] for p in newest.values()} | {ME, user["id"]}
        idle = sorted(u["id"] for u in users if u["id"] not in taken)
        authors = {newest[community_id]["id"]: user["id"]}
        for cid, post in newest.items():
            if cid != community_id and post["author_id"] == user["id"]:
                authors[post["id"]] = idle.pop(spread.rng.randrange(len(idle)))
        posts = [{**p, "author_id": authors[p["id"]]} if p["id"] in authors else p for p in state["posts"]]
        return {"apps": {"forum": {"users": users, "posts": posts}}}

    @staticmethod
    def prepare_state_with_my_comment(state: dict[str, Any], mine: Mapping[str, Any], now: str) -> dict[str, Any] | None:
        """A patch adding the sampled comment of the owner to its post when it is ``new``."""
        if not mine["new"]:
            return None
        post = feed.post(state, mine["post"])
        comment = {"id": mine["id"], "parent": "", "author_id": ME, "text": mine["text"], "score": 2, "vote": 0,
                   "created": now}
        return {"apps": {"forum": {f"posts[id={post['id']}]": {"comments": [*post["comments"], comment]}}}}

    @staticmethod
    def prepare_state_with_unjoined_biggest(state: dict[str, Any]) -> dict[str, Any] | None:
        """A patch making an unjoined community the biggest of all when a joined one is (so the biggest overall
        is never the answer about the joined ones), or None."""
        biggest = max(state["communities"], key=lambda c: c["members"])
        if not biggest["joined"]:
            return None
        other = max((c for c in state["communities"] if not c["joined"]), key=lambda c: c["members"])
        return {"apps": {"forum": {f"communities[id={other['id']}]": {"members": biggest["members"] + 1234}}}}

    @staticmethod
    def prepare_state_with_followed_poster(state: dict[str, Any], now: dt.datetime) -> dict[str, Any] | None:
        """A patch making the owner follow at least MIN_FOLLOWED_POSTERS people who posted (following those whose
        newest post is oldest), the newest followed post not the newest post of others (its author unfollowed
        when it is), no other followed author's post showing the same age as it (so the ages on screen tell
        it; they are unfollowed), and that post neither voted nor saved."""
        following = {u["id"]: u["following"] for u in state["users"]}
        latest: dict[str, str] = {}
        for p in state["posts"]:
            if p["author_id"] != ME:
                latest[p["author_id"]] = max(latest.get(p["author_id"], ""), p["created"])
        dropped: set[str] = set()
        for _ in range(2 * len(following) + 2):
            posts = sorted((p for p in state["posts"] if following.get(p["author_id"])), key=lambda p: p["created"],
                           reverse=True)
            posters = {p["author_id"] for p in posts}
            if len(posters) < MIN_FOLLOWED_POSTERS:
                spare = [a for a in latest if not following[a] and a not in dropped]
                following[min(spare, key=latest.get)] = True
                continue
            target = posts[0]
            if latest[target["author_id"]] == max(latest.values()):
                following[target["author_id"]] = False
                dropped.add(target["author_id"])
                continue
            shown = feed.age("en", target, now)
            clash = {p["author_id"] for p in posts[1:]
                     if p["author_id"] != target["author_id"] and feed.age("en", p, now) == shown}
            if not clash:
                break
            for a in clash:
                following[a] = False
            dropped |= clash
        else:
            raise ValueError("forum: no newest followed post the ages on screen tell apart")
        patch: dict[str, Any] = {f"users[id={u['id']}]": {"following": following[u["id"]]} for u in state["users"]
                                 if following[u["id"]] != u["following"]}
        patch[f"posts[id={target['id']}]"] = {"vote": 0, "saved": False}
        return {"apps": {"forum": patch}}
