"""Fill empty German msgstr entries of locale/de from a JSON glossary (msgid -> German).

Usage: python scripts/fill_po.py locale/de/LC_MESSAGES/django.po locale/glossary-de*.json
Keeps existing translations; prints the msgids still untranslated. A plural entry (ngettext)
takes a list in the glossary: "singular msgid": ["German singular", "German plural"].
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

BLOCK = re.compile(r'(?P<head>(?:#.*\n)*)msgid (?P<id>(?:".*"\n)+)msgstr (?P<str>(?:".*"\n)+)')
PLURAL = re.compile(
    r'(?P<head>(?:#.*\n)*)msgid (?P<id>(?:".*"\n)+)msgid_plural (?P<plural>(?:".*"\n)+)'
    r'msgstr\[0\] (?P<one>(?:".*"\n)+)msgstr\[1\] (?P<many>(?:".*"\n)+)'
)


FUZZY = re.compile(r"^#, (.*\bfuzzy\b.*)\n", re.MULTILINE)


def _unfuzzy(match: re.Match) -> str:
    flags = [flag.strip() for flag in match[1].split(",") if flag.strip() != "fuzzy"]
    return f"#, {', '.join(flags)}\n" if flags else ""


def unquote(lines: str) -> str:
    return "".join(json.loads(line) for line in lines.strip().splitlines())


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False) + "\n"


def main(po_path: str, *glossary_paths: str) -> int:
    glossary: dict[str, str | list[str]] = {}
    for glossary_path in glossary_paths:
        glossary.update(json.loads(Path(glossary_path).read_text(encoding="utf-8")))
    text = Path(po_path).read_text(encoding="utf-8")
    missing = []

    def fill(match: re.Match) -> str:
        msgid, msgstr = unquote(match["id"]), unquote(match["str"])
        head = match["head"]
        if msgid and FUZZY.search(head):
            # msgmerge guessed from a similar string: never trust the guess.
            head = FUZZY.sub(_unfuzzy, head)
            msgstr = ""
        if msgid and not msgstr:
            found = glossary.get(msgid)
            if isinstance(found, str):
                msgstr = found
            else:
                missing.append(msgid)
        return f"{head}msgid {match['id']}msgstr {quote(msgstr) if msgid else match['str']}"

    def fill_plural(match: re.Match) -> str:
        msgid = unquote(match["id"])
        forms = [unquote(match["one"]), unquote(match["many"])]
        head = match["head"]
        if FUZZY.search(head):
            head = FUZZY.sub(_unfuzzy, head)
            forms = ["", ""]
        if not all(forms):
            found = glossary.get(msgid)
            if isinstance(found, list) and len(found) == 2:
                forms = found
            else:
                missing.append(msgid)
        return (f"{head}msgid {match['id']}msgid_plural {match['plural']}"
                f"msgstr[0] {quote(forms[0])}msgstr[1] {quote(forms[1])}")

    text = PLURAL.sub(fill_plural, text)
    text = BLOCK.sub(fill, text)
    Path(po_path).write_text(text, encoding="utf-8")
    for msgid in missing:
        print("untranslated:", msgid)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
