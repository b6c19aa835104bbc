"""The console fragment's lists written in Python (``referee.templatetags.console_parts``,
issue 29) write what the templates wrote: values escaped as ``{{ value }}`` escapes them, and a
block kept per language rendered again for another language or key. (The whole fragment, byte
for byte: ``benchmarks/console_fingerprint.py``.)"""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from referee.templatetags.console_parts import _e


@pytest.mark.parametrize("value", [
    "Schloß & <Allee> \"1\" '2'", mark_safe("<b>safe</b>"), 1500, 0, -5, None, True, False,
    gettext_lazy("Houses & hotels"), gettext_lazy(mark_safe("Houses & hotels")),
])
def test_values_are_escaped_as_the_template_escapes_them(value):
    assert _e(value) == conditional_escape(value)
    # and as a template writes it with localization off
    written = Template("{% load l10n %}{% localize off %}{{ v }}{% endlocalize %}").render(
        Context({"v": value}))
    assert _e(value) == written


def test_a_block_kept_per_language_is_rendered_again_for_another_language_or_key():
    template = Template('{% load i18n console_parts %}{% per_language fine %}'
                        '{% translate "Close" %} {{ fine }} {{ other }}{% end_per_language %}')
    with translation.override("de"):
        first = template.render(Context({"fine": 50, "other": "a"}))
        again = template.render(Context({"fine": 50, "other": "b"}))
        other_key = template.render(Context({"fine": 100, "other": "c"}))
    with translation.override("en"):
        english = template.render(Context({"fine": 50, "other": "d"}))
    assert first == again == "Schließen 50 a"  # kept: ``other`` is not a key
    assert other_key == "Schließen 100 c"
    assert english == "Close 50 d"
