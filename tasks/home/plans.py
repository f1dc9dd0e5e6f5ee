"""Scripted plans for the home-screen tasks."""
from __future__ import annotations

from mobilegym.oracle import Driver, negative, plan

from .app import app_label


def _label(d: Driver) -> str:
    return app_label(d.params["app"], d.env.language)


def _other_icon(d: Driver) -> str:
    """The label of the first home-screen icon that is not the requested app."""
    return next(n.desc for n in d.nodes() if n.short_id == "app_icon" and n.desc != _label(d))


@plan("home.OpenApp")
def open_app(d: Driver) -> None:
    d.tap(rid="app_icon", desc=_label(d))


@negative("home.OpenApp", "opens the wrong app")
def open_wrong_app(d: Driver) -> None:
    d.tap(rid="app_icon", desc=_other_icon(d))


@plan("home.SwitchApp")
def switch_app(d: Driver) -> None:
    """One action, as the action space allows: a random agent may succeed here by chance (a bounded rate)."""
    d.open_app(d.params["app"])


@negative("home.SwitchApp", "goes home and reopens the app it started in")
def reopen_start_app(d: Driver) -> None:
    started_in = app_label(d.info["app"], d.env.language)
    d.key("home")
    d.tap(rid="app_icon", desc=started_in)
