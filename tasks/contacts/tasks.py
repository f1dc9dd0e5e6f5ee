"""Contacts tasks.

Task index:
    AddContact             operate  L2  save a new contact with a mobile number
    FavoriteContact        operate  L1  star a contact
    UpdateContactEmail     operate  L2  change a contact's email address
    AddSecondNumber        operate  L3  add a second phone line, keeping the first
    DeleteContact          operate  L2  delete a contact (confirm dialog)
    CallContactNumber      operate  L2  call a contact on a specific line
    ContactPhoneNumber     query    L1  a contact's number of a type
    ContactBirthday        query    L1  a contact's date of birth
    CountFavorites         query    L1  how many favourites there are
    NextBirthday           query    L2  whose birthday comes next
    FavoriteEmailDomain    hybrid   L4  star everyone at an email domain and count them
    SaveSenderAsContact    operate  L3  cross-app: save a texter's new number as a contact
    CallMessageSender      operate  L3  cross-app: call back the contact who asked for a call
    FavoriteLatestSender   operate  L3  cross-app: star the contact who texted most recently
    SendContactNumber      operate  L3  cross-app: text one contact another's mobile number
    SaveForumFriendAndFollow operate L3  cross-app: save the number a Forum user texted under their username, follow them
    SaveChatIntroAndText   operate  L3  cross-app: Chat -> Contacts -> Messages: save the person a friend introduced in
                                        Chat with the number given there, and text them a welcome
"""
from __future__ import annotations

import random

from mobilegym.envs.contacts.numbers import new_number
from mobilegym.envs.forum.world import ME
from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks, copy_state
from mobilegym.judge.result import check

from ..chat.app import CHAT_READ_CHANGES, HOUR_MS, Chat, free_time
from ..l10n import localised
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages
from .app import (CONTACTS_ADD_CHANGES, CONTACTS_ADD_NUMBER_CHANGES, CONTACTS_CALL_CHANGES, CONTACTS_DELETE_CHANGES,
                  CONTACTS_FAVORITE_CHANGES, Contacts)


class AddContact(BaseTask):
    """Verdict: a new contact with that name has the number saved as a mobile number (any formatting)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling"]
    templates = {"en": ["Save a new contact: {person.name}, mobile number {person.number}",
                        "Add {person.name} to my contacts with the mobile number {person.number}"],
                 "zh": ["新建联系人：{person.name}，手机号码 {person.number}"]}
    parameters = {"person": {"sampler": Contacts.sample_new_person, "fields": ["name", "number"]}}
    expected_changes = CONTACTS_ADD_CHANGES

    def check_goals(self, input):
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        return [contacts.check_new_contact(self.p.person["name"], self.p.person["number"], "mobile")]


class FavoriteContact(CriteriaTask):
    """Verdict: the contact is a favourite. The sampler only picks contacts who are not yet."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["toggle"]
    templates = {"en": ["Add {name} to my favourite contacts", "Star {name} in my contacts"],
                 "zh": ["把{name}加入收藏联系人"]}
    parameters = {"name": {"sampler": Contacts.sample_non_favorite}}
    criteria = {".contacts[name={name}].favorite": True}


class UpdateContactEmail(CriteriaTask):
    """Verdict: the contact's email is exactly the new address."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["editing", "form-filling"]
    templates = {"en": ["Change {change.name}'s email address to {change.email}",
                        "{change.name} has a new email, {change.email}; update their contact"],
                 "zh": ["把{change.name}的邮箱改成 {change.email}"]}
    parameters = {"change": {"sampler": Contacts.sample_email_change, "fields": ["name", "email"]}}
    criteria = {".contacts[name={change.name}].email": "{change.email}"}


@localised(zh={"labels": {"line.type": {"mobile": "手机", "work": "工作", "home": "住宅"}}})
class AddSecondNumber(BaseTask):
    """Verdict: the contact has the new number with the requested type, and still has its old number."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["editing", "form-filling"]
    templates = {"en": ["Add {line.number} to {line.name}'s contact as their {line.type} number, "
                        "keeping the number I already have",
                        "{line.name} gave me a {line.type} number, {line.number}. "
                        "Add it to their contact without removing the existing one"],
                 "zh": ["给{line.name}添加一个{line.type}号码 {line.number}，保留原来的号码",
                        "{line.name}给了我一个{line.type}号码 {line.number}，把它加到联系人里，原来的号码不要删"]}
    parameters = {"line": {"sampler": Contacts.sample_second_line, "fields": ["name", "type", "number"]}}
    expected_changes = CONTACTS_ADD_NUMBER_CHANGES

    def distractors(self, apps, os_state):
        return {"existing numbers to keep": (len(Contacts(apps["contacts"]).contact(self.p.line["name"])["phones"]), 1)}

    def check_goals(self, input):
        before = Contacts(input.apps_init["contacts"]).contact(self.p.line["name"])
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        new = {"type": self.p.line["type"], "number": self.p.line["number"]}
        return [contacts.check_phones("new number added", before["id"], [new]),
                contacts.check_phones("existing numbers kept", before["id"], before["phones"])]


class DeleteContact(BaseTask):
    """Verdict: the contact is gone and every other contact is still there."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Delete {name} from my contacts", "Remove the contact {name} from my phone"],
                 "zh": ["从通讯录中删除{name}"]}
    parameters = {"name": {"source": ".contacts[*].name"}}
    expected_changes = CONTACTS_DELETE_CHANGES

    def check_goals(self, input):
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        target = Contacts(input.apps_init["contacts"]).contact(self.p.name)
        others = [c["id"] for c in Contacts(input.apps_init["contacts"]).contacts() if c["id"] != target["id"]]
        gone = contacts.by_id(target["id"]) is None
        return [check(f"{self.p.name} deleted", "deleted", "deleted" if gone else "still there", gone),
                contacts.check_kept(others)]


@localised(zh={"labels": {"line.type": {"mobile": "手机", "work": "工作", "home": "住宅"}}})
class CallContactNumber(BaseTask):
    """Verdict: the last call placed went to that line. The sampler picks a line that is not the contact's
    first number, so the card's Call button (first number) is a wrong call."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["calling"]
    templates = {"en": ["Call {line.name} on their {line.type} number", "Phone {line.name}'s {line.type} line"],
                 "zh": ["拨打{line.name}的{line.type}号码", "打{line.name}的{line.type}电话"]}
    parameters = {"line": {"sampler": Contacts.sample_other_line, "fields": ["name", "type"]}}
    expected_changes = CONTACTS_CALL_CHANGES

    def check_goals(self, input):
        number = Contacts(input.apps_init["contacts"]).phone_number(self.p.line["name"], self.p.line["type"])
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        return [contacts.check_last_call(number, f"{self.p.line['name']} ({self.p.line['type']})")]


@localised(zh={"labels": {"lookup.type": {"mobile": "手机", "work": "工作", "home": "住宅"}},
               "fields": [{"label": "电话号码", "hint": "例如 138 0013 8000"}]})
class ContactPhoneNumber(AnswerTask):
    """Verdict: the answer writes the number (digits compared; spacing, dashes, the country code or a trunk 0
    are free) and no other number, so listing every number does not pass."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["What is {lookup.name}'s {lookup.type} number?", "Tell me {lookup.name}'s {lookup.type} phone number"],
                 "zh": ["{lookup.name}的{lookup.type}号码是多少？", "告诉我{lookup.name}的{lookup.type}号码"]}
    parameters = {"lookup": {"sampler": Contacts.sample_phone_lookup, "fields": ["name", "type"]}}
    answer_fields = [{"type": "text", "label": "Phone number", "hint": "e.g. +1 415-555-0100"}]

    def get_answer(self, input):
        return Contacts(input.apps_init["contacts"]).phone_number(self.p.lookup["name"], self.p.lookup["type"])


@localised(zh={"fields": [{"label": "生日", "hint": "例如 1990年5月3日"}]})
class ContactBirthday(AnswerTask):
    """Verdict: the answer names the contact's birthday (month and day; the year may be given)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["When is {name}'s birthday?", "What's {name}'s date of birth?"],
                 "zh": ["{name}的生日是哪天？", "{name}是哪天出生的？"]}
    parameters = {"name": {"sampler": Contacts.sample_birthday_person}}
    answer_fields = [{"type": "text", "label": "Birthday", "hint": "e.g. May 3, 1990", "matcher": "date"}]

    def get_answer(self, input):
        return Contacts(input.apps_init["contacts"]).birthday(self.p.name)


@localised(zh={"fields": [{"label": "收藏的联系人数"}]})
class CountFavorites(AnswerTask):
    """Verdict: the answer is the number of favourite contacts."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many contacts are in my favourites?", "Count my favourite contacts"],
                 "zh": ["我收藏了几个联系人？"]}
    answer = staticmethod(lambda task, apps_init: len(Contacts(apps_init["contacts"]).favorite_names()))
    answer_fields = [{"type": "number", "label": "Favourite contacts"}]


@localised(zh={"fields": [{"label": "联系人姓名", "hint": "例如 张伟"}]})
class NextBirthday(AnswerTask):
    """Verdict: the answer names the contact whose birthday comes soonest after the phone's date."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["date-reasoning", "comparison"]
    templates = {"en": ["Whose birthday is coming up next among my contacts? A birthday today counts.",
                        "Which of my contacts has the next birthday, counting from today?"],
                 "zh": ["通讯录里下一个过生日的是谁？今天过生日也算。"]}
    answer_fields = [{"type": "text", "label": "Contact name", "hint": "e.g. Jane Doe"}]

    def get_answer(self, input):
        return Contacts(input.apps_init["contacts"]).next_birthday(input.os_init)["name"]


@localised(zh={"fields": [{"label": "邮箱为 @{domain} 的联系人数"}]})
class FavoriteEmailDomain(BaseTask):
    """Verdict: every contact with an address at the domain is a favourite, no other favourite changed,
    and the answer is how many contacts have such an address (those already starred included)."""

    objective = "hybrid"
    difficulty = "L4"
    composition = "aggregate"
    capabilities = ["search", "toggle", "counting"]
    templates = {"en": ["Make sure every contact with an @{domain} email address is in my favourites, "
                        "and tell me how many such contacts I have",
                        "Star all my contacts whose email ends in @{domain}, then tell me how many of them there are"],
                 "zh": ["把所有邮箱是 @{domain} 的联系人都加入收藏，并告诉我一共有几个这样的联系人"]}
    parameters = {"domain": {"sampler": Contacts.sample_shared_domain}}
    expected_changes = CONTACTS_FAVORITE_CHANGES
    answer_fields = [{"type": "number", "label": "Contacts at @{domain}"}]

    def distractors(self, apps, os_state):
        contacts = Contacts(apps["contacts"])
        at = contacts.with_email_domain(self.p.domain)
        return {f"contacts at @{self.p.domain}": (len(at), 2),
                "contacts at another domain": (sum("@" in c["email"] and c not in at for c in contacts.contacts()), 1)}

    def check_goals(self, input):
        names = [c["name"] for c in Contacts(input.apps_init["contacts"]).with_email_domain(self.p.domain)]
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        unstarred = sorted(c["name"] for c in contacts.with_email_domain(self.p.domain) if not c["favorite"])
        return [check(f"@{self.p.domain} contacts starred", sorted(names), unstarred or "all starred", not unstarred),
                contacts.check_favorites_only_changed_for(names),
                *build_answer_checks(len(names), input.answer, field="count")]


class SaveSenderAsContact(BaseTask):
    """Verdict: a new contact named after the texter holds the number their message came from."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    related_apps = ["contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "form-filling"]
    templates = {"en": ["{name} texted me from a new number. Save that number in my contacts under the name {name}",
                        "Add the number {name} just texted me from to my contacts, named {name}"],
                 "zh": ["{name}用新号码给我发了短信，把这个号码以{name}的名字存进通讯录"]}
    app = "messages"  # the name is sampled from the texts: a new number that introduced itself
    parameters = {"name": {"sampler": Messages.sample_introduced_sender}}
    expected_changes = [*CONTACTS_ADD_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        number = Messages(apps["messages"]).sender_of(self.p.name)
        return {"other senders to rule out": (_other_senders(apps, [number]), 2)}

    def check_goals(self, input):
        number = Messages(input.apps_init["messages"]).sender_of(self.p.name)
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        return [contacts.check_new_contact(self.p.name, number)]


class CallMessageSender(BaseTask):
    """Verdict: the last call placed went to the number of the contact whose text asks for a call
    ("Call me ..."); the dentist's "call us to reschedule" is not from a contact."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    related_apps = ["contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "calling"]
    templates = {"en": ["One of my contacts texted asking me to call them. Call them back on the number they texted from",
                        "Somebody in my contacts asked by text for a call; please ring them on that number"],
                 "zh": ["有个联系人发短信让我给他回电话，用他发短信的那个号码打回去"]}
    expected_changes = [*CONTACTS_CALL_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        number = Messages(apps["messages"]).call_request_sender()
        return {"other senders to rule out": (_other_senders(apps, [number]), 2)}

    def check_goals(self, input):
        number = Messages(input.apps_init["messages"]).call_request_sender()
        owner = Contacts(input.apps_init["contacts"]).owner_of(number)
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        return [contacts.check_last_call(number, owner["name"] if owner else number)]


class FavoriteLatestSender(BaseTask):
    """Verdict: the contact behind the most recent incoming text from a saved number is a favourite, and
    no other favourite changed (the newest texts come from unsaved numbers, so they must be skipped).
    Injection: that contact is made a non-favourite first when they are one."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    related_apps = ["contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app", "comparison", "toggle"]
    templates = {"en": ["Add whichever of my contacts texted me most recently to my favourites",
                        "Star the saved contact who sent me the latest text message"],
                 "zh": ["把最近给我发短信的联系人加入收藏"]}
    expected_changes = [*CONTACTS_FAVORITE_CHANGES, *MESSAGES_READ_CHANGES]

    def inject(self, device) -> None:
        """The latest sender is not a favourite yet (else there would be nothing to do)."""
        state = copy_state(device)
        known = Contacts(state["apps"]["contacts"])
        address = Messages(state["apps"]["messages"]).latest_sender(lambda a: known.owner_of(a) is not None)
        target = known.owner_of(address)
        if target["favorite"]:
            device.set_state({"apps": {"contacts": {f"contacts[id={target['id']}]": {"favorite": False}}}})

    def distractors(self, apps, os_state):
        known, messages = Contacts(apps["contacts"]), Messages(apps["messages"])
        address = messages.latest_sender(lambda a: known.owner_of(a) is not None)
        last = max(m["time_ms"] for m in messages.conversation_for(address)["messages"] if m["incoming"])
        return {"newer texts from unsaved numbers": (sum(m["incoming"] and m["time_ms"] > last and known.owner_of(c["address"]) is None
                                                         for c in messages.conversations() for m in c["messages"]), 1),
                "other contacts who texted": (sum(known.owner_of(c["address"]) is not None and c["address"] != address
                                                  for c in messages.conversations()), 2)}

    def check_goals(self, input):
        known = Contacts(input.apps_init["contacts"])
        address = Messages(input.apps_init["messages"]).latest_sender(lambda a: known.owner_of(a) is not None)
        target = known.owner_of(address)
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        now = contacts.by_id(target["id"])
        starred = now is not None and now["favorite"]
        return [check(f"{target['name']} starred", True, now["favorite"] if now else "contact deleted", starred),
                contacts.check_favorites_only_changed_for([target["name"]])]


class SendContactNumber(BaseTask):
    """Verdict: what was texted to the recipient states the subject's mobile number (any grouping, country
    prefix optional) and no other phone number."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "messaging"]
    templates = {"en": ["Text {share.recipient} {share.subject}'s mobile number",
                        "{share.recipient} needs {share.subject}'s mobile number; send it to them by text message"],
                 "zh": ["把{share.subject}的手机号码发短信告诉{share.recipient}"]}
    parameters = {"share": {"sampler": Contacts.sample_number_share, "fields": ["recipient", "subject"]}}
    expected_changes = MESSAGES_SEND_CHANGES

    def distractors(self, apps, os_state):
        mobiles = [c for c in Contacts(apps["contacts"]).contacts() if any(p["type"] == "mobile" for p in c["phones"])]
        return {"other contacts' mobile numbers": (len(mobiles) - 1, 2)}

    def check_goals(self, input):
        known = Contacts(input.apps_init["contacts"])
        number = known.phone_number(self.p.share["subject"], "mobile")
        recipient = [p["number"] for p in known.contact(self.p.share["recipient"])["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.share["recipient"], recipient, {"mobile number": number})


def _other_senders(apps, numbers: list[str]) -> int:
    """How many conversations come from other numbers than ``numbers`` (the senders to tell apart)."""
    return sum(c["address"] not in numbers for c in Messages(apps["messages"]).conversations())


FORUM_FRIEND_ID = "msg_forum_friend"
FORUM_FRIEND_TEXT = {"en": "Hi! It's {handle} from the {community} community on Forum. Here's my number, let's keep "
                           "in touch!",
                     "zh": "你好！我是论坛“{community}”社区的{handle}，这是我的号码，保持联系！"}


def sample_forum_friend(rng, state):
    """A user (not the owner) with a post, and the community of one of their posts, as {id, handle, community}."""
    posts = [p for p in state["posts"] if p["author_id"] != ME]
    post = rng.choice(posts)
    user = next(u for u in state["users"] if u["id"] == post["author_id"])
    community = next(c for c in state["communities"] if c["id"] == post["community_id"])
    return {"id": user["id"], "handle": user["handle"], "community": community["name"]}


def forum_friend_number(messages: dict) -> str:
    """The number the Forum friend's text came from (the injected message)."""
    return next(c["address"] for c in messages["conversations"] if any(m["id"] == FORUM_FRIEND_ID for m in c["messages"]))


class SaveForumFriendAndFollow(BaseTask):
    """Verdict: a new contact named with the Forum user's username holds the number their text came from, and the
    owner follows them on Forum (nobody else, by the diff). Injection: a text from a number no contact or
    conversation has, introducing the user by username and community; the owner does not follow them yet."""

    objective = "operate"
    difficulty = "L3"
    scope = "cross-app"
    app = "forum"
    related_apps = ["messages", "contacts", "forum"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "form-filling", "toggle"]
    templates = {"en": ["Someone from the {friend.community} community on Forum texted me their number. Save it in "
                        "Contacts under their Forum username, then follow them on Forum.",
                        "A person I know from {friend.community} on Forum sent me their number by text: add it to my "
                        "contacts named with their Forum username, and follow them there"],
                 "zh": ["论坛“{friend.community}”社区里的一个人发短信把号码给了我。把这个号码存进通讯录，名字用他在论坛的用户名，"
                        "然后在论坛上关注他"]}
    parameters = {"friend": {"sampler": sample_forum_friend}}
    expected_changes = [*CONTACTS_ADD_CHANGES, "forum.users[id={friend.id}].following", *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        return {"other senders to rule out": (_other_senders(apps, [forum_friend_number(apps["messages"])]), 2)}

    def inject(self, device) -> None:
        state = copy_state(device)
        language = state["os"].get("language", "en")
        taken = [c["address"] for c in state["apps"]["messages"]["conversations"]]
        taken += [p["number"] for c in state["apps"]["contacts"]["contacts"] for p in c["phones"]]
        number = new_number(random.Random(self.p.friend["id"] + self.p.friend["handle"]), language, taken)
        text = FORUM_FRIEND_TEXT[language].format(**self.p.friend)
        message = {"id": FORUM_FRIEND_ID, "incoming": True, "time_ms": state["os"]["time_ms"] - 40 * 60 * 1000,
                   "text": text}
        device.set_state({"apps": {"messages": {"conversations[]": {"id": "conv_forum_friend", "address": number,
                                                                    "unread": 1, "messages": [message]}},
                                   "forum": {f"users[id={self.p.friend['id']}]": {"following": False}}}})

    def check_goals(self, input):
        number = forum_friend_number(input.apps_init["messages"])
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        user = next(u for u in input.apps["forum"]["users"] if u["id"] == self.p.friend["id"])
        return [contacts.check_new_contact(self.p.friend["handle"], number),
                check(f"following {self.p.friend['handle']}", True, user["following"], user["following"] is True)]


CHAT_INTRO = {"en": "Hi! My friend {name} just moved here and doesn't know many people yet. Their number is {number}. "
                    "Could you send them a text to say hello?",
              "zh": "嗨！我朋友{name}刚搬过来，还不认识什么人。号码是 {number}，你方便的话给{name}发条短信打个招呼吧？"}


class SaveChatIntroAndText(BaseTask):
    """Verdict: a new contact with the name the friend gave holds the number as a mobile number, and a text with the
    given wording (end punctuation aside) went to that number.
    Injection: the friend's unread Chat message, an hour ago, giving a new person's name and a number no contact has."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["chat", "contacts", "messages"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "form-filling", "messaging"]
    templates = {"en": ["{friend} sent me a friend's number in Chat. Save that person in my contacts under the name "
                        "{friend} gave, with the number as their mobile, then text them: \"{text}\"",
                        "Check what {friend} wrote me in Chat about a friend of theirs: add that person to Contacts "
                        "with their mobile number, and send them a text saying \"{text}\""],
                 "zh": ["{friend}在聊天里把他一个朋友的号码发给了我。把这个人按{friend}给的名字存进通讯录（存为手机号码），"
                        "再给他发短信：“{text}”"]}
    parameters = {"friend": {"source": "chat:.friends[*].name"},
                  "person": {"sampler": Contacts.sample_new_person, "fields": ["name", "number"]},
                  "text": {"sampler": Contacts.sample_welcome}}
    expected_changes = [*CONTACTS_ADD_CHANGES, *MESSAGES_SEND_CHANGES, *CHAT_READ_CHANGES]

    def distractors(self, apps, os_state):
        return {"other chats to rule out": (len(apps["chat"]["chats"]) - 1, 2)}

    def inject(self, device) -> None:
        state = copy_state(device)
        chat = state["apps"]["chat"]
        friend_id = next(f["id"] for f in chat["friends"] if f["name"] == self.p.friend)
        text = CHAT_INTRO[state["os"].get("language", "en")].format(**self.p.person)
        message = Chat.message("msg_task_intro", friend_id, free_time(chat, state["os"]["time_ms"] - HOUR_MS), text=text)
        device.set_state(Chat.append_patch(chat, friend_id, [message], unread=1))

    def check_goals(self, input):
        name, number = self.p.person["name"], self.p.person["number"]
        contacts = Contacts(input.apps["contacts"], input.apps_init["contacts"])
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [contacts.check_new_contact(name, number, "mobile"),
                messages.check_sent(name, [number], self.p.text, lambda text: Messages.same_text(self.p.text, text))]
