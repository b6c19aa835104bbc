"""Fill empty German msgstr entries of locale/de from a JSON glossary (msgid -> German).

Usage: python scripts/fill_po.py locale/de/LC_MESSAGES/django.po locale/glossary-de*.json
Keeps existing translations; prints the msgids still untranslated.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

BLOCK = re.compile(r'(?P<head>(?:#.*\n)*)msgid (?P<id>(?:".*"\n)+)msgstr (?P<str>(?:".*"\n)+)')


FUZZY = re.compile(r"^#, (.*\bfuzzy\b.*)\n", re.MULTILINE)


def _unfuzzy(match: re.Match) -> str:
    flags = [flag.strip() for flag in match[1].split(",") if flag.strip() != "fuzzy"]
    return f"#, {', '.join(flags)}\n" if flags else ""


def unquote(lines: str) -> str:
    return "".join(json.loads(line) for line in lines.strip().splitlines())


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False) + "\n"


def main(po_path: str, *glossary_paths: str) -> int:
    glossary: dict[str, str] = {}
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
            if msgid in glossary:
                msgstr = glossary[msgid]
            else:
                missing.append(msgid)
        return f"{head}msgid {match['id']}msgstr {quote(msgstr) if msgid else match['str']}"

    text = BLOCK.sub(fill, text)
    Path(po_path).write_text(text, encoding="utf-8")
    for msgid in missing:
        print("untranslated:", msgid)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
