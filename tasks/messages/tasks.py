"""Messages tasks.

Task index:
    SendMessageToContact        operate  L2  text a contact a given message
    SendToNewNumber             operate  L2  text a number that has no conversation yet
    DeleteConversation          operate  L2  delete the conversation with a contact (confirm dialog)
    ShareTrackingNumber         operate  L3  text a contact the parcel number from a delivery text
    ReadVerificationCode        query    L1  the latest bank verification code
    CountUnreadConversations    query    L1  how many conversations have unread messages
    FindSenderByKeyword         query    L2  which contact wrote about a topic (search)
    UnreadContacts              query    L3  which saved contacts have unread texts
    DeleteUnknownSenders        hybrid   L4  delete every conversation with an unsaved number and count them
    TextNextBirthday            operate  L3  cross-app: text the contact with the next birthday
    AnswerLastWatchedQuestion   operate  L3  cross-app: answer a contact's text asking for the video watched last
    MeetupTransitReplyAlarm     operate  L4  cross-app: Messages -> Maps -> Clock -> Messages: reply to a friend's
                                             meet-up text with the transit time to their place, set an alarm to
                                             leave in time (high risk)
"""
from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any, Mapping

from mobilegym.judge import AnswerTask, BaseTask, build_answer_checks, copy_state
from mobilegym.judge.result import check

from mobilegym.envs.maps import geo

from ..clock.app import CLOCK_ADD_ALARM_CHANGES, check_alarm_added, minus_minutes
from ..contacts.app import Contacts
from ..l10n import localised
from ..maps.app import MAPS_RECENT_CHANGES, Maps, minutes_text, prepare_state_with_incoming
from ..video.app import Video
from .app import (MIN_UNREAD_UNKNOWN, MESSAGES_DELETE_CHANGES, MESSAGES_DELETE_MANY_CHANGES, MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES,
                  Messages)


class SendMessageToContact(BaseTask):
    """Verdict: a text with exactly that wording (case, spacing and end punctuation aside) went to one of
    the contact's numbers."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["messaging"]
    templates = {"en": ["Text {name}: \"{text}\"", "Send {name} a message saying \"{text}\""],
                 "zh": ["给{name}发短信：“{text}”", "发短信告诉{name}：“{text}”"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}, "text": {"sampler": Messages.sample_short_text}}
    expected_changes = MESSAGES_SEND_CHANGES

    def check_goals(self, input):
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [messages.check_sent(self.p.name, numbers, self.p.text, lambda t: Messages.same_text(self.p.text, t))]


class SendToNewNumber(BaseTask):
    """Verdict: a text with that wording went to the number (formatting aside), which had no conversation."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["messaging", "form-filling"]
    templates = {"en": ["Send \"{text}\" to {number}", "Text the number {number}: \"{text}\""],
                 "zh": ["给号码 {number} 发短信：“{text}”", "发短信“{text}”到 {number}"]}
    parameters = {"number": {"sampler": Messages.sample_new_number}, "text": {"sampler": Messages.sample_short_text}}
    expected_changes = MESSAGES_SEND_CHANGES

    def check_goals(self, input):
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [messages.check_sent(self.p.number, [self.p.number], self.p.text,
                                    lambda t: Messages.same_text(self.p.text, t))]


class DeleteConversation(BaseTask):
    """Verdict: no conversation with the contact's numbers remains, and every other one does.
    Injection: a short conversation with the contact is added when there is none."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Delete my conversation with {name}", "Remove the whole message thread with {name}"],
                 "zh": ["删除和{name}的短信对话"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_DELETE_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)
        phones = Contacts(state["apps"]["contacts"]).contact(self.p.name)["phones"]
        messages = Messages(state["apps"]["messages"])
        if all(messages.conversation_for(p["number"]) is None for p in phones):
            device.set_state(Messages.prepare_state_with_conversation(phones[0]["number"], state["os"]["time_ms"],
                                                                      state["os"].get("language", "en")))

    def check_goals(self, input):
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        before = Messages(input.apps_init["messages"])
        others = [c["id"] for c in before.conversations() if c not in [before.conversation_for(n) for n in numbers]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [messages.check_deleted(self.p.name, numbers), messages.check_kept(others)]


class ShareTrackingNumber(BaseTask):
    """Verdict: what was texted to the contact states the parcel number from the delivery text, and no other
    code or number the Messages app shows (a verification code, a sender's number)."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "messaging"]
    templates = {"en": ["My parcel is out for delivery. Text {name} its tracking number",
                        "Send {name} the tracking number of the parcel that's being delivered today"],
                 "zh": ["我的包裹正在派送，把它的单号发短信告诉{name}"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*MESSAGES_SEND_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        known = Messages(apps["messages"])
        return {"other codes not to send": (sum(c != known.tracking_number() for c in known.codes()), 1)}

    def check_goals(self, input):
        known = Messages(input.apps_init["messages"])
        tracking = known.tracking_number()
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, numbers, {"tracking number": tracking},
                                         rivals={"tracking number": [c for c in known.codes() if c != tracking]})


@localised(zh={"fields": [{"label": "验证码", "hint": "例如 123456"}]})
class ReadVerificationCode(AnswerTask):
    """Verdict: the answer is the code of the service's newest verification text (an older code, or another
    service's, is wrong)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["What's the latest verification code {service} texted me?",
                        "Tell me the most recent verification code I received by text from {service}"],
                 "zh": ["{service}最近发给我的验证码是多少？"]}
    parameters = {"service": {"sampler": Messages.sample_code_service}}
    answer = staticmethod(lambda task, apps_init: Messages(apps_init["messages"]).verification_code(task.p.service))
    answer_fields = [{"type": "text", "label": "Verification code", "hint": "e.g. 123456"}]
    expected_changes = MESSAGES_READ_CHANGES


@localised(zh={"fields": [{"label": "有未读信息的对话数"}]})
class CountUnreadConversations(AnswerTask):
    """Verdict: the answer is the number of conversations with unread messages (not of unread messages)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many of my conversations have unread messages?",
                        "Count the message threads I haven't read yet"],
                 "zh": ["有几个对话里有未读信息？"]}
    answer = staticmethod(lambda task, apps_init: len(Messages(apps_init["messages"]).unread_conversations()))
    answer_fields = [{"type": "number", "label": "Conversations with unread messages"}]
    expected_changes = MESSAGES_READ_CHANGES


@localised(zh={"fields": [{"label": "联系人姓名", "hint": "例如 张伟"}]})
class FindSenderByKeyword(AnswerTask):
    """Verdict: the answer is the name of the contact in the one conversation that mentions the topic."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["Which of my contacts did I text with about '{topic}'? Tell me their name",
                        "Someone in my contacts messaged about '{topic}'. Who was it?"],
                 "zh": ["我和哪个联系人在短信里聊过“{topic}”？告诉我名字"]}
    parameters = {"topic": {"sampler": Messages.sample_topic}}
    answer_fields = [{"type": "text", "label": "Contact name", "hint": "e.g. Jane Doe"}]
    expected_changes = MESSAGES_READ_CHANGES

    def get_answer(self, input):
        address = Messages(input.apps_init["messages"]).conversation_about(self.p.topic)["address"]
        owner = Contacts(input.apps_init["contacts"]).owner_of(address)
        if owner is None:
            raise ValueError(f"the conversation about {self.p.topic!r} is not with a contact")
        return owner["name"]


@localised(zh={"fields": [{"label": "联系人姓名", "hint": "每项填一个名字"}]})
class UnreadContacts(AnswerTask):
    """Verdict: the answer lists exactly the saved contacts with unread conversations (any order);
    unread texts from unsaved numbers do not count. Injection: an unsaved number's unread text when none is unread."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["filtering", "cross-reference"]
    templates = {"en": ["Which of my saved contacts have sent me texts I haven't read yet? List their names",
                        "List the contacts (not unknown numbers) whose messages are still unread"],
                 "zh": ["哪些已保存的联系人给我发了还没读的短信？列出他们的名字"]}
    answer_fields = [{"type": "text", "label": "Contact names", "hint": "one name per entry", "repeatable": True,
                      "compare": "set"}]
    expected_changes = MESSAGES_READ_CHANGES

    def set_up(self, device) -> None:
        patch = Messages.prepare_state_with_unread_unknown(copy_state(device), self.rng)
        if patch is not None:
            device.set_state(patch)

    def distractors(self, apps, os_state):
        contacts = Contacts(apps["contacts"])
        owners = [contacts.owner_of(c["address"]) for c in Messages(apps["messages"]).unread_conversations()]
        return {"contacts with unread texts": (sum(o is not None for o in owners), 2),
                "unread texts from unsaved numbers": (sum(o is None for o in owners), MIN_UNREAD_UNKNOWN)}

    def get_answer(self, input):
        contacts = Contacts(input.apps_init["contacts"])
        owners = [contacts.owner_of(c["address"]) for c in Messages(input.apps_init["messages"]).unread_conversations()]
        return sorted(o["name"] for o in owners if o is not None)

    def get_expected_response(self, input):
        return [self.get_answer(input)]


@localised(zh={"fields": [{"label": "删除的对话数"}]})
class DeleteUnknownSenders(BaseTask):
    """Verdict: every conversation whose number is not a saved contact's is gone, every contact's
    conversation remains, and the answer is how many were deleted."""

    objective = "hybrid"
    difficulty = "L4"
    high_risk = True
    composition = "aggregate"
    capabilities = ["filtering", "deletion", "counting"]
    templates = {"en": ["Delete every conversation with a number that isn't saved in my contacts, "
                        "then tell me how many you deleted",
                        "Clean up my messages: remove all threads from numbers that aren't my contacts "
                        "and tell me how many there were"],
                 "zh": ["删除所有来自未保存号码的短信对话，然后告诉我删了几个"]}
    expected_changes = MESSAGES_DELETE_MANY_CHANGES
    answer_fields = [{"type": "number", "label": "Conversations deleted"}]

    def distractors(self, apps, os_state):
        contacts, conversations = Contacts(apps["contacts"]), Messages(apps["messages"]).conversations()
        unknown = sum(contacts.owner_of(c["address"]) is None for c in conversations)
        return {"unknown senders to delete": (unknown, 2), "contacts' conversations to keep": (len(conversations) - unknown, 2)}

    def check_goals(self, input):
        contacts = Contacts(input.apps_init["contacts"])
        before = Messages(input.apps_init["messages"]).conversations()
        unknown = [c for c in before if contacts.owner_of(c["address"]) is None]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        present = {c["id"] for c in messages.conversations()}
        left = sorted(c["address"] for c in unknown if c["id"] in present)
        return [check("unknown senders deleted", sorted(c["address"] for c in unknown), left or "all deleted", not left),
                messages.check_kept([c["id"] for c in before if c not in unknown]),
                *build_answer_checks(len(unknown), input.answer, field="deleted")]


class TextNextBirthday(BaseTask):
    """Verdict: the greeting (exact wording, punctuation aside) went to the contact with the next birthday."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["messages", "contacts"]
    composition = "sequential"
    capabilities = ["cross-app", "date-reasoning", "messaging"]
    templates = {"en": ["Find out whose birthday is coming up next in my contacts (a birthday today counts) and text "
                        "them \"{greeting}\"",
                        "Send \"{greeting}\" to whichever of my contacts has the next birthday, counting from today"],
                 "zh": ["看看通讯录里谁下一个过生日（今天过生日也算），给他发短信“{greeting}”"]}
    parameters = {"greeting": {"sampler": Messages.sample_greeting}}
    expected_changes = MESSAGES_SEND_CHANGES

    def distractors(self, apps, os_state):
        return {"other contacts with a birthday": (sum(bool(c["birthday"]) for c in Contacts(apps["contacts"]).contacts()) - 1, 2)}

    def check_goals(self, input):
        person = Contacts(input.apps_init["contacts"]).next_birthday(input.os_init)
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [messages.check_sent(person["name"], [p["number"] for p in person["phones"]], self.p.greeting,
                                    lambda t: Messages.same_text(self.p.greeting, t))]


LAST_WATCHED_QUESTION_ID = "msg_last_watched_q"
REWORDED = re.compile(r"\b(Rain|Snow|Thunderstorm|Shower)\b|\d")  # words a reply may fairly reword; digits
LAST_WATCHED_QUESTION = {"en": "Hey! What was the last video you watched? I need something good for tonight",
                         "zh": "嘿！你最近看的最后一个视频是哪个？我今晚想找点好看的"}


def plain_last_watched(video: dict) -> dict | None:
    """A patch making the newest history entry a video whose title has no digit and no weather word (the newest
    such entry is watched again a minute after the current newest), or None when it is one."""
    history = video["history"]
    titles = {v["id"]: v["title"] for v in video["videos"]}
    plain = [h for h in history if not REWORDED.search(titles[h["video_id"]])]
    if not plain or plain[0] is history[0]:
        return None
    when = (dt.datetime.fromisoformat(history[0]["watched_at"]) + dt.timedelta(minutes=1)).isoformat(timespec="minutes")
    return {"apps": {"video": {"history": [{**plain[0], "watched_at": when}, *(h for h in history if h is not plain[0])]}}}


class AnswerLastWatchedQuestion(BaseTask):
    """Verdict: a text to the contact names the video at the top of the Video history and no other title of the
    history. Injection: the contact's first number asks (unread, a minute ago) which video the owner watched
    last; that video's title has no digit and no weather word a reply may reword (the newest such entry moves to the top)."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    app = "messages"
    related_apps = ["messages", "contacts", "video"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "messaging"]
    templates = {"en": ["{name} sent me a question by text. Look up the answer in the Video app and reply to them.",
                        "Answer {name}'s latest text message; the Video app has what they ask about"],
                 "zh": ["{name}发短信问了我一个问题。去视频应用里查到答案，然后回复他"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*MESSAGES_SEND_CHANGES, *MESSAGES_READ_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        plain = plain_last_watched(state["apps"]["video"])
        if plain:
            device.set_state(plain)
        number = Contacts(state["apps"]["contacts"]).contact(self.p.name)["phones"][0]["number"]
        message = {"id": LAST_WATCHED_QUESTION_ID, "incoming": True, "time_ms": state["os"]["time_ms"] - 60 * 1000,
                   "text": LAST_WATCHED_QUESTION[state["os"].get("language", "en")]}
        conv = Messages(state["apps"]["messages"]).conversation_for(number)
        if conv is None:
            patch = {"conversations[]": {"id": "conv_last_watched_q", "address": number, "unread": 1,
                                         "messages": [message]}}
        else:
            patch = {f"conversations[id={conv['id']}]": {"messages[]": message, "unread": conv["unread"] + 1}}
        device.set_state({"apps": {"messages": patch}})

    def distractors(self, apps, os_state):
        video = Video(apps["video"])
        titles = {video.video(h["video_id"])["title"] for h in video.history()}
        return {"other watched titles not to name": (len(titles) - 1, 2)}

    def check_goals(self, input):
        video = Video(input.apps_init["video"])
        titles = [video.video(h["video_id"])["title"] for h in video.history()]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, numbers, {"video": titles[0]},
                                         rivals={"video": [t for t in titles if t != titles[0]]})


MEETUP_ASKS = {"en": "Want to meet at {place} tomorrow at {time}? How long does it take you to get there by transit?",
               "zh": "明天{time}在{place}见面好吗？你坐公交过去要多久？"}


def sample_meetup_time(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
    """{hhmm, said}: a meeting time tomorrow between 10:00 and 19:30 on the half hour, and how the text says it
    ("6:30 pm" / "18:30")."""
    start = rng.randrange(20, 40) * 30
    hour, minute = divmod(start, 60)
    hhmm = f"{hour:02d}:{minute:02d}"
    said = hhmm if os_state.get("language") == "zh" else f"{(hour - 1) % 12 + 1}:{minute:02d} {'pm' if hour >= 12 else 'am'}"
    return {"hhmm": hhmm, "said": said}


class MeetupTransitReplyAlarm(BaseTask):
    """Verdict: a text to the contact states the transit time from your location to the place they named (no other
    mode's time), and Clock has one more enabled alarm at the meeting time less that transit time.
    Injection: the contact's first number asked an hour ago (unread) to meet at a Maps place tomorrow at a time, and
    how long transit takes; the place's transit time is at least 2 minutes from every other mode's."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    scope = "cross-app"
    app = "maps"
    related_apps = ["messages", "maps", "clock", "contacts"]
    composition = "sequential"
    capabilities = ["cross-app-transfer", "time-arithmetic", "messaging", "form-filling"]
    templates = {"en": ["{name} texted me about meeting up. Look up in Maps how long transit takes from my "
                        "location to the place they named, reply with the minutes, and set a Clock alarm for when I "
                        "have to leave to get there right at the time they said.",
                        "Answer {name}'s text about meeting up: tell them how many minutes transit takes me "
                        "from where I am (Maps knows), and set an alarm in Clock for the moment I must set off to "
                        "arrive exactly on time."],
                 "zh": ["{name}发短信约我见面。用地图查从我的位置坐公交到他说的地点要多少分钟，回复他，再在时钟里设一个闹钟，"
                        "时间是为了正好在约定时间到达我必须出发的时刻。"]}
    parameters = {"place": {"sampler": Maps.sample_transit_target}, "time": {"sampler": sample_meetup_time},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*MESSAGES_SEND_CHANGES, *MESSAGES_READ_CHANGES, *CLOCK_ADD_ALARM_CHANGES, *MAPS_RECENT_CHANGES]

    def inject(self, device) -> None:
        state = copy_state(device)
        number = Contacts(state["apps"]["contacts"]).contact(self.p.name)["phones"][0]["number"]
        text = MEETUP_ASKS[state["os"].get("language", "en")].format(place=self.p.place["name"], time=self.p.time["said"])
        device.set_state(prepare_state_with_incoming(state["apps"]["messages"], number, text, state["os"]["time_ms"]))

    def distractors(self, apps, os_state):
        trip = geo.route(apps["maps"], geo.HERE, self.p.place["id"])["minutes"]
        return {"other modes' times not to send": (sum(m != "transit" for m in trip), 2),
                "alarms already set": (len(apps["clock"]["alarms"]), 1)}

    def check_goals(self, input):
        lang = "zh" if self.language == "zh" else "en"
        trip = geo.route(input.apps_init["maps"], geo.HERE, self.p.place["id"])["minutes"]
        rivals = [minutes_text(trip[m], lang) for m in geo.MODES if m != "transit" and trip[m] < 60]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        hour, minute = minus_minutes(self.p.time["hhmm"], trip["transit"])
        return [*messages.check_sent_facts(self.p.name, numbers, {"time": minutes_text(trip["transit"], lang)},
                                           rivals={"time": rivals}, os_state=input.os_init),
                check_alarm_added(input.apps_init["clock"], input.apps["clock"], hour, minute, "alarm at the time to leave")]
