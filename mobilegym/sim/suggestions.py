"""The keyboard's suggestion strip, as Gboard's: up to three words for the word being typed, from a small ranked word
list shipped as data (``ime_words.en.json``, most common first). The word being typed is the run of Latin letters
(and apostrophes) at the end of the field; a suggestion is a listed word that starts with it, in its case (a typed
capital stays); picking one replaces the word and adds a space. Lookups are cached: a step costs a dict hit."""
from __future__ import annotations

import json
import re
from bisect import bisect_left
from functools import lru_cache
from importlib.resources import files

COUNT = 3
_WORD_TAIL = re.compile(r"[A-Za-z']+$")


@lru_cache(maxsize=1)
def _words() -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    """The ranked words, and (lower-cased word, rank) pairs sorted for prefix search."""
    ranked = tuple(json.loads(files(__package__).joinpath("ime_words.en.json").read_text("utf-8")))
    return ranked, tuple(sorted((word.lower(), rank) for rank, word in enumerate(ranked)))


def current_word(text: str) -> str:
    """The word being typed at the end of ``text`` ("" after a space, a digit or a Chinese character)."""
    found = _WORD_TAIL.search(text)
    return found.group() if found is not None else ""


@lru_cache(maxsize=4096)
def suggest(word: str) -> tuple[str, ...]:
    """Up to :data:`COUNT` words for the typed ``word``, the most common first (the word itself when it is listed)."""
    if not word.strip("'"):
        return ()
    ranked, index = _words()
    prefix = word.lower()
    lo, hi = bisect_left(index, (prefix,)), bisect_left(index, (prefix + "\uffff",))
    best = [ranked[rank] for rank in sorted(rank for _, rank in index[lo:hi])[:COUNT]]
    if word[0].isupper():
        best = [w[0].upper() + w[1:] for w in best]
    return tuple(best)


def apply(text: str, suggestion: str) -> str:
    """``text`` with its word being typed replaced by ``suggestion`` and a space after it."""
    return text[:len(text) - len(current_word(text))] + suggestion + " "
