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

import hashlib
import json
import pickle
from collections.abc import Iterable
from datetime import datetime
from html import escape as html_escape
from typing import Any

from django import template
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.template.base import token_kwargs
from django.utils.functional import Promise
from django.utils.safestring import SafeString
from django.utils.timezone import get_current_timezone
from django.utils.translation import get_language

from config.kept import Kept
from referee.console.kept import kept_pickle

register = template.Library()
APPROX = "\u2248"  # ≈: cash tracked without the ledger is a guess
HOUSE = "\u2302"  # ⌂


def _e(value: Any) -> str:
    """A value as ``{{ value }}`` writes it with localization off: ``conditional_escape``
    without its lazy-argument wrapper (a fifth of the tags' time): safe text as it is (a
    template's ``_("…")`` included), the rest as ``str`` escaped by ``html.escape`` (as
    Django's ``escape`` does)."""
    if type(value) is int:  # most values: nothing to escape in a number
        return str(value)
    if isinstance(value, Promise):  # a lazy translation of a safe text stays safe
        value = str(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return html_escape(str(value))


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


@register.simple_tag
def board_deeds(deeds: Iterable[dict[str, Any]], word_bank: str,
                word_mortgaged: str) -> SafeString:
    """``_board.html``: one group's deeds with owner, buildings and mortgage."""
    word_bank, word_mortgaged = _e(word_bank), _e(word_mortgaged)
    out = []
    for d in deeds:
        mortgaged = d["mortgaged"]
        owner = (f'<span class="seat-no">{_e(d["owner_seat"])}</span> {_e(d["owner_name"])}'
                 if d["owner"] else f'<span class="muted">{word_bank}</span>')
        level = "H" if d["hotel"] else (f"{_e(d['houses'])}{HOUSE}" if d["houses"] else "")
        out.append(
            f'\n            <li class="board-deed{" is-mortgaged" if mortgaged else ""}">\n'
            f'              <span class="deed-name">{_e(d["name"])}</span>\n'
            f'              <span class="deed-owner">{owner}</span>\n'
            f'              <span class="deed-level">{level}'
            f'{f" {word_mortgaged}" if mortgaged else ""}</span>\n'
            f'            </li>\n          '
        )
    return SafeString("".join(out))


@register.simple_tag(takes_context=True)
def feed_items(context: template.Context, feed: Iterable[dict[str, Any]], word_cancelled: str,
               word_correct: str) -> SafeString:
    """``_feed.html``: the events, latest first; an event made offline says when (its words:
    ``_feed_made.html``)."""
    word_cancelled, word_correct = _e(word_cancelled), _e(word_correct)
    made = context.template.engine.get_template("referee/console/_feed_made.html")
    out = []
    for item in feed:
        index, text = _e(item["index"]), _e(item["text"])
        voided = item["voided"]
        out.append(
            f'\n        <li class="feed-item{" is-voided" if voided else ""}" data-index="{index}">'
            f'\n          <span class="feed-no">{index}</span>'
            f'\n          <span class="feed-time">{_e(item["time"])}</span>'
            f'\n          <span class="feed-text">{text}'
            f'{f" <em>({word_cancelled})</em>" if voided else ""}'
        )
        if item["made_at"]:
            with context.push(item=item):
                out.append(made.render(context))
        out.append("</span>\n          ")
        if item["voidable"]:
            out.append(
                f'\n            <button type="button" class="btn btn-small" data-open="sheet-void"'
                f' data-event="{index}"\n                    data-event-text="{text}">'
                f'{word_correct}</button>\n          '
            )
        out.append("\n        </li>\n      ")
    return SafeString("".join(out))


@register.simple_tag
def player_chips(players: Iterable[dict[str, Any]], selected: Any, ledger: Any, word_out: str,
                 word_jail: str) -> SafeString:
    """``_play.html``: a chip per player (seat, name, cash) that opens the player's panel."""
    word_out, word_jail = _e(word_out), _e(word_jail)
    out = []
    for p in players:
        bankrupt, jailed = p["bankrupt"], p["in_jail"]
        jail = f'<span class="tag tag-jail">{word_jail}</span>' if jailed else ""
        cash = word_out if bankrupt else f'{"" if ledger else APPROX}{_e(p["cash"])}'
        out.append(
            f'\n    <button type="button" class="player-chip{" is-out" if bankrupt else ""}'
            f'{" is-jailed" if jailed else ""}"\n            data-select-player="{_e(p["key"])}"'
            f' aria-pressed="{"true" if p["key"] == selected else "false"}"\n            '
            f'{"disabled" if bankrupt else ""}>\n      <span class="seat-no">{_e(p["seat"])}</span>'
            f'\n      <span class="pname">{_e(p["name"])}</span>'
            f'\n      <span class="pcash">{cash}</span>\n      '
            f'{jail}'
            f'\n    </button>\n  '
        )
    return SafeString("".join(out))


@register.simple_tag
def deed_chips(deeds: Iterable[dict[str, Any]], word_mortgaged: str) -> SafeString:
    """``_play.html``: a player's deeds as chips, with buildings and mortgage."""
    word_mortgaged = _e(word_mortgaged)
    out = []
    for d in deeds:
        mortgaged = d["mortgaged"]
        level = (" <b>H</b>" if d["hotel"]
                 else (f" <b>{_e(d['houses'])}{HOUSE}</b>" if d["houses"] else ""))
        out.append(
            f'\n          <li class="deed-chip g-{_e(d["group_class"])}'
            f'{" is-mortgaged" if mortgaged else ""}">\n            {_e(d["name"])}{level}'
            f'{f" <b>{word_mortgaged}</b>" if mortgaged else ""}\n          </li>\n        '
        )
    return SafeString("".join(out))


@register.simple_tag
def action_buttons(buttons: Iterable[dict[str, Any]], player: Any,
                   word_no_action: str) -> SafeString:
    """``_play.html``: a player's action buttons, each opening its sheet (or why there is
    none)."""
    key = _e(player)
    out = [
        f'\n        <button type="button" class="btn act act-{_e(b["code"])}" data-open="sheet-'
        f'{_e(b["code"])}" data-player="{key}">{_e(b["label"])}</button>\n      '
        for b in buttons
    ]
    if not out:
        return SafeString(f'\n        <p class="muted">{_e(word_no_action)}</p>\n      ')
    return SafeString("".join(out))


@register.simple_tag
def unavailable_items(items: Iterable[dict[str, Any]], lang: Any) -> SafeString:
    """``_play.html``: why an action a player might expect is refused now (in the reader's
    language)."""
    message = "message_en" if lang == "en" else "message_de"
    return SafeString("".join(
        f'<li data-rule="{_e(u["code"])}"><b>{_e(u["label"])}</b>: {_e(u[message])}</li>'
        for u in items
    ))


@register.simple_tag
def sheet_open(action: Any, title: Any, close_label: Any) -> SafeString:
    """The start of a player's action sheet (was ``_sheet_open.html``); ``sheet_confirm``
    ends it."""
    a = _e(action)
    return SafeString(
        f'\n<dialog id="sheet-{a}" class="sheet" aria-labelledby="sheet-{a}-title">\n'
        f'  <form class="action" data-action="{a}">\n    <input type="hidden" name="player">\n'
        f'    <header class="sheet-head"><h2 id="sheet-{a}-title">{_e(title)} \u00b7 <span'
        f' data-player-name></span></h2><button type="button" class="btn btn-close" data-close'
        f' aria-label="{_e(close_label)}">\u00d7</button></header>\n'
    )


@register.simple_tag
def sheet_confirm(word_confirm: Any, confirm_label: Any = "",
                  confirm_kind: Any = "") -> SafeString:
    """The end of an action sheet (was ``_sheet_confirm.html``): the engine's answer and the
    confirm button (``word_confirm`` unless the sheet names its own ``confirm_label``)."""
    return SafeString(
        f'\n    <div class="answer" aria-live="polite"></div>\n    <button type="submit"'
        f' class="btn {_e(confirm_kind or "btn-go")} btn-confirm" disabled>'
        f'{_e(confirm_label) if confirm_label else _e(word_confirm)}</button>\n  </form>\n'
        f'</dialog>\n'
    )


class PerLanguageNode(template.Node):
    """A block whose text depends only on the language and the ``keys``: rendered once per
    process and language (and keys), then reused."""

    LIMIT = 64  # texts kept per block (languages × keys)

    def __init__(self, nodelist: template.NodeList, keys: list[Any]) -> None:
        self.nodelist = nodelist
        self.keys = keys
        self.rendered: dict[tuple[Any, ...], str] = {}

    def render(self, context: template.Context) -> str:
        key = (get_language(), *(k.resolve(context) for k in self.keys))
        text = self.rendered.get(key)
        if text is None:
            text = self.nodelist.render(context)
            if len(self.rendered) < self.LIMIT:
                self.rendered[key] = text
        return text


@register.tag("per_language")
def per_language(parser: template.base.Parser, token: template.base.Token) -> PerLanguageNode:
    """``{% per_language key… %}…{% end_per_language %}``: the console's sheets that only
    translated words and the ``key`` values fill (the void sheet, the dice, the cash count),
    written once per language instead of on every post. Nothing inside may depend on the
    game beyond the keys, or set a variable used after the block (it is not rendered again)."""
    keys = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("end_per_language",))
    parser.delete_first_token()
    return PerLanguageNode(nodelist, keys)


@register.simple_tag(takes_context=True)
def player_panels(context: template.Context, players: Iterable[dict[str, Any]], selected: Any,
                  ledger: Any, lang: Any) -> SafeString:
    """``_play.html``: a panel per active player (the selected one shown): cash, net worth,
    deeds, action buttons and refusals; the words are the template's (``word_…``)."""
    raw = {name: context[f"word_{name}"] for name in (
        "cash", "cash_tracked", "net_worth", "jail_head", "jail", "mortgaged", "no_deeds",
        "actions", "no_action", "not_available")}
    word = {name: _e(value) for name, value in raw.items()}
    cash_word = word["cash"] if ledger else word["cash_tracked"]
    out = []
    for p in players:
        name = _e(p["name"])
        jail = (f'<div><dt>{word["jail_head"]}</dt><dd class="tag-jail">{word["jail"]}</dd>'
                f'</div>' if p["in_jail"] else "")
        deeds = (f'\n      <ul class="deed-chips">\n        '
                 f'{deed_chips(p["deeds"], raw["mortgaged"])}\n      </ul>\n    '
                 if p["deeds"] else f'\n      <p class="muted">{word["no_deeds"]}</p>\n    ')
        refusals = (f'\n      <ul class="unavailable" aria-label="{word["not_available"]}"'
                    f' data-unavailable>\n        {unavailable_items(p["unavailable"], lang)}'
                    f'\n      </ul>\n    ' if p["unavailable"] else "")
        out.append(
            f'\n  <section class="card player-panel" data-player-panel="{_e(p["key"])}" '
            f'{"hidden" if p["key"] != selected else ""}\n           aria-label="{name}">\n'
            f'    <h2><span class="seat-no">{_e(p["seat"])}</span> {name}</h2>\n'
            f'    <dl class="stats">\n      <div><dt>{cash_word}</dt><dd data-cash>'
            f'{_e(p["cash"])}</dd></div>\n      <div><dt>{word["net_worth"]}</dt><dd>'
            f'{_e(p["net_worth"])}</dd></div>\n      {jail}\n    </dl>\n    {deeds}\n'
            f'    <div class="actions" role="group" aria-label="{word["actions"]}">\n      '
            f'{action_buttons(p["buttons"], p["key"], raw["no_action"])}\n    </div>\n    '
            f'{refusals}\n  </section>\n'
        )
    return SafeString("".join(out))


#: Texts kept per process by all ``{% kept %}`` blocks together (a block's text is 1–30 kB).
KEPT_TEXTS = 256
_kept_texts: Kept[str] = Kept(size=KEPT_TEXTS)


class KeptNode(template.Node):
    """A block rendered from its named values only (a context of just those: nothing else of
    the page can reach it), kept per process by the block, the language, the context's
    escaping, localization and time zone, and a digest of the values (their pickle: plain data, lazy
    words by their message): the same values give the same text, other values a new one."""

    def __init__(self, nodelist: template.NodeList, values: dict[str, Any]) -> None:
        self.nodelist = nodelist
        self.values = values

    def render(self, context: template.Context) -> str:
        values = {name: value.resolve(context) for name, value in self.values.items()}
        try:
            pickled = kept_pickle(values=values)
        except (pickle.PicklingError, TypeError, AttributeError):
            # not plain data (nothing to key it by): rendered as it is, not kept
            return self.nodelist.render(context.new(values))
        digest = hashlib.blake2b(pickled, digest_size=20).digest()
        # the node itself, not its id: kept alive while its texts are, its id is never reused
        key = (self, get_language(), get_current_timezone(), context.autoescape,
               context.use_l10n, context.use_tz, digest)
        return _kept_texts.get(
            key=key, make=lambda: self.nodelist.render(context.new(values)))


@register.tag("kept")
def kept(parser: template.base.Parser, token: template.base.Token) -> KeptNode:
    """``{% kept name=value… %}…{% end_kept %}``: a part of the console that only the named
    values (and the language) fill, rendered once per distinct values instead of on every post
    (the action sheets and the board: ownership and buildings change, cash mostly does not).
    Inside, only the named values exist; a value must be plain data (what pickles the same
    renders the same), and nothing inside may set a variable used after the block."""
    bits = token.split_contents()[1:]
    values = token_kwargs(bits, parser, support_legacy=False)
    if bits or not values:
        raise template.TemplateSyntaxError("{% kept %} takes name=value pairs only")
    nodelist = parser.parse(("end_kept",))
    parser.delete_first_token()
    return KeptNode(nodelist, values)


@register.simple_tag
def rendered_at() -> SafeString:
    """``_main.html``: when the fragment was rendered, as ``data-rendered="{% now 'U' %}"
    data-rendered-time="{% now 'H:i' %}"`` wrote it (the date filter's format parser was a
    twentieth of the fragment's render)."""
    now = datetime.now(tz=get_current_timezone() if settings.USE_TZ else None)
    return SafeString(f'data-rendered="{int(now.timestamp())}" data-rendered-time="{now:%H:%M}"')


_kept_words: Kept[dict[str, Any]] = Kept(size=64)


class WordsNode(template.Node):
    """Variables the body's ``{% translate … as name %}`` tags set, worked out once per
    process, language, escaping and localization (in a context of nothing else), then set
    again on each render: the body's words depend on nothing but those."""

    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def _words(self, *, context: template.Context) -> dict[str, Any]:
        own = context.new()
        if self.nodelist.render(own).strip():
            raise template.TemplateSyntaxError("{% words %} may only set variables")
        return dict(own.dicts[-1])

    def render(self, context: template.Context) -> str:
        key = (self, get_language(), context.autoescape, context.use_l10n, context.use_tz)
        for name, value in _kept_words.get(key=key, make=lambda: self._words(context=context)).items():
            context[name] = value
        return ""


@register.tag("words")
def words(parser: template.base.Parser, token: template.base.Token) -> WordsNode:
    """``{% words %}{% translate "…" as word_x %}…{% end_words %}``: a template's words set
    from the kept translations of its language (each ``translate`` tag was a lazy string
    translated again on every post: a tenth of the fragment's time), the tags staying where
    ``makemessages`` finds them."""
    if token.split_contents()[1:]:
        raise template.TemplateSyntaxError("{% words %} takes no arguments")
    nodelist = parser.parse(("end_words",))
    parser.delete_first_token()
    return WordsNode(nodelist)


#: What ``json_script`` writes for ``>``, ``<`` and ``&`` (``django.utils.html``).
_JSON_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}
_kept_json: Kept[str] = Kept(size=64)


def _json(*, value: Any) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder)


@register.filter
def console_data(value: dict[str, Any]) -> SafeString:
    """``{{ js_data|json_script:"console-data" }}``, the same bytes, with the JSON of the deeds
    (most of it; ownership and buildings change it, cash does not) kept by the language and a
    digest of their pickle."""
    parts = []
    for key, item in value.items():
        if key == "deeds":
            digest = hashlib.blake2b(pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL),
                                     digest_size=20).digest()
            text = _kept_json.get(key=(get_language(), digest),
                                  make=lambda item=item: _json(value=item))
        else:
            text = _json(value=item)
        parts.append(f"{_json(value=key)}: {text}")
    escaped = ("{" + ", ".join(parts) + "}").translate(_JSON_SCRIPT_ESCAPES)
    return SafeString(f'<script id="console-data" type="application/json">{escaped}</script>')
