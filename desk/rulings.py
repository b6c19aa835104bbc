"""The head referee's result page: the counted figures, amend them with a reason, reopen a
confirmed result with a reason. Thin: ``referee.rulings`` decides and records."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import DomainError
from config.inputs import clean_note, posted_revision
from referee import results, rulings
from referee import selectors as referee_selectors
from referee.errors import ResultChanged
from referee.history import result_history
from referee.models import Game, GameResult
from scoring.verify import verify_tournament
from tournament import access, errors
from tournament.access import Action
from tournament.models import Round, Tournament


def _game(slug: str, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("table__round__tournament"),
        pk=game_id,
        table__round__tournament__slug=slug,
    )


@access.require(Action.RULE)
@require_http_methods(["GET", "POST"])
def result_page(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = _game(slug, game_id)
    result = get_object_or_404(GameResult, game=game)
    placements = list(result.placements.select_related("player").order_by("place"))
    if request.method == "POST":
        figures = {
            p.player_id: {
                "place": request.POST.get(f"place-{p.player_id}"),  # optional: computed
                "net_worth": request.POST.get(f"net_worth-{p.player_id}"),
            }
            for p in placements
        }
        reason = clean_note(request.POST.get("reason"))
        try:
            rulings.amend_result(game_id=game.pk, figures=figures, reason=reason,
                                 by=request.user, revision=posted_revision(request))
        except DomainError as refused:
            # Back on the page: the refusal beside the form, the reason kept; the figures as
            # typed unless the result changed meanwhile (then as they are now, to check).
            if not GameResult.objects.filter(game=game).exists():
                raise  # no result page to come back to (its count was taken back)
            typed = ({} if isinstance(refused, ResultChanged) else
                     {pid: (value.get("net_worth") or "")[:12] for pid, value in figures.items()})
            return result_response(request, game, refused=refused, form="amend",
                                   typed={"reason": reason, "figures": typed})
        messages.success(
            request,
            _("The count of table %(table)s is amended; it now awaits confirmation.")
            % {"table": game.table.number},
        )
        return redirect("round_desk:result", slug=slug, game_id=game.pk)
    return result_response(request, game, result=result, placements=placements)


def result_response(
    request: HttpRequest,
    game: Game,
    *,
    result: GameResult | None = None,
    placements: list | None = None,
    code_refused: DomainError | None = None,
    code: str = "",
    refused: DomainError | None = None,
    form: str = "",
    typed: dict | None = None,
) -> HttpResponse:
    """The result page; after a refusal it comes back with the refusal beside the form
    concerned (``form``: amend, resolve, reopen; a wrong code beside the code field) and what
    was typed kept, at the refusal's own status (``DomainError.http_status``), with the
    result as it is now."""
    result = result or get_object_or_404(GameResult, game=game)
    if placements is None:
        placements = list(result.placements.select_related("player").order_by("place"))
    typed = typed or {}
    for p in placements:  # the net worth the amendment form shows: as typed after a refusal
        p.shown_worth = (typed.get("figures") or {}).get(p.player_id, p.net_worth)
    refusal = code_refused or refused
    # four eyes: the forms that would refuse this person are not offered (the server checks)
    second_head = _second_person(result, request.user, head_referee=True)
    second_code = _second_person(result, request.user, head_referee=False)
    confirmed = result.status == GameResult.Status.CONFIRMED
    reopen_refused = rulings.reopen_refusal(game) if confirmed else None
    # the refused form is still on the page (else the refusal stands above, with the text)
    beside = (form in ("amend", "resolve") and not confirmed) or (
        form == "reopen" and confirmed and reopen_refused is None)
    return render(
        request,
        "desk/result.html",
        {
            "tournament": game.table.round.tournament,
            "game": game,
            "result": result,
            # the table's state in the desk's words (one name per state: referee.selectors)
            "state_label": referee_selectors.staff_state_label(
                referee_selectors.table_state(game, result)),
            "placements": placements,
            "history": result_history(result),
            "note_label": results.note_label(result, amended=any(
                p.breakdown.get("amended") for p in placements)) if result.resolved_note else "",
            # a confirmed result the final or the crowning rests on: why it is not reopened
            "reopen_refused": reopen_refused,
            "code_refused": code_refused,
            "code": code,
            "refused": refused,
            "refused_form": form if beside else "",
            "refused_above": refused is not None and not beside,
            "typed_text": typed.get("reason") or typed.get("note") or "",
            "typed": typed,
            "second_head": second_head,
            "second_code": second_code,
            "second_person": second_code or second_head,
        },
        status=refusal.http_status if refusal else 200,
    )


def _second_person(result: GameResult, user, *, head_referee: bool) -> DomainError | None:
    """The four-eyes refusal this person would get confirming the result, or None."""
    if result.status == GameResult.Status.CONFIRMED:
        return None
    try:
        results.check_second_person(result, by=user, head_referee=head_referee)
    except DomainError as refused:
        return refused
    return None


@access.require(Action.RULE)
@require_http_methods(["GET"])
def verify_page(request: HttpRequest, slug: str) -> HttpResponse:
    """“Check the record”: every stored figure against the replayed records (reads only)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    report = verify_tournament(tournament=tournament)
    return render(request, "desk/verify.html",
                  {"tournament": tournament, "report": report})


@access.require(Action.RULE)
@require_POST
def reopen(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = _game(slug, game_id)
    reason = clean_note(request.POST.get("reason"))
    try:
        rulings.reopen_result(game_id=game.pk, reason=reason, by=request.user,
                              revision=posted_revision(request))
    except DomainError as refused:
        if not GameResult.objects.filter(game=game).exists():
            raise  # no result page to come back to
        return result_response(request, game, refused=refused, form="reopen",
                               typed={"reason": reason})
    messages.success(
        request,
        _("The result of table %(table)s is reopened: it must be confirmed again.")
        % {"table": game.table.number},
    )
    return redirect("round_desk:result", slug=slug, game_id=game.pk)


def _minutes_ruling(request: HttpRequest) -> dict:
    """The posted minutes (0 when unreadable: the ruling refuses them with its message), the
    reason and who rules."""
    form = MinutesForm(request.POST)
    return {
        "minutes": form.cleaned_data["minutes"] if form.is_valid() else 0,
        "reason": clean_note(request.POST.get("reason")),
        "by": request.user,
    }


@access.require(Action.RULE)
@require_POST
def extra_time(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    game = _game(slug, game_id)
    ruling = _minutes_ruling(request)
    rulings.extra_time(game_id=game.pk, **ruling)
    text = _("Table %(table)s has %(minutes)s extra minutes.")
    messages.success(request, text % {"table": game.table.number, "minutes": ruling["minutes"]})
    return redirect("round_desk:desk", slug=slug)


@access.require(Action.RULE)
@require_POST
def delay_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    ruling = _minutes_ruling(request)
    rulings.delay_round_start(round_id=round_.pk, **ruling)
    text = _("Round %(number)s starts %(minutes)s minutes later.")
    messages.success(request, text % {"number": number, "minutes": ruling["minutes"]})
    return redirect("round_desk:desk", slug=slug)


@access.require(Action.RULE)
@require_POST
def move_player(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The head referee moves a player to another table (the game of neither has begun)."""
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    form = MoveForm(request.POST)
    if not form.is_valid():
        raise errors.InvalidForm(fields=errors.form_fields(form))
    rulings.move_player(
        round_id=round_.pk, player_id=form.cleaned_data["player"],
        to_table=form.cleaned_data["to_table"], reason=clean_note(request.POST.get("reason")),
        by=request.user,
    )
    messages.success(
        request, _("The player now sits at table %(table)s.") % {"table": form.cleaned_data[
            "to_table"]},
    )
    return redirect("round_desk:desk", slug=slug)


@access.require(Action.RULE)
@require_POST
def swap_players(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The head referee exchanges two players' seats (the games of neither table have begun):
    at full tables the move is refused, the swap keeps each table's size."""
    round_ = get_object_or_404(Round, tournament__slug=slug, number=number)
    form = SwapForm(request.POST)
    if not form.is_valid():
        raise errors.InvalidForm(fields=errors.form_fields(form))
    rulings.swap_players(
        round_id=round_.pk, a=form.cleaned_data["a"], b=form.cleaned_data["b"],
        reason=clean_note(request.POST.get("reason")), by=request.user,
    )
    messages.success(request, _("Seats swapped."))
    return redirect("round_desk:desk", slug=slug)


class SwapForm(forms.Form):
    a = forms.IntegerField(label=gettext_lazy("Player"), min_value=1, max_value=2**31 - 1)
    b = forms.IntegerField(
        label=gettext_lazy("swaps seats with"), min_value=1, max_value=2**31 - 1
    )


class MoveForm(forms.Form):
    player = forms.IntegerField(label=gettext_lazy("Player"), min_value=1, max_value=2**31 - 1)
    to_table = forms.IntegerField(
        label=gettext_lazy("moves to table"), min_value=1, max_value=10_000
    )


class MinutesForm(forms.Form):
    minutes = forms.IntegerField(min_value=1, max_value=rulings.MAX_EXTRA_MINUTES)
