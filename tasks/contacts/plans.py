"""Scripted plans for the Contacts suite: one oracle per task and realistic mistakes."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.oracle import Driver, negative, plan
from .ui import collect, compose, edit_phone, first_name, is_number, off_by_one, open_contact, open_home, t
from ..messages.ui import new_chat, open_search_hit, search_first
from ..forum.ui import open_community

TYPE_LABELS = {"mobile": ("Mobile", "手机"), "work": ("Work", "工作"), "home": ("Home", "住宅")}


def type_label(d: Driver, kind: str) -> str:
    en, zh = TYPE_LABELS[kind]
    return t(d, en, zh)


def number_of(d: Driver, kind: str) -> str:
    """On a contact card: the number of a type (read from the row's description "Work +1 ...")."""
    node = d.find(rid="phone_item", contains=f"{type_label(d, kind)} ")
    if node is None:
        raise AssertionError(f"no {kind} number on {d.route}")
    return node.desc.split(" ", 1)[1]


def swap_last_digits(number: str) -> str:
    swapped = number[:-2] + number[-1] + number[-2]
    return swapped if swapped != number else off_by_one(number)


def star(d: Driver) -> None:
    """On a contact card: make it a favourite (no-op when it already is)."""
    if d.find(rid="favorite_toggle", desc=t(d, "Add to favourites", "收藏")) is not None:
        d.tap(rid="favorite_toggle")


def other_visible_contact(d: Driver, name: str) -> str:
    """Another contact on the list's first screen."""
    open_home(d, "Contacts")
    return next(n for n in d.texts("contact_name") if n != name)


# --- AddContact -----------------------------------------------------------------------------------

def _add_contact(d: Driver, name: str, number: str, kind: str = "mobile") -> None:
    open_home(d, "Contacts")
    d.tap(rid="add_contact")
    d.type(name, rid="name_input")
    d.type(number, rid="phone_0_input")
    d.tap(rid=f"phone_0_{kind}")
    d.tap(rid="save_contact")


@plan("contacts.AddContact")
def add_contact(d: Driver) -> None:
    _add_contact(d, d.params["person"]["name"], d.params["person"]["number"])


@negative("contacts.AddContact", "one digit of the number wrong")
def add_contact_typo(d: Driver) -> None:
    _add_contact(d, d.params["person"]["name"], off_by_one(d.params["person"]["number"]))


@negative("contacts.AddContact", "saved as a work number")
def add_contact_work(d: Driver) -> None:
    _add_contact(d, d.params["person"]["name"], d.params["person"]["number"], "work")


# --- FavoriteContact ------------------------------------------------------------------------------

@plan("contacts.FavoriteContact")
def favorite_contact(d: Driver) -> None:
    open_contact(d, d.params["name"])
    d.tap(rid="favorite_toggle")


@negative("contacts.FavoriteContact", "taps the star twice")
def favorite_twice(d: Driver) -> None:
    open_contact(d, d.params["name"])
    d.tap(rid="favorite_toggle")
    d.tap(rid="favorite_toggle")


@negative("contacts.FavoriteContact", "stars another contact")
def favorite_other(d: Driver) -> None:
    d.tap(rid="contact_name", text=other_visible_contact(d, d.params["name"]))
    d.tap(rid="favorite_toggle")


# --- UpdateContactEmail ---------------------------------------------------------------------------

def _set_email(d: Driver, email: str, save: bool = True) -> None:
    open_contact(d, d.params["change"]["name"])
    d.tap(rid="edit_contact")
    d.type(email, rid="email_input")
    d.tap(rid="save_contact" if save else "cancel")


@plan("contacts.UpdateContactEmail")
def update_email(d: Driver) -> None:
    _set_email(d, d.params["change"]["email"])


@negative("contacts.UpdateContactEmail", "drops a letter of the address")
def update_email_typo(d: Driver) -> None:
    email = d.params["change"]["email"]
    _set_email(d, email[1:])


@negative("contacts.UpdateContactEmail", "cancels instead of saving")
def update_email_cancel(d: Driver) -> None:
    _set_email(d, d.params["change"]["email"], save=False)


# --- AddSecondNumber ------------------------------------------------------------------------------


@plan("contacts.AddSecondNumber")
def add_second_number(d: Driver) -> None:
    edit_phone(d, d.params["line"]["name"], 1, d.params["line"]["number"], d.params["line"]["type"])


@negative("contacts.AddSecondNumber", "overwrites the existing number")
def overwrite_number(d: Driver) -> None:
    edit_phone(d, d.params["line"]["name"], 0, d.params["line"]["number"], d.params["line"]["type"])


@negative("contacts.AddSecondNumber", "adds it with the wrong type")
def second_number_wrong_type(d: Driver) -> None:
    wrong = next(k for k in TYPE_LABELS if k != d.params["line"]["type"])
    edit_phone(d, d.params["line"]["name"], 1, d.params["line"]["number"], wrong)


# --- DeleteContact --------------------------------------------------------------------------------

@plan("contacts.DeleteContact")
def delete_contact(d: Driver) -> None:
    open_contact(d, d.params["name"])
    d.tap(rid="delete_contact")
    d.tap(rid="button1")


@negative("contacts.DeleteContact", "cancels the confirmation")
def delete_contact_cancel(d: Driver) -> None:
    open_contact(d, d.params["name"])
    d.tap(rid="delete_contact")
    d.tap(rid="button2")


@negative("contacts.DeleteContact", "deletes a neighbouring contact")
def delete_other_contact(d: Driver) -> None:
    d.tap(rid="contact_name", text=other_visible_contact(d, d.params["name"]))
    d.tap(rid="delete_contact")
    d.tap(rid="button1")


# --- CallContactNumber ----------------------------------------------------------------------------

@plan("contacts.CallContactNumber")
def call_contact_number(d: Driver) -> None:
    open_contact(d, d.params["line"]["name"])
    d.tap(rid="phone_item", contains=f"{type_label(d, d.params['line']['type'])} ")
    d.tap(rid="end_call")


@negative("contacts.CallContactNumber", "uses the Call button (first number)")
def call_first_number(d: Driver) -> None:
    open_contact(d, d.params["line"]["name"])
    d.tap(rid="call_button")
    d.tap(rid="end_call")


# --- ContactPhoneNumber ---------------------------------------------------------------------------

@plan("contacts.ContactPhoneNumber")
def contact_phone_number(d: Driver) -> None:
    open_contact(d, d.params["lookup"]["name"])
    d.submit_answer([number_of(d, d.params["lookup"]["type"])])


@negative("contacts.ContactPhoneNumber", "transposes the last two digits")
def contact_phone_transposed(d: Driver) -> None:
    open_contact(d, d.params["lookup"]["name"])
    d.submit_answer([swap_last_digits(number_of(d, d.params["lookup"]["type"]))])


# --- ContactBirthday ------------------------------------------------------------------------------

def _birthday_on_card(d: Driver) -> dt.date:
    text = d.find(rid="birthday").text
    found = re.match(r"(\d+)年(\d+)月(\d+)日", text)
    if found:
        return dt.date(*map(int, found.groups()))
    return dt.datetime.strptime(text, "%B %d, %Y").date()


@plan("contacts.ContactBirthday")
def contact_birthday(d: Driver) -> None:
    open_contact(d, d.params["name"])
    d.submit_answer([d.find(rid="birthday").text])


@negative("contacts.ContactBirthday", "a day off")
def contact_birthday_off(d: Driver) -> None:
    open_contact(d, d.params["name"])
    day = _birthday_on_card(d)
    wrong = day + dt.timedelta(days=1 if day.day < 28 else -1)
    d.submit_answer([d.t(f"{wrong:%B} {wrong.day}, {wrong.year}", f"{wrong.year}年{wrong.month}月{wrong.day}日")])


# --- CountFavorites -------------------------------------------------------------------------------

def _favorites_count(d: Driver) -> int:
    open_home(d, "Contacts")
    d.tap(rid="tab_1")
    return len(collect(d, "favorite_item"))


@plan("contacts.CountFavorites")
def count_favorites(d: Driver) -> None:
    d.submit_answer([_favorites_count(d)])


@negative("contacts.CountFavorites", "misses one")
def count_favorites_short(d: Driver) -> None:
    d.submit_answer([_favorites_count(d) - 1])


# --- NextBirthday ---------------------------------------------------------------------------------

@plan("contacts.NextBirthday")
def next_birthday(d: Driver) -> None:
    open_home(d, "Contacts")
    d.submit_answer([d.texts("upcoming_name")[0]])


@negative("contacts.NextBirthday", "names the second upcoming birthday")
def next_birthday_second(d: Driver) -> None:
    open_home(d, "Contacts")
    d.submit_answer([d.texts("upcoming_name")[1]])


# --- FavoriteEmailDomain --------------------------------------------------------------------------

def _star_domain(d: Driver, skip_last: bool = False) -> int:
    open_home(d, "Contacts")
    d.tap(rid="search")
    d.type(f"@{d.params['domain']}", rid="search_input")
    names = [n.desc for n in collect(d, "search_result")]
    skipped = False
    for name in names:
        d.tap(rid="contact_name", text=name)
        starred = d.find(rid="favorite_toggle", desc=t(d, "Add to favourites", "收藏")) is None
        if skip_last and not skipped and not starred:
            skipped = True  # the mistake: one contact left unstarred
        else:
            star(d)
        d.key("back")
    return len(names)


@plan("contacts.FavoriteEmailDomain")
def favorite_email_domain(d: Driver) -> None:
    d.submit_answer([_star_domain(d)])


@negative("contacts.FavoriteEmailDomain", "right stars, count off by one")
def favorite_email_domain_miscount(d: Driver) -> None:
    d.submit_answer([_star_domain(d) - 1])


@negative("contacts.FavoriteEmailDomain", "misses one unstarred contact, right count")
def favorite_email_domain_partial(d: Driver) -> None:
    d.submit_answer([_star_domain(d, skip_last=True)])


# --- SaveSenderAsContact --------------------------------------------------------------------------

def _save_sender(d: Driver, name: str, typo: bool = False) -> None:
    open_home(d, "Messages")
    d.tap(rid="search")
    d.type(d.params["name"], rid="search_input")
    d.tap(rid="search_result")
    d.tap(rid="add_contact")
    d.type(name, rid="name_input")
    if typo:
        d.type(off_by_one(d.find(rid="phone_0_input").text), rid="phone_0_input")
    d.tap(rid="save_contact")


@plan("contacts.SaveSenderAsContact")
def save_sender(d: Driver) -> None:
    _save_sender(d, d.params["name"])


@negative("contacts.SaveSenderAsContact", "saves only the first name")
def save_sender_first_name(d: Driver) -> None:
    _save_sender(d, first_name(d.params["name"]))


@negative("contacts.SaveSenderAsContact", "mistypes the number")
def save_sender_typo(d: Driver) -> None:
    _save_sender(d, d.params["name"], typo=True)


# --- CallMessageSender ----------------------------------------------------------------------------

def _find_call_request(d: Driver) -> tuple[str, str]:
    """(contact name, number) of the thread that asks for a call."""
    open_home(d, "Messages")
    d.tap(rid="search")
    d.type(t(d, "call me", "给我回个电话"), rid="search_input")
    d.tap(rid="search_result")
    return d.find(rid="toolbar_title").text, d.find(rid="thread_address").text


@plan("contacts.CallMessageSender")
def call_message_sender(d: Driver) -> None:
    name, number = _find_call_request(d)
    open_contact(d, name)
    d.tap(rid="phone_item", contains=number)
    d.tap(rid="end_call")


@negative("contacts.CallMessageSender", "calls their other number")
def call_message_sender_home(d: Driver) -> None:
    name, number = _find_call_request(d)
    open_contact(d, name)
    other = next((n for n in d.nodes() if n.short_id == "phone_item" and number not in n.desc), None)
    if other is None:  # they have one number: call somebody else
        d.tap(rid="contact_name", text=other_visible_contact(d, name))
        d.tap(rid="call_button")
    else:
        d.tap(rid="phone_item", desc=other.desc)
    d.tap(rid="end_call")


@negative("contacts.CallMessageSender", "reads the text but never calls")
def call_message_sender_no_call(d: Driver) -> None:
    _find_call_request(d)


# --- FavoriteLatestSender -------------------------------------------------------------------------

def _named_senders(d: Driver) -> list[str]:
    """The first two saved senders down the conversation list (newest first)."""
    open_home(d, "Messages")
    rows = collect(d, "conversation_item", stop=lambda found: sum(not is_number(n.desc) for n in found) >= 2)
    return [n.desc for n in rows if not is_number(n.desc)]


@plan("contacts.FavoriteLatestSender")
def favorite_latest_sender(d: Driver) -> None:
    name = _named_senders(d)[0]
    open_contact(d, name)
    star(d)


@negative("contacts.FavoriteLatestSender", "off by one: toggles the second sender")
def favorite_second_sender(d: Driver) -> None:
    name = _named_senders(d)[1]
    open_contact(d, name)
    d.tap(rid="favorite_toggle")


@negative("contacts.FavoriteLatestSender", "opens the card but does not star it")
def favorite_latest_sender_no_star(d: Driver) -> None:
    open_contact(d, _named_senders(d)[0])


# --- SendContactNumber ----------------------------------------------------------------------------

@plan("contacts.SendContactNumber")
def send_contact_number(d: Driver) -> None:
    open_contact(d, d.params["share"]["subject"])
    number = number_of(d, "mobile")
    compose(d, d.params["share"]["recipient"], number)


@negative("contacts.SendContactNumber", "texts the number to the person it belongs to")
def send_contact_number_to_subject(d: Driver) -> None:
    open_contact(d, d.params["share"]["subject"])
    number = number_of(d, "mobile")
    d.tap(rid="message_button")
    d.type(number, rid="message_input")
    d.tap(rid="send")


@negative("contacts.SendContactNumber", "drops a digit")
def send_contact_number_short(d: Driver) -> None:
    open_contact(d, d.params["share"]["subject"])
    compose(d, d.params["share"]["recipient"], number_of(d, "mobile")[:-1])


# --- JSON tasks -----------------------------------------------------------------------------------

@plan("contacts.favorite_zoe")
def favorite_zoe(d: Driver) -> None:
    open_contact(d, d.t("Zoe Martin", "秦雨萱"))
    d.tap(rid="favorite_toggle")


@negative("contacts.favorite_zoe", "stars Zoe twice")
def favorite_zoe_twice(d: Driver) -> None:
    open_contact(d, d.t("Zoe Martin", "秦雨萱"))
    d.tap(rid="favorite_toggle")
    d.tap(rid="favorite_toggle")


def _set_company(d: Driver, company: str) -> None:
    open_contact(d, d.t("Priya Nair", "苏婉婷"))
    d.tap(rid="edit_contact")
    d.type(company, rid="company_input")
    d.tap(rid="save_contact")


@plan("contacts.update_company")
def update_company(d: Driver) -> None:
    _set_company(d, d.t("Orbit Robotics", "轨道机器人"))


@negative("contacts.update_company", "types the company name wrong")
def update_company_typo(d: Driver) -> None:
    _set_company(d, d.t("Orbit Robotic", "轨道机器"))


def _delete_copy(d: Driver, with_email: bool) -> None:
    open_contact(d, d.t("Ben Okafor", "欧阳博文"))
    if (d.find(rid="email") is not None) != with_email:
        d.key("back")
        d.tap(rid="contact_name", text=d.t("Ben Okafor", "欧阳博文"), index=1)
    d.tap(rid="delete_contact")
    d.tap(rid="button1")


@plan("contacts.delete_duplicate")
def delete_duplicate(d: Driver) -> None:
    _delete_copy(d, with_email=False)


@negative("contacts.delete_duplicate", "deletes the copy with the email")
def delete_duplicate_wrong(d: Driver) -> None:
    _delete_copy(d, with_email=True)


@plan("contacts.video_call_alice")
def video_call_alice(d: Driver) -> None:
    open_home(d, "Contacts")
    d.abort("The Contacts app can only place voice calls; there is no video calling.")


@negative("contacts.video_call_alice", "places a voice call and calls it done")
def video_call_voice(d: Driver) -> None:
    d.tap(rid="contact_name", text=other_visible_contact(d, ""))
    d.tap(rid="call_button")
    d.complete()


@plan("contacts.tom_company")
def tom_company(d: Driver) -> None:
    open_contact(d, d.t("Tom Becker", "白志远"))
    d.submit_answer([d.find(rid="contact_company").text])


@negative("contacts.tom_company", "answers his job from the notes")
def tom_company_notes(d: Driver) -> None:
    open_contact(d, d.t("Tom Becker", "白志远"))
    d.submit_answer([d.find(rid="notes").text])


# --- SaveForumFriendAndFollow -----------------------------------------------------------------------

def _forum_friend(d: Driver) -> tuple[str, str]:
    """(username, community) the Forum friend's text gives, read in Messages."""
    text = search_first(d, t(d, "on Forum", "论坛"))
    found = re.search(r"It's (.+?) from the (.+?) community on Forum", text) or \
        re.search(r"我是论坛“(.+?)”社区的(.+?)，", text)
    return (found.group(1), found.group(2)) if "It's" in text else (found.group(2), found.group(1))


def _save_forum_friend(d: Driver, name: str, typo: bool = False) -> None:
    open_search_hit(d, t(d, "on Forum", "论坛"))
    d.tap(rid="add_contact")
    d.type(name, rid="name_input")
    if typo:
        d.type(off_by_one(d.find(rid="phone_0_input").text), rid="phone_0_input")
    d.tap(rid="save_contact")


def _follow_on_forum(d: Driver, handle: str, community: str) -> None:
    """Follow the user from the profile behind one of their posts in the community."""
    open_community(d, community, "new")
    d.tap(rid="post_item", contains=t(d, f" · by {handle} · ", f" · 作者 {handle} · "))
    d.tap(rid="post_author")
    d.tap(rid="follow_button")


@plan("contacts.SaveForumFriendAndFollow")
def save_forum_friend(d: Driver) -> None:
    handle, community = _forum_friend(d)
    _save_forum_friend(d, handle)
    _follow_on_forum(d, handle, community)


@negative("contacts.SaveForumFriendAndFollow", "saves the number but never follows them")
def save_forum_friend_no_follow(d: Driver) -> None:
    handle, _ = _forum_friend(d)
    _save_forum_friend(d, handle)


@negative("contacts.SaveForumFriendAndFollow", "mistypes the number, then follows")
def save_forum_friend_typo(d: Driver) -> None:
    handle, community = _forum_friend(d)
    _save_forum_friend(d, handle, typo=True)
    _follow_on_forum(d, handle, community)


# --- SaveChatIntroAndText ---------------------------------------------------------------------------

CHAT_INTRO = re.compile(r"My friend (.+?) just moved here.*?number is (\+?\d[\d -]*\d)|我朋友(.+?)刚搬过来.*?号码是\s*(\+?\d[\d -]*\d)")


def _chat_intro(d: Driver) -> tuple[str, str]:
    """(name, number) the friend's Chat message gives."""
    open_home(d, "Chat")
    d.tap(rid="chat_item", desc=d.params["friend"])
    found = next(m for text in d.texts("message_text") for m in [CHAT_INTRO.search(text)] if m)
    return (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))


@plan("contacts.SaveChatIntroAndText")
def save_chat_intro(d: Driver) -> None:
    name, number = _chat_intro(d)
    _add_contact(d, name, number)
    compose(d, name, d.params["text"])
    d.complete()


@negative("contacts.SaveChatIntroAndText", "saves the contact but never texts")
def save_chat_intro_no_text(d: Driver) -> None:
    _add_contact(d, *_chat_intro(d))
    d.complete()


@negative("contacts.SaveChatIntroAndText", "texts the number without saving it")
def save_chat_intro_unsaved(d: Driver) -> None:
    _, number = _chat_intro(d)
    new_chat(d, number, d.params["text"])
    d.complete()


@negative("contacts.SaveChatIntroAndText", "saves the number under the friend's name, then texts it")
def save_chat_intro_friend_name(d: Driver) -> None:
    _, number = _chat_intro(d)
    _add_contact(d, d.params["friend"], number)
    new_chat(d, number, d.params["text"])
    d.complete()
