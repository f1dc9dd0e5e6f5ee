"""Forum tasks.

Task index:
    SavePost              operate  L1  save a named post
    PostScore             query    L1  the score of a named post
    CommentCount          query    L2  how many comments a named post has
    UpvoteTopPost         operate  L2  upvote a community's top post of all time
    NewestPostAuthor      query    L2  who wrote a community's newest post
    DeleteMyComment       operate  L2  delete one of the owner's comments (confirm)
    CreatePost            operate  L2  post a title and body in a community (confirm)
    FollowNewestAuthor    operate  L3  follow the author of a community's newest post
    ReplyTopComment       operate  L3  reply to a post's most-voted comment
    BiggestJoinedCommunity query   L3  the joined community with the most members
    VoteSaveFollowedPost  operate  L4  upvote and save the newest post by someone followed
    ShareTopPostByText    operate  L3  Forum -> Contacts -> Messages: text a friend a community's top post title
    MailNewestPost        operate  L3  Forum -> Contacts -> Mail: e-mail a friend a community's newest post title
    MeetupToCalendar      operate  L4  Forum -> Calendar -> Messages: add a meetup to Calendar, text a friend its place
    FollowNewestAuthorTell operate L3  Forum -> Contacts -> Messages: follow a community's newest poster, text a friend
                                       their username
"""
from __future__ import annotations

from mobilegym.envs.forum import feed
from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, sim_datetime, copy_state
from mobilegym.envs.forum import feed
from mobilegym.judge.vocabulary import normalize_text
from mobilegym.judge.result import check

from ..calendar.app import CALENDAR_ADD_EVENT_CHANGES, Calendar
from ..contacts.app import Contacts
from ..l10n import localised
from ..mail.app import MAIL_SEND_CHANGES, Mail
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from .app import (FORUM_DELETE_COMMENT_CHANGES, FORUM_FOLLOW_CHANGES, FORUM_NEW_POST_CHANGES, FORUM_REPLY_CHANGES,
                  FORUM_SAVE_CHANGES, FORUM_TOP_VOTE_CHANGES, MEETUP_PLACES, MIN_COMMENTS, MIN_FOLLOWED_POSTERS,
                  MIN_TOP_COMMENTS, Forum, language)


def _forum_state(device) -> dict:
    return copy_state(device)["apps"]["forum"]


def _newest_distractors(apps, community_id: str) -> dict[str, tuple[int, int]]:
    """The newest-post tasks' distractors: the community's older posts (3 or more a community) and newer posts
    elsewhere (sample_newest_author never picks the app's newest)."""
    state = apps["forum"]
    newest = Forum.newest_post(state, community_id)
    return {"older posts in the community": (len(feed.community_posts(state, community_id)) - 1, 2),
            "newer posts in other communities": (sum(p["created"] > newest["created"] for p in state["posts"]), 1)}


def _top_distractors(apps, community_id: str) -> dict[str, tuple[int, int]]:
    """The top-post tasks' distractors: the community's other posts and higher-scored posts elsewhere
    (sample_community_top never picks the app's top post's community)."""
    state = apps["forum"]
    top = Forum.top_post(state, community_id)
    return {"other posts in the community": (len(feed.community_posts(state, community_id)) - 1, 2),
            "higher-scored posts in other communities": (sum(feed.score(p) > feed.score(top) for p in state["posts"]), 1)}


def _patch(device, patch) -> None:
    if patch:
        device.set_state(patch)


class SavePost(CriteriaTask):
    """Verdict: the post is saved (nothing else changed, by the diff)."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["toggle"]
    templates = {"en": ["Save the post '{post.title}' in Forum", "Bookmark the Forum post \"{post.title}\" for later"],
                 "zh": ["在论坛里收藏帖子“{post.title}”"]}
    parameters = {"post": {"sampler": Forum.sample_unsaved_post}}
    criteria = {".posts[id={post.id}].saved": True}
    expected_changes = FORUM_SAVE_CHANGES


@localised(zh={"fields": [{"label": "得分"}]})
class PostScore(AnswerTask):
    """Verdict: the answer is the post's score as shown (scores are distinct across the app)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["What is the score of the Forum post '{post.title}'?",
                        "How many points does \"{post.title}\" have in Forum?"],
                 "zh": ["论坛里帖子“{post.title}”现在有多少赞？"]}
    parameters = {"post": {"sampler": Forum.sample_unsaved_post}}
    answer = ".posts[id={post.id}].score"
    answer_fields = [{"type": "number", "label": "Score"}]


@localised(zh={"fields": [{"label": "评论数"}]})
class CommentCount(AnswerTask):
    """Verdict: the answer is the post's number of comments, replies included. Injection: a count no other post has,
    drawn from twelve (comments added or removed)."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "counting"]
    templates = {"en": ["How many comments does the Forum post '{post.title}' have, replies included?"],
                 "zh": ["论坛帖子“{post.title}”一共有多少条评论（含回复）？"]}
    parameters = {"post": {"sampler": Forum.sample_commented_post}}
    answer_fields = [{"type": "number", "label": "Comments"}]

    def inject(self, device) -> None:
        state = copy_state(device)
        _patch(device, Forum.prepare_state_with_unique_count(state["apps"]["forum"], self.p.post["id"],
                                                             state["os"].get("language", "en"),
                                                             sim_datetime(state["os"]).isoformat(timespec="minutes"),
                                                             self.spread))

    def get_answer(self, input):
        return len(Forum(input.apps_init["forum"]).post(self.p.post["id"])["comments"])


class UpvoteTopPost(CriteriaTask):
    """Verdict: the community's highest-scoring post is upvoted (a second tap undoes it; another post's vote is a
    side effect)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["sorting", "toggle"]
    templates = {"en": ["Upvote the top post of all time in {community.name} on Forum",
                        "In Forum, find the highest-scoring post in {community.name} and upvote it"],
                 "zh": ["在论坛的“{community.name}”里给得分最高的帖子点赞"]}
    parameters = {"community": {"sampler": Forum.sample_community_top}}
    criteria = {".posts[id={community.top}].vote": 1}
    expected_changes = FORUM_TOP_VOTE_CHANGES


@localised(zh={"fields": [{"label": "作者"}]})
class NewestPostAuthor(AnswerTask):
    """Verdict: the answer is the handle of the author of the community's newest post (no other community's newest
    post has that author; the handle is spread over the worlds)."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["sorting", "information-retrieval"]
    templates = {"en": ["Who wrote the newest post in {community.name} on Forum? Give their username.",
                        "In Forum, what is the username of whoever posted most recently in {community.name}?"],
                 "zh": ["论坛“{community.name}”里最新的一篇帖子是谁发的？请给出用户名。"]}
    parameters = {"community": {"sampler": Forum.sample_newest_author}}
    answer_fields = [{"type": "text", "label": "Username"}]

    def inject(self, device) -> None:
        """The author's handle is spread over the worlds (tasks/spread.py)."""
        if self.spreads:
            state = copy_state(device)
            device.set_state(Forum.prepare_state_with_spread_author(
                state["apps"]["forum"], self.p.community["id"], state["os"].get("language", "en"), self.spread))

    def get_answer(self, input):
        forum = input.apps_init["forum"]
        return feed.handle(forum, Forum.newest_post(forum, self.p.community["id"])["author_id"])


class DeleteMyComment(BaseTask):
    """Verdict: the owner's comment is gone from the post (any other comment removed is a side effect).
    Injection: the comment, when the sampler made it up."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Delete my comment \"{mine.text}\" on the Forum post '{mine.title}'"],
                 "zh": ["删除我在论坛帖子“{mine.title}”下的评论“{mine.text}”"]}
    parameters = {"mine": {"sampler": Forum.sample_my_comment}}
    expected_changes = FORUM_DELETE_COMMENT_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)
        _patch(device, Forum.prepare_state_with_my_comment(state["apps"]["forum"], self.p.mine,
                                                           sim_datetime(state["os"]).isoformat(timespec="minutes")))

    def check_goals(self, input):
        post = Forum(input.apps["forum"]).post(self.p.mine["post"])
        left = [c["text"] for c in (post["comments"] if post else []) if c["id"] == self.p.mine["id"]]
        return [check(f"comment {self.p.mine['text']!r}", "deleted", left or "deleted", post is not None and not left)]


class CreatePost(BaseTask):
    """Verdict: exactly one new post, the owner's, in the community, with the title and body (case, spaces and
    end punctuation aside)."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["form-filling", "confirmation-dialog"]
    templates = {"en": ["Create a post in {new.name} on Forum titled \"{new.title}\" with the text \"{new.body}\"",
                        "Post to {new.name} in Forum: title \"{new.title}\", body \"{new.body}\""],
                 "zh": ["在论坛的“{new.name}”发一篇帖子，标题“{new.title}”，正文“{new.body}”"]}
    parameters = {"new": {"sampler": Forum.sample_new_post}}
    expected_changes = FORUM_NEW_POST_CHANGES

    def check_goals(self, input):
        forum = Forum(input.apps["forum"])
        added = forum.new_posts(Forum(input.apps_init["forum"]))
        if len(added) != 1:
            return [check("new posts", 1, len(added), False)]
        post = added[0]
        want = {"community": self.p.new["community"], "title": normalize_text(self.p.new["title"]),
                "body": normalize_text(self.p.new["body"])}
        got = {"community": post["community_id"], "title": normalize_text(post["title"]),
               "body": normalize_text(post["body"])}
        return [check("new post", want, got, want == got)]


class FollowNewestAuthor(CriteriaTask):
    """Verdict: the owner follows the author of the community's newest post (another follow or unfollow is a side
    effect). Injection: the owner does not follow them yet."""

    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["sorting", "toggle"]
    templates = {"en": ["In Forum, follow whoever wrote the newest post in {community.name}",
                        "Find the most recent post in {community.name} on Forum and follow its author"],
                 "zh": ["在论坛里关注“{community.name}”最新一篇帖子的作者"]}
    parameters = {"community": {"sampler": Forum.sample_newest_author}}
    criteria = {".users[id={community.author}].following": True}
    expected_changes = FORUM_FOLLOW_CHANGES

    def distractors(self, apps, os_state):
        return _newest_distractors(apps, self.p.community["id"])

    def inject(self, device) -> None:
        _patch(device, {"apps": {"forum": {f"users[id={self.p.community['author']}]": {"following": False}}}})


class ReplyTopComment(BaseTask):
    """Verdict: exactly one new comment on the post: a reply to its most-voted comment with the text."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["comparison", "messaging"]
    templates = {"en": ["On the Forum post '{post.title}', reply \"{text}\" to the comment with the most points",
                        "Find the highest-voted comment under \"{post.title}\" in Forum and reply to it: \"{text}\""],
                 "zh": ["在论坛帖子“{post.title}”下，回复点赞最多的那条评论：“{text}”"]}
    parameters = {"post": {"sampler": Forum.sample_top_comment}, "text": {"sampler": Forum.sample_reply}}
    expected_changes = FORUM_REPLY_CHANGES

    def distractors(self, apps, os_state):
        comments = Forum(apps["forum"]).post(self.p.post["id"])["comments"]
        return {"other top-level comments": (sum(not c["parent"] for c in comments) - 1, MIN_TOP_COMMENTS - 1),
                "other comments": (len(comments) - 1, MIN_COMMENTS - 1)}

    def check_goals(self, input):
        return Forum(input.apps["forum"]).check_reply(Forum(input.apps_init["forum"]), self.p.post["id"],
                                                      self.p.post["comment"], self.p.post["who"], self.p.text)


@localised(zh={"fields": [{"label": "社区"}]})
class BiggestJoinedCommunity(AnswerTask):
    """Verdict: the answer is the name of the joined community with the most members (counts are distinct).
    Injection: an unjoined community is the biggest of all, so the biggest overall is never right."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["filtering", "comparison"]
    templates = {"en": ["Of the Forum communities I've joined, which one has the most members?"],
                 "zh": ["我在论坛加入的社区里，哪个成员最多？"]}
    parameters = {}
    answer_fields = [{"type": "text", "label": "Community"}]

    def distractors(self, apps, os_state):
        communities = apps["forum"]["communities"]
        best = Forum.biggest_joined(apps["forum"])
        return {"other joined communities": (sum(c["joined"] for c in communities) - 1, 1),
                "bigger communities not joined": (sum(c["members"] > best["members"] for c in communities), 1)}

    def set_up(self, device) -> None:
        _patch(device, Forum.prepare_state_with_unjoined_biggest(_forum_state(device)))

    def get_answer(self, input):
        return Forum.biggest_joined(input.apps_init["forum"])["name"]


class VoteSaveFollowedPost(BaseTask):
    """Verdict: the newest post by anyone the owner follows is upvoted and saved (no other post's vote or save
    changed). Injection: the owner follows someone who posted, no other followed author's post shows the same age
    as that one, and it is neither voted nor saved."""

    objective = "operate"
    difficulty = "L4"
    composition = "aggregate"
    capabilities = ["filtering", "comparison", "toggle"]
    templates = {"en": ["In Forum, find the most recent post by any of the people I follow, then upvote it and save it"],
                 "zh": ["在论坛里找到我关注的人发的最新一篇帖子，给它点赞并收藏"]}
    parameters = {}
    expected_changes = ["forum.posts[*].vote", "forum.posts[*].saved"]

    def distractors(self, apps, os_state):
        state = apps["forum"]
        followed = {u["id"] for u in state["users"] if u["following"]}
        target = Forum.newest_followed_post(state)
        return {"people followed who posted": (len(followed & {p["author_id"] for p in state["posts"]}),
                                               MIN_FOLLOWED_POSTERS),
                "older posts by people followed": (sum(p["author_id"] in followed for p in state["posts"]) - 1, 1),
                "newer posts by others": (sum(p["created"] > target["created"] for p in state["posts"]), 1)}

    def set_up(self, device) -> None:
        state = copy_state(device)
        _patch(device, Forum.prepare_state_with_followed_poster(state["apps"]["forum"], sim_datetime(state["os"])))

    def check_goals(self, input):
        target = Forum.newest_followed_post(input.apps_init["forum"])
        now = Forum(input.apps["forum"]).post(target["id"])
        state = {"vote": now["vote"], "saved": now["saved"]} if now else "deleted"
        changed = [p["title"] for p, q in zip(input.apps["forum"]["posts"], input.apps_init["forum"]["posts"])
                   if p["id"] != target["id"] and (p["vote"], p["saved"]) != (q["vote"], q["saved"])]
        return [check(f"post {target['title']!r}", {"vote": 1, "saved": True}, state,
                      state == {"vote": 1, "saved": True}),
                check("other posts untouched", [], changed, not changed)]


class ShareTopPostByText(BaseTask):
    """Verdict: a text to the contact (any of their numbers) holds the title of the community's top post."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["forum", "contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app-transfer", "sorting", "messaging"]
    templates = {"en": ["Text {name} the title of the top post of all time in {community.name} on Forum",
                        "Find the highest-scoring post in {community.name} on Forum and send its title to {name} "
                        "by text message"],
                 "zh": ["把论坛“{community.name}”里得分最高的帖子标题用短信发给{name}"]}
    parameters = {"community": {"sampler": Forum.sample_community_top}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def distractors(self, apps, os_state):
        return _top_distractors(apps, self.p.community["id"])

    def check_goals(self, input):
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        title = self.p.community["title"]
        others = [p["title"] for p in input.apps_init["forum"]["posts"] if p["title"] != title]
        return messages.check_sent_facts(self.p.name, numbers, {"title": title}, rivals={"title": others})


class MailNewestPost(BaseTask):
    """Verdict: one e-mail went to the contact alone, its subject or text holding the title of the community's
    newest post. Injection: the contact has an e-mail address."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["forum", "contacts", "mail"]
    composition = "sequential"
    capabilities = ["cross-app-transfer", "sorting", "messaging"]
    templates = {"en": ["E-mail {name} the title of the newest post in {community.name} on Forum",
                        "Send {name} an email with the title of the most recent post in {community.name} (Forum)"],
                 "zh": ["把论坛“{community.name}”里最新一篇帖子的标题用邮件发给{name}"]}
    parameters = {"community": {"sampler": Forum.sample_newest_author}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MAIL_SEND_CHANGES

    def distractors(self, apps, os_state):
        return _newest_distractors(apps, self.p.community["id"])

    def inject(self, device) -> None:
        contacts = copy_state(device)["apps"]["contacts"]["contacts"]
        contact = next(c for c in contacts if c["name"] == self.p.name)
        if not contact["email"]:
            local = "".join(ch for ch in contact["name"].lower() if "a" <= ch <= "z") or contact["id"].replace("_", "")
            _patch(device, {"apps": {"contacts": {f"contacts[id={contact['id']}]": {"email": f"{local}@gmail.com"}}}})

    def check_goals(self, input):
        email = Contacts(input.apps_init["contacts"]).contact(self.p.name)["email"]
        title = Forum(input.apps_init["forum"]).post(self.p.community["post"])["title"]
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        others = [p["title"] for p in input.apps_init["forum"]["posts"] if p["title"] != title]
        return [*mail.check_sent_facts(self.p.name, email, {"title": title}, rivals={"title": others}),
                mail.check_one_sent()]


class MeetupToCalendar(BaseTask):
    """Verdict: a new Calendar event with the title on the meetup's date from its start time (an hour long), and
    a text to the contact naming the meetup's place. Injection: the meetup post, in a joined community."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    scope = "cross-app"
    related_apps = ["forum", "calendar", "contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app-transfer", "date-reasoning", "form-filling", "messaging"]
    templates = {"en": ["A post in {meetup.name} on Forum announces a meetup. Add it to my Calendar as "
                        "\"{meetup.event}\" at the date and time the post gives, one hour long, then text {name} "
                        "where it takes place."],
                 "zh": ["论坛“{meetup.name}”里有一篇帖子宣布了线下聚会。把它加到日历里，标题“{meetup.event}”，按帖子里的"
                        "日期和时间，时长一小时，然后发短信告诉{name}聚会地点。"]}
    parameters = {"meetup": {"sampler": Forum.sample_meetup}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES]

    def distractors(self, apps, os_state):
        posts = apps["forum"]["posts"]
        return {"other posts in the community": (sum(p["community_id"] == self.p.meetup["community"] for p in posts) - 1, 2),
                "meetups in other communities": (sum(p["id"] == "p_meetup_rival" and p["community_id"] != self.p.meetup["community"]
                                                     for p in posts), 1)}

    def inject(self, device) -> None:
        state = copy_state(device)
        _patch(device, Forum.prepare_state_with_meetup(state["apps"]["forum"], self.p.meetup,
                                                       sim_datetime(state["os"])))

    def check_goals(self, input):
        m = self.p.meetup
        event = Calendar(input.apps["calendar"], input.apps_init["calendar"]).new_event(m["event"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [Calendar.check_event("meetup event", event, {"date": m["date"], "start": m["start"], "end": m["end"]}),
                *messages.check_sent_facts(self.p.name, numbers, {"place": m["place"]},
                                           rivals={"place": [x for x in MEETUP_PLACES[language(input.os_init)]
                                                             if x != m["place"]]})]


class FollowNewestAuthorTell(BaseTask):
    """Verdict: the author of the community's newest post is followed (nobody else followed or unfollowed, by the
    diff), and a text to the contact names their username and no other user's. Injection: the owner does not
    follow that author yet."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["forum", "contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app-transfer", "sorting", "toggle", "messaging"]
    templates = {"en": ["Follow whoever wrote the newest post in {community.name} on Forum, then text {name} their "
                        "Forum username",
                        "On Forum, find the most recent post in {community.name}, follow its author and send {name} "
                        "the author's username by text"],
                 "zh": ["在论坛关注“{community.name}”里最新一篇帖子的作者，然后把这个人的用户名用短信发给{name}"]}
    parameters = {"community": {"sampler": Forum.sample_newest_author}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*FORUM_FOLLOW_CHANGES, *MESSAGES_SEND_CHANGES]

    def distractors(self, apps, os_state):
        return _newest_distractors(apps, self.p.community["id"])

    def inject(self, device) -> None:
        _patch(device, {"apps": {"forum": {f"users[id={self.p.community['author']}]": {"following": False}}}})

    def check_goals(self, input):
        author = self.p.community["author"]
        user = next(u for u in input.apps["forum"]["users"] if u["id"] == author)
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        others = [u["handle"] for u in input.apps_init["forum"]["users"] if u["id"] != author]
        return [check(f"following {self.p.community['handle']}", True, user["following"], user["following"] is True),
                *messages.check_sent_facts(self.p.name, numbers, {"username": self.p.community["handle"]},
                                           rivals={"username": others})]
