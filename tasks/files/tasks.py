"""Files tasks.

Task index:
    CountPhotosOnDate        query    L2  how many camera photos were taken on a day
    LargestDownloadSize      query    L2  the size of the largest file in Download
    FindFileFolder           query    L2  which folder holds a file
    RenameFile               operate  L2  rename a file, keeping its extension
    MoveFile                 operate  L2  move a file to another folder (destination picker)
    RestoreFromTrash         operate  L2  put a file in the Trash back
    EmptyTrash               operate  L1  delete everything in the Trash for good (confirm)
    MoveInvoicesToNewFolder  operate  L3  create a folder in Documents and move every invoice PDF of Download into it
    DeleteDuplicateCopies    operate  L3  delete the numbered copies of a download, keeping the original
    DeleteOldDownloads       operate  L4  delete every download older than N days, and nothing else
    ShareFileToContact       operate  L3  cross-app: share a file with a contact through Messages
    CopyAndCount             hybrid   L3  copy a file into a folder and say how many files the folder holds
    SendRequestedFile        operate  L4  cross-app: Mail -> Files -> Messages: share the file a contact asked for by
                                          e-mail with them
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Any, Mapping

from mobilegym.judge import AnswerTask, BaseTask, build_answer_checks, sim_datetime, copy_state
from mobilegym.judge.result import check

from mobilegym.envs.files import ops

from ..contacts.app import Contacts
from ..l10n import localised
from ..spread import fit_count
from ..messages.app import MESSAGES_SEND_CHANGES, Messages
from .app import (stem_ext, FILES_COPY_CHANGES, FILES_EMPTY_TRASH_CHANGES, FILES_MOVE_CHANGES, FILES_NEW_FOLDER_MOVE_CHANGES,
                  FILES_RENAME_CHANGES, FILES_RESTORE_CHANGES, FILES_GONE_CHANGES, GONE_END_STATES, Files, language)
from .app import (SCAN_NAME, MIN_COPIES, MIN_DECOY_INVOICES, MIN_FOLDER_FILES, MIN_INVOICES, MIN_NAMESAKES, MIN_NEAR_NAMES,
                  MIN_SUBFOLDERS, OLD_DAYS, namesakes, prepare_state_with_namesake)


@localised(zh={"fields": [{"label": "照片数量"}]})
class CountPhotosOnDate(AnswerTask):
    """Verdict: the answer is how many camera photos (IMG_*.jpg in DCIM/Camera) were taken that day."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["counting", "information-retrieval"]
    templates = {"en": ["How many photos did I take on {day.label}?",
                        "Check my camera folder: how many photos were taken on {day.label}?"],
                 "zh": ["我{day.label}拍了几张照片？", "看看相机文件夹：{day.label}拍了多少张照片？"]}
    parameters = {"day": {"sampler": Files.sample_photo_day, "fields": ["iso", "label"]}}
    answer_fields = [{"type": "number", "label": "Number of photos"}]

    def inject(self, device) -> None:
        """One to twelve photos that day, the count drawn uniformly (tasks/spread.py): more are taken at free
        minutes of the day, or some of them removed."""
        from mobilegym.envs.files.world import make_file

        if not self.spreads:
            return
        state = copy_state(device)["apps"]["files"]
        iso = self.p.day["iso"]
        first = 1 + max(int(f["id"].rsplit("_", 1)[1]) for f in state["files"])
        shots = [f for f in Files(state).photos_on(iso)]

        def add(k: int, now: list[dict[str, Any]]) -> dict[str, Any]:
            taken = {f["modified"][11:16] for f in now if f["modified"][:10] == iso}
            free = [m for m in range(8 * 60, 22 * 60) if f"{m // 60:02d}:{m % 60:02d}" not in taken]
            m = self.rng.choice(free)
            name = f"IMG_{iso.replace('-', '')}_{m // 60:02d}{m % 60:02d}{self.rng.randint(0, 59):02d}.jpg"
            return make_file(f"file_{first + k}", name, "DCIM/Camera", self.rng.randint(1400, 6800) * 1024,
                             f"{iso} {m // 60:02d}:{m % 60:02d}")

        ids = {f["id"] for f in shots}
        files = fit_count(state["files"], lambda f: f["id"] in ids or f["id"].startswith("file_") and
                          int(f["id"].rsplit("_", 1)[1]) >= first, self.spread.count(1), self.rng,
                          drop=lambda f: None, add=add)
        device.set_state({"apps": {"files": {"files": files}}})

    def get_answer(self, input):
        return len(Files(input.apps_init["files"]).photos_on(self.p.day["iso"]))


@localised(zh={"fields": [{"label": "大小（MB）"}]})
class LargestDownloadSize(AnswerTask):
    """Verdict: the answer is the size in MB (as the list shows it, one decimal) of the largest file in Download.
    Injection: when the two largest are within 1 MB, the largest grows by a few MB."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["sorting", "information-retrieval"]
    templates = {"en": ["How big is the largest file in my Download folder? Give the size in MB.",
                        "What's the size, in MB, of the biggest download on my phone?"],
                 "zh": ["下载文件夹里最大的文件有多大？请用 MB 回答。", "手机下载文件夹中最大的文件是多少 MB？"]}
    answer_fields = [{"type": "number", "label": "Size (MB)"}]

    def inject(self, device) -> None:
        files = sorted(ops.files_in(copy_state(device)["apps"]["files"], "Download"), key=lambda f: -f["size"])
        if len(files) > 1 and files[0]["size"] - files[1]["size"] < 1_000_000:
            device.set_state({"apps": {"files": {f"files[id={files[0]['id']}]": {
                "size": files[1]["size"] + self.rng.randint(2_000, 9_000) * 1000}}}})

    def get_answer(self, input):
        largest = max(ops.files_in(input.apps_init["files"], "Download"), key=lambda f: f["size"])
        return round(largest["size"] / 1_000_000, 1)

    def check_goals(self, input):
        # exactly as shown (86.1 MB): a tolerance would pay "86.1 or 87.1", which a number field types as 86.1871
        return build_answer_checks(self.get_answer(input), input.answer, "size_mb")


@localised(zh={"fields": [{"label": "文件夹名称"}]})
class FindFileFolder(AnswerTask):
    """Verdict: the answer names the folder holding the file (its own name, e.g. "Receipts"), and no other
    folder. The file's name is found once on the phone; the folder is drawn first, so answers vary."""

    objective = "query"
    difficulty = "L2"
    capabilities = ["search", "information-retrieval"]
    templates = {"en": ["Which folder is '{file.name}' in? Tell me the folder's name.",
                        "Find '{file.name}' in Files and tell me the name of the folder it's saved in"],
                 "zh": ["“{file.name}”在哪个文件夹里？告诉我文件夹的名称。", "在文件应用里找到“{file.name}”，告诉我它所在文件夹的名称"]}
    parameters = {"file": {"sampler": Files.sample_located_file, "fields": ["id", "name", "folder"]}}
    answer_fields = [{"type": "text", "label": "Folder"}]

    def get_answer(self, input):
        return ops.leaf(Files(input.apps_init["files"]).by_id(self.p.file["id"])["folder"])

    def check_goals(self, input):
        expected = self.get_answer(input)
        rivals = sorted({ops.leaf(p) for p in Files(input.apps_init["files"]).folder_paths()} - {expected})
        return build_answer_checks(expected, input.answer, "folder", rivals=rivals)


class RenameFile(BaseTask):
    """Verdict: the file (by id) has the new name and is still in its folder."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["editing", "text-entry"]
    templates = {"en": ["Rename '{file.name}' to '{file.new_name}'",
                        "In Files, change the name of '{file.name}' to '{file.new_name}'"],
                 "zh": ["把“{file.name}”重命名为“{file.new_name}”", "在文件应用里把“{file.name}”改名为“{file.new_name}”"]}
    parameters = {"file": {"sampler": Files.sample_rename, "fields": ["id", "name", "folder", "new_name"]}}
    expected_changes = FILES_RENAME_CHANGES

    def check_goals(self, input):
        return Files(input.apps["files"]).check_file(self.p.file["id"], self.p.file["new_name"], self.p.file["folder"])


class MoveFile(BaseTask):
    """Verdict: the file (by id) is in the destination folder, with its name, not in the Trash."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["navigation", "picker"]
    templates = {"en": ["Move '{file.name}' into the {file.dest_name} folder",
                        "Put '{file.name}' in my {file.dest_name} folder (move it, don't copy)"],
                 "zh": ["把“{file.name}”移动到“{file.dest_name}”文件夹", "把“{file.name}”移到“{file.dest_name}”文件夹里（移动，不是复制）"]}
    parameters = {"file": {"sampler": Files.sample_move, "fields": ["id", "name", "folder", "dest", "dest_name"]}}
    expected_changes = FILES_MOVE_CHANGES

    def check_goals(self, input):
        return Files(input.apps["files"]).check_file(self.p.file["id"], self.p.file["name"], self.p.file["dest"])


class RestoreFromTrash(BaseTask):
    """Verdict: the file (by id) is out of the Trash, in its folder, with its name.
    Injection: a second file in the Trash when there is only one."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["navigation", "restore"]
    templates = {"en": ["I deleted '{file.name}' by mistake. Restore it from the Trash.",
                        "Get '{file.name}' back out of the Trash"],
                 "zh": ["我误删了“{file.name}”，把它从回收站恢复。", "把“{file.name}”从回收站里恢复出来"]}
    parameters = {"file": {"sampler": Files.sample_trashed, "fields": ["id", "name", "folder"]}}
    expected_changes = FILES_RESTORE_CHANGES

    def check_goals(self, input):
        return Files(input.apps["files"]).check_file(self.p.file["id"], self.p.file["name"], self.p.file["folder"])

    def set_up(self, device) -> None:
        state = copy_state(device)
        patch = Files.prepare_state_with_trashed(state["apps"]["files"], self.rng, sim_datetime(state["os"]))
        if patch is not None:
            device.set_state(patch)


class EmptyTrash(BaseTask):
    """Verdict: every file that was in the Trash is deleted for good, and every other file is untouched."""

    objective = "operate"
    difficulty = "L1"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Empty the Trash in Files", "Permanently delete everything in my Files trash"],
                 "zh": ["清空文件应用的回收站", "把文件回收站里的东西全部永久删除"]}
    expected_changes = FILES_EMPTY_TRASH_CHANGES

    def check_goals(self, input):
        init = Files(input.apps_init["files"])
        now = Files(input.apps["files"], input.apps_init["files"])
        binned = [f["id"] for f in init.files() if f["trashed"]]
        left = sorted(f["name"] for f in now.files() if f["id"] in binned)
        return [check("Trash emptied", [], left, not left), now.check_others_unchanged(binned)]


class MoveInvoicesToNewFolder(BaseTask):
    """Verdict: Documents/<folder> exists, every invoice PDF that was in Download is in it, and no other file
    moved or changed (an "Invoice template.docx" and other PDFs stay). Injection: two invoice PDFs in Download at
    least, an older invoice PDF in Documents, the invoice template in Download and a folder in Documents, each
    when missing."""

    objective = "operate"
    difficulty = "L3"
    capabilities = ["folder-creation", "multi-select", "picker"]
    composition = "sequential"
    templates = {"en": ["Create a folder called '{folder}' inside Documents and move every invoice PDF from Download into it",
                        "Tidy up my invoices: make a new folder '{folder}' in Documents and move all the invoice PDFs "
                        "in Download there"],
                 "zh": ["在 Documents 里新建一个名为“{folder}”的文件夹，把下载文件夹里所有的电子发票都移进去",
                        "整理发票：在 Documents 中新建文件夹“{folder}”，把 Download 里的电子发票全部移到那里"]}
    parameters = {"folder": {"sampler": Files.sample_new_folder}}
    expected_changes = FILES_NEW_FOLDER_MOVE_CHANGES

    def inject(self, device) -> None:
        state = copy_state(device)
        for patch in (Files.prepare_state_with_decoy_invoices(state["apps"]["files"], self.rng, self.language,
                                                              sim_datetime(state["os"])),
                      Files.prepare_state_with_subfolder(state["apps"]["files"], "Documents", self.rng, self.language)):
            if patch is not None:
                device.set_state(patch)

    def distractors(self, apps, os_state):
        files, lang = Files(apps["files"]), language(os_state)
        elsewhere, other_kind = files.invoice_decoys(lang)
        return {"invoice PDFs to move": (len(files.invoices_in_download(lang)), MIN_INVOICES),
                "invoice-named files outside Download": (len(elsewhere), MIN_DECOY_INVOICES),
                "invoice-named files in Download that are no PDF": (len(other_kind), MIN_DECOY_INVOICES),
                "other folders in Documents": (len(ops.subfolders(apps["files"], "Documents")), MIN_SUBFOLDERS)}

    def check_goals(self, input):
        init = Files(input.apps_init["files"])
        now = Files(input.apps["files"], input.apps_init["files"])
        path = f"Documents/{self.p.folder}"
        invoices = [f["id"] for f in init.invoices_in_download(language(input.os_init))]
        moved = [f["name"] for f in now.live() if f["id"] in invoices and f["folder"] == path]
        return [now.check_folder(path),
                check("invoices moved", len(invoices), moved, len(moved) == len(invoices)),
                now.check_others_unchanged(invoices)]


class DeleteDuplicateCopies(BaseTask):
    """Verdict: the numbered copies of the download are in the Trash (or gone), the original is untouched, and so
    is every other file. Injection: two copies of a download PDF when no download has copies."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    capabilities = ["deletion", "multi-select", "confirmation-dialog"]
    composition = "aggregate"
    templates = {"en": ["I downloaded '{file.name}' more than once. Delete the extra copies in Download and keep the original.",
                        "Remove the duplicate copies of '{file.name}' from my Download folder, but keep the original file"],
                 "zh": ["“{file.name}”我下载了好几次。删除下载文件夹里多余的副本，保留原文件。",
                        "把下载文件夹里“{file.name}”的重复副本删掉，原文件留着"]}
    parameters = {"file": {"sampler": Files.sample_duplicated, "fields": ["id", "name", "copies"]}}
    expected_changes = FILES_GONE_CHANGES
    end_states = GONE_END_STATES

    def set_up(self, device) -> None:
        patch = Files.prepare_state_with_duplicates(copy_state(device)["apps"]["files"], self.rng)
        if patch is not None:
            device.set_state(patch)

    def distractors(self, apps, os_state):
        copies = set(self.p.file["copies"])
        return {"copies to delete": (len(copies), MIN_COPIES), "other downloads to keep": (sum(
            f["id"] not in copies and f["id"] != self.p.file["id"] for f in Files(apps["files"]).in_folder("Download")), 2)}

    def check_goals(self, input):
        now = Files(input.apps["files"], input.apps_init["files"])
        copies = list(self.p.file["copies"])
        return [now.check_in_trash_or_deleted("copies deleted", copies), now.check_others_unchanged(copies)]


class DeleteOldDownloads(BaseTask):
    """Verdict: every file of Download modified more than N days ago is in the Trash (or gone) and every other
    file is untouched. N leaves no file within a day of the cut-off."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    capabilities = ["deletion", "sorting", "date-reasoning", "multi-select"]
    composition = "conditional"
    templates = {"en": ["Free up some space: delete every file in my Download folder that is older than {age.days} days. "
                        "Leave the newer ones.",
                        "Clean out Download: move all files there last modified more than {age.days} days ago to the Trash, "
                        "and keep everything newer"],
                 "zh": ["腾点空间：把下载文件夹里超过 {age.days} 天的文件都删掉，较新的保留。",
                        "清理 Download：把最后修改时间在 {age.days} 天以前的文件都移到回收站，更新的文件保留"]}
    parameters = {"age": {"sampler": Files.sample_age, "fields": ["days", "today"]}}
    expected_changes = FILES_GONE_CHANGES
    end_states = GONE_END_STATES

    def inject(self, device) -> None:
        """Threshold traps: a download dated between N and each neighbouring day count the sampler draws (another
        world's N), so the plan for that N deletes another set of files."""
        from mobilegym.envs.files.world import make_file

        state = copy_state(device)
        files, now = state["apps"]["files"]["files"], sim_datetime(state["os"])
        days = self.p.age["days"]
        ages = [(now - ops.parse_stamp(f["modified"])).total_seconds() / 86400 for f in ops.files_in(
            state["apps"]["files"], "Download")]
        index = OLD_DAYS.index(days)
        neighbours = [OLD_DAYS[i] for i in (index - 1, index + 1) if 0 <= i < len(OLD_DAYS)]
        first = 1 + max(int(f["id"].rsplit("_", 1)[1]) for f in files)
        added = []
        for other in neighbours:
            low, high = sorted((days, other))
            if any(low + 1 < a < high - 1 for a in ages):
                continue
            when = now - dt.timedelta(days=(low + high) / 2, minutes=self.rng.randint(0, 600))
            name = f"{SCAN_NAME[self.language]}_{when:%Y%m%d}.pdf"
            added.append(make_file(f"file_{first + len(added)}", name, "Download", self.rng.randint(80, 900) * 1024,
                                   when.strftime("%Y-%m-%d %H:%M")))
        if added:
            device.set_state({"apps": {"files": {"files": [*files, *added]}}})

    def distractors(self, apps, os_state):
        now, days = sim_datetime(os_state), self.p.age["days"]
        ages = [(now - ops.parse_stamp(f["modified"])).total_seconds() / 86400 for f in Files(apps["files"]).in_folder("Download")]
        index = OLD_DAYS.index(days)
        cuts = [OLD_DAYS[i] for i in (index - 1, index + 1) if 0 <= i < len(OLD_DAYS)]
        return {"older downloads to delete": (sum(a > days for a in ages), 1), "newer downloads to keep": (sum(a < days for a in ages), 1),
                "downloads between N and a neighbouring cut-off": (sum(min(days, c) < a < max(days, c) for a in ages for c in cuts), 1)}

    def check_goals(self, input):
        init = Files(input.apps_init["files"])
        now = Files(input.apps["files"], input.apps_init["files"])
        days = self.p.age["days"]
        old = [f["id"] for f in init.older_than("Download", days, sim_datetime(input.os_init))]
        return [now.check_in_trash_or_deleted(f"downloads older than {days} days deleted", old), now.check_others_unchanged(old)]


class ShareFileToContact(BaseTask):
    """Verdict: the file, and no other, went to the contact as an attachment (shared from Files into Messages: a
    text naming it is no share), and no file changed. Injection: a contact named like them (prepare_state_with_namesake)
    when there is none."""

    objective = "operate"
    difficulty = "L3"
    high_risk = True
    scope = "cross-app"
    related_apps = ["files", "messages", "contacts"]
    composition = "sequential"
    capabilities = ["cross-app", "share-sheet", "messaging"]
    templates = {"en": ["Share '{file.name}' with {person} through Messages",
                        "Send {person} the file '{file.name}' using the share button in Files and Messages"],
                 "zh": ["通过信息把“{file.name}”分享给{person}", "用文件应用的分享功能，通过信息把“{file.name}”发给{person}"]}
    parameters = {"file": {"sampler": Files.sample_located_file, "fields": ["id", "name", "folder"]},
                  "person": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def inject(self, device) -> None:
        _plant_namesake(device, self.p.person, self.rng)

    def distractors(self, apps, os_state):
        return _recipient_distractors(apps, self.p.person)

    def check_goals(self, input):
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.person)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [messages.check_shared(self.p.person, numbers, [self.p.file["name"]])]


def _plant_namesake(device: Any, person: str, rng: random.Random) -> None:
    patch = prepare_state_with_namesake(copy_state(device)["apps"]["contacts"], person, rng)
    if patch is not None:
        device.set_state(patch)


def _recipient_distractors(apps: Mapping[str, Any], person: str) -> dict[str, tuple[int, int]]:
    """The share tasks' recipient traps: contacts named like them, and the other contacts."""
    contacts = apps["contacts"]["contacts"]
    return {"contacts named like the recipient": (len(namesakes(contacts, person)), MIN_NAMESAKES),
            "other contacts": (len(contacts) - 1, 2)}


@localised(zh={"fields": [{"label": "文件数量"}]})
class CopyAndCount(BaseTask):
    """Verdict: the folder holds a new copy of the file (same name and size), the original is untouched, and the
    answer is how many files (not folders) the folder holds now. Injection: an empty folder inside it when it has
    none; on generated worlds the files it holds before the copy are a spread count (2 to 13)."""

    objective = "hybrid"
    difficulty = "L3"
    capabilities = ["picker", "counting"]
    composition = "sequential"
    templates = {"en": ["Copy '{file.name}' into the {file.dest_name} folder, then tell me how many files that folder has",
                        "Make a copy of '{file.name}' in {file.dest_name}, and tell me how many files are in "
                        "{file.dest_name} afterwards (not counting folders)"],
                 "zh": ["把“{file.name}”复制到“{file.dest_name}”文件夹，然后告诉我那个文件夹里有几个文件",
                        "在“{file.dest_name}”里复制一份“{file.name}”，再告诉我“{file.dest_name}”里现在有多少个文件（不算文件夹）"]}
    parameters = {"file": {"sampler": Files.sample_copy, "fields": ["id", "name", "folder", "dest", "dest_name"]}}
    expected_changes = FILES_COPY_CHANGES
    answer_fields = [{"type": "number", "label": "Files in the folder"}]

    def inject(self, device) -> None:
        state, dest = copy_state(device), self.p.file["dest"]
        if self.spreads:
            device.set_state(Files.prepare_state_with_file_count(state["apps"]["files"], dest, self.spread.count(
                MIN_FOLDER_FILES), self.rng, self.language, sim_datetime(state["os"])))
        patch = Files.prepare_state_with_subfolder(state["apps"]["files"], dest, self.rng, self.language)
        if patch is not None:
            device.set_state(patch)

    def distractors(self, apps, os_state):
        dest = self.p.file["dest"]
        return {"files already in the folder": (len(Files(apps["files"]).in_folder(dest)), MIN_FOLDER_FILES),
                "folders in it (not counted)": (len(ops.subfolders(apps["files"], dest)), MIN_SUBFOLDERS)}

    def check_goals(self, input):
        init = Files(input.apps_init["files"])
        now = Files(input.apps["files"], input.apps_init["files"])
        original = init.by_id(self.p.file["id"])
        before = {f["id"] for f in init.files()}
        copies = [f for f in now.in_folder(self.p.file["dest"]) if f["id"] not in before
                  and f["name"] == original["name"] and f["size"] == original["size"]]
        return [check("copy made", f"{original['name']} in {self.p.file['dest']}", [f["name"] for f in copies],
                      bool(copies)),
                now.check_others_unchanged([]),
                *build_answer_checks(len(init.in_folder(self.p.file["dest"])) + 1, input.answer, "files_in_folder")]


# --- cross-app ----------------------------------------------------------------------------------------------------

FILE_REQUEST = {"en": ("Quick request", "Hi! Could you text me the \"{name}\" file from your phone when you get a chance? "
                                        "Thanks a lot!"),
                "zh": ("帮个忙", "你好！方便的时候能把手机里的“{name}”那个文件用短信发给我吗？多谢！")}


def sample_file_of_unique_stem(rng, state: dict) -> dict:
    """A file in a folder drawn first whose name without its extension no other file (live or trashed) has:
    {"id", "name", "folder", "stem"}."""
    stems = [stem_ext(f["name"])[0].casefold() for f in state["files"]]
    files = [f for f in Files._unique_names(state) if f["folder"] and stem_ext(f["name"])[1]
             and stems.count(stem_ext(f["name"])[0].casefold()) == 1]
    if not files:
        raise ValueError("files: no file with a name of its own")
    folder = rng.choice(sorted({f["folder"] for f in files}))
    f = rng.choice([f for f in files if f["folder"] == folder])
    return {"id": f["id"], "name": f["name"], "folder": f["folder"], "stem": stem_ext(f["name"])[0]}


def prepare_state_with_file_request(doc, person: dict, file_name: str) -> dict:
    """A patch adding an unread Mail thread in which ``person`` asks the owner (an hour ago) to text them a file."""
    mail = doc["apps"]["mail"]
    subject, body = FILE_REQUEST[language(doc["os"])]
    sender = {"name": person["name"], "email": person["email"] or f"{person['id']}@example.com"}
    me = {"name": mail["account"]["name"], "email": mail["account"]["email"]}
    message = {"id": "msg_file_request", "from": sender, "to": [me], "cc": [], "body": body.format(name=file_name),
               "time_ms": doc["os"]["time_ms"] - 3600 * 1000, "attachments": []}
    thread = {"id": "thread_file_request", "kind": "personal", "subject": subject, "labels": [], "inbox": True,
              "trashed": False, "unread": True, "starred": False, "messages": [message], "facts": {}}
    return {"apps": {"mail": {"threads[]": thread}}}


class SendRequestedFile(BaseTask):
    """Verdict: the file their e-mail asks for, and no other, went to the contact as an attachment (shared from Files
    into Messages: a text naming it, with a guessed extension or not, is no share); no file changed.
    Injection: an unread mail from the contact, an hour ago, asking to be texted that file by its name without the
    extension (a name no other file has, with or without extension); a file beside it named like it a word longer,
    and a contact named like them, when missing."""

    objective = "operate"
    difficulty = "L4"
    high_risk = True
    scope = "cross-app"
    related_apps = ["mail", "files", "messages", "contacts"]
    composition = "sequential"
    capabilities = ["cross-app", "information-retrieval", "share-sheet", "messaging"]
    templates = {"en": ["{person} emailed me asking for a file. Find it in Files and share it with them through Messages",
                        "Check {person}'s email: they want a file from my phone. Send it to them by text from the Files app"],
                 "zh": ["{person}发邮件向我要一个文件。在文件应用里找到它，通过信息分享给他",
                        "看看{person}发来的邮件，他要我手机里的一个文件。用文件应用把它通过短信发给他"]}
    parameters = {"file": {"sampler": sample_file_of_unique_stem, "fields": ["id", "name", "folder", "stem"]},
                  "person": {"source": "contacts:.contacts[*].name"}}
    expected_changes = MESSAGES_SEND_CHANGES

    def inject(self, device) -> None:
        doc = copy_state(device)
        person = Contacts(doc["apps"]["contacts"]).contact(self.p.person)
        device.set_state(prepare_state_with_file_request(doc, person, self.p.file["stem"]))
        patch = Files.prepare_state_with_near_name(doc["apps"]["files"], self.p.file, self.rng, self.language,
                                                  sim_datetime(doc["os"]))
        if patch is not None:
            device.set_state(patch)
        _plant_namesake(device, self.p.person, self.rng)

    def distractors(self, apps, os_state):
        return {**_recipient_distractors(apps, self.p.person),
                "files named like the asked one": (len(Files(apps["files"]).near_names(self.p.file["name"])), MIN_NEAR_NAMES)}

    def check_goals(self, input):
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.person)["phones"]]
        messages = Messages(input.apps["messages"], input.apps_init["messages"])
        return [messages.check_shared(self.p.person, numbers, [self.p.file["name"]])]
