"""Players of a tournament: list, add, edit, CSV import, drop-out and the check-in desk.

Staff only. Forms check the shape; ``tournament.players`` and ``tournament.csv_import`` do the
work; their refusals are shown in the form or, for buttons, by the DomainErrorMiddleware.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.inputs import clean_note
from tournament import access, incidents, privacy
from tournament.access import Action
from tournament.forms import CsvImportForm, DeskSearchForm, PlayerForm
from tournament.models import Club, Player, Tournament
from tournament.players import csv_import
from tournament.players import services as players

DESK_LIMIT = 100
LIST_LIMIT = 500


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _player(slug: str, pk: int) -> Player:
    return get_object_or_404(
        Player.objects.select_related("club", "tournament"), pk=pk, tournament__slug=slug
    )


def _search(request: HttpRequest) -> tuple[str, str]:
    form = DeskSearchForm(request.GET)
    if not form.is_valid():
        return "", players.SHOW_ALL
    return form.cleaned_data["q"].strip(), form.cleaned_data["show"] or players.SHOW_ALL


def _found(request: HttpRequest, tournament, *, limit: int) -> dict:
    """The list's and the desk's context: the players the search finds, at most ``limit``,
    and what the user may do with them."""
    query, show = _search(request)
    rows, more = players.desk_rows(tournament, query, show=show, limit=limit)
    return {
        "tournament": tournament,
        "players": rows,
        "more": more,
        "query": query,
        "show": show,
        "counts": players.desk_counts(tournament),
        "may": access.permissions(request.user, tournament),
    }


@access.require(Action.VIEW)
@require_GET
def player_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    context = _found(request, tournament, limit=LIST_LIMIT)
    context["may_rule"] = context["may"][Action.RULE]
    context["search_form"] = DeskSearchForm(
        initial={"q": context["query"], "show": context["show"]}
    )
    return render(request, "tournament/players/list.html", context)


def _club_names(tournament: Tournament) -> list[str]:
    """The tournament's own clubs (another's are not this desk's business), each with a
    player: a club whose last player was erased or changed clubs is not suggested."""
    clubs = Club.objects.filter(tournament=tournament, players__isnull=False).distinct()
    return list(clubs.order_by("name").values_list("name", flat=True)[:500])


def _warn_look_alikes(request: HttpRequest, player: Player) -> None:
    """Tell the desk when the name looks like another player's ("Juergen Weiss" beside
    "Jürgen Weiß"): perhaps one person entered twice."""
    others = players.look_alikes(player)
    if others:
        messages.warning(request, _(
            "“%(name)s” looks like %(others)s, already registered: make sure nobody is entered "
            "twice."
        ) % {"name": player.name, "others": ", ".join(f"“{other.name}”" for other in others)})


@access.require(Action.CHECK_IN)
@require_http_methods(["GET", "POST"])
def player_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a player; from the check-in desk (``from=desk``) a late entry is checked in at
    once and the desk shows the round they are seated from."""
    tournament = _tournament(slug)
    from_desk = (request.POST.get("from") or request.GET.get("from")) == "desk"
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        checked_in = True if from_desk and tournament.status != tournament.Status.DRAFT else None
        try:
            player = players.add_player(
                tournament=tournament, checked_in=checked_in, **form.cleaned_data
            )
        except (players.PlayerInvalid, players.PlayerNameTaken) as error:
            form.add_refusal(error)
        else:
            if player.checked_in:
                text = _("%(name)s added and checked in (late entry); seated from round %(round)s.")
            else:
                text = _("%(name)s added.")
            messages.success(
                request,
                text % {"name": player.name, "round": players.next_open_round(tournament)},
            )
            _warn_look_alikes(request, player)
            if "add_another" in request.POST:
                target = reverse("organizer:player-add", kwargs={"slug": slug})
                return redirect(f"{target}?from=desk" if from_desk else target)
            if from_desk:
                desk_url = reverse("organizer:desk", kwargs={"slug": slug})
                return redirect(f"{desk_url}?{urlencode({'q': player.name})}")
            return redirect("organizer:players", slug=slug)
    return render(
        request,
        "tournament/players/form.html",
        {
            "tournament": tournament,
            "form": form,
            "player": None,
            "clubs": _club_names(tournament),
            "from_desk": from_desk,
            "next_round": players.next_open_round(tournament),
        },
    )


@access.require(Action.PLAYERS)
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    player = _player(slug, pk)
    form = PlayerForm(request.POST or None, player=player)
    if request.method == "POST" and form.is_valid():
        try:
            player = players.update_player(player=player, **form.cleaned_data)
        except (players.PlayerInvalid, players.PlayerNameTaken) as error:
            form.add_refusal(error)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": player.name})
            _warn_look_alikes(request, player)
            return redirect("organizer:players", slug=slug)
    return render(
        request,
        "tournament/players/form.html",
        {
            "tournament": player.tournament,
            "form": form,
            "player": player,
            "clubs": _club_names(player.tournament),
            "incidents": incidents.incidents_of(player),
        },
    )


ACTIONS = {
    "check-in": (players.check_in, "player-check-in"),
    "undo-check-in": (players.undo_check_in, "player-undo-check-in"),
    "drop-out": (players.drop_out, "player-drop-out"),
    "undo-drop-out": (players.undo_drop_out, "player-undo-drop-out"),
    "new-code": (players.renew_pass_code, "player-new-code"),
}


#: The desk's work on the day: checking in, a drop-out told at the desk, a lost card renewed.
ACTION_RIGHTS = {
    "check-in": Action.CHECK_IN,
    "undo-check-in": Action.CHECK_IN,
    "drop-out": Action.DROP_OUT,
    "undo-drop-out": Action.DROP_OUT,
    "new-code": Action.NEW_CODE,
}


def _action_message(action: str, name: str) -> str:
    # Spelled out so that makemessages finds every string.
    texts = {
        "check-in": _("%(name)s is checked in."),
        "undo-check-in": _("Check-in of %(name)s undone."),
        "drop-out": _("%(name)s has dropped out."),
        "undo-drop-out": _("Drop-out of %(name)s undone."),
        "new-code": _("%(name)s has a new personal code; the old card opens nothing now. "
                      "Print the new card."),
    }
    return texts[action] % {"name": name}


def _next_or(request: HttpRequest, fallback: str) -> str:
    """The posted ``next`` page if it is a path on this site, else ``fallback``.

    A bare word ("abc") would make ``redirect()`` look up a URL name (a 500), a control
    character would end up in the Location header."""
    target = request.POST.get("next", "")
    if (
        not target.startswith("/")
        or any(ord(char) < 32 or ord(char) == 127 for char in target)
        or not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return fallback
    return target


def _player_action(action: str):
    service, _name = ACTIONS[action]

    @access.require(ACTION_RIGHTS[action])
    @require_POST
    def view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
        player = service(player=_player(slug, pk))
        if request.htmx and request.POST.get("from") == "desk":
            player = players.desk_row(player.pk)
            players.mark_seated_from(player.tournament, [player])
            return render(
                request,
                "tournament/players/_desk_row_response.html",
                {
                    "player": player,
                    "tournament": player.tournament,
                    "counts": players.desk_counts(player.tournament),
                    "may": access.permissions(request.user, player.tournament),
                },
            )
        messages.success(request, _action_message(action, player.name))
        return redirect(_next_or(request, reverse("organizer:players", kwargs={"slug": slug})))

    view.__name__ = f"player_{action.replace('-', '_')}"
    return view


@access.require(Action.PLAYERS)
@require_POST
def player_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player entered by mistake, never seated, goes for good."""
    name = players.delete_player(player=_player(slug, pk))
    messages.success(request, _("%(name)s was deleted.") % {"name": name})
    return redirect("organizer:players", slug=slug)


@access.require(Action.PLAYERS)
@require_POST
def player_erase(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """On the player's request: name, club, e-mail and note replaced everywhere; results stay."""
    player = privacy.erase_player(player=_player(slug, pk), actor=request.user,
                                  reason=clean_note(request.POST.get("reason")))
    messages.success(request, _("The player's data was anonymized: now “%(name)s”.")
                     % {"name": player.name})
    return redirect("organizer:player-edit", slug=slug, pk=player.pk)


@access.require(Action.PLAYERS)
@require_GET
def player_data(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Everything kept about one player, as a JSON download (the right of access)."""
    player = _player(slug, pk)
    response = JsonResponse(privacy.player_data(player), json_dumps_params={
        "ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="player-{player.pk}.json"'
    response["Cache-Control"] = "no-store"
    return response


IMPORT_WARNINGS_SHOWN = 20


def _import_warnings(request: HttpRequest, warnings: list) -> None:
    """What to check after an import (no consent column, look-alike names), line by line."""
    for warning in warnings[:IMPORT_WARNINGS_SHOWN]:
        line = _("Line %(number)s") % {"number": warning.line}
        messages.warning(request, f"{line}: {warning.text}")
    if len(warnings) > IMPORT_WARNINGS_SHOWN:
        messages.warning(request, _("%(count)s more lines to check are not shown.")
                         % {"count": len(warnings) - IMPORT_WARNINGS_SHOWN})


@access.require(Action.PLAYERS)
@require_http_methods(["GET", "POST"])
def player_import(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = CsvImportForm(request.POST or None, request.FILES or None)
    error = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                result = csv_import.import_players(tournament=tournament, data=upload.read())
            except csv_import.CsvImportError as refused:
                error, status = refused, refused.http_status
            else:
                messages.success(
                    request,
                    _("%(players)s players imported, %(clubs)s new clubs.")
                    % {"players": len(result.players), "clubs": len(result.clubs)},
                )
                _import_warnings(request, result.warnings)
                return redirect("organizer:players", slug=slug)
        else:
            status = 400
    return render(
        request,
        "tournament/players/import.html",
        {"tournament": tournament, "form": form, "error": error},
        status=status,
    )


@access.require(Action.CHECK_IN)
@require_GET
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    """The check-in desk: search as you type, one tap to check in (works on a tablet)."""
    tournament = _tournament(slug)
    context = _found(request, tournament, limit=DESK_LIMIT)
    players.mark_seated_from(tournament, context["players"])
    template = (
        "tournament/players/_desk_results.html" if request.htmx else "tournament/players/desk.html"
    )
    return render(request, template, context)
