"""String catalogs: an app's text in the phone's language.

Screens are written in English (:data:`mobilegym.languages.SOURCE_LANGUAGE`). Each app ships a catalog per
other language beside its code, ``strings.<language>.json``, read as a pool::

    {"strings": {"Save": "保存", "{count} items": "{count} 项"},
     "in_context": {"checkout": {"Checkout": "确认订单"}}}

``strings`` maps an English text to its translation; ``in_context`` holds the texts whose translation differs
where they appear (gettext's message contexts), under the context name the screen passes. Fields are filled in
with ``str.format`` after translation, so a translation may put them in another order.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from ..languages import SOURCE_LANGUAGE
from .worldgen.pools import MissingPool, read_pool


class MissingString(KeyError):
    """A screen shows a text its app's catalog does not translate (a defect of the app, not of the agent)."""

    def __str__(self) -> str:
        return str(self.args[0])


@lru_cache(maxsize=None)
def catalog(package: str, language: str) -> tuple[Mapping[str, str], Mapping[str, Mapping[str, str]]]:
    """The (strings, in_context) tables of ``package``'s catalog for ``language`` (empty when it has none)."""
    try:
        doc = read_pool(package, "strings", language)
    except MissingPool:
        return {}, {}
    return doc.get("strings", {}), doc.get("in_context", {})


def translate(package: str, language: str, text: str, context: str | None = None,
              fields: Mapping[str, Any] | None = None) -> str:
    """``text`` (an English string or template) in ``language`` from ``package``'s catalog, fields filled in."""
    if language != SOURCE_LANGUAGE:
        strings, in_context = catalog(package, language)
        table = in_context.get(context, {}) if context is not None else strings
        if text not in table:
            where = f" in context {context!r}" if context is not None else ""
            raise MissingString(f"{package} has no {language!r} text for {text!r}{where}")
        text = table[text]
    return text.format(**fields) if fields else text


def system_text(language: str, text: str, context: str | None = None, **fields: Any) -> str:
    """The system's own text (shade, system dialogs, pickers: Android's framework strings) from the
    simulator's catalog, ``mobilegym/sim/strings.<language>.json``."""
    return translate(__package__, language, text, context, fields)
