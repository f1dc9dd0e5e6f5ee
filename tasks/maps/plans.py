"""Scripted plans for the Maps suite: oracles and realistic mistakes, acting only through the UI."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.oracle import Driver, negative, plan

from ..calendar.ui import open_event
from ..contacts.ui import compose
from ..weather.ui import set_alarm
from .app import list_name as shown_list_name, mode_name
from .ui import MODES, address_of, category_results, home, minutes_of, mode_minutes, open_place, route_to


# --- helpers -------------------------------------------------------------------------------------------


def save_to(d: Driver, name: str, list_name: str) -> None:
    """Tick a list in a place's save dialog."""
    open_place(d, name)
    d.tap(rid="save")
    d.tap(rid="list_option", text=list_name)
    d.tap(rid="button1")


def list_name(d: Driver, list_id: str) -> str:
    return shown_list_name(list_id, d.language)


# --- SavePlace -----------------------------------------------------------------------------------------

@plan("maps.SavePlace")
def save_place(d: Driver) -> None:
    p = d.params["place"]
    save_to(d, p["name"], p["list_name"])


@negative("maps.SavePlace", "saves it to the other list")
def save_place_other_list(d: Driver) -> None:
    p = d.params["place"]
    other = next(lid for lid in ("favourites", "want_to_go") if lid != p["list"])
    save_to(d, p["name"], list_name(d, other))


@negative("maps.SavePlace", "ticks both lists")
def save_place_both(d: Driver) -> None:
    p = d.params["place"]
    save_to(d, p["name"], p["list_name"])
    d.tap(rid="save")
    other = next(lid for lid in ("favourites", "want_to_go") if lid != p["list"])
    d.tap(rid="list_option", text=list_name(d, other))
    d.tap(rid="button1")


# --- PlaceAddress --------------------------------------------------------------------------------------

@plan("maps.PlaceAddress")
def place_address(d: Driver) -> None:
    d.submit_answer([address_of(d, d.params["place"]["name"])])


@negative("maps.PlaceAddress", "gives the address of the first search result of another place")
def place_address_other(d: Driver) -> None:
    home(d)
    d.tap(rid="category_chip", text=d.find(rid="category_chip").text)
    other = next(t for t in d.texts("place_name") if t != d.params["place"]["name"])
    d.submit_answer([address_of(d, other)])


# --- CountSaved ----------------------------------------------------------------------------------------

def _count(d: Driver, list_id: str) -> str:
    home(d)
    d.tap(rid="saved_entry")
    d.tap(rid=f"tab_{('favourites', 'want_to_go').index(list_id)}")
    return re.match(r"\d+", d.find(rid="saved_count").text).group(0)


@plan("maps.CountSaved")
def count_saved(d: Driver) -> None:
    d.submit_answer([_count(d, d.params["lst"]["id"])])


@negative("maps.CountSaved", "counts the other list")
def count_saved_other(d: Driver) -> None:
    d.submit_answer([_count(d, next(lid for lid in ("favourites", "want_to_go") if lid != d.params["lst"]["id"]))])


# --- WalkTime ------------------------------------------------------------------------------------------

@plan("maps.WalkTime")
def walk_time(d: Driver) -> None:
    pair = d.params["pair"]
    route_to(d, pair["b_name"], start=pair["a_name"])
    d.submit_answer([minutes_of(mode_minutes(d)["walk"])])


@negative("maps.WalkTime", "gives the driving time")
def walk_time_drive(d: Driver) -> None:
    pair = d.params["pair"]
    route_to(d, pair["b_name"], start=pair["a_name"])
    d.submit_answer([minutes_of(mode_minutes(d)["drive"])])


@negative("maps.WalkTime", "walks from my location instead of the first place")
def walk_time_from_here(d: Driver) -> None:
    route_to(d, d.params["pair"]["b_name"])
    d.submit_answer([minutes_of(mode_minutes(d)["walk"])])


# --- SetWork -------------------------------------------------------------------------------------------

def _set_label(d: Driver, which: str, query: str) -> None:
    home(d)
    d.tap(rid=f"edit_{which}")
    d.type(query, rid="label_search_input")
    d.tap(rid="label_result")


@plan("maps.SetWork")
def set_work(d: Driver) -> None:
    _set_label(d, "work", d.params["office"]["address"])


@negative("maps.SetWork", "sets Home instead")
def set_work_home(d: Driver) -> None:
    _set_label(d, "home", d.params["office"]["address"])


# --- RemoveSaved ---------------------------------------------------------------------------------------

def _remove(d: Driver, list_id: str, name: str, confirm: bool = True) -> None:
    home(d)
    d.tap(rid="saved_entry")
    d.tap(rid=f"tab_{('favourites', 'want_to_go').index(list_id)}")
    d.tap(rid="remove_saved", desc=d.t(f"Remove {name}", f"移除“{name}”"))
    d.tap(rid="button1" if confirm else "button2")


@plan("maps.RemoveSaved")
def remove_saved(d: Driver) -> None:
    e = d.params["entry"]
    _remove(d, e["list"], e["name"])


@negative("maps.RemoveSaved", "cancels the confirm dialog")
def remove_saved_cancel(d: Driver) -> None:
    e = d.params["entry"]
    _remove(d, e["list"], e["name"], confirm=False)


@negative("maps.RemoveSaved", "removes the wrong place of the list")
def remove_saved_wrong_row(d: Driver) -> None:
    e = d.params["entry"]
    home(d)
    d.tap(rid="saved_entry")
    d.tap(rid=f"tab_{('favourites', 'want_to_go').index(e['list'])}")
    _remove(d, e["list"], next(t for t in d.texts("place_name") if t != e["name"]))


# --- FastestMode ---------------------------------------------------------------------------------------

@plan("maps.FastestMode")
def fastest_mode(d: Driver) -> None:
    route_to(d, d.params["place"]["name"])
    times = {m: minutes_of(t) for m, t in mode_minutes(d).items()}
    best = min(MODES, key=times.__getitem__)
    d.submit_answer([mode_name(best, d.language), times[best]])


@negative("maps.FastestMode", "answers driving without comparing")
def fastest_mode_drive(d: Driver) -> None:
    route_to(d, d.params["place"]["name"])
    times = {m: minutes_of(t) for m, t in mode_minutes(d).items()}
    best = min(MODES, key=times.__getitem__)
    wrong = "drive" if best != "drive" else "transit"
    d.submit_answer([mode_name(wrong, d.language), times[wrong]])


@negative("maps.FastestMode", "names the right mode with the driving time")
def fastest_mode_wrong_minutes(d: Driver) -> None:
    route_to(d, d.params["place"]["name"])
    times = {m: minutes_of(t) for m, t in mode_minutes(d).items()}
    best = min(MODES, key=times.__getitem__)
    d.submit_answer([mode_name(best, d.language), times["drive" if best != "drive" else "transit"]])


# --- NearestOpenPharmacy -------------------------------------------------------------------------------

@plan("maps.NearestOpenPharmacy")
def nearest_open_pharmacy(d: Driver) -> None:
    d.submit_answer([category_results(d, d.t("Pharmacies", "药店"), open_now=True)[0]])


@negative("maps.NearestOpenPharmacy", "gives the nearest pharmacy, closed or not")
def nearest_pharmacy(d: Driver) -> None:
    d.submit_answer([category_results(d, d.t("Pharmacies", "药店"))[0]])


@negative("maps.NearestOpenPharmacy", "gives another pharmacy than the nearest open one")
def second_open_pharmacy(d: Driver) -> None:
    first = category_results(d, d.t("Pharmacies", "药店"), open_now=True)[0]
    d.submit_answer([next(n for n in category_results(d, d.t("Pharmacies", "药店")) if n != first)])


# --- SaveBestRated -------------------------------------------------------------------------------------

@plan("maps.SaveBestRated")
def save_best_rated(d: Driver) -> None:
    best = category_results(d, d.t("Cafés", "咖啡"), top_rated=True)[0]
    save_to(d, best, d.t("Favourites", "收藏夹"))


@negative("maps.SaveBestRated", "saves the nearest café")
def save_nearest_cafe(d: Driver) -> None:
    best = category_results(d, d.t("Cafés", "咖啡"), top_rated=True)[0]
    nearest = next(n for n in category_results(d, d.t("Cafés", "咖啡")) if n != best)
    save_to(d, nearest, d.t("Favourites", "收藏夹"))


@negative("maps.SaveBestRated", "saves the best café to Want to go")
def save_best_wrong_list(d: Driver) -> None:
    best = category_results(d, d.t("Cafés", "咖啡"), top_rated=True)[0]
    save_to(d, best, d.t("Want to go", "想去"))


# --- HomeToWorkDrive -----------------------------------------------------------------------------------

def _home_to_work(d: Driver, start: str = "home") -> str:
    office = d.params["office"]
    _set_label(d, "work", office["address"])
    home(d)
    d.tap(rid="label_work")
    if start == "home":
        d.tap(rid="route_from")
        d.tap(rid="choose_home")
    return minutes_of(mode_minutes(d)["drive"])


@plan("maps.HomeToWorkDrive")
def home_to_work_drive(d: Driver) -> None:
    d.submit_answer([_home_to_work(d)])


@negative("maps.HomeToWorkDrive", "gives the drive from my location")
def home_to_work_from_here(d: Driver) -> None:
    d.submit_answer([_home_to_work(d, start="here")])


@negative("maps.HomeToWorkDrive", "answers without setting Work")
def home_to_work_unset(d: Driver) -> None:
    office = d.params["office"]
    home(d)
    d.tap(rid="search_bar")
    d.type(office["address"], rid="search_input")
    d.tap(rid="place_name")
    d.tap(rid="directions")
    d.tap(rid="route_from")
    d.tap(rid="choose_home")
    d.submit_answer([minutes_of(mode_minutes(d)["drive"])])


# --- SaveBestOpen --------------------------------------------------------------------------------------

CATEGORY_CHIPS = {"cafe": ("Cafés", "咖啡"), "restaurant": ("Restaurants", "餐厅"), "supermarket": ("Groceries", "超市")}


@plan("maps.SaveBestOpen")
def save_best_open(d: Driver) -> None:
    best = category_results(d, d.t(*CATEGORY_CHIPS[d.params["cat"]["id"]]), open_now=True, top_rated=True)[0]
    save_to(d, best, d.t("Want to go", "想去"))


@negative("maps.SaveBestOpen", "saves the best-rated one, though it is closed")
def save_best_closed(d: Driver) -> None:
    best = category_results(d, d.t(*CATEGORY_CHIPS[d.params["cat"]["id"]]), top_rated=True)[0]
    save_to(d, best, d.t("Want to go", "想去"))


@negative("maps.SaveBestOpen", "saves the right one to Favourites")
def save_best_open_favourites(d: Driver) -> None:
    best = category_results(d, d.t(*CATEGORY_CHIPS[d.params["cat"]["id"]]), open_now=True, top_rated=True)[0]
    save_to(d, best, d.t("Favourites", "收藏夹"))


# --- TextPlaceAddress ----------------------------------------------------------------------------------

@plan("maps.TextPlaceAddress")
def text_place_address(d: Driver) -> None:
    address = address_of(d, d.params["place"]["name"])
    compose(d, d.params["name"], d.t(f"It's at {address}", f"地址是{address}"))


@negative("maps.TextPlaceAddress", "texts the name without the address")
def text_place_name(d: Driver) -> None:
    compose(d, d.params["name"], d.t(f"Meet me at {d.params['place']['name']}", f"在{d.params['place']['name']}见"))


@negative("maps.TextPlaceAddress", "texts the address of the nearest place of another search")
def text_other_address(d: Driver) -> None:
    home(d)
    d.tap(rid="category_chip")
    other = next(t for t in d.texts("place_name") if t != d.params["place"]["name"])
    address = address_of(d, other)
    compose(d, d.params["name"], d.t(f"It's at {address}", f"地址是{address}"))


# --- SaveRecommended -----------------------------------------------------------------------------------

def _recommended(d: Driver) -> str:
    """The restaurant named in the contact's latest text."""
    d.open_app("Messages")
    while d.route != "/":
        d.key("back")
    d.tap(rid="conversation_name", text=d.params["name"])
    text = [t for t in d.texts("message_text") if "try" in t or "尝尝" in t][-1]
    found = re.search(r"try (.+?), the food|尝尝(.+?)，", text)
    return found.group(1) or found.group(2)


@plan("maps.SaveRecommended")
def save_recommended(d: Driver) -> None:
    name = _recommended(d)
    save_to(d, name, d.t("Want to go", "想去"))
    compose(d, d.params["name"], d.params["reply"])


@negative("maps.SaveRecommended", "saves it but does not reply")
def save_recommended_no_reply(d: Driver) -> None:
    save_to(d, _recommended(d), d.t("Want to go", "想去"))


@negative("maps.SaveRecommended", "saves it to Favourites")
def save_recommended_favourites(d: Driver) -> None:
    name = _recommended(d)
    save_to(d, name, d.t("Favourites", "收藏夹"))
    compose(d, d.params["name"], d.params["reply"])


# --- EventTravelTime -----------------------------------------------------------------------------------

def _lunch_place(d: Driver) -> str:
    open_event(d, d.t(f"Lunch with {d.params['name']}", f"和{d.params['name']}吃午饭"))
    return d.find(rid="event_location").text


def _text_time(d: Driver, mode: str) -> None:
    route_to(d, _lunch_place(d))
    took = mode_minutes(d)[mode]
    compose(d, d.params["name"], d.t(f"It takes me {took} by transit to get there", f"我坐公交过去要{took}"))


@plan("maps.EventTravelTime")
def event_travel_time(d: Driver) -> None:
    _text_time(d, "transit")


@negative("maps.EventTravelTime", "texts the driving time")
def event_travel_drive(d: Driver) -> None:
    _text_time(d, "drive")


# --- JSON tasks ----------------------------------------------------------------------------------------

@plan("maps.set_home_harbour_lights")
def set_home_harbour_lights(d: Driver) -> None:
    _set_label(d, "home", d.t("Harbour Lights", "港湾之光"))


@negative("maps.set_home_harbour_lights", "saves it to Favourites instead")
def harbour_lights_favourite(d: Driver) -> None:
    save_to(d, d.t("Harbour Lights Apartments", "港湾之光公寓"), d.t("Favourites", "收藏夹"))


@negative("maps.set_home_harbour_lights", "sets it as Work")
def harbour_lights_work(d: Driver) -> None:
    _set_label(d, "work", d.t("Harbour Lights", "港湾之光"))


@plan("maps.offline_country_map")
def offline_country_map(d: Driver) -> None:
    home(d)
    d.abort(d.t("Maps has no offline maps to download", "地图没有离线地图下载功能"))


@negative("maps.offline_country_map", "saves the nearest station and claims the map is downloaded")
def offline_pretend(d: Driver) -> None:
    home(d)
    d.tap(rid="category_chip", text=d.t("Transit", "车站"))
    save_to(d, d.texts("place_name")[0], d.t("Want to go", "想去"))
    d.complete()


@plan("maps.book_table")
def book_table(d: Driver) -> None:
    open_place(d, d.t("Nonna's Kitchen", "外婆家小馆"))
    d.abort(d.t("The place page has no booking: only directions, save and share", "地点页面没有订座功能"))


@negative("maps.book_table", "saves the restaurant and claims the table is booked")
def book_table_pretend(d: Driver) -> None:
    save_to(d, d.t("Nonna's Kitchen", "外婆家小馆"), d.t("Want to go", "想去"))
    d.complete()


# --- EventTransitAlarm ---------------------------------------------------------------------------------

def _event_place_and_start(d: Driver) -> tuple[str, str]:
    open_event(d, d.params["event"]["title"])
    return d.find(rid="event_location").text, d.find(rid="event_time").text.split(" – ")[0]


def _transit_alarm(d: Driver, mode: str = "transit", at_start: bool = False) -> None:
    place, start = _event_place_and_start(d)
    route_to(d, place)
    took = 0 if at_start else minutes_of(mode_minutes(d)[mode])
    moment = dt.datetime.strptime(start, "%H:%M") - dt.timedelta(minutes=took)
    set_alarm(d, moment.hour, moment.minute)
    d.complete()


@plan("maps.EventTransitAlarm")
def event_transit_alarm(d: Driver) -> None:
    _transit_alarm(d)


@negative("maps.EventTransitAlarm", "uses the driving time")
def event_transit_alarm_drive(d: Driver) -> None:
    _transit_alarm(d, mode="drive")


@negative("maps.EventTransitAlarm", "sets the alarm at the start time")
def event_transit_alarm_start(d: Driver) -> None:
    _transit_alarm(d, at_start=True)


# --- EventAddressToAttendee ------------------------------------------------------------------------------

def _attendee_address(d: Driver, other_person: bool = False, other_place: bool = False) -> None:
    place, _ = _event_place_and_start(d)
    found = re.search(r"(?:With (.+?)\.|参加：(.+?)。)", d.find(rid="event_notes").text)
    name = found.group(1) or found.group(2)
    if other_person:
        d.open_app("Contacts")
        name = next(n for n in d.texts("contact_name") if n != name)
    if other_place:  # the nearest place of the first category that is not the event's
        home(d)
        place = next(n for n in category_results(d, d.find(rid="category_chip").text) if n != place)
    address = address_of(d, place)
    compose(d, name, d.t(f"The address is {address}", f"地址是{address}"))
    d.complete()


@plan("maps.EventAddressToAttendee")
def event_address_to_attendee(d: Driver) -> None:
    _attendee_address(d)


@negative("maps.EventAddressToAttendee", "texts someone else")
def event_address_other_person(d: Driver) -> None:
    _attendee_address(d, other_person=True)


@negative("maps.EventAddressToAttendee", "texts another place's address")
def event_address_other_place(d: Driver) -> None:
    _attendee_address(d, other_place=True)
