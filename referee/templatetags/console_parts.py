"""The console fragment's long lists, written in Python: the same bytes the loops of the
templates wrote, at a fraction of the cost (issue 29: the fragment is rendered on every
banker's post; its ~1,200 template variables were a third of the post's CPU time).

Each tag writes what one ``{% for %}`` loop of ``templates/referee/console/`` wrote, its
whitespace included, and escapes each value as the template did (``{% localize off %}``:
numbers as ``str``). The words come from the template (``{% translate ... as word %}``,
escaped there), so the catalogues keep them where they were. ``benchmarks/console_fingerprint.py`` checks the
fragment byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

register = template.Library()


def _e(value: Any) -> str:
    """A value as ``{{ value }}`` writes it with localization off."""
    return conditional_escape(value if isinstance(value, str) else str(value))


@register.simple_tag
def deed_choices(deeds: Iterable[dict[str, Any]]) -> SafeString:
    """``_deed_choice.html``: one radio per deed, with its price."""
    return SafeString("".join(
        f'\n        <label class="deed g-{_e(d["group_class"])}"><input type="radio" name="deed"'
        f' value="{_e(d["key"])}">\n          <span class="deed-name">{_e(d["name"])}</span>'
        f'<span class="deed-sub">{_e(d["price"])}</span></label>\n      '
        for d in deeds
    ))


@register.simple_tag
def player_picks(players: Iterable[dict[str, Any]], name: Any) -> SafeString:
    """``_player_picks.html``: the other active players as one radio group ``name``."""
    field = _e(name)
    return SafeString("".join(
        f'\n        <label class="pick" data-not-for="{_e(p["key"])}"><input type="radio"'
        f' name="{field}" value="{_e(p["key"])}"><span>{_e(p["name"])}</span></label>\n      '
        for p in players
    ))


@register.simple_tag
def rent_choices(deeds: Iterable[dict[str, Any]], word_dice: str, word_jail: str,
                 word_none: str) -> SafeString:
    """The rent sheet's deeds: who owns each and the rent due (or why none is)."""
    word_dice, word_jail, word_none = _e(word_dice), _e(word_jail), _e(word_none)
    out = []
    for d in deeds:
        if d["kind"] == "utility":
            due = word_dice
        elif d["rent"]:
            due = _e(d["rent"])
        elif d["no_rent"] == "jail":
            due = word_jail
        else:
            due = word_none
        out.append(
            f'\n        <label class="deed g-{_e(d["group_class"])}" data-not-for='
            f'"{_e(d["owner"])}"><input type="radio" name="deed" value="{_e(d["key"])}"'
            f' data-kind="{_e(d["kind"])}">\n          <span class="deed-name">{_e(d["name"])}'
            f'</span>\n          <span class="deed-sub"><span class="seat-no">'
            f'{_e(d["owner_seat"])}</span> {due}</span></label>\n      '
        )
    return SafeString("".join(out))


@register.simple_tag
def mortgage_choices(deeds: Iterable[dict[str, Any]], *, pay_off: bool) -> SafeString:
    """The mortgage sheet's deeds of one player: to mortgage (``+`` the bank's money) or to
    pay off (``−`` the payoff)."""
    if pay_off:
        return SafeString("".join(
            f'\n              <label class="deed g-{_e(d["group_class"])} is-mortgaged"><input'
            f' type="checkbox" name="unmortgage" value="{_e(d["key"])}">\n'
            f'                <span class="deed-name">{_e(d["name"])}</span><span'
            f' class="deed-sub">\u2212{_e(d["payoff"])}</span></label>\n            '
            for d in deeds
        ))
    return SafeString("".join(
        f'\n              <label class="deed g-{_e(d["group_class"])}"><input type="checkbox"'
        f' name="mortgage" value="{_e(d["key"])}">\n                <span class="deed-name">'
        f'{_e(d["name"])}</span><span class="deed-sub">+{_e(d["mortgage"])}</span></label>'
        f'\n            '
        for d in deeds
    ))


@register.simple_tag(takes_context=True)
def trade_choices(context: template.Context, deeds: list[dict[str, Any]], field: str,
                  word_mortgaged: str, word_none: str) -> SafeString:
    """The trade sheet's deeds of one player (``field``: ``give`` or ``get``); a mortgaged one
    with the choice to pay it off (its words: ``_payoff_choice.html``)."""
    if not deeds:
        return SafeString(f'<p class="muted">{_e(word_none)}</p>\n        ')
    name, word_mortgaged = _e(field), _e(word_mortgaged)
    payoff = context.template.engine.get_template("referee/console/_payoff_choice.html")
    out = []
    for d in deeds:
        mortgaged = d["mortgaged"]
        out.append(
            f'\n          <label class="deed g-{_e(d["group_class"])}'
            f'{" is-mortgaged" if mortgaged else ""}"><input type="checkbox" name="{name}"'
            f' value="{_e(d["key"])}">\n            <span class="deed-name">{_e(d["name"])}'
            f'</span><span class="deed-sub">{_e(d["price"])}'
            f'{f" · {word_mortgaged}" if mortgaged else ""}</span></label>\n          '
        )
        if mortgaged:
            with context.push(d=d):
                out.append(payoff.render(context))
        out.append("\n        ")
    return SafeString("".join(out))
