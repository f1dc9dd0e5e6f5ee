"""Accessor for the home screen (the launcher lives in the OS state, not in an app)."""
from __future__ import annotations

from mobilegym.judge import BaseApp
from mobilegym.sim.app import load_app

LAUNCHER_APPS = {"source": "os:.launcher.order"}  # parameter domain: every app on the home screen, by id


class Home(BaseApp):
    """Read the launcher's state (``os.launcher``): the icon order."""

    app_id = "home"

    def order(self) -> list[str]:
        """App ids in home-screen order (row by row)."""
        return list(self.require(".launcher.order"))


def app_label(app_id: str, language: str) -> str:
    """An installed app's display name in the phone's language (what its icon shows)."""
    app = load_app(app_id)
    return app.label_zh if language == "zh" else app.label
