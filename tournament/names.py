"""German search and order for people's names (one place for the desk, lists and prints), and
how a staff account is named.

``search_fold`` makes "weiss" find Weiß, "Kathe" Käthe and "Mueller" Müller: both the text and
the query are folded the same way (umlaut and its ae/oe/ue spelling to the bare vowel, ß to ss,
other accents dropped). ``sort_key`` is DIN 5007-1 dictionary order (Ä sorts with A, ß as ss),
which Python's code-point order gets wrong ("Ärger" after "Zorn").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_DIGRAPHS = re.compile(r"([aou])e")
_SPECIAL = str.maketrans({"ß": "ss", "ẞ": "ss", "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d"})


def _strip_accents(text: str) -> str:
    if text.isascii():
        return text.lower()
    for _round in range(2):  # NFKD may yield capitals ("ℕ" → "N"): fold the result once more
        decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_SPECIAL))
        text = "".join(char for char in decomposed if not unicodedata.combining(char))
    return text


@lru_cache(maxsize=65536)
def search_fold(text: str) -> str:
    """Folded for matching; apply to both sides ("Müller", "Mueller", "muller" → "muller").
    Repeated to a fixed point, so folding a folded text changes nothing."""
    folded = text or ""
    for _round in range(8):
        again = _DIGRAPHS.sub(r"\1", _strip_accents(folded))
        if again == folded:
            break
        folded = again
    return folded


def matches(query: str, *texts: str) -> bool:
    """Every word of ``query`` occurs (folded) in one of ``texts``."""
    haystack = " ".join(search_fold(text) for text in texts if text)
    return all(word in haystack for word in _folded_words(query))


@lru_cache(maxsize=1024)
def _folded_words(query: str) -> tuple[str, ...]:
    return tuple(search_fold(word) for word in query.split())


@lru_cache(maxsize=65536)
def sort_key(value: str) -> tuple[str, str]:
    """DIN 5007-1 order: ä as a, ß as ss, accents ignored; the original breaks ties."""
    return " ".join(_strip_accents(value or "").split()), value or ""


def last_name(name: str) -> str:
    parts = (name or "").split()
    return parts[-1] if parts else ""


def last_name_key(name: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """By last name, then the whole name (the entrance list: "Müller, Anna")."""
    return sort_key(last_name(name)), sort_key(name)


def last_name_first(name: str) -> str:
    """ "Anna Maria Müller" → "Müller, Anna Maria" (one word stays as it is)."""
    parts = (name or "").split()
    if len(parts) < 2:
        return name or ""
    return f"{parts[-1]}, {' '.join(parts[:-1])}"


def initials(name: str) -> str:
    """ "Gül Müller-Weiß" → "G.M.W." (what the public sees without consent): each part's
    first letter or digit; a part of symbols alone ("🎲 Wilma Wunder 🏆") gives none."""
    found = []
    for part in (name or "").replace("-", " ").split():
        first = next((char for char in part if char.isalnum()), None)
        if first is not None:
            found.append(f"{first.upper()}.")
    return "".join(found) or "?"


@lru_cache(maxsize=4096)
def _latin_look(char: str) -> str:
    """The Latin letter ``char`` passes for (Unicode's confusables: Cyrillic а, Greek ο …),
    else ``char``; without the confusable-homoglyphs package, ``char`` itself."""
    if char.isascii() or not char.isalpha():
        return char
    try:
        from confusable_homoglyphs import confusables
    except ImportError:  # pragma: no cover - a declared dependency
        return char
    for entry in confusables.is_confusable(char, preferred_aliases=["latin"]) or []:
        for glyph in entry.get("homoglyphs", []):
            if glyph["c"].isascii() and glyph["c"].isalpha():
                return glyph["c"].casefold()
    return char


@lru_cache(maxsize=65536)
def look_alike_key(name: str) -> str:
    """What a name looks like when read aloud or typed by someone else: "Juergen Weiss",
    "JÜRGEN WEIß" and "Jürgen Weiß" (or a Cyrillic е in it) share one key. Two players with
    one key may be one person entered twice: the desk is told, nothing is refused."""
    text = unicodedata.normalize("NFKC", name or "").casefold()
    text = "".join(_latin_look(char) for char in text)
    return " ".join(re.sub(r"[\W_]+", " ", search_fold(text)).split())


def account_name(user) -> str:
    """How a staff account is named to people (the audit log, printed lists, a player's page):
    its full name, else its username; "" for none."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()
