"""The steps before money moves, as payment apps take them: a confirmation sheet, then the six-digit passcode
on a PIN pad. A balance too small for the amount stops at an error dialog; a wrong passcode shows an error,
clears the pad and moves nothing. The steps live in the screen's ``local`` (``pay_stage``, ``pin``)."""
from __future__ import annotations

from typing import Any, Callable

from mobilegym.sim import ui
from mobilegym.sim.app import Ctx

from .money import amount_text

PIN_LENGTH = 6
KEYPAD = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["", "0", "⌫"]]


def start(ctx: Ctx, amount: float) -> None:
    """Begin paying ``amount``: the confirmation sheet, or the insufficient-balance error."""
    ctx.local.update(pay_stage="confirm" if amount <= ctx.state["balance"] + 1e-9 else "insufficient", pin="",
                     pin_error=False)


def _close(ctx: Ctx) -> None:
    ctx.local.update(pay_stage=None, pin="", pin_error=False)


def dialog(ctx: Ctx, title: str, rows: list[tuple[str, str]], amount: float,
           pay: Callable[[], None]) -> ui.Dialog | None:
    """The dialog of the current step (None when not paying). ``rows`` are the sheet's (label, value) lines;
    ``pay`` moves the money once the passcode is right."""
    stage = ctx.local.get("pay_stage")
    if stage == "insufficient":
        return ui.Dialog(ctx.t("Insufficient balance"),
                         [ui.Text(ctx.t("Your balance is {amount_text}, less than {amount_text_2}.", amount_text=amount_text(ctx.state, ctx.state['balance']), amount_text_2=amount_text(ctx.state, amount)), max_lines=3, rid="insufficient_text")],
                         [ui.Button(ctx.t("OK"), lambda: _close(ctx), style="text", rid=ui.POSITIVE)],
                         on_dismiss=lambda: _close(ctx))
    if stage == "confirm":
        lines: list[ui.View | None] = [ui.Text(amount_text(ctx.state, amount), size=28, bold=True, align="center",
                                               rid="confirm_amount")]
        lines += [ui.Row([ui.Text(label, size=14, color="muted"), ui.Text(value, size=14, align="right", flex=1,
                                                                          rid="confirm_value")], gap=8)
                  for label, value in rows]
        return ui.Dialog(title, lines,
                         [ui.Button(ctx.t("Cancel"), lambda: _close(ctx), style="text", rid=ui.NEGATIVE),
                          ui.Button(ctx.t("Confirm"), lambda: ctx.local.update(pay_stage="pin"),
                                    rid=ui.POSITIVE)],
                         on_dismiss=lambda: _close(ctx))
    if stage == "pin":
        return _pin_dialog(ctx, amount, pay)
    return None


def _pin_dialog(ctx: Ctx, amount: float, pay: Callable[[], None]) -> ui.Dialog:
    entered: str = ctx.local.get("pin", "")

    def press(key: str) -> None:
        pin = ctx.local.get("pin", "")
        if key == "⌫":
            ctx.local.update(pin=pin[:-1])
            return
        pin += key
        if len(pin) < PIN_LENGTH:
            ctx.local.update(pin=pin, pin_error=False)
        elif pin == ctx.state["settings"]["passcode"]:
            _close(ctx)
            pay()
        else:
            ctx.local.update(pin="", pin_error=True)

    dots = " ".join("●" if i < len(entered) else "○" for i in range(PIN_LENGTH))
    body: list[ui.View | None] = [
        ui.Text(ctx.t("Pay {amount_text}", amount_text=amount_text(ctx.state, amount)),
                size=14, color="muted", align="center"),
        ui.Text(dots, size=22, align="center", rid="pin_dots",
                desc=ctx.t("{n_entered} of {pin_length} digits entered", n_entered=len(entered), pin_length=PIN_LENGTH)),
        ui.Text(ctx.t("Wrong passcode. Try again."), size=13, align="center",
                rid="pin_error") if ctx.local.get("pin_error") else None,
    ]
    for row in KEYPAD:
        body.append(ui.Row([ui.Button(key, (lambda k=key: press(k)) if key else None, style="text", flex=1,
                                      rid="pin_delete" if key == "⌫" else f"pin_{key}",
                                      desc=ctx.t("Delete") if key == "⌫" else "")
                            if key else ui.Spacer(flex=1) for key in row], gap=4))
    return ui.Dialog(ctx.t("Enter passcode"), body,
                     [ui.Button(ctx.t("Cancel"), lambda: _close(ctx), style="text", rid=ui.NEGATIVE)],
                     on_dismiss=lambda: _close(ctx))


def record(ctx: Ctx, **fields: Any) -> dict[str, Any]:
    """Add a transaction dated now (the newest) and take its amount off the balance; returns it."""
    now = ctx.now
    txn = {"id": ctx.new_id("txn"), "date": now.date().isoformat(), "time": f"{now.hour:02d}:{now.minute:02d}",
           "phone": "", "note": "", "method": "balance", "bill_id": "", **fields}
    ctx.state["transactions"].append(txn)
    ctx.state["balance"] = round(ctx.state["balance"] + txn["amount"], 2)
    return txn
