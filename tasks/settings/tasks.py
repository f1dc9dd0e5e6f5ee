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

from ..l10n import localised
from .app import SETTINGS_DARK_MODE_CHANGES, Settings


@localised(zh={"labels": {"wifi": {True: "打开", False: "关闭"}}})
class ToggleWifi(CriteriaTask):
    """Verdict: Wi-Fi is in the requested state (the start state is the opposite)."""

    objective = "operate"
    difficulty = "L1"
    capabilities = ["toggle"]
    templates = {"en": ["{wifi} Wi-Fi", "Please {wifi} the Wi-Fi"], "zh": ["帮我{wifi} WLAN", "请{wifi} WLAN"]}
    parameters = {"wifi": {"type": "bool", "values": {"turn on": True, "turn off": False}}}
    criteria = {".wifi": "{wifi}"}


class SetBrightness(CriteriaTask):
    """Verdict: the brightness setting equals the requested percentage."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["slider"]
    templates = {"en": ["Set the screen brightness to {level}%"], "zh": ["把屏幕亮度调到 {level}%"]}
    parameters = {"level": {"type": "int", "min": 10, "max": 90, "step": 10}}
    criteria = {".brightness": "{level}"}


@localised(zh={"labels": {"size": {"small": "小", "default": "默认", "large": "大", "largest": "最大"}}})
class SetFontSize(CriteriaTask):
    """Verdict: the font size setting is the chosen size."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["navigation", "selection"]
    templates = {"en": ["Change the font size to {size}"], "zh": ["把字体大小改为“{size}”"]}
    parameters = {"size": {"type": "enum", "values": {"Small": "small", "Default": "default",
                                                      "Large": "large", "Largest": "largest"}}}
    criteria = {".font_size": "{size}"}


@localised(zh={"fields": [{"label": "型号", "hint": "例如 MG-1"}]})
class CheckDeviceModel(AnswerTask):
    """Verdict: the answer names the phone's model."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["What is this phone's model? Tell me"], "zh": ["这台手机是什么型号？告诉我"]}
    answer = ".about.model"
    answer_fields = [{"type": "text", "label": "Model", "hint": "e.g. MG-1"}]


@localised(zh={"fields": [{"label": "已用存储空间（GB）"}]})
class DarkModeAndStorage(BaseTask):
    """Verdict: dark theme is on, and the answer gives the used storage in GB."""

    objective = "hybrid"
    difficulty = "L2"
    capabilities = ["toggle", "information-retrieval"]
    templates = {"en": ["Turn on the dark theme, then tell me how many GB of storage are used"],
                 "zh": ["打开深色主题，然后告诉我手机已经用了多少 GB 存储空间"]}
    expected_changes = SETTINGS_DARK_MODE_CHANGES
    answer_fields = [{"type": "number", "label": "Storage used (GB)"}]

    def inject(self, device) -> None:
        device.set_state({"apps": {"settings": {"dark_mode": False}}})

    def check_goals(self, input):
        settings = Settings(input.apps["settings"], init=input.apps_init["settings"])
        return [
            settings.check_value("dark_mode", ".dark_mode", True),
            *build_answer_checks(Settings(input.apps_init["settings"]).storage_used_gb(), input.answer,
                                 field="storage_used_gb"),
        ]
