"""Trains tasks.

Task index:
    CountUpcomingTrips        query    L1  how many trips are booked and not yet taken
    NextTripTrain             query    L1  the train number of the next trip
    FastestTrain              query    L2  the fastest train of a route on a day
    AddPassenger              operate  L2  save a passenger with a name and an ID number
    RemovePassenger           operate  L2  remove a saved passenger (high risk: a deletion)
    CheapestFirstClass        query    L3  the cheapest first-class fare that still has seats, and its train
    CancelTripOnDate          operate  L3  cancel the trip of a day (high risk: a refund)
    CancelAndReportRefund     hybrid   L3  cancel the trip to a city and say what comes back (high risk)
    BookEarliestSecondClass   operate  L4  book the earliest train with second-class seats for a passenger (high risk)
    TextNextTrain             operate  L3  Trains -> Contacts -> Messages: text the next train and its departure
    TripToCalendar            operate  L4  Trains -> Calendar -> Messages: the trip as an event, text the arrival time
    BookForCalendarEvent      operate  L4  Calendar -> Trains -> Messages: book the last train that arrives an hour
                                           before the event, text the train number (high risk)
    BookEventTrainWithAlarm   operate  L4  Calendar -> Trains -> Clock: book the last train that arrives an hour before
                                           the event, an alarm two hours before it leaves (high risk)
    NextTrainAlarmAndText     operate  L4  Trains -> Clock -> Messages: an alarm 90 minutes before the next train
                                           leaves, text the train and its departure station (high risk)
"""
from __future__ import annotations

from mobilegym.judge import AnswerTask, BaseTask, build_answer_checks, copy_state, normalize_text, sim_datetime
from mobilegym.judge.result import check

from ..calendar.app import CALENDAR_ADD_EVENT_CHANGES, Calendar
from ..clock.app import CLOCK_ADD_ALARM_CHANGES, check_alarm_added, minus_minutes
from ..contacts.app import Contacts
from ..l10n import PASSCODE_EN, localised
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from .app import (MIN_UPCOMING, TRAINS_ADD_PASSENGER_CHANGES, TRAINS_BOOK_CHANGES, TRAINS_CANCEL_CHANGES,
                  TRAINS_REMOVE_PASSENGER_CHANGES, UPCOMING_SPAN, Trains, event_train_rivals, latest_before,
                  sample_event_trip, with_min_upcoming)

PASSCODE_ZH = "支付密码是{passcode}。"
MONEY_HINT, MONEY_HINT_ZH = "e.g. 553.5", "例如 553.5"


@localised(zh={"fields": [{"label": "行程数"}]})
class CountUpcomingTrips(AnswerTask):
    """Verdict: the answer is the number of paid trips whose train has not left yet (refunded and travelled ones
    do not count). Injection: one to UPCOMING_SPAN trips are upcoming, the count spread over the worlds
    (tasks/spread.py; extra ones refunded, missing ones booked)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval", "counting"]
    templates = {"en": ["How many upcoming train trips do I have booked in Trains?",
                        "Count my train trips in Trains that I haven't taken yet."],
                 "zh": ["我在火车票里还有几个未出行的行程？"]}
    answer_fields = [{"type": "number", "label": "Trips"}]

    def set_up(self, device) -> None:
        state = copy_state(device)
        want = self.spread.count(1, UPCOMING_SPAN) if self.spreads else self.rng.randint(1, 7)
        patch = Trains.prepare_state_with_upcoming(self.rng, state["apps"]["trains"], sim_datetime(state["os"]), want)
        if patch:
            device.set_state(patch)

    def get_answer(self, input):
        return len(Trains(input.apps_init["trains"]).upcoming(sim_datetime(input.os_init)))

    def check_goals(self, input):
        return build_answer_checks(self.get_answer(input), input.answer, "trips")


@localised(zh={"fields": [{"label": "车次"}]})
class NextTripTrain(AnswerTask):
    """Verdict: the answer is the train number of the soonest upcoming trip (no other booked train's)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["Which train is my next trip in Trains? Tell me the train number."],
                 "zh": ["我在火车票里下一趟行程是哪个车次？"]}
    answer_fields = [{"type": "text", "label": "Train number"}]

    def get_answer(self, input):
        return Trains(input.apps_init["trains"]).upcoming(sim_datetime(input.os_init))[0]["train"]

    def check_goals(self, input):
        others = [o["train"] for o in input.apps_init["trains"]["orders"] if o["train"] != self.get_answer(input)]
        return build_answer_checks(self.get_answer(input), input.answer, "train", rivals=others)


@localised(zh={"fields": [{"label": "车次"}]})
class FastestTrain(AnswerTask):
    """Verdict: the answer is the number of the route's train with the shortest journey that day (journey times on
    a route are distinct, so one train is the answer); the other trains of the day are rivals."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["information-retrieval", "comparison", "date-picking"]
    templates = {"en": ["Which train from {trip.from} to {trip.to} on {trip.day} takes the least time? Check in Trains "
                        "and give me the train number."],
                 "zh": ["在火车票里查一下{trip.day}从{trip.from}到{trip.to}耗时最短的是哪个车次？"]}
    parameters = {"trip": {"sampler": Trains.sample_trip}}
    answer_fields = [{"type": "text", "label": "Train number"}]

    def _trains(self, input) -> list[dict]:
        trip = self.p.trip
        return Trains(input.apps_init["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"])

    def get_answer(self, input):
        return min(self._trains(input), key=lambda t: t["minutes"])["number"]

    def check_goals(self, input):
        best = self.get_answer(input)
        return build_answer_checks(best, input.answer, "train",
                                   rivals=[t["number"] for t in self._trains(input) if t["number"] != best])


class AddPassenger(BaseTask):
    """Verdict: exactly one new passenger, with the name and the ID number (spaces and case aside); the saved
    passengers are kept."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling"]
    templates = {"en": ["Add {person.name} to my passengers in Trains. Their passport number is {person.id_number}.",
                        "Save a new passenger in Trains: {person.name}, passport number {person.id_number}."],
                 "zh": ["在火车票里添加乘车人{person.name}，身份证号码{person.id_number}。"]}
    parameters = {"person": {"sampler": Trains.sample_new_passenger}}
    expected_changes = TRAINS_ADD_PASSENGER_CHANGES

    def check_goals(self, input):
        before = input.apps_init["trains"]["passengers"]
        now = input.apps["trains"]["passengers"]
        new = now[len(before):]
        person = new[0] if len(new) == 1 else None
        same = lambda a, b: normalize_text(a).replace(" ", "") == normalize_text(b).replace(" ", "")  # noqa: E731
        return [check("new passengers", 1, len(new), len(new) == 1),
                check("name", self.p.person["name"], person and person["name"],
                      person is not None and normalize_text(person["name"]) == normalize_text(self.p.person["name"])),
                check("ID number", self.p.person["id_number"], person and person["id_number"],
                      person is not None and same(person["id_number"], self.p.person["id_number"])),
                check("passengers kept", before, now[:len(before)], now[:len(before)] == before)]


class RemovePassenger(BaseTask):
    """Verdict: the named passenger is gone and every other passenger is as it was."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["deletion", "confirmation"]
    high_risk = True
    templates = {"en": ["Remove {passenger} from my saved passengers in Trains.",
                        "I no longer book tickets for {passenger}: delete them from the passengers in Trains."],
                 "zh": ["在火车票里把乘车人{passenger}删掉。"]}
    parameters = {"passenger": {"sampler": Trains.sample_passenger}}
    expected_changes = TRAINS_REMOVE_PASSENGER_CHANGES

    def check_goals(self, input):
        now = input.apps["trains"]["passengers"]
        kept = [p for p in input.apps_init["trains"]["passengers"] if p["name"] != self.p.passenger]
        return [check(f"{self.p.passenger} removed", None, [p["name"] for p in now if p["name"] == self.p.passenger] or None,
                      all(p["name"] != self.p.passenger for p in now)),
                check("other passengers kept", kept, now, [p for p in now if p["name"] != self.p.passenger] == kept)]


@localised(zh={"fields": [{"label": "车次"}, {"label": "票价", "hint": MONEY_HINT_ZH}]})
class CheapestFirstClass(AnswerTask):
    """Verdict: the answer names the train with the lowest first-class fare among those with first-class seats left
    that day, and the fare. Sampled so that (in most worlds) a cheaper first-class fare is sold out: reading the
    lowest fare on the list is wrong."""

    objective = "query"
    difficulty = "L3"
    capabilities = ["information-retrieval", "comparison", "filtering", "date-picking"]
    templates = {"en": ["What's the cheapest first-class ticket I can still buy from {trip.from} to {trip.to} on "
                        "{trip.day}? Look in Trains and tell me the train and the fare."],
                 "zh": ["在火车票里查一下{trip.day}从{trip.from}到{trip.to}还能买到的最便宜的一等座是哪趟车，票价多少？"]}
    parameters = {"trip": {"sampler": Trains.sample_trip_first_class_trap}}
    answer_fields = [{"type": "text", "label": "Train"}, {"type": "text", "label": "Fare", "hint": MONEY_HINT}]

    def _trains(self, input) -> list[dict]:
        trip = self.p.trip
        return [t for t in Trains(input.apps_init["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"])
                if "first" in t["prices"]]

    def distractors(self, apps, os_state):
        trip = self.p.trip
        firsts = [t for t in Trains(apps["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"]) if "first" in t["prices"]]
        best = min((t["prices"]["first"] for t in firsts if t["left"]["first"]), default=0)
        return {"trains with first class": (len(firsts), 2),
                "cheaper first class sold out": (sum(not t["left"]["first"] and t["prices"]["first"] < best for t in firsts), 1)}

    def get_answer(self, input):
        best = min((t for t in self._trains(input) if t["left"]["first"]), key=lambda t: t["prices"]["first"])
        return {"train": best["number"], "fare": best["prices"]["first"]}

    def check_goals(self, input):
        want = self.get_answer(input)
        others = [t for t in self._trains(input) if t["number"] != want["train"]]
        return build_answer_checks(want, input.answer, rivals={"train": [t["number"] for t in others],
                                                               "fare": [str(t["prices"]["first"]) for t in others]})


class CancelTripOnDate(BaseTask):
    """Verdict: the trip of the day is refunded and every other order is as it was.
    Injection: MIN_UPCOMING upcoming trips at least (with_min_upcoming)."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["deletion", "confirmation", "date-reasoning"]
    high_risk = True
    templates = {"en": ["I'm not travelling on {order.day} any more. Cancel that train trip in Trains.",
                        "Cancel my train ticket for {order.day} in Trains and get the refund."],
                 "zh": ["我{order.day}不出行了，帮我在火车票里把那天的车票退掉。"]}
    parameters = {"order": {"sampler": Trains.sample_upcoming_order}}
    expected_changes = TRAINS_CANCEL_CHANGES

    def set_up(self, device) -> None:
        with_min_upcoming(device, self.rng)

    def distractors(self, apps, os_state):
        return {"other upcoming trips to keep": (len(Trains(apps["trains"]).upcoming(sim_datetime(os_state))) - 1, MIN_UPCOMING - 1)}

    def check_goals(self, input):
        return Trains(input.apps["trains"], input.apps_init["trains"]).check_cancelled(self.p.order["id"])


@localised(zh={"fields": [{"label": "退款金额", "hint": MONEY_HINT_ZH}]})
class CancelAndReportRefund(BaseTask):
    """Verdict: the trip to the city is refunded (no other order changes) and the answer is the refund the app
    gave (the fare minus the fee, which depends on how soon the train leaves).
    Injection: MIN_UPCOMING upcoming trips at least (with_min_upcoming)."""

    objective = "hybrid"
    difficulty = "L3"
    capabilities = ["deletion", "confirmation", "information-retrieval"]
    composition = "sequential"
    high_risk = True
    templates = {"en": ["Cancel my train trip to {order.city} on {order.day} in Trains, and tell me how much money "
                        "I get back."],
                 "zh": ["在火车票里退掉{order.day}去{order.city}的车票，并告诉我能退回多少钱。"]}
    parameters = {"order": {"sampler": Trains.sample_upcoming_order}}
    expected_changes = TRAINS_CANCEL_CHANGES
    answer_fields = [{"type": "text", "label": "Refund", "hint": MONEY_HINT}]

    def set_up(self, device) -> None:
        with_min_upcoming(device, self.rng)

    def distractors(self, apps, os_state):
        return {"other upcoming trips to keep": (len(Trains(apps["trains"]).upcoming(sim_datetime(os_state))) - 1, MIN_UPCOMING - 1)}

    def check_goals(self, input):
        trains = Trains(input.apps["trains"], input.apps_init["trains"])
        checks = trains.check_cancelled(self.p.order["id"])
        order = next((o for o in trains.orders() if o["id"] == self.p.order["id"]), None)
        if order is None or order["status"] != "refunded":
            return [*checks, check("refund", "the refund of the cancelled trip", input.answer, False)]
        rivals = [str(order["total"])] if order["total"] != order["refund"] else []
        return [*checks, *build_answer_checks(order["refund"], input.answer, "refund", rivals=rivals)]


class BookEarliestSecondClass(BaseTask):
    """Verdict: one new paid order: the earliest train of the day with second-class seats left, second class, for
    exactly the passenger. Sampled so that (in most worlds) the day's first train has no second-class seats."""

    objective = "operate"
    difficulty = "L4"
    capabilities = ["payment", "confirmation", "date-picking", "filtering"]
    composition = "conditional"
    high_risk = True
    templates = {"en": ["Book {passenger} a second-class seat on the earliest train from {trip.from} to {trip.to} on "
                        "{trip.day} that still has second-class seats, in Trains." + PASSCODE_EN],
                 "zh": ["在火车票里给{passenger}订一张{trip.day}从{trip.from}到{trip.to}的二等座，要最早一趟还有二等座的车。"
                        + PASSCODE_ZH]}
    parameters = {"trip": {"sampler": Trains.sample_trip_second_class_trap},
                  "passenger": {"sampler": Trains.sample_passenger}, "passcode": {"sampler": Trains.sample_passcode}}
    expected_changes = TRAINS_BOOK_CHANGES

    def distractors(self, apps, os_state):
        trip = self.p.trip
        trains = Trains(apps["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"])
        first = next((i for i, t in enumerate(trains) if t["left"]["second"]), 0)
        return {"trains of the day": (len(trains), 2), "earlier trains with no second class left": (first, 1)}

    def check_goals(self, input):
        trip = self.p.trip
        trains = Trains(input.apps_init["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"])
        train = next(t for t in trains if t["left"]["second"])
        now = Trains(input.apps["trains"], input.apps_init["trains"])
        return now.check_booking(trip, train["number"], "second", [self.p.passenger])


def next_trip_rivals(apps, os_state) -> dict[str, tuple[int, int]]:
    """The distractors of the next upcoming trip: other booked trains, later upcoming trips."""
    upcoming = Trains(apps["trains"]).upcoming(sim_datetime(os_state))
    return {"other booked trains not to name": (sum(o["train"] != upcoming[0]["train"] for o in apps["trains"]["orders"]), 1),
            "later upcoming trips": (len(upcoming) - 1, MIN_UPCOMING - 1)}


# --- cross-app -------------------------------------------------------------------------------------------------

class TextNextTrain(BaseTask):
    """Verdict: a text went to the contact stating the train number and the departure time of the soonest upcoming
    trip (no other booked train's number, no other upcoming departure time).
    Injection: MIN_UPCOMING upcoming trips at least (with_min_upcoming)."""

    scope = "cross-app"
    app = "trains"
    related_apps = ["trains", "contacts", "messages"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "messaging"]
    templates = {"en": ["Look up my next train trip in Trains and text {name} the train number and what time it leaves.",
                        "Let {name} know by text which train I'm taking next and its departure time (it's in Trains)."],
                 "zh": ["在火车票里查一下我下一趟行程，把车次和发车时间发短信告诉{name}。"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def set_up(self, device) -> None:
        with_min_upcoming(device, self.rng)

    def distractors(self, apps, os_state):
        return next_trip_rivals(apps, os_state)

    def check_goals(self, input):
        upcoming = Trains(input.apps_init["trains"]).upcoming(sim_datetime(input.os_init))
        order = upcoming[0]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        rivals = {"train": [o["train"] for o in input.apps_init["trains"]["orders"] if o["train"] != order["train"]],
                  "departure": [o["depart"] for o in upcoming[1:] if o["depart"] != order["depart"]] + [order["arrive"]]}
        return messages.check_sent_facts(self.p.name, numbers, {"train": order["train"], "departure": order["depart"]},
                                         rivals=rivals, os_state=input.os_init)


class TripToCalendar(BaseTask):
    """Verdict: a new Calendar event titled with the trip's train number, on its day from its departure to its
    arrival time, at its departure station; and a text to the contact stating the arrival time (not the departure).
    Injection: MIN_UPCOMING upcoming trips at least (with_min_upcoming)."""

    scope = "cross-app"
    app = "trains"
    related_apps = ["trains", "calendar", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "form-filling", "messaging"]
    templates = {"en": ["Put my train trip on {order.day} into Calendar: title it with the train number, from its "
                        "departure to its arrival time, with the departure station as the location. Then text {name} "
                        "what time I arrive."],
                 "zh": ["把我{order.day}的火车行程加到日历里：标题写车次，时间从发车到到达，地点填出发站。然后发短信告诉{name}我几点到。"]}
    parameters = {"order": {"sampler": Trains.sample_upcoming_order}, "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CALENDAR_ADD_EVENT_CHANGES, *MESSAGES_SEND_CHANGES]

    def set_up(self, device) -> None:
        with_min_upcoming(device, self.rng)

    def distractors(self, apps, os_state):
        return {"other upcoming trips": (len(Trains(apps["trains"]).upcoming(sim_datetime(os_state))) - 1, MIN_UPCOMING - 1)}

    def check_goals(self, input):
        init = input.apps_init["trains"]
        order = next(o for o in init["orders"] if o["id"] == self.p.order["id"])
        calendar = Calendar(input.apps["calendar"], init=input.apps_init["calendar"])
        found = [e for e in calendar.new_events() if order["train"].casefold() in e["title"].casefold()]
        station = next(s["name"] for s in init["stations"] if s["id"] == order["from"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Calendar.check_event("train event", found[0] if len(found) == 1 else None,
                                     {"date": order["date"], "all_day": False, "start": order["depart"],
                                      "end": order["arrive"], "location": station}),
                *messages.check_sent_facts(self.p.name, numbers, {"arrival": order["arrive"]},
                                           rivals={"arrival": [order["depart"]]}, os_state=input.os_init)]


class BookForCalendarEvent(BaseTask):
    """Verdict: one new paid second-class order for the owner alone, on the latest train of the day from the
    station to the event's city that has second-class seats and arrives an hour or more before the event starts;
    and a text to the contact naming that train (no other train of the day).
    Injection: the Calendar event (title, day, start, the city as its location)."""

    scope = "cross-app"
    app = "trains"
    related_apps = ["calendar", "trains", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["time-arithmetic", "cross-app-transfer", "payment", "messaging"]
    templates = {"en": ["I'm in {trip.from} and need to get to my '{trip.title}' event (see Calendar) by train. In Trains, "
                        "book me a second-class seat on the last train from {trip.from} that day that gets me to the "
                        "event's city at least an hour before it starts, then text {name} the train number."
                        + PASSCODE_EN],
                 "zh": ["我在{trip.from}，要坐火车去参加日历里的“{trip.title}”。在火车票里给我本人订一张当天从{trip.from}"
                        "出发、在日程开始前至少一小时到达日程所在城市的最晚一趟车的二等座，然后把车次发短信告诉{name}。"
                        + PASSCODE_ZH]}
    parameters = {"trip": {"sampler": sample_event_trip}, "name": {"source": "contacts:.contacts[*].name"},
                  "passcode": {"sampler": Trains.sample_passcode}}
    expected_changes = [*TRAINS_BOOK_CHANGES, *MESSAGES_SEND_CHANGES]

    def inject(self, device) -> None:
        trip = self.p.trip
        event = {"id": "evt_trip", "title": trip["title"], "date": trip["date"], "start": trip["start"], "end": trip["end"],
                 "all_day": False, "location": trip["city"], "notes": "", "calendar": "Work", "reminder": 60}
        device.set_state({"apps": {"calendar": {"events[]": event}}})

    def distractors(self, apps, os_state):
        trip = self.p.trip
        return event_train_rivals(Trains(apps["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"]), trip["start"])

    def check_goals(self, input):
        trip = self.p.trip
        trains = Trains(input.apps_init["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"])
        train = latest_before(trains, trip["start"])
        owner = Trains(input.apps_init["trains"]).owner()["name"]
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [*Trains(input.apps["trains"], input.apps_init["trains"]).check_booking(trip, train["number"], "second",
                                                                                        [owner]),
                *messages.check_sent_facts(self.p.name, numbers, {"train": train["number"]},
                                           rivals={"train": [t["number"] for t in trains if t is not train]},
                                           os_state=input.os_init)]


ALARM_LEAD_MINUTES = 120  # BookEventTrainWithAlarm: the alarm rings this long before the train leaves


def _inject_trip_event(device, trip) -> None:
    """The Calendar event a trip is for (title, day, start, the city as its location)."""
    event = {"id": "evt_trip", "title": trip["title"], "date": trip["date"], "start": trip["start"], "end": trip["end"],
             "all_day": False, "location": trip["city"], "notes": "", "calendar": "Work", "reminder": 60}
    device.set_state({"apps": {"calendar": {"events[]": event}}})


class BookEventTrainWithAlarm(BaseTask):
    """Verdict: one new paid second-class order for the owner alone, on the latest train of the day from the
    station to the event's city that has second-class seats and arrives an hour or more before the event starts;
    and Clock has one more enabled alarm two hours before that train departs (another train's departure, or the
    arrival, does not count). Injection: the Calendar event (title, day, start, the city as its location)."""

    scope = "cross-app"
    app = "trains"
    related_apps = ["calendar", "trains", "clock"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["time-arithmetic", "cross-app-transfer", "payment", "form-filling"]
    templates = {"en": ["I'm in {trip.from} and have to be at my '{trip.title}' event (it's in Calendar). In Trains, book "
                        "me a second-class seat on the last train from {trip.from} that day that reaches the event's "
                        "city at least an hour before it starts, then set a Clock alarm two hours before that train "
                        "leaves." + PASSCODE_EN,
                        "Get me to '{trip.title}' from {trip.from} by train: look the event up in Calendar, book "
                        "myself a second-class seat on the latest train that day arriving in its city an hour or more "
                        "before the start, and add an alarm in Clock for two hours before the train departs."
                        + PASSCODE_EN],
                 "zh": ["我在{trip.from}，要去参加日历里的“{trip.title}”。在火车票里给我本人订一张当天从{trip.from}出发、在日程"
                        "开始前至少一小时到达日程所在城市的最晚一趟车的二等座，再在时钟里设一个发车前两小时的闹钟。" + PASSCODE_ZH]}
    parameters = {"trip": {"sampler": sample_event_trip}, "passcode": {"sampler": Trains.sample_passcode}}
    expected_changes = [*TRAINS_BOOK_CHANGES, *CLOCK_ADD_ALARM_CHANGES]

    def inject(self, device) -> None:
        _inject_trip_event(device, self.p.trip)

    def distractors(self, apps, os_state):
        trip = self.p.trip
        return event_train_rivals(Trains(apps["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"]), trip["start"])

    def check_goals(self, input):
        trip = self.p.trip
        trains = Trains(input.apps_init["trains"]).trains(trip["from_id"], trip["to_id"], trip["date"])
        train = latest_before(trains, trip["start"])
        owner = Trains(input.apps_init["trains"]).owner()["name"]
        hour, minute = minus_minutes(train["depart"], ALARM_LEAD_MINUTES)
        return [*Trains(input.apps["trains"], input.apps_init["trains"]).check_booking(trip, train["number"], "second",
                                                                                        [owner]),
                check_alarm_added(input.apps_init["clock"], input.apps["clock"], hour, minute,
                                  "alarm two hours before departure")]


NEXT_TRAIN_LEAD_MINUTES = 90  # NextTrainAlarmAndText: the alarm rings this long before the next train leaves


class NextTrainAlarmAndText(BaseTask):
    """Verdict: Clock has one more enabled alarm 90 minutes before the soonest upcoming trip's departure, and the
    contact got a text stating that trip's train number (no other booked train's) and its departure station (no
    other station: the arrival station fails).
    Injection: MIN_UPCOMING upcoming trips at least (with_min_upcoming)."""

    scope = "cross-app"
    app = "trains"
    related_apps = ["trains", "clock", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "time-arithmetic", "cross-app-transfer", "messaging"]
    templates = {"en": ["Find my next train trip in Trains. Set a Clock alarm 90 minutes before it departs, and text "
                        "{name} the train number and the station I leave from.",
                        "{name} is seeing me off for my next train (it's in Trains): text them the train number and the "
                        "departure station, and set an alarm in Clock an hour and a half before the train leaves."],
                 "zh": ["在火车票里找到我下一趟行程，在时钟里设一个发车前90分钟的闹钟，再把车次和出发站发短信告诉{name}。"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*CLOCK_ADD_ALARM_CHANGES, *MESSAGES_SEND_CHANGES]

    def set_up(self, device) -> None:
        with_min_upcoming(device, self.rng)

    def distractors(self, apps, os_state):
        return next_trip_rivals(apps, os_state)

    def check_goals(self, input):
        init = input.apps_init["trains"]
        upcoming = Trains(init).upcoming(sim_datetime(input.os_init))
        if not upcoming:
            raise ValueError("trains: no upcoming trip")
        order = upcoming[0]
        station = next(s["name"] for s in init["stations"] if s["id"] == order["from"])
        hour, minute = minus_minutes(order["depart"], NEXT_TRAIN_LEAD_MINUTES)
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        rivals = {"train": [o["train"] for o in init["orders"] if o["train"] != order["train"]],
                  "station": [s["name"] for s in init["stations"] if s["name"] != station]}
        return [check_alarm_added(input.apps_init["clock"], input.apps["clock"], hour, minute,
                                  "alarm 90 minutes before departure"),
                *messages.check_sent_facts(self.p.name, numbers, {"train": order["train"], "station": station},
                                           rivals=rivals, os_state=input.os_init)]
