"""Scripted plans for the Gallery suite: one oracle per task and realistic mistakes."""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.calendar_words import MONTHS
from mobilegym.oracle import Driver, alternative, negative, plan

from ..contacts.ui import compose, open_contact
from ..mail.ui import send_new
from ..weather.ui import send_text
from ..calendar.ui import open_event, read_date


# --- helpers ----------------------------------------------------------------------------------------------------

PACKAGE = "com.mobilegym.gallery"


def open_home(d: Driver) -> None:
    """Open Gallery on its Photos tab (leaving a selection, a dialog or a screen above the tabs)."""
    d.open_app("Gallery")
    for _ in range(10):
        if not any(n.package == PACKAGE for n in d.nodes()):
            d.open_app("Gallery")
        elif d.find(rid="close_selection") is not None:
            d.tap(rid="close_selection")
        elif d.find(rid="nav_photos") is not None:
            if d.route != "/":
                d.tap(rid="nav_photos")
            return
        else:
            d.key("back")


def open_library(d: Driver) -> None:
    open_home(d)
    d.tap(rid="nav_library")


def open_album(d: Driver, name: str) -> None:
    open_library(d)
    d.tap(rid="album_item", desc=name)


def search(d: Driver, query: str) -> None:
    open_home(d)
    d.tap(rid="nav_search")
    d.type(query, rid="search_input")
    if d.keyboard_shown():
        d.key("back")


def date_query(d: Driver, iso: str) -> str:
    """What to type in Search to find a day: "January 3" / "1月3日"."""
    day = dt.date.fromisoformat(iso)
    return d.t(f"{MONTHS[day.month - 1]} {day.day}", f"{day.month}月{day.day}日")




def tiles(d: Driver, rid: str = "photo_item") -> list[str]:
    """The descs of every tile down the list (scrolling it, then back to the top)."""
    return d.collect(rid, whole=True)


def parts(desc: str) -> list[str]:
    return desc.split(" · ")


def is_camera(d: Driver, desc: str) -> bool:
    return parts(desc)[0] in (d.t("Photo", "照片"), d.t("Video", "视频"))


def is_photo(d: Driver, desc: str) -> bool:
    return parts(desc)[0] == d.t("Photo", "照片")


def place_of(desc: str) -> tuple[str, str]:
    """(place, city) of a camera item's desc ("Photo · Sunset · Ocean Beach, San Francisco · Thu, Mar 12 · 14:15")."""
    place, _, city = parts(desc)[2].rpartition(", ")
    return place, city


def select(d: Driver, descs: list[str]) -> None:
    """Select tiles of the open grid: a long press on the first, taps on the others."""
    d.long_press(rid="photo_item", desc=descs[0])
    for desc in descs[1:]:
        d.tap(rid="photo_item", desc=desc)


def at_place(d: Driver, place: str) -> list[str]:
    """The camera tiles taken at ``place`` (searching for it)."""
    search(d, place)
    return [t for t in tiles(d) if is_camera(d, t) and place_of(t)[0] == place]


def in_city(d: Driver, city: str) -> list[str]:
    search(d, city)
    return [t for t in tiles(d) if is_camera(d, t) and place_of(t)[1] == city]


def new_album_with(d: Driver, descs: list[str], name: str) -> None:
    select(d, descs)
    d.tap(rid="add_selected")
    d.tap(rid="menu_new_album")
    d.type(name, rid="album_title_input")
    d.tap(rid="button1")


def edit(d: Driver, desc: str, *chips: str, rotations: int = 0) -> None:
    """Open a tile's photo, edit it (quarter turns, chips) and save."""
    d.tap(rid="photo_item", desc=desc)
    d.tap(rid="edit_photo")
    for _ in range(rotations):
        d.tap(rid="rotate")
    for chip in chips:
        d.tap(rid=chip)
    d.tap(rid="save_edit")


# --- queries ----------------------------------------------------------------------------------------------------

@plan("gallery.CountPhotosInCity")
def count_in_city(d: Driver) -> None:
    d.submit_answer([len(in_city(d, d.params["city"]))])
    d.complete()


@negative("gallery.CountPhotosInCity", "misses the last one")
def count_in_city_short(d: Driver) -> None:
    count = len(in_city(d, d.params["city"]))
    d.submit_answer([count - 1 if count > 1 else count + 1])
    d.complete()


def _screenshot_times(d: Driver) -> list[str]:
    open_album(d, d.t("Screenshots", "屏幕截图"))
    return [parts(t)[-1] for t in tiles(d)]


@plan("gallery.NewestScreenshotTime")
def newest_screenshot(d: Driver) -> None:
    d.submit_answer([_screenshot_times(d)[0]])
    d.complete()


@negative("gallery.NewestScreenshotTime", "gives the newest photo's time instead")
def newest_photo_time(d: Driver) -> None:
    shots = _screenshot_times(d)
    open_home(d)
    newest = next(parts(n.desc)[-1] for n in d.nodes() if n.short_id == "photo_item" and parts(n.desc)[-1] not in shots)
    d.submit_answer([newest])
    d.complete()


# --- favourites, albums -------------------------------------------------------------------------------------------

def _favourite(d: Driver, descs: list[str]) -> None:
    select(d, descs)
    d.tap(rid="favorite_selected")
    d.complete()


@plan("gallery.FavouritePlacePhotos")
def favourite_place(d: Driver) -> None:
    _favourite(d, at_place(d, d.params["place"]))


@negative("gallery.FavouritePlacePhotos", "also favourites a photo from another place")
def favourite_place_and_more(d: Driver) -> None:
    place = d.params["place"]
    found = at_place(d, place)
    open_home(d)
    other = next(t for t in tiles(d) if t not in found)
    d.long_press(rid="photo_item", desc=other)
    d.tap(rid="favorite_selected")
    _favourite(d, at_place(d, place) or found)


def _day_photos(d: Driver, iso: str) -> list[str]:
    search(d, date_query(d, iso))
    return [t for t in tiles(d) if is_camera(d, t)]


@plan("gallery.AlbumOfDay")
def album_of_day(d: Driver) -> None:
    new_album_with(d, _day_photos(d, d.params["day"]["iso"]), d.params["day"]["name"])
    d.complete()


@negative("gallery.AlbumOfDay", "leaves a photo out")
def album_of_day_short(d: Driver) -> None:
    new_album_with(d, _day_photos(d, d.params["day"]["iso"])[:-1], d.params["day"]["name"])
    d.complete()


@negative("gallery.AlbumOfDay", "takes the photos of another day")
def album_of_other_day(d: Driver) -> None:
    wanted = d.params["day"]["iso"]
    open_album(d, d.t("Camera", "相机"))
    found = tiles(d)
    mine = set(_day_photos(d, wanted))
    open_album(d, d.t("Camera", "相机"))
    new_album_with(d, [next(t for t in found if t not in mine)], d.params["day"]["name"])
    d.complete()


@plan("gallery.RenameAlbum")
def rename_album(d: Driver) -> None:
    _rename(d, d.params["album"]["new_name"])


def _rename(d: Driver, name: str) -> None:
    open_album(d, d.params["album"]["name"])
    d.tap(rid="album_menu")
    d.tap(rid="rename_album")
    d.type(name, rid="album_rename_input")
    d.tap(rid="button1")
    d.complete()


@negative("gallery.RenameAlbum", "a typo in the new name")
def rename_album_typo(d: Driver) -> None:
    _rename(d, d.params["album"]["new_name"][:-1])


def _delete_album(d: Driver, button: str) -> None:
    open_album(d, d.params["album"]["name"])
    d.tap(rid="album_menu")
    d.tap(rid="delete_album")
    d.tap(rid=button)
    d.complete()


@plan("gallery.DeleteAlbum")
def delete_album(d: Driver) -> None:
    _delete_album(d, "button1")


@negative("gallery.DeleteAlbum", "cancels the confirmation")
def delete_album_cancel(d: Driver) -> None:
    _delete_album(d, "button2")


@negative("gallery.DeleteAlbum", "deletes a photo of the album too")
def delete_album_and_photos(d: Driver) -> None:
    open_album(d, d.params["album"]["name"])
    d.long_press(rid="photo_item")
    d.tap(rid="delete_selected")
    d.tap(rid="button1")
    _delete_album(d, "button1")


def _add_place_to_album(d: Driver) -> None:
    target = d.params["target"]
    select(d, at_place(d, target["place"]))
    d.tap(rid="add_selected")
    d.tap(rid="album_choice", desc=target["album"])


def _album_count(d: Driver) -> int:
    open_album(d, d.params["target"]["album"])
    return int(re.match(r"\d+", d.texts("album_count")[0]).group())


@plan("gallery.AddPlaceToAlbumAndCount")
def add_place_to_album(d: Driver) -> None:
    _add_place_to_album(d)
    d.submit_answer([_album_count(d)])
    d.complete()


@negative("gallery.AddPlaceToAlbumAndCount", "counts the album before adding")
def add_place_count_before(d: Driver) -> None:
    before = _album_count(d)
    _add_place_to_album(d)
    d.submit_answer([before])
    d.complete()


# --- trash, edits ---------------------------------------------------------------------------------------------------

def _trash_tile(d: Driver, subject: str, place: str) -> None:
    open_library(d)
    d.tap(rid="trash_entry")
    d.tap(rid="trash_item", contains=f"{subject} · {place}, ")


@plan("gallery.RestoreDeletedPhoto")
def restore_photo(d: Driver) -> None:
    p = d.params["photo"]
    _trash_tile(d, p["subject"], p["place"])
    d.tap(rid="button1")
    d.complete()


@negative("gallery.RestoreDeletedPhoto", "deletes it forever instead")
def restore_photo_forever(d: Driver) -> None:
    p = d.params["photo"]
    _trash_tile(d, p["subject"], p["place"])
    d.tap(rid="button3")
    d.tap(rid="button1")
    d.complete()


def _photo_at(d: Driver, subject: str, place: str) -> str:
    return next(t for t in at_place(d, place) if parts(t)[1] == subject)


@plan("gallery.RotateUpsideDown")
def rotate_photo(d: Driver) -> None:
    p = d.params["photo"]
    edit(d, _photo_at(d, p["subject"], p["place"]), rotations=2)
    d.complete()


@negative("gallery.RotateUpsideDown", "rotates it a quarter turn")
def rotate_photo_once(d: Driver) -> None:
    p = d.params["photo"]
    edit(d, _photo_at(d, p["subject"], p["place"]), rotations=1)
    d.complete()


@negative("gallery.RotateUpsideDown", "rotates but leaves without saving")
def rotate_photo_unsaved(d: Driver) -> None:
    p = d.params["photo"]
    d.tap(rid="photo_item", desc=_photo_at(d, p["subject"], p["place"]))
    d.tap(rid="edit_photo")
    d.tap(rid="rotate")
    d.tap(rid="rotate")
    d.tap(rid="cancel_edit")
    d.complete()


@plan("gallery.FilterNewestInCity")
def filter_newest(d: Driver) -> None:
    p = d.params["photo"]
    edit(d, [t for t in in_city(d, p["city"]) if is_photo(d, t)][0], f"filter_{p['filter']}")
    d.complete()


@negative("gallery.FilterNewestInCity", "edits the second most recent photo")
def filter_second(d: Driver) -> None:
    p = d.params["photo"]
    edit(d, [t for t in in_city(d, p["city"]) if is_photo(d, t)][1], f"filter_{p['filter']}")
    d.complete()


@negative("gallery.FilterNewestInCity", "picks another filter")
def filter_wrong(d: Driver) -> None:
    p = d.params["photo"]
    other = "metro" if p["filter"] != "metro" else "blush"
    edit(d, [t for t in in_city(d, p["city"]) if is_photo(d, t)][0], f"filter_{other}")
    d.complete()


def _screenshots_of(d: Driver, iso: str) -> tuple[list[str], list[str]]:
    """(screenshots, other items) of a day, from a search for it."""
    search(d, date_query(d, iso))
    found = tiles(d)
    shots = [t for t in found if parts(t)[0] == d.t("Screenshot", "屏幕截图")]
    return shots, [t for t in found if t not in shots]


def _trash_selected(d: Driver, descs: list[str], button: str = "button1") -> None:
    select(d, descs)
    d.tap(rid="delete_selected")
    d.tap(rid=button)
    d.complete()


@plan("gallery.DeleteScreenshotsOfDay")
def delete_screenshots(d: Driver) -> None:
    _trash_selected(d, _screenshots_of(d, d.params["day"]["iso"])[0])


@alternative("gallery.DeleteScreenshotsOfDay", "deleted for good")
def delete_screenshots_forever(d: Driver) -> None:
    shots = _screenshots_of(d, d.params["day"]["iso"])[0]
    select(d, shots)
    d.tap(rid="delete_selected")
    d.tap(rid="button1")
    open_library(d)
    d.tap(rid="trash_entry")
    for desc in shots:  # each tile, its Delete, then Delete forever's confirmation
        d.tap(rid="trash_item", contains=desc.split(", ")[0] + ", ")
        d.tap(rid="button3")
        d.tap(rid="button1")
    d.complete()


@negative("gallery.DeleteScreenshotsOfDay", "cancels the confirmation")
def delete_screenshots_cancel(d: Driver) -> None:
    _trash_selected(d, _screenshots_of(d, d.params["day"]["iso"])[0], "button2")


@negative("gallery.DeleteScreenshotsOfDay", "deletes only one of them")
def delete_screenshots_one(d: Driver) -> None:
    _trash_selected(d, _screenshots_of(d, d.params["day"]["iso"])[0][:1])


def _empty_trash(d: Driver, button: str) -> None:
    open_library(d)
    d.tap(rid="trash_entry")
    d.tap(rid="empty_trash")
    d.tap(rid=button)
    d.complete()


@plan("gallery.EmptyTrash")
def empty_trash(d: Driver) -> None:
    _empty_trash(d, "button1")


@negative("gallery.EmptyTrash", "cancels the confirmation")
def empty_trash_cancel(d: Driver) -> None:
    _empty_trash(d, "button2")


@negative("gallery.EmptyTrash", "deletes a photo first, then empties the trash")
def empty_trash_and_more(d: Driver) -> None:
    open_home(d)
    d.tap(rid="photo_item")
    d.tap(rid="delete_photo")
    d.tap(rid="button1")
    _empty_trash(d, "button1")


# --- camera ---------------------------------------------------------------------------------------------------------

def open_camera(d: Driver) -> None:
    open_home(d)
    d.tap(rid="open_camera")


@plan("gallery.TakeSelfie")
def take_selfie(d: Driver) -> None:
    open_camera(d)
    if d.texts("camera_status")[0] != d.t("Front camera", "前置摄像头"):
        d.tap(rid="switch_camera")
    d.tap(rid="shutter")
    d.complete()


@negative("gallery.TakeSelfie", "takes it with the back camera")
def take_selfie_back(d: Driver) -> None:
    open_camera(d)
    if d.texts("camera_status")[0] != d.t("Back camera", "后置摄像头"):
        d.tap(rid="switch_camera")
    d.tap(rid="shutter")
    d.complete()


def _record(d: Driver, seconds: float) -> None:
    open_camera(d)
    d.tap(rid="mode_video")
    d.tap(rid="shutter")
    if seconds:
        d.wait(seconds)
    d.tap(rid="shutter")
    d.complete()


@plan("gallery.RecordVideo")
def record_video(d: Driver) -> None:
    _record(d, d.params["clip"]["min"] + 1)


@negative("gallery.RecordVideo", "records far longer than asked")
def record_video_long(d: Driver) -> None:
    _record(d, d.params["clip"]["max"] + 3)


@negative("gallery.RecordVideo", "stops at once")
def record_video_short(d: Driver) -> None:
    _record(d, 0)


@negative("gallery.RecordVideo", "takes a photo instead")
def record_video_photo(d: Driver) -> None:
    open_camera(d)
    d.tap(rid="mode_photo")
    d.tap(rid="shutter")
    d.complete()


# --- cross-app ------------------------------------------------------------------------------------------------------

def _share(d: Driver, descs: list[str], person: str) -> None:
    select(d, descs)
    d.tap(rid="share_selected")
    d.tap(rid="share_messages")
    d.type(person, rid="recipient_input")
    d.tap(rid="contact_suggestion", contains=person)
    d.tap(rid="send")
    d.complete()


def _event_photos(d: Driver) -> list[str]:
    """The photos taken at the event's place on its day (its date and place as the calendar shows them)."""
    event = d.params["event"]
    search(d, date_query(d, event["date"]))
    on_day = tiles(d)
    search(d, event["location"])
    return [t for t in tiles(d) if t in on_day and is_camera(d, t) and place_of(t)[0] == event["location"]]


@plan("gallery.ShareEventPhotos")
def share_event_photos(d: Driver) -> None:
    _share(d, _event_photos(d), d.params["person"])


@negative("gallery.ShareEventPhotos", "shares only the first photo")
def share_event_first(d: Driver) -> None:
    _share(d, _event_photos(d)[:1], d.params["person"])


def _file_name(d: Driver, desc: str) -> str:
    """A photo's file name, read off its details in the viewer (then back to where it was)."""
    d.tap(rid="photo_item", desc=desc)
    d.tap(rid="photo_info")
    name = d.texts("detail_file")[0].split(" · ")[0]
    d.key("back")
    return name


@negative("gallery.ShareEventPhotos", "texts the photos' file names instead of sharing them")
def share_event_names(d: Driver) -> None:
    names = [_file_name(d, desc) for desc in _event_photos(d)]
    compose(d, d.params["person"], ", ".join(names))
    d.complete()


def _birthday_query(d: Driver, name: str) -> str:
    """What to search for the contact's birthday ("April 12" / "4月12日"), read off their card (the library spans
    six weeks: one day has that date)."""
    open_contact(d, name)
    text = d.texts("birthday")[0]
    zh = re.fullmatch(r"\d{4}年(\d{1,2})月(\d{1,2})日", text)
    if zh:
        return f"{int(zh.group(1))}月{int(zh.group(2))}日"
    month, day = text.split(" ")[:2]
    return f"{month} {int(day.rstrip(','))}"


def _count_on(d: Driver, query: str) -> int:
    search(d, query)
    return sum(1 for t in tiles(d) if is_camera(d, t))


@plan("gallery.BirthdayPhotoCount")
def birthday_photos(d: Driver) -> None:
    person = d.params["person"]
    count = _count_on(d, _birthday_query(d, person))
    send_text(d, person, d.t(f"I took {count} photos on your birthday!", f"你生日那天我拍了 {count} 张照片！"))
    d.complete()


@negative("gallery.BirthdayPhotoCount", "counts the screenshots too, or one more")
def birthday_photos_wrong(d: Driver) -> None:
    person = d.params["person"]
    search(d, _birthday_query(d, person))
    found = tiles(d)
    count = len(found) if len(found) != sum(1 for t in found if is_camera(d, t)) else len(found) + 1
    send_text(d, person, d.t(f"I took {count} photos on your birthday!", f"你生日那天我拍了 {count} 张照片！"))
    d.complete()


def _city_of_day(d: Driver) -> str:
    search(d, date_query(d, d.params["day"]["iso"]))
    return place_of(next(t for t in tiles(d) if is_camera(d, t)))[1]


@plan("gallery.TextCityOfDay")
def text_city(d: Driver) -> None:
    city = _city_of_day(d)
    send_text(d, d.params["person"], d.t(f"I was in {city} that day.", f"那天我在{city}。"))
    d.complete()


@negative("gallery.TextCityOfDay", "names the city of the newest photo instead")
def text_city_newest(d: Driver) -> None:
    city = _city_of_day(d)
    open_album(d, d.t("Camera", "相机"))
    other = next((place_of(t)[1] for t in tiles(d) if place_of(t)[1] != city), None)
    send_text(d, d.params["person"], d.t(f"I was in {other or 'town'} that day.", f"那天我在{other or '市区'}。"))
    d.complete()


# --- JSON tasks -----------------------------------------------------------------------------------------------------

def _trash_count(d: Driver) -> int:
    open_library(d)
    d.tap(rid="trash_entry")
    return len(tiles(d, "trash_item"))


@plan("gallery.trash_count")
def trash_count(d: Driver) -> None:
    d.submit_answer([_trash_count(d)])
    d.complete()


@negative("gallery.trash_count", "counts one too many")
def trash_count_wrong(d: Driver) -> None:
    d.submit_answer([_trash_count(d) + 1])
    d.complete()


def _cake(d: Driver) -> str:
    return d.t("Birthday cake · Blue Door Bakery, ", "生日蛋糕 · 蓝门烘焙坊, ")


@plan("gallery.restore_birthday_cake")
def restore_cake(d: Driver) -> None:
    open_library(d)
    d.tap(rid="trash_entry")
    d.tap(rid="trash_item", contains=_cake(d))
    d.tap(rid="button1")
    d.complete()


@negative("gallery.restore_birthday_cake", "restores another item")
def restore_cake_wrong(d: Driver) -> None:
    open_library(d)
    d.tap(rid="trash_entry")
    other = next(t for t in tiles(d, "trash_item") if _cake(d) not in t)
    d.tap(rid="trash_item", desc=other)
    d.tap(rid="button1")
    d.complete()


@plan("gallery.raw_photo")
def raw_photo(d: Driver) -> None:
    open_camera(d)
    d.abort("The camera has only photo and video modes; it can't shoot RAW")


@negative("gallery.raw_photo", "takes an ordinary photo and claims success")
def raw_photo_claims(d: Driver) -> None:
    open_camera(d)
    d.tap(rid="shutter")
    d.complete()


@plan("gallery.video_soundtrack")
def video_soundtrack(d: Driver) -> None:
    open_home(d)
    d.abort("Gallery's editor can't change a video's soundtrack")


@negative("gallery.video_soundtrack", "claims the soundtrack was replaced")
def video_soundtrack_claims(d: Driver) -> None:
    open_home(d)
    d.complete()


# --- EventAlbumAndText ----------------------------------------------------------------------------------------------

def _calendar_event_photos(d: Driver) -> list[str]:
    """The photos taken at the task's event: its date and place read on its Calendar page, then found in Gallery."""

    open_event(d, d.params["event"]["title"])
    day = read_date(d.find(rid="event_date").text).isoformat()
    place = d.find(rid="event_location").text
    search(d, date_query(d, day))
    on_day = tiles(d)
    search(d, place)
    return [t for t in tiles(d) if t in on_day and is_camera(d, t) and place_of(t)[0] == place]


def _event_album(d: Driver, drop: int = 0, text: bool = True, off: int = 0) -> None:
    photos = _calendar_event_photos(d)
    new_album_with(d, photos[:len(photos) - drop], d.params["event"]["title"])
    if text:
        count = len(photos) + off
        compose(d, d.params["person"], d.t(f"The album is ready, {count} photos in all",
                                           f"影集建好了，一共{count}张照片"))
    d.complete()


@plan("gallery.EventAlbumAndText")
def event_album_and_text(d: Driver) -> None:
    _event_album(d)


@negative("gallery.EventAlbumAndText", "leaves the last photo out of the album")
def event_album_short(d: Driver) -> None:
    _event_album(d, drop=1)


@negative("gallery.EventAlbumAndText", "makes the album but never texts")
def event_album_no_text(d: Driver) -> None:
    _event_album(d, text=False)


@negative("gallery.EventAlbumAndText", "texts a count one too many")
def event_album_miscount(d: Driver) -> None:
    _event_album(d, off=1)


# --- FavouriteEventPhotosEmail --------------------------------------------------------------------------------------

def _favourite_and_mail(d: Driver, drop: int = 0, off: int = 0, mail: bool = True) -> None:
    photos = _calendar_event_photos(d)
    select(d, photos[:len(photos) - drop])
    d.tap(rid="favorite_selected")
    if mail:
        count = len(photos) + off
        send_new(d, d.params["person"], d.t("Photos from the event", "活动照片"),
                 d.t(f"I took {count} photos there, they're in my favourites now.", f"我在那儿拍了{count}张照片，都收藏了。"))
    d.complete()


@plan("gallery.FavouriteEventPhotosEmail")
def favourite_event_photos_email(d: Driver) -> None:
    _favourite_and_mail(d)


@negative("gallery.FavouriteEventPhotosEmail", "misses the last photo")
def favourite_event_photos_short(d: Driver) -> None:
    _favourite_and_mail(d, drop=1)


@negative("gallery.FavouriteEventPhotosEmail", "e-mails one photo too few")
def favourite_event_photos_miscount(d: Driver) -> None:
    _favourite_and_mail(d, off=-1)


@negative("gallery.FavouriteEventPhotosEmail", "favourites them but sends no e-mail")
def favourite_event_photos_no_mail(d: Driver) -> None:
    _favourite_and_mail(d, mail=False)
