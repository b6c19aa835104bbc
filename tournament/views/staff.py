"""The tournament's team on screen: appoint an account, create one, remove a role; the audit log."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournament import (
    access,
    audit,
    errors,
    staff,
)
from tournament.access import Action
from tournament.models import MAX_ID, StaffRole


class AppointForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Account (username)"), max_length=150)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=StaffRole.Role.choices)
    create = forms.BooleanField(
        label=gettext_lazy("Create a new account (with a one-time set-password link)"),
        required=False,
    )


class AuditFilterForm(forms.Form):
    action = forms.ChoiceField(required=False, choices=lambda: [("", "—"), *audit.filter_choices()])
    actor = forms.CharField(required=False, max_length=150)
    everything = forms.BooleanField(required=False)


@access.require(Action.STAFF)
@require_http_methods(["GET", "POST"])
@never_cache
def staff_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    form = AppointForm(request.POST or None)
    set_password_url = ""
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if data["create"]:
            staff_role, path_ = staff.create_account(
                tournament=tournament, username=data["username"], role=data["role"],
                by=request.user,
            )
            set_password_url = request.build_absolute_uri(path_)
            messages.success(
                request,
                _("Account %(username)s created. Give them the set-password link below (it works once).")
                % {"username": staff_role.user.get_username()},
            )
        else:
            staff_role = staff.appoint(
                tournament=tournament, username=data["username"], role=data["role"],
                by=request.user,
            )
            messages.success(
                request,
                _("%(username)s is now %(role)s.")
                % {"username": staff_role.user.get_username(), "role": staff_role.get_role_display()},
            )
            return redirect("organizer:staff", slug=slug)
        form = AppointForm()
    return render(
        request,
        "tournament/staff.html",
        {
            "tournament": tournament,
            "team": staff.team(tournament),
            "form": form,
            "set_password_url": set_password_url,
        },
    )


@access.require(Action.STAFF)
@require_POST
def staff_dismiss(request: HttpRequest, slug: str, role_id: int) -> HttpResponse:
    if role_id > MAX_ID:
        raise errors.InvalidForm(fields=[gettext_lazy("Role")])
    freed = staff.dismiss(tournament=request.tournament, role_id=role_id, by=request.user)
    messages.success(request, _("The role was removed."))
    if freed:
        messages.warning(
            request,
            _("Tables %(tables)s have no banker now and their links were revoked: assign a new "
              "banker on the bankers page (the head referee can run the console meanwhile).")
            % {"tables": ", ".join(map(str, freed))},
        )
    return redirect("organizer:staff", slug=slug)


@access.require(Action.AUDIT)
@require_GET
def audit_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = request.tournament
    form = AuditFilterForm(request.GET or None)
    what = actor = ""
    everything = False
    if form.is_valid():
        what, actor = form.cleaned_data["action"], form.cleaned_data["actor"].strip()
        everything = form.cleaned_data["everything"]
    rows = audit.entries(
        tournament, what=what, actor=actor, staff_actions_only=not everything
    )[:500]
    return render(
        request,
        "tournament/audit.html",
        {"tournament": tournament, "lines": audit.lines(rows), "form": form},
    )
