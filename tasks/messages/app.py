"""Accessor for the Messages app's state: conversations (address, unread count, messages)."""
from __future__ import annotations

import random
import re
from typing import Any, Callable, Mapping, Sequence

from mobilegym.envs.contacts.numbers import new_number, number_key, same_number
from mobilegym.envs.messages.world import (CODE, CODE_SERVICE, OUT_FOR_DELIVERY, PARCEL, call_request_fragments,
                                           intro_patterns, topics)
from mobilegym.judge import BaseApp, copy_state, normalize_text
from mobilegym.judge.answers import fact_checks
from mobilegym.judge.result import check

from ..contacts.app import Contacts

# one text: a new thread, or a new message in an existing one (the task's check says to whom)
MESSAGES_SEND_CHANGES = ["messages.conversations[+] | messages.conversations[*].messages[+]"]
MESSAGES_DELETE_CHANGES = ["messages.conversations[-]"]  # one thread (the task's check says which)
MESSAGES_DELETE_MANY_CHANGES = ["messages.conversations[-*]"]  # threads only removed (the check says which)
MESSAGES_READ_CHANGES = ["messages.conversations[*].unread"]  # opening threads marks them read (view state)
TOPICS = tuple(topics())  # the chat topics of the generated worlds (en and zh pools)
CALL_REQUESTS = tuple(call_request_fragments())  # "Call me" / "给我回个电话"
MIN_UNREAD_UNKNOWN = 1  # UnreadContacts: unread conversations from unsaved numbers (prepare_state_with_unread_unknown)
UNKNOWN_TEXT = {"en": "Hi, is this still your number?", "zh": "你好，请问这个号码还在用吗？"}
NEW_NUMBER_MARKERS = ("new number", "new one", "新号")
# texts tasks ask to send, in the phone's language
GREETINGS = {"en": ("Happy early birthday! Hope you have a great one", "Happy birthday week! Let's celebrate soon",
                    "Early happy birthday wishes from me!"),
             "zh": ("提前祝你生日快乐！愿你过得开开心心", "生日周快乐！改天一起庆祝", "提前送上我的生日祝福！")}
SHORT_TEXTS = {"en": ("Running a bit late, be there in 15", "Can you call me when you're free?", "Thanks for today!",
                      "Are we still on for tomorrow?", "Just landed, talk soon"),
               "zh": ("我晚一点到，15 分钟后见", "你有空的时候给我回个电话好吗？", "今天谢谢你！", "明天还是照原计划吗？",
                      "刚落地，回头聊")}


def code_service(text: str) -> str:
    """The service that sent a verification-code text ("Harbor Bank: your verification code is ..." /
    "【招商银行】...验证码为..."), or ""."""
    found = CODE_SERVICE.search(text)
    return (found.group(1) or found.group(2)) if found else ""


class Messages(BaseApp):
    """Conversations and their messages."""

    def conversations(self) -> list[dict[str, Any]]:
        """Every conversation."""
        return self.require(".conversations")

    def conversation_for(self, number: str) -> dict[str, Any] | None:
        """The conversation with a number (None when there is none)."""
        return next((c for c in self.conversations() if same_number(c["address"], number)), None)

    def _sent_messages(self) -> list[tuple[str, dict[str, Any]]]:
        """(address, message) of every message sent since the start, in conversation order."""
        before = {m["id"] for c in self.initial(".conversations") for m in c["messages"]}
        return [(c["address"], m) for c in self.conversations() for m in c["messages"]
                if not m["incoming"] and m["id"] not in before]

    def sent_since_start(self) -> list[tuple[str, str]]:
        """(address, text) of every message sent since the start, in conversation order."""
        return [(address, m["text"]) for address, m in self._sent_messages()]

    def texts_to(self, numbers: Sequence[str]) -> list[str]:
        """The texts sent since the start to any of ``numbers``, in conversation order."""
        return [text for address, text in self.sent_since_start() if any(same_number(address, n) for n in numbers)]

    def shared_to(self, numbers: Sequence[str]) -> list[str]:
        """The names of the files and photos attached to messages sent since the start to any of ``numbers`` (a
        share from Files or Gallery attaches them; a name typed into a text is no share)."""
        return [name for address, m in self._sent_messages() if any(same_number(address, n) for n in numbers)
                for name in m.get("attachments", ())]

    def check_shared(self, who: str, numbers: list[str], expected: Sequence[str]) -> dict[str, Any]:
        """Exactly ``expected`` (file or photo names, case aside) were shared with ``who``, nothing more."""
        shared = self.shared_to(numbers)
        return check(f"shared with {who}", sorted(expected), sorted(shared),
                     bool(shared) and {n.casefold() for n in shared} == {n.casefold() for n in expected})

    def unread_conversations(self) -> list[dict[str, Any]]:
        """Conversations with unread messages."""
        return [c for c in self.conversations() if c["unread"] > 0]

    def _latest_match(self, pattern: re.Pattern[str], what: str) -> str:
        for message in sorted((m for c in self.conversations() for m in c["messages"] if m["incoming"]),
                              key=lambda m: m["time_ms"], reverse=True):
            found = pattern.search(message["text"])
            if found:
                return found.group(1)
        raise ValueError(f"messages: no message contains a {what}")

    def verification_code(self, service: str | None = None) -> str:
        """The code in the most recent verification-code message (of ``service`` when given)."""
        if service is None:
            return self._latest_match(CODE, "verification code")
        texts = sorted(((m["time_ms"], m["text"]) for c in self.conversations() for m in c["messages"]
                        if m["incoming"] and CODE.search(m["text"]) and code_service(m["text"]) == service),
                       reverse=True)
        if not texts:
            raise ValueError(f"messages: no verification code from {service!r}")
        return CODE.search(texts[0][1]).group(1)

    def tracking_number(self) -> str:
        """The parcel number in the most recent out-for-delivery message (else in the latest parcel message)."""
        for message in sorted((m for c in self.conversations() for m in c["messages"] if m["incoming"]),
                              key=lambda m: m["time_ms"], reverse=True):
            found = PARCEL.search(message["text"])
            if found and OUT_FOR_DELIVERY.search(message["text"]):
                return found.group(1)
        return self._latest_match(PARCEL, "parcel number")

    def call_request_sender(self) -> str:
        """The address of the conversation whose incoming message asks for a call back."""
        for fragment in CALL_REQUESTS:
            try:
                return self.sender_of(fragment)
            except ValueError:
                continue
        raise ValueError("messages: nobody asked for a call back")

    def codes(self) -> list[str]:
        """Every number a text could share: verification codes and parcel numbers in the messages, and the
        conversations' own numbers (the rivals of a shared code)."""
        texts = [m["text"] for c in self.conversations() for m in c["messages"]]
        found = [code for text in texts for pattern in (CODE, PARCEL) for code in pattern.findall(text)]
        return list(dict.fromkeys([*found, *(c["address"] for c in self.conversations())]))

    def conversation_about(self, topic: str) -> dict[str, Any]:
        """The one conversation mentioning ``topic``; raises ValueError unless exactly one does."""
        found = [c for c in self.conversations() if any(topic.casefold() in m["text"].casefold() for m in c["messages"])]
        if len(found) != 1:
            raise ValueError(f"messages: {len(found)} conversations mention {topic!r}, expected exactly one")
        return found[0]

    def sender_of(self, fragment: str) -> str:
        """The address of the conversation whose incoming message contains ``fragment``."""
        for conv in self.conversations():
            if any(m["incoming"] and fragment in m["text"] for m in conv["messages"]):
                return conv["address"]
        raise ValueError(f"messages: no incoming message contains {fragment!r}")

    def latest_sender(self, accept: Callable[[str], bool]) -> str:
        """The address that sent the most recent incoming message among those ``accept`` allows."""
        found = [(m["time_ms"], c["address"]) for c in self.conversations() for m in c["messages"]
                 if m["incoming"] and accept(c["address"])]
        if not found:
            raise ValueError("messages: no incoming message from an accepted sender")
        return max(found)[1]

    # --- checks -------------------------------------------------------------------------------

    def check_sent(self, who: str, numbers: list[str], expected: str, accept: Callable[[str], bool]) -> dict[str, Any]:
        """A message sent during the task to one of ``numbers`` is accepted by ``accept``."""
        sent = self.sent_since_start()
        ok = any(accept(text) for address, text in sent if any(same_number(address, n) for n in numbers))
        actual = "; ".join(f"to {address}: {text}" for address, text in sent) or "nothing sent"
        return check(f"message to {who}", expected, actual, ok)

    def check_sent_facts(self, who: str, numbers: list[str], facts: Mapping[str, Any], *,
                         rivals: Mapping[str, Sequence[str]] | None = None, optional: Mapping[str, Any] | None = None,
                         os_state: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """A text went to one of ``numbers``, and what was sent to them (all such texts together) states every
        fact and no rival (:func:`mobilegym.judge.answers.fact_checks`)."""
        texts = self.texts_to(numbers)
        sent = "; ".join(f"to {address}: {text}" for address, text in self.sent_since_start()) or "nothing sent"
        return [check(f"message to {who}", "a text", sent, bool(texts)),
                *fact_checks("\n".join(texts), facts, rivals=rivals, optional=optional, os_state=os_state)]

    def check_deleted(self, who: str, numbers: list[str]) -> dict[str, Any]:
        """No conversation with any of ``numbers`` remains."""
        left = [c["address"] for c in self.conversations() if any(same_number(c["address"], n) for n in numbers)]
        return check(f"conversation with {who} deleted", "deleted", left or "deleted", not left)

    def check_kept(self, ids: list[str]) -> dict[str, Any]:
        """Every conversation in ``ids`` is still there."""
        present = {c["id"] for c in self.conversations()}
        lost = sorted(i for i in ids if i not in present)
        return check("other conversations kept", [], lost, not lost)

    @staticmethod
    def same_text(expected: str, actual: str) -> bool:
        """Equal up to case, spacing and surrounding punctuation."""
        strip = " .!?。！？"
        return normalize_text(expected).strip(strip) == normalize_text(actual).strip(strip)

    # --- samplers -----------------------------------------------------------------------------

    @staticmethod
    def sample_topic(rng: random.Random, state: dict[str, Any]) -> str:
        """A topic exactly one conversation mentions."""
        topics = [t for t in TOPICS if sum(any(t.casefold() in m["text"].casefold() for m in c["messages"])
                                           for c in state["conversations"]) == 1]
        if not topics:
            raise ValueError("messages: no topic is mentioned by exactly one conversation")
        return rng.choice(topics)

    @staticmethod
    def sample_code_service(rng: random.Random, state: dict[str, Any]) -> str:
        """A service that has texted a verification code."""
        services = sorted({code_service(m["text"]) for c in state["conversations"] for m in c["messages"]
                           if m["incoming"] and CODE.search(m["text"])} - {""})
        if not services:
            raise ValueError("messages: no verification-code text")
        return rng.choice(services)

    @staticmethod
    def sample_introduced_sender(rng: random.Random, state: dict[str, Any]) -> str:
        """The name a new, unsaved number introduced itself with ("Hi! It's Nora Quinn ... my new number")."""
        names = []
        for conv in state["conversations"]:
            texts = [m["text"] for m in conv["messages"] if m["incoming"]]
            if not any(marker in t.casefold() for t in texts for marker in NEW_NUMBER_MARKERS):
                continue
            for text in texts:
                found = next((m for m in (p.search(text) for p in intro_patterns()) if m), None)
                if found:
                    names.append(found.group(1).strip())
                    break
        if not names:
            raise ValueError("messages: no new number introduced itself")
        return rng.choice(sorted(set(names)))

    @staticmethod
    def sample_new_number(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A number of the phone's region (+1 ...-555-... in English, a mobile number in Chinese) no conversation has."""
        return new_number(rng, os_state.get("language"), (c["address"] for c in state["conversations"]))

    @staticmethod
    def sample_short_text(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A short text to send, in the phone's language."""
        return rng.choice(SHORT_TEXTS[os_state.get("language", "en")])

    @staticmethod
    def sample_greeting(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A birthday greeting to send, in the phone's language."""
        return rng.choice(GREETINGS[os_state.get("language", "en")])

    # --- set-up -------------------------------------------------------------------------------

    @staticmethod
    def prepare_state_with_conversation(number: str, now_ms: int, language: str = "en") -> dict[str, Any]:
        """A patch adding a short conversation with ``number`` (an incoming message two hours ago, in the phone's
        language)."""
        key = number_key(number)
        text = "晚点有空吗？" if language == "zh" else "Hey, are you around later?"
        message = {"id": f"msg_seed_{key}", "text": text, "time_ms": now_ms - 2 * 3600 * 1000, "incoming": True}
        return {"apps": {"messages": {"conversations[]": {"id": f"conv_seed_{key}", "address": number, "unread": 0,
                                                          "messages": [message]}}}}

    @staticmethod
    def prepare_state_with_text_from(messages: Mapping[str, Any], number: str, key: str, text: str,
                                     now_ms: int) -> dict[str, Any]:
        """A patch where ``number`` texted ``text`` an hour ago (unread, id ``msg_<key>``), appended to its
        conversation or starting one (``conv_<key>``)."""
        message = {"id": f"msg_{key}", "incoming": True, "time_ms": now_ms - 3600 * 1000, "text": text}
        conv = next((c for c in messages["conversations"] if same_number(c["address"], number)), None)
        if conv is None:
            return {"apps": {"messages": {"conversations[]": {"id": f"conv_{key}", "address": number, "unread": 1,
                                                              "messages": [message]}}}}
        return {"apps": {"messages": {f"conversations[id={conv['id']}]": {"messages[]": message,
                                                                          "unread": conv["unread"] + 1}}}}

    @staticmethod
    def prepare_state_with_unread_unknown(doc: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        """A patch where an unsaved number of a conversation texts UNKNOWN_TEXT an hour ago (unread), unless
        MIN_UNREAD_UNKNOWN such conversations are unread already (None)."""
        contacts, messages = Contacts(doc["apps"]["contacts"]), doc["apps"]["messages"]
        unknown = [c for c in messages["conversations"] if contacts.owner_of(c["address"]) is None]
        if sum(c["unread"] > 0 for c in unknown) >= MIN_UNREAD_UNKNOWN:
            return None
        number = rng.choice([c for c in unknown if not c["unread"]])["address"]
        return Messages.prepare_state_with_text_from(messages, number, "unread_unknown",
                                                     UNKNOWN_TEXT[doc["os"].get("language", "en")], doc["os"]["time_ms"])


def text_from_contact(device, name: str, key: str, text: Callable[[str], str]) -> None:
    """Set up an unread text from the contact ``name`` (to their first number) an hour ago; ``text`` gives its
    words in the phone's language."""
    state = copy_state(device)
    number = Contacts(state["apps"]["contacts"]).contact(name)["phones"][0]["number"]
    device.set_state(Messages.prepare_state_with_text_from(state["apps"]["messages"], number, key,
                                                           text(state["os"].get("language", "en")),
                                                           state["os"]["time_ms"]))
