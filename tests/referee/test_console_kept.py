"""Parts of the console fragment kept across posts (issue 29): ``{% kept %}`` blocks, the feed's
rows and the store under both (``referee.console.kept``). A kept part must never be stale: a
changed input gives the new text, each language its own, and the store stays bounded. (The
whole fragment, byte for byte: ``benchmarks/console_fingerprint.py``.)"""

from __future__ import annotations

import threading

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation
from django.utils.translation import gettext_lazy

from config.kept import Kept
from referee import rules
from referee.console import feed_rows
from referee.templatetags import console_parts
from referee.words import Names

KEPT = ('{% load i18n console_parts %}{% kept deeds=deeds %}{% translate "mortgaged" %}:'
        '{% for d in deeds %} {{ d.name }}{% if d.mortgaged %}*{% endif %}{% endfor %}'
        '{{ cash }}{% end_kept %}')


def test_a_kept_block_renders_again_when_a_named_value_changes():
    template = Template(KEPT)
    deeds = [{"name": "Badstraße", "mortgaged": False}]
    with translation.override("en"):
        first = template.render(Context({"deeds": deeds}))
        deeds[0]["mortgaged"] = True  # the same list, changed in place: a new digest
        changed = template.render(Context({"deeds": deeds}))
        deeds.append({"name": "Turmstraße", "mortgaged": False})
        longer = template.render(Context({"deeds": deeds}))
    assert first == "mortgaged: Badstraße"
    assert changed == "mortgaged: Badstraße*"
    assert longer == "mortgaged: Badstraße* Turmstraße"


def test_a_kept_block_sees_only_its_named_values():
    # ``cash`` is in the page's context but not named: the block cannot show it (else a kept
    # text would carry the cash of the post that rendered it first)
    template = Template(KEPT)
    with translation.override("en"):
        text = template.render(Context({"deeds": [], "cash": 1500}))
    assert text == "mortgaged:"


def test_a_kept_block_is_kept_per_language():
    template = Template(KEPT)
    deeds = [{"name": "Parkstraße", "mortgaged": True}]
    with translation.override("de"):
        german = template.render(Context({"deeds": deeds}))
    with translation.override("en"):
        english = template.render(Context({"deeds": deeds}))
    assert german == "mit Hypothek: Parkstraße*"
    assert english == "mortgaged: Parkstraße*"


def test_lazy_words_in_kept_values_are_kept_per_language_and_message():
    template = Template("{% load console_parts %}{% kept word=word %}{{ word }}{% end_kept %}")
    with translation.override("de"):
        close = template.render(Context({"word": gettext_lazy("Close")}))
        confirm = template.render(Context({"word": gettext_lazy("Confirm")}))
    with translation.override("en"):
        english = template.render(Context({"word": gettext_lazy("Close")}))
    assert (close, confirm, english) == ("Schließen", "Bestätigen", "Close")


def test_the_same_values_render_once():
    template = Template(KEPT)
    renders = []
    node = next(n for n in template.nodelist if isinstance(n, console_parts.KeptNode))
    original = node.nodelist.render

    def counted(context):
        renders.append(1)
        return original(context)

    node.nodelist.render = counted
    with translation.override("en"):
        for _ in range(3):
            template.render(Context({"deeds": [{"name": "Schlossallee", "mortgaged": False}]}))
    assert len(renders) == 1


def test_a_kept_block_takes_named_values_only():
    with pytest.raises(TemplateSyntaxError):
        Template("{% load console_parts %}{% kept deeds %}x{% end_kept %}")
    with pytest.raises(TemplateSyntaxError):
        Template("{% load console_parts %}{% kept %}x{% end_kept %}")


def test_the_store_is_bounded_and_drops_the_least_recently_used():
    kept: Kept[str] = Kept(size=2)
    kept.get(key="a", make=lambda: "A")
    kept.get(key="b", make=lambda: "B")
    assert kept.get(key="a", make=lambda: "new") == "A"  # used: now the most recent
    kept.get(key="c", make=lambda: "C")  # drops "b"
    assert len(kept) == 2
    assert kept.get(key="b", make=lambda: "B2") == "B2"
    assert kept.get(key="a", make=lambda: "A2") == "A2"  # dropped by "b" coming back


def _names(players: dict[str, str]) -> Names:
    board = rules.get_board("classic-de")
    return Names(players, {k: i for i, k in enumerate(players, 1)},
                 {d.key: d.name for d in board.deeds}, board)


def _row(event: dict, names: Names) -> dict:
    reader = feed_rows._feed_reader(names=names, language=translation.get_language(),
                                  zone=feed_rows.timezone.get_current_timezone())
    return feed_rows._feed_row(event=event, names=names, reader=reader)


def test_a_feed_row_follows_the_event_the_names_and_the_language():
    names = _names({"1": "Anna", "2": "Ben"})
    buy = {"type": "buy", "player": "1", "deed": "schlossallee"}
    with translation.override("en"):
        first = _row(buy, names)["text"]
        assert _row(dict(buy, player="2"), names)["text"] != first  # another event
        renamed = _row(buy, _names({"1": "Anja", "2": "Ben"}))["text"]  # another name
        assert "Anja" in renamed and "Anna" in first
    with translation.override("de"):
        german = _row(buy, names)["text"]
    assert german != first


def test_the_feed_rows_are_bounded():
    names = _names({"1": "Anna", "2": "Ben"})
    with translation.override("en"):
        for amount in range(feed_rows.FEED_ROWS_KEPT + 10):
            _row({"type": "pay", "player": "1", "to": "bank", "amount": amount + 1}, names)
    assert len(feed_rows._feed_rows) <= feed_rows.FEED_ROWS_KEPT


WORDS = ('{% load i18n console_parts %}{% words %}{% translate "Close" as word_close %}'
         '{% translate "Cash" as word_cash %}{% end_words %}{{ word_close }}/{{ word_cash }}')


def test_kept_words_are_set_in_the_language_of_each_render():
    template = Template(WORDS)
    with translation.override("de"):
        german = template.render(Context({}))
        again = template.render(Context({}))
    with translation.override("en"):
        english = template.render(Context({}))
    assert german == again == "Schließen/Bargeld"
    assert english == "Close/Cash"


def test_kept_words_see_nothing_of_the_page():
    # a word from a page variable would be kept with the first page's value: it reads nothing
    template = Template('{% load i18n console_parts %}{% words %}{% translate name as word %}'
                        '{% end_words %}[{{ word }}]')
    with translation.override("en"):
        assert template.render(Context({"name": "Anna"})) == "[]"
        assert template.render(Context({"name": "Ben"})) == "[]"


def test_kept_words_may_only_set_variables():
    template = Template('{% load i18n console_parts %}{% words %}{% translate "Close" %}'
                        '{% end_words %}')
    with translation.override("en"), pytest.raises(TemplateSyntaxError):
        template.render(Context({}))


def test_a_rulesets_value_is_part_of_a_kept_blocks_digest():
    template = Template("{% load console_parts %}{% kept ruleset=ruleset %}"
                        "{{ ruleset.jail_fine }}{% end_kept %}")
    karlsruhe = rules.RULESETS["karlsruhe"]
    other = karlsruhe.replace(jail_fine=karlsruhe.jail_fine + 50)
    with translation.override("en"):
        first = template.render(Context({"ruleset": karlsruhe}))
        changed = template.render(Context({"ruleset": other}))
        again = template.render(Context({"ruleset": karlsruhe}))
    assert first == again == str(karlsruhe.jail_fine)
    assert changed == str(karlsruhe.jail_fine + 50)


def test_the_console_data_is_what_json_script_wrote_and_follows_the_deeds():
    from django.utils.html import json_script

    data = {"seq": 4, "note": "</script> & <b>", "deeds": {"badstrasse": {
        "name": "Badstraße", "owner": "1", "level": 0, "mortgaged": False, "rent": 2.5}},
        "deals_paid": True}
    with translation.override("en"):
        first = console_parts.console_data(data)
        assert first == json_script(data, "console-data")
        data["deeds"]["badstrasse"]["level"] = 1  # changed in place: a new digest
        data["seq"] = 5
        changed = console_parts.console_data(data)
    assert changed == json_script(data, "console-data") != first


def test_a_value_that_does_not_pickle_is_rendered_every_time():
    template = Template("{% load console_parts %}{% kept n=n f=f %}{{ n }}{% end_kept %}")
    with translation.override("en"):
        assert template.render(Context({"n": 1, "f": threading.Lock()})) == "1"
        assert template.render(Context({"n": 2, "f": threading.Lock()})) == "2"
