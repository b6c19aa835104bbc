"""Names as the embedded font can print them: right-to-left script in reading order, Arabic
letters joined, and no character the font lacks left to vanish.

reportlab draws a string's characters left to right as stored and has no shaping: "علي" came
out reversed and unjoined, and an emoji (🎲) the font has no glyph for came out as nothing.
Neither python-bidi nor arabic-reshaper is a dependency; this is the small part of both a
player's name needs: Arabic (and Persian) letters take their joined presentation forms
(Unicode's own decompositions say which), and each right-to-left run is reversed in place on a
left-to-right line. Symbols the font lacks (emoji, pictographs) are left out; a letter it lacks
prints as a placeholder, so a name never silently disappears.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

#: What a letter the font has no glyph for prints as.
MISSING = "?"
_TRANSPARENT = {"Mn", "Me", "Cf"}  # marks and joiners: skipped when letters join
_TATWEEL = "\u0640"
_ALEFS = "\u0622\u0623\u0625\u0627"


@lru_cache(maxsize=1)
def _forms() -> tuple[dict[str, dict[str, str]], dict[tuple[str, str], dict[str, str]]]:
    """Each Arabic letter's presentation forms ({"isolated", "final", "initial", "medial"}),
    and the lam-alef ligatures, read from Unicode's decompositions of the presentation forms."""
    forms: dict[str, dict[str, str]] = {}
    ligatures: dict[tuple[str, str], dict[str, str]] = {}
    for code in [*range(0xFB50, 0xFE00), *range(0xFE70, 0xFEFD)]:
        parts = unicodedata.decomposition(chr(code)).split()
        if not parts or parts[0] not in ("<isolated>", "<final>", "<initial>", "<medial>"):
            continue
        form = parts[0][1:-1]
        letters = tuple(chr(int(part, 16)) for part in parts[1:])
        if len(letters) == 1:
            forms.setdefault(letters[0], {}).setdefault(form, chr(code))
        elif len(letters) == 2 and letters[0] == "\u0644" and letters[1] in _ALEFS:  # lam-alef
            ligatures.setdefault((letters[0], letters[1]), {})[form] = chr(code)
    return forms, ligatures


def _joins_forward(char: str | None) -> bool:
    """The letter connects to the letter after it (it has an initial or a medial form)."""
    if char == _TATWEEL:
        return True
    forms = _forms()[0].get(char or "", {})
    return "initial" in forms or "medial" in forms


def _joins_back(char: str | None) -> bool:
    """The letter connects to the letter before it (it has a final form)."""
    return char == _TATWEEL or "final" in _forms()[0].get(char or "", {})


def _neighbour(text: str, index: int, step: int) -> str | None:
    index += step
    while 0 <= index < len(text):
        if unicodedata.category(text[index]) not in _TRANSPARENT:
            return text[index]
        index += step
    return None


def shape(text: str, cmap: dict[int, int] | frozenset[int] | None = None) -> str:
    """Arabic letters in their joined forms (logical order kept); a form the font (``cmap``)
    lacks stays the plain letter."""
    forms, ligatures = _forms()
    out = []
    index = 0
    while index < len(text):
        char = text[index]
        if char not in forms:
            out.append(char)
            index += 1
            continue
        before = _neighbour(text, index, -1)
        after = _neighbour(text, index, +1)
        joined_before = _joins_forward(before) and _joins_back(char)
        ligature = ligatures.get((char, after or ""))
        if ligature and text[index + 1:index + 2] == after:
            glyph = ligature.get("final" if joined_before else "isolated")
            if glyph and (cmap is None or ord(glyph) in cmap):
                out.append(glyph)
                index += 2
                continue
        joined_after = _joins_forward(char) and _joins_back(after)
        form = ("medial" if joined_before and joined_after else "final" if joined_before
                else "initial" if joined_after else "isolated")
        glyph = forms[char].get(form) or forms[char].get("isolated") or char
        out.append(glyph if cmap is None or ord(glyph) in cmap else char)
        index += 1
    return "".join(out)


def _rtl(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("R", "AL", "AN")


def _strong(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("L", "R", "AL", "EN", "AN")


def visual(text: str) -> str:
    """Each right-to-left run reversed in place on a left-to-right line; spaces and signs
    between two right-to-left letters belong to their run ("علي حسن" reads right to left,
    a Latin club after it stays where it is)."""
    out: list[str] = []
    run: list[str] = []
    pending: list[str] = []  # neutrals after a right-to-left letter: its run's, if one follows
    for char in text:
        if _rtl(char) or (run and not _strong(char) and unicodedata.category(char)[0] == "M"):
            run.extend(pending)
            pending = []
            run.append(char)
        elif run and not _strong(char):
            pending.append(char)
        else:
            if run:
                out.extend(_reversed(run))
                run = []
            out.extend(pending)
            pending = []
            out.append(char)
    out.extend(_reversed(run))
    out.extend(pending)
    return "".join(out)


_MIRRORED = str.maketrans("()[]{}<>«»", ")(][}{><»«")


def _reversed(run: list[str]) -> list[str]:
    """A run in display order: combining marks stay after their letter."""
    clusters: list[str] = []
    for char in run:
        if clusters and unicodedata.category(char)[0] == "M":
            clusters[-1] += char
        else:
            clusters.append(char.translate(_MIRRORED))
    return clusters[::-1]


def printable(text: str, cmap: dict[int, int] | frozenset[int]) -> str:
    """``text`` as the font with character map ``cmap`` can print it (see the module)."""
    if text.isascii():
        return text
    if any(_rtl(char) for char in text):
        text = visual(shape(text, cmap))
    out = []
    dropped = False
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf":
            dropped = True  # joiners and direction marks: their work is done
        elif ord(char) in cmap:
            out.append(char)
        elif category[0] in "LN":
            out.append(MISSING)  # a letter or digit: shown as missing, never left out
        else:
            dropped = True  # an emoji, a pictograph, a variation selector
    printed = "".join(out)
    if dropped:
        printed = " ".join(printed.split())
    return printed if printed.strip() or not text.strip() else MISSING
