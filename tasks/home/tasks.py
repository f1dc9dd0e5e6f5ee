"""Home-screen tasks: short navigation tasks, small enough for reinforcement learning.

Task index:
    OpenApp      operate  L1  open a named app from the home screen (icons may be shuffled per seed)
    SwitchApp    operate  L1  leave the app on screen and open another named app
"""
from __future__ import annotations

from mobilegym.judge import CriteriaTask, copy_state

from .app import LAUNCHER_APPS, Home, app_label


class OpenApp(CriteriaTask):
    """Verdict: the named app is in the foreground. Starts on the home screen; with the env option
    ``shuffle_launcher=True`` the icon positions change with every episode seed."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["navigation"]
    templates = {"en": ["Open the {app} app", "Launch {app}"], "zh": ["打开{app}"]}
    parameters = {"app": LAUNCHER_APPS}
    criteria = {"os:.foreground": "{app}"}

    def inject(self, device) -> None:
        self.display["app"] = app_label(self.params["app"], self.language)


class SwitchApp(CriteriaTask):
    """Verdict: the named app is in the foreground. Starts inside the app that follows it on the
    home screen, so the agent has to leave that app first (home, back or recents)."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["navigation"]
    templates = {"en": ["Switch to the {app} app", "Go to {app}"], "zh": ["切换到{app}"]}
    parameters = {"app": LAUNCHER_APPS}
    criteria = {"os:.foreground": "{app}"}

    def inject(self, device) -> None:
        self.display["app"] = app_label(self.params["app"], self.language)
        order = Home(copy_state(device)["os"]).order()
        device.open_app(order[(order.index(self.params["app"]) + 1) % len(order)])
