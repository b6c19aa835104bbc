"""Every string of the printouts and their pages is translatable and has its German in
``locale/glossary-de-print.json`` (merged into the .po file by ``make messages``)."""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path

from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parents[2]
PYTHON = [*sorted((ROOT / "printing").glob("*.py")),
          ROOT / "printing" / "management" / "commands" / "scoresheets.py"]
TEMPLATES = sorted((ROOT / "templates" / "printing").glob("*.html"))
assert len(PYTHON) > 10 and all(path.is_file() for path in PYTHON), PYTHON  # the room moved?
assert TEMPLATES, "no print templates found: the room moved?"
GETTEXT = {"_", "gettext", "gettext_lazy", "gettext_noop", "pgettext", "pgettext_lazy"}


def python_msgids(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in GETTEXT and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append(node.args[0].value)
    return found


def template_msgids(path: Path) -> list[str]:
    """What ``makemessages`` extracts: Django's own template-to-gettext conversion."""
    source = templatize(path.read_text("utf-8"))
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    return [
        ast.literal_eval(tokens[index + 2].string)
        for index, token in enumerate(tokens)
        if token.type == tokenize.NAME and token.string in {"gettext", "pgettext", "ngettext"}
        and tokens[index + 1].string == "("
    ]


def glossary() -> dict[str, str]:
    return json.loads((ROOT / "locale" / "glossary-de-print.json").read_text("utf-8"))


def test_every_msgid_has_its_german():
    msgids = {msgid for path in PYTHON for msgid in python_msgids(path)}
    msgids |= {msgid for path in TEMPLATES for msgid in template_msgids(path)}
    assert len(msgids) > 80
    missing = sorted(msgids - set(glossary()))
    assert missing == []


def test_the_glossary_keeps_the_placeholders_and_has_no_leftovers():
    msgids = {msgid for path in PYTHON for msgid in python_msgids(path)}
    msgids |= {msgid for path in TEMPLATES for msgid in template_msgids(path)}
    placeholder = re.compile(r"%\(\w+\)s|%%")
    for msgid, german in glossary().items():
        assert german.strip(), msgid
        assert sorted(placeholder.findall(msgid)) == sorted(placeholder.findall(german)), msgid
    assert sorted(set(glossary()) - msgids) == []


def test_no_untranslated_literal_reaches_a_page():
    """Text drawn on a page goes through gettext: no bare string literal with words in it."""
    for path in (ROOT / "printing").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in {"text", "paragraph"} and len(node.args) >= 4):
                value = node.args[3]
                literal = isinstance(value, ast.Constant) and isinstance(value.value, str)
                assert not (literal and re.search(r"[A-Za-z]{2}", value.value)), (
                    path.name, node.lineno)
