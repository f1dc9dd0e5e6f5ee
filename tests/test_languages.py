"""Languages as data: one list of languages, catalogs that cover every text a screen asks for (and nothing
else), translation with fields and contexts, and a ledger of the text pairs still written in code."""
from __future__ import annotations

import ast
import json
import string
import xml.etree.ElementTree as ET
import sys
from collections import Counter
from pathlib import Path

import pytest

from mobilegym.languages import LANGUAGES, SOURCE_LANGUAGE, check_language
from mobilegym.sim.strings import MissingString, catalog, translate

from .import_graph import modules

ROOT = Path(__file__).resolve().parents[1]
PAIRS = Path(__file__).resolve().parent / "data" / "language_pairs.txt"
OTHER_LANGUAGES = [language for language in LANGUAGES if language != SOURCE_LANGUAGE]


def _sources() -> dict[str, tuple[Path, ast.Module]]:
    return {name: (path, ast.parse(path.read_text(encoding="utf-8"))) for name, path in modules().items()
            if not name.startswith("benchmarks.")}


def _package(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rsplit(".", 1)[0]


def _literal_uses() -> dict[str, set[tuple[str | None, str]]]:
    """Package -> the (context, text) pairs its code asks its catalog for, where the text is a literal:
    ``ctx.t(...)`` / ``ctx.tn(...)`` ask their own package's catalog; ``phone.system_text(...)``, the toolkit's
    ``env.t(...)`` and the pickers' ``_t(ctx, ...)`` the simulator's."""
    uses: dict[str, set[tuple[str | None, str]]] = {}
    for module, (path, tree) in _sources().items():
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            func, args = call.func, list(call.args)
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("t", "tn") and isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "ctx":
                package = _package(module, path)
                args = args[1:2] if name == "tn" else args[:1]
            elif (name == "system_text" and isinstance(func, ast.Attribute)) or (name == "_t" and module.endswith("pickers")) \
                    or (name == "t" and getattr(getattr(func, "value", None), "id", "") == "env"):
                package, args = "mobilegym.sim", args[1:] if name == "_t" else args
            else:
                continue
            if not args or not isinstance(args[0], ast.Constant):
                continue
            context = next((k.value.value for k in call.keywords if k.arg == "context"), None)
            if len(args) > 1 and isinstance(args[1], ast.Constant):
                context = args[1].value
            uses.setdefault(package, set()).add((context, args[0].value))
    return uses


def test_one_list_of_languages() -> None:
    """No module spells the language list out again: every ("en", "zh") comes from mobilegym.languages."""
    spelled = []
    for module, (path, tree) in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and len(node.elts) == len(LANGUAGES) and all(
                    isinstance(e, ast.Constant) for e in node.elts) and {e.value for e in node.elts} == set(LANGUAGES):
                spelled.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not spelled, "import LANGUAGES from mobilegym.languages instead of:\n" + "\n".join(spelled)


def test_check_language_names_the_choices() -> None:
    assert check_language("zh") == "zh"
    with pytest.raises(ValueError, match="'en', 'zh'.*'fr'"):
        check_language("fr")


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_literal_text_has_a_translation(language: str) -> None:
    missing = [f"{package}: {text!r}" + (f" (context {context!r})" if context else "")
               for package, uses in sorted(_literal_uses().items()) for context, text in sorted(uses, key=str)
               if text not in (catalog(package, language)[1].get(context, {}) if context else
                               catalog(package, language)[0])]
    assert not missing, f"add to the package's strings.{language}.json:\n" + "\n".join(missing)


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_catalogs_hold_only_texts_the_code_has(language: str) -> None:
    """A catalog entry whose text its package no longer writes is dead text (a screen that was reworded)."""
    written: dict[str, set[str]] = {}
    for module, (path, tree) in _sources().items():
        written.setdefault(_package(module, path), set()).update(
            node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str))
    unused = []
    for package in sorted(written):
        # a catalog serves its package's subpackages too (the toolkit in mobilegym.sim.ui uses the simulator's);
        # the keyboard's space bar shows the languages' own names
        texts = set().union(*(t for name, t in written.items() if name == package or name.startswith(package + ".")))
        texts |= set(LANGUAGES.values())
        strings, in_context = catalog(package, language)
        unused += [f"{package}: {text!r}" for text in strings if text not in texts]
        unused += [f"{package}: {text!r} in {context!r}" for context, table in in_context.items() for text in table
                   if text not in texts]
    assert not unused, "\n".join(unused)


def test_catalog_files_are_well_formed() -> None:
    files = sorted({p.resolve() for p in list((ROOT / "envs").rglob("strings.*.json"))
                    + list((ROOT / "mobilegym").rglob("strings.*.json")) if not p.is_symlink()})
    assert files, "no catalogs found"
    for path in files:
        language = path.name.split(".")[1]
        assert language in LANGUAGES and language != SOURCE_LANGUAGE, path
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert set(doc) <= {"strings", "in_context"}, path
        for table in [doc.get("strings", {}), *doc.get("in_context", {}).values()]:
            for text, translation in table.items():
                assert isinstance(translation, str) and translation, (path, text)
                list(string.Formatter().parse(translation))  # a template str.format can read


def test_translate_fills_fields_in_the_translations_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "catalog_demo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "strings.fr.json").write_text(json.dumps({
        "strings": {"{count} items in {folder}": "{folder} : {count} éléments", "Save": "Enregistrer"},
        "in_context": {"bookmark": {"Save": "Garder"}}}), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    catalog.cache_clear()
    try:
        assert translate("catalog_demo", "fr", "{count} items in {folder}", fields={"count": 3, "folder": "Inbox"}) \
            == "Inbox : 3 éléments"
        assert translate("catalog_demo", "fr", "Save") == "Enregistrer"
        assert translate("catalog_demo", "fr", "Save", "bookmark") == "Garder"
        assert translate("catalog_demo", "en", "{n} left", fields={"n": 2}) == "2 left"
        with pytest.raises(MissingString, match="catalog_demo has no 'fr' text for 'Delete'"):
            translate("catalog_demo", "fr", "Delete")
        with pytest.raises(MissingString, match="in context 'menu'"):
            translate("catalog_demo", "fr", "Save", "menu")
        with pytest.raises(MissingString, match="no 'de' text"):
            translate("catalog_demo", "de", "Save")  # a language with no catalog at all
    finally:
        sys.modules.pop("catalog_demo", None)
        catalog.cache_clear()


def test_a_screen_part_lent_to_another_app_keeps_its_own_strings() -> None:
    """Chat shows dates through Mail's formatter: the text comes from Mail's catalog, not Chat's."""
    from mobilegym.device.sim import SimDevice

    phone = SimDevice(language="zh")
    phone.launch("chat")
    shown = [node.get("text") for node in ET.fromstring(phone.a11y_xml()).iter()]
    assert any(text and "月" in text and "日" in text for text in shown), shown


def _pair_counts() -> Counter[str]:
    counts: Counter[str] = Counter()
    for module, (path, tree) in _sources().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "either":
                counts[str(path.relative_to(ROOT))] += 1
    return counts


def test_text_pairs_in_code_only_shrink() -> None:
    """``ctx.either(en, zh)`` is text not yet in a catalog; tests/data/language_pairs.txt counts it per file,
    exactly, so a new one fails and one moved into a catalog asks for the ledger to be lowered."""
    listed = Counter({line.split()[1]: int(line.split()[0]) for line in PAIRS.read_text().splitlines()
                      if line.strip() and not line.startswith("#")})
    found = _pair_counts()
    grown = [f"{path}: {n} (listed {listed[path]})" for path, n in sorted(found.items()) if n > listed[path]]
    assert not grown, "put the text in the app's catalog and call ctx.t:\n" + "\n".join(grown)
    shrunk = [f"{path}: {found[path]} (listed {n})" for path, n in sorted(listed.items()) if found[path] < n]
    assert not shrunk, "lower tests/data/language_pairs.txt:\n" + "\n".join(shrunk)
