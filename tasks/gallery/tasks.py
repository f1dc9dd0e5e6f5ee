"""Gallery tasks.

Task index:
    CountPhotosInCity        query    L2  how many photos and videos were taken in a city
    NewestScreenshotTime     query    L2  what time the most recent screenshot was taken
    FavouritePlacePhotos     operate  L3  favourite every photo taken at a place, and nothing else
    AlbumOfDay               operate  L3  create an album with the photos of a day
    RestoreDeletedPhoto      operate  L2  restore a photo (by subject and place) from the Trash
    RotateUpsideDown         operate  L3  turn a photo 180 degrees in the editor and save it
    FilterNewestInCity       operate  L3  apply a filter to the most recent photo taken in a city
    TakeSelfie               operate  L2  take a photo with the front camera
    RecordVideo              operate  L3  record a video between N and N+4 seconds long
    DeleteScreenshotsOfDay   operate  L3  move every screenshot of a day to the Trash (confirm)
    EmptyTrash               operate  L1  delete everything in the Trash for good (confirm)
    RenameAlbum              operate  L2  rename a user album
    DeleteAlbum              operate  L2  delete a user album (confirm), keeping its photos
    AddPlaceToAlbumAndCount  hybrid   L4  add a place's photos to an album and say how many items it holds
    ShareEventPhotos         operate  L4  cross-app: the photos taken at a Calendar event, shared with a contact by Messages
    BirthdayPhotoCount       operate  L4  cross-app: text a contact how many photos were taken on their birthday
    TextCityOfDay            operate  L3  cross-app: text a contact the city the photos of a day were taken in
    EventAlbumAndText        operate  L4  cross-app: Calendar -> Gallery -> Messages: an album of an event's photos, its size texted
    FavouriteEventPhotosEmail operate L4  cross-app: Calendar -> Gallery -> Mail: favourite an event's photos, e-mail how many
"""
from __future__ import annotations

import datetime as dt
import random

from mobilegym.envs.gallery import model
from mobilegym.envs.gallery.world import pools
from mobilegym.judge import AnswerTask, BaseTask, build_answer_checks, sim_datetime, copy_state
from mobilegym.judge.result import check

from ..contacts.app import Contacts
from ..l10n import localised
from ..mail.app import MAIL_SEND_CHANGES, Mail
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from .app import (MIN_NEAR_MISSES, MIN_PLACE_PHOTOS, GALLERY_CAPTURE_CHANGES, GALLERY_DELETE_ALBUM_CHANGES, GALLERY_EMPTY_TRASH_CHANGES,
                  GALLERY_EDIT_CHANGES, GALLERY_FAVORITE_CHANGES, GALLERY_NEW_ALBUM_CHANGES,
                  GALLERY_RENAME_ALBUM_CHANGES, GALLERY_RESTORE_CHANGES, GALLERY_TRASH_CHANGES, Gallery, language,
                  same_name)
from .crossapp import (EVENT_PHOTO_PARAMETERS, add_event_photos, event_distractors, event_photos, prepare_past_event,
                       prepare_state_with_birthday_photos, sample_birthday_person, sample_city_day)


def _context(device) -> tuple[dict, dt.datetime, dict]:
    """The gallery's state, the phone's time and the language's pool, for a patch."""
    state = copy_state(device)
    return state["apps"]["gallery"], sim_datetime(state["os"]), pools(language(state["os"]))


def _apply(device, patch: dict | None) -> None:
    if patch is not None:
        device.set_state(patch)


@localised(zh={"fields": [{"label": "照片和视频数量"}]})
class CountPhotosInCity(AnswerTask):
    """Verdict: the answer is how many camera photos and videos out of the Trash were taken in the city."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["search", "counting"]
    templates = {"en": ["How many photos and videos did I take in {city}?",
                        "Check my Gallery: how many photos and videos are from {city}?"],
                 "zh": ["我在{city}拍了多少张照片和视频？", "看看相册：在{city}拍的照片和视频一共有多少？"]}
    parameters = {"city": {"sampler": Gallery.sample_city}}
    answer_fields = [{"type": "number", "label": "Photos and videos"}]

    def inject(self, device) -> None:
        """One to twelve items from the city, the count drawn from twelve (tasks/spread.py)."""
        if self.spreads:
            gallery, now, pool = _context(device)
            _apply(device, Gallery.prepare_state_with_city_count(gallery, self.rng, now, pool, self.p.city,
                                                                 self.spread.count(1)))

    def get_answer(self, input):
        return len(Gallery(input.apps_init["gallery"]).in_city(self.p.city))


@localised(zh={"fields": [{"label": "拍摄时间", "hint": "例如 14:05"}]})
class NewestScreenshotTime(AnswerTask):
    """Verdict: the answer is the time of day (HH:MM) the newest screenshot out of the Trash was taken; the other
    screenshots' times are rivals. Injection: a screenshot yesterday when there is none."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["sorting", "information-retrieval"]
    templates = {"en": ["What time did I take my most recent screenshot?",
                        "When was my latest screenshot taken? Tell me the time of day."],
                 "zh": ["我最近一张截图是几点截的？", "最新的那张屏幕截图是什么时间截的？告诉我几点几分。"]}
    answer_fields = [{"type": "text", "label": "Time taken", "hint": "e.g. 14:05", "matcher": "time"}]

    def set_up(self, device) -> None:
        state = copy_state(device)
        patch = Gallery.prepare_state_with_screenshot(state["apps"]["gallery"], self.rng, sim_datetime(state["os"]),
                                                      pools(language(state["os"]))["screenshots"])
        if patch is not None:
            device.set_state(patch)

    def get_answer(self, input):
        return Gallery(input.apps_init["gallery"]).screenshots()[0]["taken"][11:]

    def check_goals(self, input):
        expected = self.get_answer(input)
        rivals = sorted({p["taken"][11:] for p in Gallery(input.apps_init["gallery"]).live()} - {expected})
        return build_answer_checks(expected, input.answer, "time", rivals=rivals)


class FavouritePlacePhotos(BaseTask):
    """Verdict: every photo taken at the place is a favourite, and no other item's favourite changed."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["search", "multi-select"]
    composition = "aggregate"
    templates = {"en": ["Favourite every photo I took at {place}",
                        "Mark all my photos from {place} as favourites"],
                 "zh": ["把我在{place}拍的照片都设为收藏", "将在{place}拍的所有照片加入收藏"]}
    parameters = {"place": {"sampler": Gallery.sample_photo_place}}
    expected_changes = GALLERY_FAVORITE_CHANGES

    def inject(self, device) -> None:
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_place_company(gallery, self.rng, now, pool, self.p.place))

    def distractors(self, apps, os_state):
        g = Gallery(apps["gallery"])
        there = g.at_place(self.p.place)
        return {"photos at the place": (len(there), MIN_PLACE_PHOTOS),
                "photos elsewhere in its city": (sum(p["place"] != self.p.place for p in g.in_city(there[0]["city"])),
                                                 MIN_NEAR_MISSES)}

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        wanted = [p["id"] for p in Gallery(input.apps_init["gallery"]).at_place(self.p.place)]
        missing = sorted(p["subject"] for p in now.photos() if p["id"] in wanted and not p["favorite"])
        return [check(f"photos at {self.p.place} favourited", [], missing, not missing),
                now.check_others_unchanged(wanted)]


class AlbumOfDay(BaseTask):
    """Verdict: one new album has the name and holds exactly the photos taken that day; no photo or other album
    changed. Sampled among days of two or more photos and no video, screenshot or download. Injection: two or three
    photos on a recent day with none when no day fits."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["album", "multi-select", "date-reasoning"]
    composition = "sequential"
    templates = {"en": ["Create an album called '{day.name}' with the photos I took on {day.label}",
                        "Make a new album named '{day.name}' and put all my photos from {day.label} in it"],
                 "zh": ["新建一个名为“{day.name}”的影集，放入我{day.label}拍的照片", "把{day.label}拍的照片都放进一个新影集，影集名叫“{day.name}”"]}
    parameters = {"day": {"sampler": Gallery.sample_album_day, "fields": ["iso", "label", "name"]}}
    expected_changes = GALLERY_NEW_ALBUM_CHANGES

    def set_up(self, device) -> None:
        state = copy_state(device)
        patch = Gallery.prepare_state_with_album_day(state["apps"]["gallery"], self.rng, sim_datetime(state["os"]),
                                                     pools(language(state["os"])))
        if patch is not None:
            device.set_state(patch)

    def inject(self, device) -> None:
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_day_before(gallery, self.rng, now, pool, self.p.day["iso"]))

    def distractors(self, apps, os_state):
        g = Gallery(apps["gallery"])
        return {"photos that day": (len(g.taken_on(self.p.day["iso"])), 2),
                "photos the day before or after": (len(g.beside(self.p.day["iso"])), MIN_NEAR_MISSES)}

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        wanted = [p["id"] for p in Gallery(input.apps_init["gallery"]).taken_on(self.p.day["iso"])]
        albums = [a for a in now.new_albums() if same_name(self.p.day["name"], a["name"])]
        named = check("new album", self.p.day["name"], [a["name"] for a in now.new_albums()], len(albums) == 1)
        if not albums:
            return [named]
        return [named, now.check_set("photos in the album", albums[0]["photo_ids"], wanted),
                now.check_others_unchanged([]), now.check_albums_unchanged()]


class RestoreDeletedPhoto(BaseTask):
    """Verdict: the photo is out of the Trash, nothing else changed (other items stay in the Trash).
    Injection: a uniquely described camera photo in the Trash when none is there."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["navigation", "restore"]
    templates = {"en": ["I deleted the photo of {photo.subject} I took at {photo.place} by mistake. Restore it.",
                        "Get my {photo.subject} photo from {photo.place} back out of the trash"],
                 "zh": ["我误删了在{photo.place}拍的那张“{photo.subject}”照片，帮我恢复。", "把在{photo.place}拍的“{photo.subject}”照片从回收站恢复出来"]}
    parameters = {"photo": {"sampler": Gallery.sample_trashed_photo, "fields": ["id", "subject", "place", "city"]}}
    expected_changes = GALLERY_RESTORE_CHANGES

    def set_up(self, device) -> None:
        state = copy_state(device)
        patch = Gallery.prepare_state_with_trashed_photo(state["apps"]["gallery"], self.rng, sim_datetime(state["os"]))
        if patch is not None:
            device.set_state(patch)

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        p = now.by_id(self.p.photo["id"])
        where = "deleted for good" if p is None else "in Trash" if p["trashed"] else "restored"
        return [check("photo restored", "restored", where, where == "restored"),
                now.check_others_unchanged([self.p.photo["id"]])]


class RotateUpsideDown(BaseTask):
    """Verdict: the photo's saved edit is a half turn, with no crop or filter; no other photo changed."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["editing", "search"]
    templates = {"en": ["My photo of {photo.subject} at {photo.place} is upside down. Rotate it 180° and save it.",
                        "Turn the {photo.subject} photo I took at {photo.place} on {photo.label} upside down (180 degrees) "
                        "and save the edit"],
                 "zh": ["我在{photo.place}拍的“{photo.subject}”照片是倒着的，把它旋转 180° 并保存。",
                        "把{photo.label}在{photo.place}拍的“{photo.subject}”照片旋转 180 度，保存修改"]}
    parameters = {"photo": {"sampler": Gallery.sample_unique_photo, "fields": ["id", "subject", "place", "city", "label"]}}
    expected_changes = GALLERY_EDIT_CHANGES

    def inject(self, device) -> None:
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_look_alikes(gallery, self.rng, now, pool, self.p.photo["id"]))

    def distractors(self, apps, os_state):
        others = [p for p in Gallery(apps["gallery"]).live() if p["id"] != self.p.photo["id"]]
        return {"its subject elsewhere": (sum(p["subject"] == self.p.photo["subject"] for p in others), MIN_NEAR_MISSES),
                "other photos at its place": (sum(p["place"] == self.p.photo["place"] for p in others), MIN_NEAR_MISSES)}

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        edit = (now.by_id(self.p.photo["id"]) or {}).get("edit")
        wanted = {"rotation": 180, "crop": "original", "filter": "none"}
        return [check("saved edit", wanted, edit, edit == wanted)]


class FilterNewestInCity(BaseTask):
    """Verdict: the most recent camera photo taken in the city has the filter saved, no rotation or crop; no other
    photo changed (videos are not photos). Sampled among cities of two or more photos. Injection: two or three
    photos in a city on a recent day when no city has two."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["editing", "sorting", "search"]
    composition = "conditional"
    templates = {"en": ["Apply the {photo.filter_name} filter to the most recent photo I took in {photo.city} and save it",
                        "Edit my latest {photo.city} photo: give it the {photo.filter_name} filter and save"],
                 "zh": ["给我在{photo.city}拍的最新一张照片加上“{photo.filter_name}”滤镜并保存",
                        "编辑我在{photo.city}拍的最近一张照片：使用“{photo.filter_name}”滤镜，然后保存"]}
    parameters = {"photo": {"sampler": Gallery.sample_filter_city, "fields": ["city", "id", "filter", "filter_name"]}}
    expected_changes = GALLERY_EDIT_CHANGES

    def set_up(self, device) -> None:
        state = copy_state(device)
        try:
            Gallery.sample_filter_city(random.Random(0), state["apps"]["gallery"], state["os"])
        except ValueError:
            device.set_state(Gallery.photos_on_free_day(state["apps"]["gallery"], self.rng, sim_datetime(state["os"]),
                                                        pools(language(state["os"]))))

    def inject(self, device) -> None:
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_newer_elsewhere(gallery, self.rng, now, pool, self.p.photo["id"]))

    def distractors(self, apps, os_state):
        g = Gallery(apps["gallery"])
        photo = g.by_id(self.p.photo["id"])
        return {"older photos in the city": (sum(p["kind"] == "photo" for p in g.in_city(photo["city"])) - 1, 1),
                "newer items in other cities": (sum(p["taken"] > photo["taken"] and p["city"] != photo["city"]
                                                    for p in g.camera()), MIN_NEAR_MISSES)}

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        edit = (now.by_id(self.p.photo["id"]) or {}).get("edit")
        wanted = {"rotation": 0, "crop": "original", "filter": self.p.photo["filter"]}
        return [check("saved edit", wanted, edit, edit == wanted)]


def _new_items(input) -> list[dict]:
    before = {p["id"] for p in input.apps_init["gallery"]["photos"]}
    return [p for p in input.apps["gallery"]["photos"] if p["id"] not in before]


class TakeSelfie(BaseTask):
    """Verdict: one new photo (not a video) in Camera, taken with the front camera."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["camera"]
    templates = {"en": ["Take a selfie", "Use the front camera to take a photo of me"],
                 "zh": ["自拍一张", "用前置摄像头给我拍一张照片"]}
    expected_changes = [*GALLERY_CAPTURE_CHANGES, "gallery.camera.lens"]  # the camera stays on the front lens

    def check_goals(self, input):
        new = [(p["kind"], p["lens"]) for p in _new_items(input)]
        return [check("new photo", [("photo", "front")], new, new == [("photo", "front")])]


class RecordVideo(BaseTask):
    """Verdict: one new video in Camera, between the two lengths asked, with the back camera."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["camera", "timing"]
    templates = {"en": ["Record a video between {clip.min} and {clip.max} seconds long with the back camera",
                        "Film a video of {clip.min} to {clip.max} seconds (back camera)"],
                 "zh": ["用后置摄像头录一段 {clip.min} 到 {clip.max} 秒长的视频", "录一段 {clip.min}～{clip.max} 秒的视频（后置摄像头）"]}
    parameters = {"clip": {"sampler": Gallery.sample_clip, "fields": ["min", "max"]}}
    expected_changes = [*GALLERY_CAPTURE_CHANGES, "gallery.camera.mode"]  # the camera stays in video mode

    def distractors(self, apps, os_state):
        return {"camera opens in photo mode": (int(apps["gallery"]["camera"]["mode"] == "photo"), 1)}

    def check_goals(self, input):
        new = [(p["kind"], p["lens"], p["duration_s"]) for p in _new_items(input)]
        low, high = self.p.clip["min"], self.p.clip["max"]
        ok = len(new) == 1 and new[0][:2] == ("video", "back") and low <= new[0][2] <= high
        return [check("new video", f"one back-camera video of {low}-{high} s", new, ok)]


class DeleteScreenshotsOfDay(BaseTask):
    """Verdict: every screenshot taken that day is in the Trash (or gone), and no other item changed.
    Injection: a second screenshot on a screenshot's day when no day has two."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    capabilities = ["deletion", "multi-select", "confirmation-dialog", "date-reasoning"]
    composition = "aggregate"
    templates = {"en": ["Delete all the screenshots I took on {day.label}",
                        "Move every screenshot from {day.label} to the trash, and nothing else"],
                 "zh": ["把我{day.label}截的屏幕截图全部删除", "把{day.label}的所有屏幕截图移到回收站，其他的不要动"]}
    parameters = {"day": {"sampler": Gallery.sample_screenshot_day, "fields": ["iso", "label"]}}
    expected_changes = GALLERY_TRASH_CHANGES
    end_states = ("in Trash", "deleted for good")

    def set_up(self, device) -> None:
        state = copy_state(device)
        patch = Gallery.prepare_state_with_screenshot_pair(state["apps"]["gallery"], self.rng, sim_datetime(state["os"]),
                                                           pools(language(state["os"]))["screenshots"])
        if patch is not None:
            device.set_state(patch)

    def inject(self, device) -> None:
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_screenshot_elsewhere(gallery, self.rng, now, pool["screenshots"],
                                                                       self.p.day["iso"]))

    def distractors(self, apps, os_state):
        shots = [p["taken"][:10] == self.p.day["iso"] for p in Gallery(apps["gallery"]).screenshots()]
        return {"screenshots that day": (sum(shots), 2), "screenshots of other days": (shots.count(False), MIN_NEAR_MISSES)}

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        shots = [p["id"] for p in Gallery(input.apps_init["gallery"]).screenshots()
                 if p["taken"][:10] == self.p.day["iso"]]
        return [now.check_in_trash_or_deleted("screenshots of the day deleted", shots), now.check_others_unchanged(shots)]


class EmptyTrash(BaseTask):
    """Verdict: every item that was in the Trash is deleted for good, and every other item is untouched."""

    objective = "operate"
    difficulty = "L1"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Empty the trash in Gallery", "Permanently delete everything in my Gallery trash"],
                 "zh": ["清空相册的回收站", "把相册回收站里的东西全部永久删除"]}
    expected_changes = GALLERY_EMPTY_TRASH_CHANGES

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        binned = [p["id"] for p in input.apps_init["gallery"]["photos"] if p["trashed"]]
        left = sorted(p["subject"] or p["name"] for p in now.photos() if p["id"] in binned)
        return [check("trash emptied", [], left, not left), now.check_others_unchanged(binned)]


class RenameAlbum(BaseTask):
    """Verdict: the album (by id) has the new name; no other album or photo changed."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["album", "text-entry"]
    templates = {"en": ["Rename my album '{album.name}' to '{album.new_name}'",
                        "Change the name of the '{album.name}' album in Gallery to '{album.new_name}'"],
                 "zh": ["把影集“{album.name}”重命名为“{album.new_name}”", "在相册里把“{album.name}”影集改名为“{album.new_name}”"]}
    parameters = {"album": {"sampler": Gallery.sample_rename, "fields": ["id", "name", "new_name"]}}
    expected_changes = GALLERY_RENAME_ALBUM_CHANGES

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        album = model.album_by_id(now.state, self.p.album["id"])
        name = album["name"] if album else "deleted"
        return [check("album name", self.p.album["new_name"], name, same_name(self.p.album["new_name"], name))]


class DeleteAlbum(BaseTask):
    """Verdict: the album is gone, every photo (its own too) is untouched, the other albums are as they were."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog", "album"]
    templates = {"en": ["Delete my album '{album.name}' but keep the photos in it",
                        "I don't need the '{album.name}' album any more: delete the album (not the photos)"],
                 "zh": ["删除影集“{album.name}”，但保留里面的照片", "“{album.name}”这个影集不需要了：删掉影集（照片留着）"]}
    parameters = {"album": {"sampler": Gallery.sample_album, "fields": ["id", "name"]}}
    expected_changes = GALLERY_DELETE_ALBUM_CHANGES

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        gone = model.album_by_id(now.state, self.p.album["id"]) is None
        return [check("album deleted", True, gone, gone), now.check_others_unchanged([]),
                now.check_albums_unchanged([self.p.album["id"]])]


@localised(zh={"fields": [{"label": "影集中的项目数"}]})
class AddPlaceToAlbumAndCount(BaseTask):
    """Verdict: the album holds every photo taken at the place (and what it held), nothing else changed, and the
    answer is how many items the album shows now."""

    objective = "hybrid"
    difficulty = "L4"
    capabilities = ["album", "multi-select", "search", "counting"]
    composition = "sequential"
    templates = {"en": ["Add all the photos I took at {target.place} to my '{target.album}' album, then tell me how "
                        "many items the album has",
                        "Put my {target.place} photos in the '{target.album}' album and tell me how many items are in "
                        "it afterwards"],
                 "zh": ["把在{target.place}拍的照片都加到“{target.album}”影集，然后告诉我影集里有多少项",
                        "把{target.place}的照片放进“{target.album}”影集，再告诉我影集现在一共有几项"]}
    parameters = {"target": {"sampler": Gallery.sample_place_and_album, "fields": ["place", "album", "album_id"]}}
    expected_changes = ["gallery.albums[id={target.album_id}].photo_ids"]
    answer_fields = [{"type": "number", "label": "Items in the album"}]

    def set_up(self, device) -> None:
        patch = Gallery.prepare_state_with_place_outside_album(copy_state(device)["apps"]["gallery"])
        if patch is not None:
            device.set_state(patch)

    def inject(self, device) -> None:
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_place_company(gallery, self.rng, now, pool, self.p.target["place"]))
        _apply(device, Gallery.prepare_state_with_album_items(_context(device)[0], self.p.target["album_id"],
                                                             self.p.target["place"]))

    def distractors(self, apps, os_state):
        g = Gallery(apps["gallery"])
        return {"photos at the place": (len(g.at_place(self.p.target["place"])), MIN_PLACE_PHOTOS),
                "items the album shows already": (len(model.album_photos(g.state, self.p.target["album_id"])), 1)}

    def _expected(self, input) -> list[str]:
        init = Gallery(input.apps_init["gallery"])
        album = model.album_by_id(init.state, self.p.target["album_id"])
        shown = [p["id"] for p in model.album_photos(init.state, album["id"])]
        return list(dict.fromkeys([*shown, *(p["id"] for p in init.at_place(self.p.target["place"]))]))

    def check_goals(self, input):
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        wanted = self._expected(input)
        shown = [p["id"] for p in model.album_photos(now.state, self.p.target["album_id"]) or []]
        return [now.check_set("album", shown, wanted), now.check_others_unchanged([]),
                *build_answer_checks(len(wanted), input.answer, "items_in_album")]


# --- cross-app ----------------------------------------------------------------------------------------------------

class ShareEventPhotos(BaseTask):
    """Verdict: every photo taken at the event's place on its day, and no other photo, went to the contact as
    attachments (shared from Gallery into Messages: a text naming them is no share); no photo changed.
    Injection: the event (a past one with a place) gets two to four photos taken there during it."""

    scope = "cross-app"
    app = "calendar"
    related_apps = ["gallery", "calendar", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "share-sheet", "multi-select", "date-reasoning"]
    templates = {"en": ["Send {person} the photos I took at '{event.title}' (check my calendar for when and where) "
                        "through Messages",
                        "Share the photos from my calendar event '{event.title}' with {person} by text message"],
                 "zh": ["通过信息把我在“{event.title}”拍的照片发给{person}（时间地点看日历）",
                        "把日历上“{event.title}”那次活动拍的照片用短信分享给{person}"]}
    parameters = EVENT_PHOTO_PARAMETERS
    expected_changes = MESSAGES_SEND_CHANGES
    set_up = prepare_past_event
    inject = add_event_photos
    distractors = event_distractors

    def check_goals(self, input):
        wanted = [p["name"] for p in event_photos(self, input)]
        numbers = [n["number"] for n in Contacts(input.apps_init["contacts"]).contact(self.p.person)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [check("photos to share", "2 or more", len(wanted), len(wanted) >= 2),
                messages.check_shared(self.p.person, numbers, wanted)]


class BirthdayPhotoCount(BaseTask):
    """Verdict: a text went to the contact stating how many camera photos and videos were taken on their birthday
    this year (a past day of the last six weeks), and no other number. Injection: the contact's birthday moves to a
    recent day with photos, the other contacts' birthdays away from it."""

    scope = "cross-app"
    app = "contacts"
    related_apps = ["gallery", "contacts", "messages"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "counting", "date-reasoning", "messaging"]
    templates = {"en": ["{person} had a birthday recently. Count the photos and videos I took on their birthday this "
                        "year and text them the number.",
                        "Text {person} how many photos and videos I took on their birthday this year (Contacts has the date)"],
                 "zh": ["{person}最近过了生日。数一数今年他生日那天我拍了多少张照片和视频，把数量用短信发给他。",
                        "发短信告诉{person}，今年他生日那天我拍了几张照片和视频（生日在通讯录里）"]}
    parameters = {"person": {"sampler": sample_birthday_person}}
    expected_changes = MESSAGES_SEND_CHANGES

    def inject(self, device) -> None:
        device.set_state(prepare_state_with_birthday_photos(copy_state(device), self.p.person, self.rng))
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_day_before(gallery, self.rng, now, pool, self._birthday(copy_state(device))))

    def _birthday(self, state) -> str:
        """This year's birthday of the contact (YYYY-MM-DD)."""
        person = Contacts(state["apps"]["contacts"]).contact(self.p.person)
        return str(sim_datetime(state["os"]).year) + person["birthday"][4:]

    def distractors(self, apps, os_state):
        g, iso = Gallery(apps["gallery"]), self._birthday({"apps": apps, "os": os_state})
        return {"items on the birthday": (len(g.taken_on(iso)), 1), "items the day before or after": (len(g.beside(iso)), MIN_NEAR_MISSES)}

    def check_goals(self, input):
        person = Contacts(input.apps_init["contacts"]).contact(self.p.person)
        today = sim_datetime(input.os_init).date()
        birthday = dt.date(today.year, int(person["birthday"][5:7]), int(person["birthday"][8:10])).isoformat()
        count = len(Gallery(input.apps_init["gallery"]).taken_on(birthday))
        numbers = [n["number"] for n in person["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.person, numbers, {"photos": count}, os_state=input.os_init)


class TextCityOfDay(BaseTask):
    """Verdict: a text went to the contact naming the city the camera photos of that day were taken in, and no other
    city of the library. Sampled among days whose photos are all from one city."""

    scope = "cross-app"
    related_apps = ["gallery", "contacts", "messages"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "messaging"]
    templates = {"en": ["{person} asked where I was on {day.label}. Look at my photos from that day and text them the city.",
                        "Text {person} the name of the city I took photos in on {day.label}"],
                 "zh": ["{person}问我{day.label}在哪儿。看看那天拍的照片，把城市名发短信告诉他。",
                        "发短信告诉{person}我{day.label}拍照的城市"]}
    parameters = {"day": {"sampler": sample_city_day, "fields": ["iso", "label", "city"]},
                  "person": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def inject(self, device) -> None:
        gallery, now, pool = _context(device)
        _apply(device, Gallery.prepare_state_with_day_before(gallery, self.rng, now, pool, self.p.day["iso"], other_city=True))

    def distractors(self, apps, os_state):
        g = Gallery(apps["gallery"])
        return {"other cities in the library": (len({p["city"] for p in g.photos() if p["city"]} - {self.p.day["city"]}), 1),
                "other cities the day before or after": (sum(p["city"] != self.p.day["city"] for p in g.beside(self.p.day["iso"])),
                                                         MIN_NEAR_MISSES)}

    def check_goals(self, input):
        gallery = Gallery(input.apps_init["gallery"])
        city = gallery.taken_on(self.p.day["iso"])[0]["city"]
        rivals = sorted({p["city"] for p in gallery.photos() if p["city"]} - {city})
        numbers = [n["number"] for n in Contacts(input.apps_init["contacts"]).contact(self.p.person)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return messages.check_sent_facts(self.p.person, numbers, {"city": city}, rivals={"city": rivals},
                                         os_state=input.os_init)



class EventAlbumAndText(BaseTask):
    """Verdict: one new album named after the event holds exactly the photos taken at the event's place on its day
    (no photo or other album changed), and a text to the contact states how many photos that is.
    Injection: the event (a past one with a place) gets two to four photos taken there during it."""

    scope = "cross-app"
    app = "calendar"
    related_apps = ["calendar", "gallery", "messages", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "album", "multi-select", "messaging"]
    templates = {"en": ["Put the photos I took at '{event.title}' (my calendar says when and where it was) in a new "
                        "album called '{event.title}', then text {person} how many photos are in it",
                        "Make an album named '{event.title}' with my photos from that calendar event, and let {person} "
                        "know by text how many photos it has"],
                 "zh": ["把我在“{event.title}”拍的照片（时间地点看日历）放进一个名为“{event.title}”的新影集，再发短信告诉{person}"
                        "影集里有几张照片",
                        "新建影集“{event.title}”，放入日历上这次活动拍的照片，然后用短信告诉{person}一共有几张"]}
    parameters = EVENT_PHOTO_PARAMETERS
    expected_changes = [*GALLERY_NEW_ALBUM_CHANGES, *MESSAGES_SEND_CHANGES]
    set_up = prepare_past_event
    inject = add_event_photos
    distractors = event_distractors

    def check_goals(self, input):
        wanted = [p["id"] for p in event_photos(self, input)]
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        albums = [a for a in now.new_albums() if same_name(self.p.event["title"], a["name"])]
        numbers = [n["number"] for n in Contacts(input.apps_init["contacts"]).contact(self.p.person)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [check("photos of the event", "2 or more", len(wanted), len(wanted) >= 2),
                check("new album", self.p.event["title"], [a["name"] for a in now.new_albums()], len(albums) == 1),
                now.check_set("photos in the album", albums[0]["photo_ids"] if len(albums) == 1 else [], wanted),
                now.check_others_unchanged([]), now.check_albums_unchanged(),
                *messages.check_sent_facts(self.p.person, numbers, {"photos": len(wanted)}, os_state=input.os_init)]


class FavouriteEventPhotosEmail(BaseTask):
    """Verdict: every photo taken at the event's place on its day is a favourite now (no other photo changed), and
    one e-mail to the contact alone states how many photos that is.
    Injection: the event (a past one with a place) gets two to four photos taken there during it; the contact gets an
    e-mail address when Contacts has none."""

    scope = "cross-app"
    app = "calendar"
    related_apps = ["calendar", "gallery", "mail", "contacts"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["cross-app", "multi-select", "date-reasoning", "messaging"]
    templates = {"en": ["Mark every photo I took at '{event.title}' as a favourite (my calendar says when and where it "
                        "was), then email {person} how many photos I took there",
                        "Favourite my photos from the calendar event '{event.title}' in Gallery and send {person} an "
                        "email saying how many there are"],
                 "zh": ["把我在“{event.title}”拍的照片都设为收藏（时间地点看日历），再发邮件告诉{person}我在那儿拍了几张",
                        "在相册里收藏日历上“{event.title}”那次活动拍的照片，然后给{person}发封邮件说一共有几张"]}
    parameters = EVENT_PHOTO_PARAMETERS
    expected_changes = [*GALLERY_FAVORITE_CHANGES, *MAIL_SEND_CHANGES]
    set_up = prepare_past_event

    def inject(self, device) -> None:
        add_event_photos(self, device)
        person = Contacts(copy_state(device)["apps"]["contacts"]).contact(self.p.person)
        if not person["email"]:
            local = ".".join(person["id"].split("_"))
            device.set_state({"apps": {"contacts": {f"contacts[id={person['id']}]": {"email": f"{local}@example.com"}}}})

    distractors = event_distractors

    def check_goals(self, input):
        wanted = [p["id"] for p in event_photos(self, input)]
        now = Gallery(input.apps["gallery"], input.apps_init["gallery"])
        missing = sorted(p["name"] for p in now.photos() if p["id"] in wanted and not p["favorite"])
        email = Contacts(input.apps_init["contacts"]).contact(self.p.person)["email"]
        mail = Mail(input.apps["mail"], input.apps_init["mail"])
        return [check("photos of the event", "2 or more", len(wanted), len(wanted) >= 2),
                check("event photos favourited", [], missing, not missing),
                now.check_others_unchanged(wanted),
                *mail.check_sent_facts(self.p.person, email, {"photos": len(wanted)})]
