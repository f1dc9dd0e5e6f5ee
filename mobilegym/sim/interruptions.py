"""Interruptions that come over whatever is on screen (``os.interruption``, view state never judged): an
incoming call (a full-screen window of the phone app: Decline / Answer, the back key does nothing) and a
permission request (a dialog of the permission controller: Allow / Don't allow, the back key or a tap
outside denies). Answering, allowing or denying changes no app's data."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import ui

if TYPE_CHECKING:
    from .phone import Phone

CALL, PERMISSION = "call", "permission"
DIALER_PACKAGE = "com.google.android.dialer"
PERMISSION_PACKAGE = "com.google.android.permissioncontroller"
# permission -> what the dialog asks to do (English, Chinese), as Android words it
PERMISSIONS = {
    "contacts": ("access your contacts", "访问您的通讯录"),
    "location": ("access this device's location", "获取此设备的位置信息"),
    "notifications": ("send you notifications", "向您发送通知"),
    "camera": ("take pictures and record video", "拍摄照片和录制视频"),
}
WHITE = (255, 255, 255)


def check(interruption: dict[str, Any]) -> dict[str, Any]:
    """``interruption`` itself, or a ValueError naming what is wrong with it."""
    kind = interruption.get("kind") if isinstance(interruption, dict) else None
    if kind == CALL:
        if not isinstance(interruption.get("caller"), str) or not interruption["caller"]:
            raise ValueError(f"a call interruption needs a caller (a name or number), got {interruption!r}")
    elif kind == PERMISSION:
        if interruption.get("permission") not in PERMISSIONS:
            raise ValueError(f"a permission interruption needs a permission among {sorted(PERMISSIONS)}, "
                             f"got {interruption!r}")
    else:
        raise ValueError(f"interruption kind must be {CALL!r} or {PERMISSION!r}, got {interruption!r}")
    return interruption


def _end(phone: Phone) -> None:
    phone.doc["os"]["interruption"] = None


class CallScreen(ui.Column):
    cls = "android.widget.FrameLayout"


def call_screen(phone: Phone, call: dict[str, Any]) -> ui.View:
    """The incoming (or answered) call, full screen."""
    answered = bool(call.get("answered"))

    def answer() -> None:
        phone.doc["os"]["interruption"] = {**call, "answered": True}

    status = phone.system_text("On call") if answered else phone.system_text("Incoming call")
    buttons: list[ui.View | None] = (
        [ui.Spacer(flex=1), ui.Button(phone.system_text("End call"), lambda: _end(phone), rid="end_call_button",
                                      width=140, height=56), ui.Spacer(flex=1)] if answered else
        [ui.Button(phone.system_text("Decline"), lambda: _end(phone), rid="decline_button", flex=1, height=56),
         ui.Button(phone.system_text("Answer"), answer, rid="answer_button", flex=1, height=56)])
    return CallScreen([
        ui.Spacer(height=64),
        ui.Text(status, size=16, color=WHITE, align="center", rid="contactgrid_status_text"),
        ui.Text(call["caller"], size=32, color=WHITE, align="center", max_lines=2, rid="contactgrid_contact_name"),
        ui.Text(call.get("number", ""), size=16, color=WHITE, align="center", rid="contactgrid_bottom_text")
        if call.get("number") else None,
        ui.Spacer(flex=1),
        ui.Row(buttons, gap=24, pad=24),
        ui.Spacer(height=32),
    ], gap=12, rid="incall_screen", bg="#1B2A3A")


def permission_dialog(phone: Phone, request: dict[str, Any]) -> ui.Dialog:
    """"Allow <app> to <do something>?" with Allow and Don't allow stacked, as Android 14 shows it."""
    app = phone.apps.get(request.get("app", ""))
    zh = phone.doc["os"]["language"] == "zh"
    label = (app.label_zh if zh else app.label) if app is not None else request.get("app", "")
    en, cn = PERMISSIONS[request["permission"]]
    question = f"要允许“{label}”{cn}吗？" if zh else f"Allow {label} to {en}?"
    buttons = ui.Column([
        ui.Button(phone.system_text("Allow"), lambda: _end(phone), style="outlined", rid="permission_allow_button"),
        ui.Button(phone.system_text("Don't allow"), lambda: _end(phone), style="outlined",
                  rid="permission_deny_button"),
    ], gap=8)
    dialog = ui.Dialog(question, [buttons], [], on_dismiss=lambda: _end(phone), rid="grant_dialog")
    dialog.children[0].rid = "permission_message"
    dialog.children = dialog.children[:-1]  # the stacked buttons stand for the dialog's (empty) button row
    return dialog
