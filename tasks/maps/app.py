"""Accessor for the Maps app's state: places, travel times, opening hours, saved lists and labels; samplers that
pick targets without near-ties and the injections that make the other readings fail."""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.envs.maps import geo
from mobilegym.judge import BaseApp
from mobilegym.judge.timeutil import sim_datetime
from mobilegym.judge.result import check
from mobilegym.sim.strings import translate

MAPS_RECENT_CHANGES = ["maps.recent"]  # opening a search result puts it in the recent places (history)
MAPS_SAVE_CHANGES = ["maps.saved[+]", *MAPS_RECENT_CHANGES]
MAPS_UNSAVE_CHANGES = ["maps.saved[-id={entry.id}]", *MAPS_RECENT_CHANGES]
MAPS_WORK_CHANGES = ["maps.work", *MAPS_RECENT_CHANGES]
MIN_GAP_MIN = 2     # minutes between the asked travel time and any other reading of it
MIN_GAP_KM = 0.2    # km between the nearest and the next nearest
PUBLIC = ("restaurant", "cafe", "pharmacy", "supermarket", "park", "bank", "cinema", "hotel")
MAX_RUNNER_UP_MIN = 5  # FastestMode: the runner-up mode is this close to the fastest, at most (a near miss)
RUNNER_UP_RATING = 0.2  # SaveBestRated: a café rated this far below the best (the runner-up is brought up to it)
MIN_OPEN_RIVALS = 1  # SaveBestOpen: open places beside the answer, at least (every rival the category has is opened up to two)


def moment(os_state: Mapping[str, Any]) -> dt.datetime:
    """The phone's date and time, to the minute."""
    return sim_datetime(os_state).replace(second=0, microsecond=0)


def list_name(list_id: str, language: str) -> str:
    """A saved list's name as Maps shows it in ``language`` (from the maps catalog)."""
    return translate(geo.__package__, language, geo.LIST_NAMES[list_id])


def mode_name(mode: str, language: str) -> str:
    """A travel mode as Maps shows it in ``language`` (from the maps catalog)."""
    return translate(geo.__package__, language, geo.MODE_LABELS[mode])


class Maps(BaseApp):
    """Places, saved lists, Home and Work."""

    def place(self, place_id: str) -> dict[str, Any]:
        return self.find(".places", id=place_id)

    def saved(self) -> list[dict[str, Any]]:
        return list(self.require(".saved"))

    def entries(self) -> list[tuple[str, str]]:
        """The saved (place, list) pairs, sorted."""
        return sorted((e["place_id"], e["list"]) for e in self.saved())

    def check_saved(self, field: str, expected: list[tuple[str, str]]) -> dict[str, Any]:
        """The lists hold exactly ``expected`` (place id, list) pairs."""
        names = {p["id"]: p["name"] for p in self.require(".places")}
        show = lambda pairs: [f"{names.get(p, p)} in {lst}" for p, lst in sorted(pairs)]  # noqa: E731
        return check(field, show(expected), show(self.entries()), self.entries() == sorted(expected))

    # --- samplers --------------------------------------------------------------------------------------

    @staticmethod
    def _public(state: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [p for p in state["places"] if p["category"] in PUBLIC]

    @staticmethod
    def sample_unsaved_place(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A public place in no list, and a list to save it to: {id, name, list, list_name}."""
        saved = {e["place_id"] for e in state["saved"]}
        chosen = rng.choice([p for p in Maps._public(state) if p["id"] not in saved])
        list_id = rng.choice(geo.LIST_IDS)
        return {"id": chosen["id"], "name": chosen["name"], "list": list_id,
                "list_name": list_name(list_id, os_state.get("language", "en"))}

    @staticmethod
    def sample_saved_entry(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A saved entry: {id, place, name, list, list_name}."""
        entry = rng.choice(state["saved"])
        return {"id": entry["id"], "place": entry["place_id"], "name": geo.place(state, entry["place_id"])["name"],
                "list": entry["list"], "list_name": list_name(entry["list"], os_state.get("language", "en"))}

    @staticmethod
    def sample_place(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        chosen = rng.choice(Maps._public(state))
        return {"id": chosen["id"], "name": chosen["name"], "address": chosen["address"]}

    @staticmethod
    def sample_new_work(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An office that is not Work yet, named by its address."""
        chosen = rng.choice([p for p in state["places"] if p["category"] == "office" and p["id"] != state["work"]])
        return {"id": chosen["id"], "name": chosen["name"], "address": chosen["address"]}

    @staticmethod
    def sample_list(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        list_id = rng.choice(geo.LIST_IDS)
        return {"id": list_id, "name": list_name(list_id, os_state.get("language", "en"))}

    @staticmethod
    def sample_walk_pair(rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
        """Two public places whose walking time is apart from every other mode's by MIN_GAP_MIN or more:
        {a, a_name, b, b_name}."""
        places = Maps._public(state)
        pairs = []
        for _ in range(60):
            a, b = rng.sample(places, 2)
            trip = geo.route(state, a["id"], b["id"])["minutes"]
            if all(abs(trip["walk"] - trip[m]) >= MIN_GAP_MIN for m in geo.MODES if m != "walk") and trip["walk"] <= 150:
                pairs.append((a, b))
                break
        if not pairs:
            raise ValueError("maps: no pair of places with a walking time apart from the other modes")
        a, b = pairs[0]
        return {"a": a["id"], "a_name": a["name"], "b": b["id"], "b_name": b["name"]}

    @staticmethod
    def fastest(state: Mapping[str, Any], start: str, end: str) -> str | None:
        """The fastest mode from start to end, None unless it wins by MIN_GAP_MIN minutes."""
        trip = sorted((t, m) for m, t in geo.route(state, start, end)["minutes"].items())
        return trip[0][1] if trip[1][0] - trip[0][0] >= MIN_GAP_MIN else None

    @staticmethod
    def runner_up_gap(state: Mapping[str, Any], end: str) -> int:
        """Minutes between the fastest and the second fastest mode from your location."""
        trip = sorted(geo.route(state, geo.HERE, end)["minutes"].values())
        return trip[1] - trip[0]

    @staticmethod
    def sample_fastest_target(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A public place whose fastest mode from your location is clear (a runner-up MAX_RUNNER_UP_MIN behind at
        most) and whose answer (mode, minutes) no other
        place has; the mode is drawn first among those some place has (so no mode is the answer in most worlds)."""
        answers = {}
        for p in Maps._public(state):
            mode = Maps.fastest(state, geo.HERE, p["id"])
            if mode and Maps.runner_up_gap(state, p["id"]) <= MAX_RUNNER_UP_MIN:
                answers[p["id"]] = (mode, geo.route(state, geo.HERE, p["id"])["minutes"][mode])
        keys = list(answers.values())
        unique = [pid for pid in answers if keys.count(answers[pid]) == 1]  # no other place has the same answer
        by_mode: dict[str, list[dict[str, Any]]] = {}
        for pid in unique or list(answers):  # a clear one when no answer is unique (rare)
            by_mode.setdefault(answers[pid][0], []).append(geo.place(state, pid))
        if not by_mode:
            raise ValueError("maps: no place has a clear fastest mode")
        chosen = rng.choice(by_mode[rng.choice(sorted(by_mode))])
        return {"id": chosen["id"], "name": chosen["name"]}

    @staticmethod
    def work_drive_offices(state: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The offices, Work aside, whose drive from Home is MIN_GAP_MIN apart from their drive from your location
        and from Home's other modes."""
        found = []
        for p in state["places"]:
            if p["category"] != "office" or p["id"] == state["work"] or not state["home"]:
                continue
            trip = geo.route(state, state["home"], p["id"])["minutes"]
            others = [trip[m] for m in geo.MODES if m != "drive"] + [geo.route(state, geo.HERE, p["id"])["minutes"]["drive"]]
            if all(abs(trip["drive"] - t) >= MIN_GAP_MIN for t in others):
                found.append(p)
        return found

    @staticmethod
    def sample_work_drive(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """An office for :meth:`work_drive_offices` (made to exist by :meth:`prepare_state_with_home`)."""
        pool = Maps.work_drive_offices(state)
        if not pool:
            raise ValueError("maps: no office has a drive from Home apart from the other readings")
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "name": chosen["name"], "address": chosen["address"]}

    @staticmethod
    def nearest_open(state: Mapping[str, Any], category: str, now: dt.datetime) -> dict[str, Any] | None:
        """The nearest place of a category open at ``now``, None unless the next open one is MIN_GAP_KM farther."""
        here = state["location"]
        found = sorted((geo.distance_km(here, p), p["id"]) for p in state["places"]
                       if p["category"] == category and geo.is_open(p, now))
        if not found or (len(found) > 1 and found[1][0] - found[0][0] < MIN_GAP_KM):
            return None
        return geo.place(state, found[0][1])

    @staticmethod
    def prepare_state_with_closed_nearest(state: Mapping[str, Any], category: str, now: dt.datetime) -> dict[str, Any]:
        """A patch making the nearest place of the category closed now (it opens an hour or two later; today no
        closed day) and the nearest open one clear of the next by MIN_GAP_KM (a farther one gets later hours, as
        needed), so that the nearest place and a near-tie both fail."""
        here = state["location"]
        ranked = sorted((p for p in state["places"] if p["category"] == category), key=lambda p: geo.distance_km(here, p))
        patch: dict[str, Any] = {}
        opens = geo.hhmm(min(23 * 60, (now.hour + 2) * 60))
        late = {"open": opens, "closed_days": []}
        patch[f"places[id={ranked[0]['id']}]"] = late
        rest = ranked[1:]
        first = next((p for p in rest if geo.is_open(p, now)), None)
        if first is None:  # none open: the second nearest is
            first = rest[0]
            patch[f"places[id={first['id']}]"] = {"open": "00:00", "close": "24:00", "closed_days": []}
        near = geo.distance_km(here, first)
        for p in rest:
            if p is not first and geo.distance_km(here, p) - near < MIN_GAP_KM and geo.is_open(p, now):
                patch[f"places[id={p['id']}]"] = late
        return {"apps": {"maps": patch}}

    @staticmethod
    def best_rated(state: Mapping[str, Any], category: str, now: dt.datetime | None = None) -> dict[str, Any] | None:
        """The best-rated place of a category (open at ``now`` when given), None on a tie."""
        found = sorted((p for p in state["places"] if p["category"] == category and (now is None or geo.is_open(p, now))),
                       key=lambda p: -p["rating"])
        if not found or (len(found) > 1 and found[0]["rating"] == found[1]["rating"]):
            return None
        return found[0]

    @staticmethod
    def prepare_state_with_clear_best(state: Mapping[str, Any], category: str, list_id: str) -> dict[str, Any]:
        """A patch making the category's best-rated place unique (0.2 above the next) and in no ``list_id`` entry."""
        ranked = sorted((p for p in state["places"] if p["category"] == category), key=lambda p: -p["rating"])
        top = ranked[0]
        patch: dict[str, Any] = {}
        if len(ranked) > 1 and ranked[1]["rating"] > top["rating"] - 0.2:
            patch[f"places[id={top['id']}]"] = {"rating": round(min(5.0, ranked[1]["rating"] + 0.2), 1)}
            if ranked[1]["rating"] >= 4.8:
                patch[f"places[id={top['id']}]"] = {"rating": 5.0}
                for p in ranked[1:]:
                    if p["rating"] > 4.8:
                        patch[f"places[id={p['id']}]"] = {"rating": 4.7}
        kept = [e for e in state["saved"] if not (e["place_id"] == top["id"] and e["list"] == list_id)]
        if len(kept) != len(state["saved"]):
            patch["saved"] = kept
        return {"apps": {"maps": patch}}

    @staticmethod
    def prepare_state_with_closed_best(state: Mapping[str, Any], category: str, now: dt.datetime,
                                       list_id: str) -> dict[str, Any]:
        """A patch where the category's best-rated place is closed now (opens two hours later), at least
        MIN_OPEN_RIVALS other places are open beside the best-rated open one (opened all day when too few are), and
        that one is 0.2 above the next open one and in no ``list_id`` entry."""
        ranked = sorted((p for p in state["places"] if p["category"] == category), key=lambda p: -p["rating"])
        patch: dict[str, Any] = {}
        opens = geo.hhmm(min(23 * 60, (now.hour + 2) * 60))
        closed, rest = ranked[0], ranked[1:]
        patch[f"places[id={closed['id']}]"] = {"open": opens, "closed_days": [], "rating": 4.9}
        open_now = [p for p in rest if geo.is_open(p, now)]
        for p in rest:  # distractors: at least MIN_OPEN_RIVALS open places beside the best open one
            if len(open_now) > max(MIN_OPEN_RIVALS, 2):  # two rivals when the category has them
                break
            if p not in open_now:
                open_now.append(p)
                patch[f"places[id={p['id']}]"] = {"open": "06:00", "close": "23:00", "closed_days": []}
        open_now.sort(key=lambda p: -p["rating"])
        best = open_now[0]
        rating = 4.7
        patch[f"places[id={best['id']}]"] = {**patch.get(f"places[id={best['id']}]", {}), "rating": rating}
        for p in rest:
            if p is not best and p["rating"] > rating - 0.2:
                patch[f"places[id={p['id']}]"] = {**patch.get(f"places[id={p['id']}]", {}),
                                                   "rating": round(rating - 0.2 - 0.1 * (p["rating"] > 4.6), 1)}
        kept = [e for e in state["saved"] if not (e["place_id"] == best["id"] and e["list"] == list_id)]
        if len(kept) != len(state["saved"]):
            patch["saved"] = kept
        return {"apps": {"maps": patch}}

    @staticmethod
    def prepare_state_with_apart_counts(state: Mapping[str, Any], list_id: str) -> dict[str, Any]:
        """A patch adding public places to the other list until the two lists' counts differ (and the asked list
        is not empty)."""
        counts = {lid: sum(e["list"] == lid for e in state["saved"]) for lid in geo.LIST_IDS}
        other = next(lid for lid in geo.LIST_IDS if lid != list_id)
        saved = list(state["saved"])
        free = [p["id"] for p in Maps._public(state) if (p["id"], list_id) not in {(e["place_id"], e["list"]) for e in saved}]
        if counts[list_id] == 0:
            saved.append({"id": "sv_prep_1", "place_id": free[0], "list": list_id})
            counts[list_id] = 1
        if counts[other] == counts[list_id]:
            taken = {e["place_id"] for e in saved if e["list"] == other}
            pid = next(p["id"] for p in Maps._public(state) if p["id"] not in taken)
            saved.append({"id": "sv_prep_2", "place_id": pid, "list": other})
        return {"apps": {"maps": {"saved": saved}}} if saved != list(state["saved"]) else {}

    @staticmethod
    def prepare_state_with_runner_up(state: Mapping[str, Any], category: str) -> dict[str, Any]:
        """A patch bringing the category's second-rated place up to RUNNER_UP_RATING below the best (a near miss)
        when it is farther below."""
        ranked = sorted((p for p in state["places"] if p["category"] == category), key=lambda p: -p["rating"])
        near = round(ranked[0]["rating"] - RUNNER_UP_RATING, 1)
        if len(ranked) < 2 or ranked[1]["rating"] >= near:
            return {}
        return {"apps": {"maps": {f"places[id={ranked[1]['id']}]": {"rating": near}}}}

    @staticmethod
    def prepare_state_with_two_each(state: Mapping[str, Any]) -> dict[str, Any]:
        """A patch adding public places to each list holding fewer than two (so a wrong row is there to pick)."""
        saved = list(state["saved"])
        for list_id in geo.LIST_IDS:
            taken = [e["place_id"] for e in saved if e["list"] == list_id]
            extra = [p["id"] for p in Maps._public(state) if p["id"] not in taken][:max(0, 2 - len(taken))]
            saved += [{"id": f"sv_prep_{list_id}_{n}", "place_id": pid, "list": list_id} for n, pid in enumerate(extra)]
        return {"apps": {"maps": {"saved": saved}}} if len(saved) != len(state["saved"]) else {}

    @staticmethod
    def prepare_state_with_home(state: Mapping[str, Any]) -> dict[str, Any]:
        """A patch setting Home (the current one when it will do, else another residence; an office's traffic
        changed as a last resort) so that some office's drive from Home stands apart
        (:meth:`work_drive_offices`)."""
        residences = sorted((p["id"] for p in state["places"] if p["category"] == "residence"),
                            key=lambda pid: pid != state["home"])
        offices = [p for p in state["places"] if p["category"] == "office" and p["id"] != state["work"]]
        for congestion in (None, 0.0, 2.0):
            places = [dict(p, congestion=congestion) if congestion is not None and p in offices else p
                      for p in state["places"]]
            for home in residences:
                if Maps.work_drive_offices({**state, "places": places, "home": home}):
                    patch: dict[str, Any] = {"home": home} if home != state["home"] else {}
                    if congestion is not None:
                        patch.update({f"places[id={p['id']}]": {"congestion": congestion} for p in offices})
                    return {"apps": {"maps": patch}} if patch else {}
        raise ValueError("maps: no Home gives an office a drive apart from the other readings")

    @staticmethod
    def sample_best_open_category(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> dict[str, str]:
        """A category for "the best-rated one open now" with room for its distractors (2 + MIN_OPEN_RIVALS places):
        {id, name} (name as an instruction says it)."""
        names = {"cafe": ("café", "咖啡店"), "restaurant": ("restaurant", "餐厅"), "supermarket": ("grocery store", "超市")}
        need = 2 + MIN_OPEN_RIVALS  # the closed best-rated one, the answer and its open rivals
        roomy = [c for c in sorted(names) if sum(p["category"] == c for p in state["places"]) >= need]
        if not roomy:
            raise ValueError(f"maps: no category of {', '.join(sorted(names))} has {need} places")
        chosen = rng.choice(roomy)
        return {"id": chosen, "name": names[chosen][os_state.get("language", "en") == "zh"]}

    @staticmethod
    def sample_transit_target(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A public place reached by transit from your location in under an hour, every other mode at least
        MIN_GAP_MIN minutes apart from it."""
        pool = []
        for p in Maps._public(state):
            trip = geo.route(state, geo.HERE, p["id"])["minutes"]
            if trip["transit"] < 60 and all(abs(trip["transit"] - trip[m]) >= MIN_GAP_MIN for m in geo.MODES if m != "transit"):
                pool.append(p)
        if not pool:
            raise ValueError("maps: no place has a transit time apart from the other modes")
        chosen = rng.choice(pool)
        return {"id": chosen["id"], "name": chosen["name"], "address": chosen["address"]}

    @staticmethod
    def sample_restaurant(rng: random.Random, state: dict[str, Any]) -> dict[str, str]:
        """A restaurant in no list."""
        saved = {e["place_id"] for e in state["saved"]}
        chosen = rng.choice([p for p in state["places"] if p["category"] == "restaurant" and p["id"] not in saved])
        return {"id": chosen["id"], "name": chosen["name"]}

    @staticmethod
    def sample_thanks(rng: random.Random, state: dict[str, Any], os_state: Mapping[str, Any]) -> str:
        """A short thank-you reply in the phone's language."""
        replies = {"en": ("Thanks, saved it!", "Saved, let's go soon!"), "zh": ("谢谢，已经收藏了！", "收藏了，改天一起去！")}
        return rng.choice(replies["zh" if os_state.get("language") == "zh" else "en"])


def minutes_text(minutes: int, language: str) -> str:
    """"25 min" / "25分钟" (times under an hour)."""
    return f"{minutes}分钟" if language == "zh" else f"{minutes} min"


def prepare_state_with_incoming(messages: Mapping[str, Any], number: str, text: str, now_ms: int) -> dict[str, Any]:
    """A patch adding an incoming text from ``number`` an hour ago, unread (to its thread, or a new one)."""
    message = {"id": "msg_maps_rec", "text": text, "time_ms": now_ms - 3600 * 1000, "incoming": True}
    conv = next((c for c in messages["conversations"] if c["address"] == number), None)
    if conv is None:
        return {"apps": {"messages": {"conversations[]": {"id": "conv_maps_rec", "address": number, "unread": 1,
                                                         "messages": [message]}}}}
    return {"apps": {"messages": {f"conversations[id={conv['id']}]": {"messages": [*conv["messages"], message],
                                                                      "unread": conv["unread"] + 1}}}}
