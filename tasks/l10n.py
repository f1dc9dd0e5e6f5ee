"""Task text in the phone's other languages: how parameter values read and what the AnswerSheet asks.

``templates`` may already be given per language ({"en": [...], "zh": [...]}), and samplers draw values in the
phone's language (they read ``os_state["language"]``). What a task class cannot say on its own is how a value
of a ``values`` dict reads in another language (its keys are the English display labels) and what its answer
fields are called there. :func:`localised` adds both::

    @localised(zh={"labels": {"wifi": {True: "打开", False: "关闭"}}})
    class ToggleWifi(CriteriaTask):
        templates = {"en": ["{wifi} Wi-Fi"], "zh": ["{wifi} WLAN"]}
        parameters = {"wifi": {"type": "bool", "values": {"turn on": True, "turn off": False}}}

    @localised(zh={"fields": [{"label": "闹钟时间", "hint": "例如 07:30"}]})
    class AlarmTime(AnswerTask):
        answer_fields = [{"type": "text", "label": "Alarm time", "hint": "e.g. 07:30", "matcher": "time"}]

``labels`` maps a parameter (or ``param.field`` of a multi-field one) to {value: text}; ``fields`` overlays
``answer_fields`` position by position (keys label, hint, options; placeholders are filled as in English). A
language without an entry reads as English. The class keeps the tables as ``translations``.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, TypeVar

from mobilegym.judge import BaseTask, TaskError
from mobilegym.judge.state.templating import render

T = TypeVar("T", bound=type)
KEYS = {"labels", "fields"}
FIELD_KEYS = {"label", "hint", "options"}
# the instructions' payment passcode sentence, as several suites append it
PASSCODE_EN = " My payment passcode is {passcode}."
PASSCODE_ZH = "我的支付密码是{passcode}。"


def _listed_values(spec: Mapping[str, Any]) -> list[Any] | None:
    """Every value a parameter with a listed domain takes (a ``values`` list or dict, or a plain bool), else None."""
    values = spec.get("values")
    if values is None:
        return [True, False] if spec.get("type") == "bool" else None
    return list(values.values()) if isinstance(values, Mapping) else list(values)


def _check(cls: type[BaseTask], language: str, table: Mapping[str, Any]) -> None:
    """Raise TaskError naming the task when a translation does not fit its parameters or answer fields."""
    name = f"{cls.__module__}.{cls.__name__}"
    unknown = set(table) - KEYS
    if unknown:
        raise TaskError(f"{name}: {language} translations take {sorted(KEYS)}, not {sorted(unknown)}")
    for param, labels in table.get("labels", {}).items():
        head, _, field = param.partition(".")
        if head not in cls.parameters:
            raise TaskError(f"{name}: {language} labels name no parameter {head!r}")
        if field:
            if field not in cls.parameters[head].get("fields", ()):
                raise TaskError(f"{name}: {language} labels name no field {field!r} of parameter {head!r}")
            continue  # drawn values: every one is looked up when the task is bound
        domain = _listed_values(cls.parameters[head])
        if domain is None:
            raise TaskError(f"{name}: {language} labels for {param!r}, whose values are not listed (draw them in the "
                            "phone's language instead)")
        missing = [v for v in domain if v not in labels]
        if missing or set(labels) - set(domain):
            raise TaskError(f"{name}: {language} labels for {param!r} must cover exactly its values {domain}")
    fields = table.get("fields")
    if fields is None:
        return
    english = cls.answer_fields
    english = english["fields"] if isinstance(english, Mapping) else english
    if not isinstance(english, (list, tuple)) or len(fields) != len(english):
        raise TaskError(f"{name}: {language} fields must translate each of its {len(english or [])} answer fields")
    for i, (field, base) in enumerate(zip(fields, english)):
        if set(field) - FIELD_KEYS:
            raise TaskError(f"{name}: {language} field {i} may only set {sorted(FIELD_KEYS)}")
        if ("hint" in field) != bool(base.get("hint")) or ("options" in field) != ("options" in base):
            raise TaskError(f"{name}: {language} field {i} must translate exactly the hint/options English has")
        if "options" in field and len(field["options"]) != len(base["options"]):
            raise TaskError(f"{name}: {language} field {i} must translate every option")


def localised(**languages: Mapping[str, Any]) -> Callable[[T], T]:
    """Class decorator: the task's parameter labels and answer fields in other languages (see the module doc)."""

    def wrap(cls: T) -> T:
        for language, table in languages.items():
            _check(cls, language, table)
        bind, sheet_spec = cls.bind, cls.sheet_spec

        def bind_localised(self: BaseTask, values: Mapping[str, Any], display: Mapping[str, Any],
                           template: str) -> None:
            shown = dict(display)
            for key, labels in languages.get(self.language, {}).get("labels", {}).items():
                head, _, field = key.partition(".")
                value = values[head][field] if field else values[head]
                if value not in labels:
                    raise TaskError(f"{self.task_id()}: no {self.language} label for {key} = {value!r}")
                shown[head] = {**shown[head], field: labels[value]} if field else labels[value]
            bind(self, values, shown, template)

        def sheet_spec_localised(self: BaseTask) -> tuple[str | None, list[dict[str, Any]]]:
            question, fields = sheet_spec(self)
            for field, over in zip(fields, languages.get(self.language, {}).get("fields", ())):
                field.update({k: render(v, self.display) for k, v in over.items() if k != "options"})
                if "options" in over:
                    field["options"] = [render(str(o), self.display) for o in over["options"]]
            return question, fields

        cls.bind = bind_localised
        cls.sheet_spec = sheet_spec_localised
        cls.translations = dict(languages)
        return cls

    return wrap

