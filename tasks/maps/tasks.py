"""Maps tasks.

Task index:
    SavePlace              operate  L1  save a place to a list (Favourites or Want to go)
    PlaceAddress           query    L1  the address of a place
    CountSaved             query    L1  how many places a saved list holds
    WalkTime               query    L2  how long the walk between two places takes
    SetWork                operate  L2  label the office at an address as Work
    RemoveSaved            operate  L2  remove a place from a list (confirm dialog)
    FastestMode            query    L3  which travel mode reaches a place soonest
    NearestOpenPharmacy    query    L3  the nearest pharmacy open at the phone's time
    SaveBestRated          operate  L3  save a category's highest-rated place to Favourites
    HomeToWorkDrive        hybrid   L4  set Work, then tell the driving time from Home to it
    SaveBestOpen           operate  L4  save the highest-rated place of a category that is open now to Want to go
    TextPlaceAddress       operate  L3  Maps -> Contacts -> Messages: text a friend the address of a place
    SaveRecommended        operate  L3  Messages -> Maps -> Messages: save the restaurant a friend named, thank them
    EventTravelTime        operate  L4  Calendar -> Maps -> Messages: transit time to an event's place, text it
    EventTransitAlarm      operate  L4  Calendar -> Maps -> Clock: an alarm when to leave by transit to reach an
                                        event's place at its start
    EventAddressToAttendee operate  L4  Calendar -> Maps -> Messages: text the attendee an event names the address
                                        of its place (high risk)
"""
from __future__ import annotations

import datetime as dt

from mobilegym.envs.maps import geo
from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, copy_state
from mobilegym.judge.result import check

from ..clock.app import CLOCK_ADD_ALARM_CHANGES, check_alarm_added, minus_minutes
from ..contacts.app import Contacts
from ..cross_app.app import attendee_line
from ..l10n import localised
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages
from .app import (MAX_RUNNER_UP_MIN, MIN_GAP_MIN, MIN_OPEN_RIVALS, RUNNER_UP_RATING, MAPS_RECENT_CHANGES, MAPS_SAVE_CHANGES, MAPS_UNSAVE_CHANGES, MAPS_WORK_CHANGES, Maps, minutes_text, mode_name,
                  moment, prepare_state_with_incoming)

MODE_OPTIONS = [mode_name(m, "en") for m in geo.MODES]
MODE_OPTIONS_ZH = [mode_name(m, "zh") for m in geo.MODES]


def _maps_state(device) -> dict:
    return copy_state(device)["apps"]["maps"]


def _patch(device, patch: dict) -> None:
    if patch:
        device.set_state(patch)


def _same_category(apps, place_id: str) -> int:
    """How many other places share the place's category."""
    places = apps["maps"]["places"]
    category = geo.place(apps["maps"], place_id)["category"]
    return sum(p["category"] == category and p["id"] != place_id for p in places)


def _other_events_tomorrow(apps, os_state, event_id: str) -> int:
    tomorrow = (moment(os_state) + dt.timedelta(days=1)).date().isoformat()
    return sum(e["date"] == tomorrow and e["id"] != event_id for e in apps["calendar"]["events"])


class SavePlace(BaseTask):
    """Verdict: the lists hold their initial entries plus the place in the requested list (the other list, a
    second entry or a removed one fails)."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["search", "toggle"]
    templates = {"en": ["Save {place.name} to my {place.list_name} list in Maps",
                        "In Maps, add {place.name} to {place.list_name}"],
                 "zh": ["在地图里把“{place.name}”保存到“{place.list_name}”列表"]}
    parameters = {"place": {"sampler": Maps.sample_unsaved_place}}
    expected_changes = MAPS_SAVE_CHANGES

    def check_goals(self, input):
        before = Maps(input.apps_init["maps"]).entries()
        return [Maps(input.apps["maps"]).check_saved("saved lists", [*before, (self.p.place["id"], self.p.place["list"])])]


@localised(zh={"fields": [{"label": "地址"}]})
class PlaceAddress(AnswerTask):
    """Verdict: the answer is the place's address (addresses are unique in a world)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["What's the address of {place.name}? Look it up in Maps.",
                        "Find {place.name} in Maps and tell me its street address"],
                 "zh": ["在地图里查一下“{place.name}”的地址是什么？"]}
    parameters = {"place": {"sampler": Maps.sample_place}}
    answer = ".places[id={place.id}].address"
    answer_fields = [{"type": "text", "label": "Address"}]
    expected_changes = MAPS_RECENT_CHANGES


@localised(zh={"fields": [{"label": "地点数"}]})
class CountSaved(AnswerTask):
    """Verdict: the answer is the number of places in the list. Injection: the other list's count differs."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval", "counting"]
    templates = {"en": ["How many places are saved in my {lst.name} list in Maps?",
                        "Count the places in my Maps {lst.name} list"],
                 "zh": ["地图里“{lst.name}”列表中保存了几个地点？"]}
    parameters = {"lst": {"sampler": Maps.sample_list}}
    answer_fields = [{"type": "number", "label": "Places"}]

    def inject(self, device) -> None:
        _patch(device, Maps.prepare_state_with_apart_counts(_maps_state(device), self.p.lst["id"]))

    def get_answer(self, input):
        return sum(e["list"] == self.p.lst["id"] for e in input.apps_init["maps"]["saved"])


@localised(zh={"fields": [{"label": "步行分钟数"}]})
class WalkTime(AnswerTask):
    """Verdict: the answer is the walking time between the two places as Maps gives it (sampled so every other
    mode's time is at least two minutes away)."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["How many minutes does it take to walk from {pair.a_name} to {pair.b_name}? Check Maps.",
                        "In Maps, get walking directions from {pair.a_name} to {pair.b_name}: how many minutes is it?"],
                 "zh": ["用地图查一下从“{pair.a_name}”步行到“{pair.b_name}”要多少分钟？"]}
    parameters = {"pair": {"sampler": Maps.sample_walk_pair}}
    answer_fields = [{"type": "number", "label": "Walking minutes"}]
    expected_changes = MAPS_RECENT_CHANGES

    def get_answer(self, input):
        return geo.route(input.apps_init["maps"], self.p.pair["a"], self.p.pair["b"])["minutes"]["walk"]


class SetWork(CriteriaTask):
    """Verdict: Work is the office at the address (Home and the lists untouched, by the diff)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "settings"]
    templates = {"en": ["My new office is at {office.address}. Set it as Work in Maps.",
                        "Change my Work location in Maps to {office.address}"],
                 "zh": ["我的新公司在{office.address}，在地图里把它设为“公司”"]}
    parameters = {"office": {"sampler": Maps.sample_new_work}}
    criteria = {".work": "{office.id}"}
    expected_changes = MAPS_WORK_CHANGES


class RemoveSaved(BaseTask):
    """Verdict: the lists hold their initial entries but the requested one (the place stays in its other list).
    Injection: each list holds two places or more."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Remove {entry.name} from my {entry.list_name} list in Maps",
                        "I'm done with {entry.name}: take it off my Maps {entry.list_name} list"],
                 "zh": ["把“{entry.name}”从地图的“{entry.list_name}”列表里移除"]}
    parameters = {"entry": {"sampler": Maps.sample_saved_entry}}
    expected_changes = MAPS_UNSAVE_CHANGES

    def set_up(self, device) -> None:
        _patch(device, Maps.prepare_state_with_two_each(_maps_state(device)))

    def check_goals(self, input):
        before = [(e["place_id"], e["list"]) for e in input.apps_init["maps"]["saved"] if e["id"] != self.p.entry["id"]]
        return [Maps(input.apps["maps"]).check_saved("saved lists", before)]


@localised(zh={"fields": [{"label": "最快的方式", "options": MODE_OPTIONS_ZH}, {"label": "所需分钟数"}]})
class FastestMode(AnswerTask):
    """Verdict: the answer is the mode whose time from your location is shortest, and its minutes (sampled so it
    wins by two minutes or more; the fastest mode is drawn first, so it is not driving in most worlds)."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["search", "comparison"]
    templates = {"en": ["What's the fastest way to get from my location to {place.name}: driving, transit, walking or "
                        "cycling? Compare them in Maps and tell me the mode and how many minutes it takes.",
                        "Check Maps: which travel mode gets me to {place.name} soonest from where I am, and in how many "
                        "minutes?"],
                 "zh": ["从我现在的位置去“{place.name}”，驾车、公交、步行、骑行哪种方式最快？用地图比较一下，告诉我方式和所需分钟数"]}
    parameters = {"place": {"sampler": Maps.sample_fastest_target}}
    answer_fields = [{"type": "choice", "label": "Fastest mode", "options": MODE_OPTIONS},
                     {"type": "number", "label": "Minutes"}]
    expected_changes = MAPS_RECENT_CHANGES

    def distractors(self, apps, os_state):
        trip = geo.route(apps["maps"], geo.HERE, self.p.place["id"])["minutes"]
        return {"modes to compare": (len(trip), 4),
                f"a mode within {MAX_RUNNER_UP_MIN} min of the fastest":
                    (int(Maps.runner_up_gap(apps["maps"], self.p.place["id"]) <= MAX_RUNNER_UP_MIN), 1)}

    def get_answer(self, input):
        state = input.apps_init["maps"]
        mode = Maps.fastest(state, geo.HERE, self.p.place["id"])
        return {"mode": (MODE_OPTIONS_ZH if self.language == "zh" else MODE_OPTIONS)[geo.MODES.index(mode)],
                "minutes": geo.route(state, geo.HERE, self.p.place["id"])["minutes"][mode]}


@localised(zh={"fields": [{"label": "药店名称"}]})
class NearestOpenPharmacy(AnswerTask):
    """Verdict: the answer names the nearest pharmacy open at the phone's time. Injection: the nearest pharmacy
    is closed now, and the nearest open one is 0.2 km clear of the next open one."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["search", "filtering", "comparison", "date-reasoning"]
    templates = {"en": ["I need a pharmacy right now. Which is the nearest one that's open at the moment? Use Maps.",
                        "Find the closest pharmacy to me in Maps that is open now and tell me its name"],
                 "zh": ["我现在需要买药，用地图找找离我最近、而且现在正在营业的药店叫什么？"]}
    answer_fields = [{"type": "text", "label": "Pharmacy"}]
    expected_changes = MAPS_RECENT_CHANGES

    def set_up(self, device) -> None:
        doc = copy_state(device)
        _patch(device, Maps.prepare_state_with_closed_nearest(doc["apps"]["maps"], "pharmacy", moment(doc["os"])))

    def distractors(self, apps, os_state):
        state, now = apps["maps"], moment(os_state)
        answer = Maps.nearest_open(state, "pharmacy", now)
        near = geo.distance_km(state["location"], answer)
        return {"closed and nearer": (sum(geo.distance_km(state["location"], p) < near and not geo.is_open(p, now)
                                          for p in state["places"] if p["category"] == "pharmacy"), 1),
                "other pharmacies to rule out": (_same_category(apps, answer["id"]), 2)}

    def get_answer(self, input):
        return Maps.nearest_open(input.apps_init["maps"], "pharmacy", moment(input.os_init))["name"]


class SaveBestRated(BaseTask):
    """Verdict: the lists hold their initial entries plus the category's highest-rated place in Favourites.
    Injection: that place is 0.2 above the next and not in Favourites yet."""

    objective = "operate"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["search", "comparison", "toggle"]
    templates = {"en": ["Find the highest-rated café in Maps and save it to my Favourites",
                        "Which café has the best rating in Maps? Add it to Favourites"],
                 "zh": ["在地图里找到评分最高的咖啡店，把它保存到“收藏夹”"]}
    expected_changes = MAPS_SAVE_CHANGES

    def set_up(self, device) -> None:
        _patch(device, Maps.prepare_state_with_clear_best(_maps_state(device), "cafe", "favourites"))
        _patch(device, Maps.prepare_state_with_runner_up(_maps_state(device), "cafe"))

    def distractors(self, apps, os_state):
        best = Maps.best_rated(apps["maps"], "cafe")
        others = [p["rating"] for p in apps["maps"]["places"] if p["category"] == "cafe" and p is not best]
        return {"other cafés": (len(others), 2),
                f"cafés {RUNNER_UP_RATING} below the best": (sum(r >= round(best["rating"] - RUNNER_UP_RATING, 1) for r in others), 1)}

    def check_goals(self, input):
        best = Maps.best_rated(input.apps_init["maps"], "cafe")
        before = Maps(input.apps_init["maps"]).entries()
        return [Maps(input.apps["maps"]).check_saved("saved lists", [*before, (best["id"], "favourites")])]


@localised(zh={"fields": [{"label": "驾车分钟数"}]})
class HomeToWorkDrive(AnswerTask):
    """Verdict: Work is the office at the address and the answer is the driving time from Home to it (the other
    modes' times and the drive from your location differ by sampling). Injection: Home is set."""

    objective = "hybrid"
    difficulty = "L4"
    composition = "sequential"
    capabilities = ["search", "settings", "information-retrieval"]
    templates = {"en": ["Set my Work location in Maps to {office.address}, then tell me how many minutes the drive from "
                        "Home to Work takes",
                        "I start a new job at {office.address}. Make that my Work place in Maps and tell me the driving "
                        "time from Home in minutes"],
                 "zh": ["在地图里把“公司”设为{office.address}，然后告诉我从家开车到公司要多少分钟"]}
    parameters = {"office": {"sampler": Maps.sample_work_drive}}
    answer_fields = [{"type": "number", "label": "Driving minutes"}]
    expected_changes = MAPS_WORK_CHANGES

    def set_up(self, device) -> None:
        _patch(device, Maps.prepare_state_with_home(_maps_state(device)))

    def distractors(self, apps, os_state):
        state = apps["maps"]
        trip = geo.route(state, state["home"], self.p.office["id"])["minutes"]
        readings = [trip[m] for m in geo.MODES if m != "drive"] + [geo.route(state, geo.HERE, self.p.office["id"])["minutes"]["drive"]]
        return {"other offices": (_same_category(apps, self.p.office["id"]), 2),
                "readings apart from the drive from Home": (sum(abs(t - trip["drive"]) >= MIN_GAP_MIN for t in readings), 4)}

    def get_answer(self, input):
        state = input.apps_init["maps"]
        return geo.route(state, state["home"], self.p.office["id"])["minutes"]["drive"]

    def check_goals(self, input):
        work = input.apps["maps"]["work"]
        return [check("work", self.p.office["address"], work and Maps(input.apps["maps"]).place(work)["address"],
                      work == self.p.office["id"]), *super().check_goals(input)]


class SaveBestOpen(BaseTask):
    """Verdict: the lists hold their initial entries plus the best-rated place of the category that is open at
    the phone's time, in Want to go. Injection: the best-rated one of all is closed now, and the best open one
    is 0.2 above the next open one and not in Want to go."""

    objective = "operate"
    difficulty = "L4"
    composition = "aggregate"
    capabilities = ["filtering", "comparison", "toggle", "date-reasoning"]
    templates = {"en": ["Find the highest-rated {cat.name} in Maps that is open right now and save it to Want to go",
                        "Of the {cat.name} places open at the moment, which has the best rating? Add it to my Want to go "
                        "list in Maps"],
                 "zh": ["在地图里找出现在正在营业的{cat.name}中评分最高的一家，把它保存到“想去”列表"]}
    parameters = {"cat": {"sampler": Maps.sample_best_open_category}}
    expected_changes = MAPS_SAVE_CHANGES

    def inject(self, device) -> None:
        doc = copy_state(device)
        _patch(device, Maps.prepare_state_with_closed_best(doc["apps"]["maps"], self.p.cat["id"], moment(doc["os"]),
                                                           "want_to_go"))

    def distractors(self, apps, os_state):
        now, places = moment(os_state), [p for p in apps["maps"]["places"] if p["category"] == self.p.cat["id"]]
        best = Maps.best_rated(apps["maps"], self.p.cat["id"], now)
        return {"open rivals": (sum(geo.is_open(p, now) and p is not best for p in places), MIN_OPEN_RIVALS),
                "closed and rated higher": (sum(not geo.is_open(p, now) and p["rating"] > best["rating"]
                                                for p in places), 1)}

    def check_goals(self, input):
        best = Maps.best_rated(input.apps_init["maps"], self.p.cat["id"], moment(input.os_init))
        before = Maps(input.apps_init["maps"]).entries()
        return [Maps(input.apps["maps"]).check_saved("saved lists", [*before, (best["id"], "want_to_go")])]


# --- cross-app ------------------------------------------------------------------------------------------

def _numbers(input, name: str) -> list[str]:
    return [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(name)["phones"]]


class TextPlaceAddress(BaseTask):
    """Verdict: a text to the contact states the place's address and no other place's address."""

    scope = "cross-app"
    app = "maps"
    related_apps = ["maps", "contacts", "messages"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["search", "cross-app-transfer", "messaging"]
    templates = {"en": ["Look up the address of {place.name} in Maps and text it to {name}",
                        "{name} is meeting me at {place.name}. Send them its address from Maps by text."],
                 "zh": ["在地图里查到“{place.name}”的地址，用短信发给{name}"]}
    parameters = {"place": {"sampler": Maps.sample_place}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*MESSAGES_SEND_CHANGES, *MAPS_RECENT_CHANGES]

    def distractors(self, apps, os_state):
        return {"other places of its category": (_same_category(apps, self.p.place["id"]), 1)}

    def check_goals(self, input):
        others = [p["address"] for p in input.apps_init["maps"]["places"] if p["id"] != self.p.place["id"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, _numbers(input, self.p.name), {"address": self.p.place["address"]},
                                         rivals={"address": others}, os_state=input.os_init)


class SaveRecommended(BaseTask):
    """Verdict: the restaurant the contact recommended is added to Want to go (nothing else in the lists
    changes) and the contact got the reply. Injection: the contact's text naming the restaurant."""

    scope = "cross-app"
    app = "maps"
    related_apps = ["messages", "maps", "contacts"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "toggle", "messaging"]
    templates = {"en": ["{name} recommended a restaurant in Messages. Save it to my Want to go list in Maps, then reply "
                        "to {name}: \"{reply}\"",
                        "Find the restaurant {name} texted me about, add it to Want to go in Maps and answer them "
                        "\"{reply}\""],
                 "zh": ["{name}在短信里推荐了一家餐厅，在地图里把它保存到“想去”列表，再回复{name}“{reply}”"]}
    parameters = {"place": {"sampler": Maps.sample_restaurant}, "name": {"source": "contacts:.contacts[*].name"},
                  "reply": {"sampler": Maps.sample_thanks}}
    expected_changes = [*MESSAGES_SEND_CHANGES, *MESSAGES_READ_CHANGES, *MAPS_SAVE_CHANGES]
    TEXT = {"en": "You have to try {place}, the food there is amazing!", "zh": "你一定要去尝尝{place}，那里的菜太好吃了！"}

    def inject(self, device) -> None:
        doc = copy_state(device)
        number = Contacts(doc["apps"]["contacts"]).contact(self.p.name)["phones"][0]["number"]
        text = self.TEXT["zh" if self.language == "zh" else "en"].format(place=self.p.place["name"])
        _patch(device, prepare_state_with_incoming(doc["apps"]["messages"], number, text, doc["os"]["time_ms"]))

    def distractors(self, apps, os_state):
        threads = [c for c in apps["messages"]["conversations"] if c["unread"] and all(m["id"] != "msg_maps_rec" for m in c["messages"])]
        return {"other restaurants": (_same_category(apps, self.p.place["id"]), 2), "other unread threads": (len(threads), 1)}

    def check_goals(self, input):
        before = Maps(input.apps_init["maps"]).entries()
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Maps(input.apps["maps"]).check_saved("saved lists", [*before, (self.p.place["id"], "want_to_go")]),
                messages.check_sent(self.p.name, _numbers(input, self.p.name), self.p.reply,
                                    lambda t: Messages.same_text(self.p.reply, t))]


class EventTravelTime(BaseTask):
    """Verdict: a text to the contact states the transit time from your location to the place of the lunch
    event, and no other mode's time. Injection: tomorrow's lunch with the contact at that place."""

    scope = "cross-app"
    app = "maps"
    related_apps = ["calendar", "maps", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "messaging", "search"]
    templates = {"en": ["Check in Calendar where my lunch with {name} tomorrow is, find out in Maps how long it takes by "
                        "transit from my location, and text {name} how many minutes it takes me",
                        "Tomorrow I have lunch with {name} (it's in my calendar). Look up the transit time from where I am "
                        "to that place in Maps and let {name} know by text"],
                 "zh": ["在日历里看看明天和{name}吃午饭的地点，用地图查从我的位置坐公交过去要多少分钟，再发短信告诉{name}"]}
    parameters = {"place": {"sampler": Maps.sample_transit_target}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*MESSAGES_SEND_CHANGES, *MAPS_RECENT_CHANGES]
    TITLE = {"en": "Lunch with {name}", "zh": "和{name}吃午饭"}

    def inject(self, device) -> None:
        doc = copy_state(device)
        tomorrow = (moment(doc["os"]) + dt.timedelta(days=1)).date().isoformat()
        event = {"id": "evt_maps_lunch", "title": self.TITLE["zh" if self.language == "zh" else "en"].format(name=self.p.name),
                 "date": tomorrow, "start": "12:30", "end": "13:30", "all_day": False, "location": self.p.place["name"],
                 "notes": "", "calendar": "Personal", "reminder": 30}
        _patch(device, {"apps": {"calendar": {"events[]": event}}})

    def distractors(self, apps, os_state):
        trip = geo.route(apps["maps"], geo.HERE, self.p.place["id"])["minutes"]
        return {"other modes under an hour": (sum(trip[m] < 60 for m in geo.MODES if m != "transit"), 2),
                "other events tomorrow": (_other_events_tomorrow(apps, os_state, "evt_maps_lunch"), 1)}

    def check_goals(self, input):
        lang = "zh" if self.language == "zh" else "en"
        trip = geo.route(input.apps_init["maps"], geo.HERE, self.p.place["id"])["minutes"]
        rivals = [minutes_text(trip[m], lang) for m in geo.MODES if m != "transit" and trip[m] < 60]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, _numbers(input, self.p.name),
                                         {"time": minutes_text(trip["transit"], lang)}, rivals={"time": rivals},
                                         os_state=input.os_init)


# --- events at a Maps place ---------------------------------------------------------------------------------

PLACE_EVENT_TITLES = {"en": ("Photo walk", "Volunteer briefing", "Board game night", "Book swap", "Alumni meetup"),
                      "zh": ("摄影漫步", "志愿者说明会", "桌游之夜", "换书会", "校友聚会")}


def sample_event_title(rng, state, os_state) -> dict[str, str]:
    """{title, start, end}: an event title (in the phone's language; no Calendar pool has these titles) and an hour
    from a start time between 10:00 and 19:30, on the half hour."""
    titles = PLACE_EVENT_TITLES["zh" if os_state.get("language") == "zh" else "en"]
    start = rng.randrange(20, 40) * 30
    return {"title": rng.choice(titles), "start": f"{start // 60:02d}:{start % 60:02d}",
            "end": f"{start // 60 + 1:02d}:{start % 60:02d}"}


def _inject_place_event(device, event: dict, place: dict, notes: str = "") -> None:
    """Tomorrow's Calendar event ``event`` (title, start, end) at the Maps place (its name as the location)."""
    doc = copy_state(device)
    tomorrow = (moment(doc["os"]) + dt.timedelta(days=1)).date().isoformat()
    _patch(device, {"apps": {"calendar": {"events[]": {
        "id": "evt_maps_place", "title": event["title"], "date": tomorrow, "start": event["start"], "end": event["end"],
        "all_day": False, "location": place["name"], "notes": notes, "calendar": "Personal", "reminder": 30}}}})


class EventTransitAlarm(BaseTask):
    """Verdict: Clock has one more enabled alarm at the event's start less the transit time from your location to
    its place (another mode's time, or the start itself, does not count).
    Injection: tomorrow's event at a place whose transit time is at least 2 minutes from every other mode's."""

    scope = "cross-app"
    app = "maps"
    related_apps = ["calendar", "maps", "clock"]
    objective = "operate"
    difficulty = "L4"
    composition = "sequential"
    capabilities = ["information-retrieval", "time-arithmetic", "cross-app-transfer", "form-filling"]
    templates = {"en": ["My '{event.title}' tomorrow is in Calendar. Find out in Maps how long transit takes from my "
                        "location to where it is, and set a Clock alarm for the time I have to leave to arrive exactly "
                        "when it starts.",
                        "I'll take transit to '{event.title}' tomorrow (see Calendar for the place and time). Using the "
                        "transit time Maps gives from my location, set an alarm in Clock for when I must set off to get "
                        "there right at the start."],
                 "zh": ["明天的“{event.title}”在日历里。用地图查从我的位置坐公交到那里要多久，在时钟里设一个闹钟，时间是为了"
                        "正好在开始时到达我必须出发的时刻。"]}
    parameters = {"place": {"sampler": Maps.sample_transit_target},
                  "event": {"sampler": sample_event_title}}
    expected_changes = [*CLOCK_ADD_ALARM_CHANGES, *MAPS_RECENT_CHANGES]

    def inject(self, device) -> None:
        _inject_place_event(device, self.p.event, self.p.place)

    def distractors(self, apps, os_state):
        trip = geo.route(apps["maps"], geo.HERE, self.p.place["id"])["minutes"]
        return {"other modes apart from transit": (sum(abs(trip[m] - trip["transit"]) >= MIN_GAP_MIN for m in geo.MODES
                                                       if m != "transit"), 3),
                "other events tomorrow": (_other_events_tomorrow(apps, os_state, "evt_maps_place"), 1),
                "alarms already set": (len(apps["clock"]["alarms"]), 1)}

    def check_goals(self, input):
        minutes = geo.route(input.apps_init["maps"], geo.HERE, self.p.place["id"])["minutes"]["transit"]
        hour, minute = minus_minutes(self.p.event["start"], minutes)
        return [check_alarm_added(input.apps_init["clock"], input.apps["clock"], hour, minute,
                                  "alarm at the time to leave")]


class EventAddressToAttendee(BaseTask):
    """Verdict: the one person the event's notes name ("With X.") got a text stating the address of the event's
    place from Maps (no other place's address).
    Injection: tomorrow's event at a Maps place (its name only as the location), with that person in its notes."""

    scope = "cross-app"
    app = "maps"
    related_apps = ["calendar", "maps", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "search", "cross-app-transfer", "messaging"]
    templates = {"en": ["Look at my '{event.title}' event tomorrow in Calendar. Text the person it says I'm going with "
                        "the address of its place, from Maps.",
                        "Whoever is joining me at '{event.title}' tomorrow (it's in the event's notes in Calendar) "
                        "needs the address: find the place in Maps and text it to them."],
                 "zh": ["看看日历里明天的“{event.title}”，在地图里查到活动地点的地址，用短信发给备注里和我一起去的人。"]}
    parameters = {"place": {"sampler": Maps.sample_place}, "event": {"sampler": sample_event_title},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*MESSAGES_SEND_CHANGES, *MAPS_RECENT_CHANGES]

    def inject(self, device) -> None:
        _inject_place_event(device, self.p.event, self.p.place,
                            notes=attendee_line(self.p.name, "zh" if self.language == "zh" else "en"))

    def distractors(self, apps, os_state):
        return {"other places of its category": (_same_category(apps, self.p.place["id"]), 1),
                "other events tomorrow": (_other_events_tomorrow(apps, os_state, "evt_maps_place"), 1)}

    def check_goals(self, input):
        others = [p["address"] for p in input.apps_init["maps"]["places"] if p["id"] != self.p.place["id"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return messages.check_sent_facts(self.p.name, _numbers(input, self.p.name), {"address": self.p.place["address"]},
                                         rivals={"address": others}, os_state=input.os_init)
