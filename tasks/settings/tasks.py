"""Settings tasks.

Task index:
    ToggleWifi            operate  L1  turn Wi-Fi on or off
    SetBrightness         operate  L2  move the brightness slider to a level
    SetFontSize           operate  L2  choose a font size
    CheckDeviceModel      query    L1  read the model name from About phone
    DarkModeAndStorage    hybrid   L2  turn on dark theme and report used storage
"""
from __future__ import annotations

from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks

from .app import SETTINGS_DARK_MODE_CHANGES, Settings


class ToggleWifi(CriteriaTask):
    """Verdict: Wi-Fi is in the requested state (the start state is the opposite)."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["toggle"]
    templates = {"en": ["{wifi} Wi-Fi", "Please {wifi} the Wi-Fi"], "zh": ["帮我{wifi} Wi-Fi"]}
    parameters = {"wifi": {"type": "bool", "values": {"turn on": True, "turn off": False}}}
    criteria = {".wifi": "{wifi}"}


class SetBrightness(CriteriaTask):
    """Verdict: the brightness setting equals the requested percentage."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["slider"]
    templates = ["Set the screen brightness to {level}%"]
    parameters = {"level": {"type": "int", "min": 10, "max": 90, "step": 10}}
    criteria = {".brightness": "{level}"}


class SetFontSize(CriteriaTask):
    """Verdict: the font size setting is the chosen size."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["navigation", "selection"]
    templates = ["Change the font size to {size}"]
    parameters = {"size": {"type": "enum", "values": {"Small": "small", "Default": "default",
                                                      "Large": "large", "Largest": "largest"}}}
    criteria = {".font_size": "{size}"}


class CheckDeviceModel(AnswerTask):
    """Verdict: the answer names the phone's model."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = ["What is this phone's model? Tell me"]
    answer = ".about.model"
    answer_fields = [{"type": "text", "label": "Model", "hint": "e.g. MG-1"}]


class DarkModeAndStorage(BaseTask):
    """Verdict: dark theme is on, and the answer gives the used storage in GB."""

    objective = "hybrid"
    difficulty = "L2"
    capabilities = ["toggle", "information-retrieval"]
    templates = ["Turn on the dark theme, then tell me how many GB of storage are used"]
    expected_changes = SETTINGS_DARK_MODE_CHANGES
    answer_fields = [{"type": "number", "label": "Storage used (GB)"}]

    def _post_sample(self, device) -> None:
        device.set_state({"apps": {"settings": {"dark_mode": False}}})

    def check_goals(self, input):
        settings = Settings(input.apps["settings"], init=input.apps_init["settings"])
        return [
            settings.check_value("dark_mode", ".dark_mode", True),
            *build_answer_checks(Settings(input.apps_init["settings"]).storage_used_gb(), input.answer,
                                 field="storage_used_gb"),
        ]
