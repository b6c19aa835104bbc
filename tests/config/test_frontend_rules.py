"""Issue 27, the front end's one way of doing each thing: styles live in static/css/ (no style
element in a template; the Content-Security-Policy then needs no nonce for styles), every script
is a strict-mode IIFE with const/let that shares only under ``window.MCS``, and the clocks' m:ss
format is written once (static/js/mcs.js)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
SCRIPTS = ROOT / "static" / "js"
#: Third-party, minified: not ours to restyle.
VENDORED = {"htmx.min.js"}
#: The one name a script may put on window.
NAMESPACE = "MCS"


def _scripts() -> list[Path]:
    found = sorted(p for p in SCRIPTS.rglob("*.js") if p.name not in VENDORED)
    assert found, SCRIPTS
    return found


def _code(path: Path) -> str:
    """The script without its comments (a comment may name window.something)."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)


def test_no_template_has_a_style_element():
    offenders = [str(p.relative_to(ROOT)) for p in TEMPLATES.rglob("*")
                 if p.is_file() and re.search(r"<style\b", p.read_text(encoding="utf-8"), re.I)]
    assert offenders == []


def test_styles_need_no_nonce(settings):
    assert settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["style-src"] == ["'self'"]


@pytest.mark.parametrize("path", _scripts(), ids=lambda p: str(p.relative_to(SCRIPTS)))
def test_a_script_puts_nothing_on_window_but_the_namespace(path):
    code = _code(path)
    assigned = re.findall(r"\b(?:window|self|globalThis)\s*\.\s*(\w+)\s*=(?!=)", code)
    assigned += re.findall(r"\b(?:window|self|globalThis)\s*\[[^\]]*\]\s*=(?!=)", code)
    assert [name for name in assigned if name != NAMESPACE] == []
    assert not re.search(r"Object\.(assign|defineProperty)\(\s*(window|self|globalThis)\b", code)


@pytest.mark.parametrize("path", _scripts(), ids=lambda p: str(p.relative_to(SCRIPTS)))
def test_a_script_is_a_strict_iife(path):
    """No top-level declaration (it would be a global): the code is one or more
    ``(function () { "use strict"; … })();`` and nothing else."""
    code = _code(path).strip()
    assert code.startswith('(function () {\n  "use strict";'), path
    assert code.endswith("})();"), path
    for chunk in re.split(r"\n\}\)\(\);\n", code)[1:]:
        assert chunk.strip().startswith('(function () {\n  "use strict";'), path


@pytest.mark.parametrize("path", _scripts(), ids=lambda p: str(p.relative_to(SCRIPTS)))
def test_a_script_declares_with_const_and_let(path):
    """The console's and site.js's style everywhere: no ``var``."""
    assert not re.search(r"\bvar\s+\w", _code(path)), path


def test_the_clock_format_is_written_once():
    """m:ss from seconds: MCS.clock.format in mcs.js, nowhere else."""
    writers = [str(p.relative_to(SCRIPTS)) for p in _scripts()
               if re.search(r"%\s*60\b", _code(p))]
    assert writers == ["mcs.js"]
