"""The organizer's pages under ``/manage/`` (namespace ``organizer``), area by area; the views
live in ``tournament.views``, one module per area."""

from django.urls import include, path

from tournament.views import (
    alternates,
    dashboard,
    incidents,
    players,
    rounds,
    signups,
    staff,
    tournaments,
)

app_name = "organizer"

urlpatterns = [
    # Tournaments: create, settings, state (``new/`` must win over ``<slug>/``)

    path("new/", tournaments.tournament_create, name="tournament-new"),
    path("<slug:slug>/settings/", tournaments.tournament_settings, name="tournament-settings"),
    path("<slug:slug>/status/", tournaments.tournament_transition, name="tournament-transition"),
    # Players and the check-in desk

    path("<slug:slug>/players/", players.player_list, name="players"),
    path("<slug:slug>/players/add/", players.player_add, name="player-add"),
    path("<slug:slug>/players/import/", players.player_import, name="players-import"),
    path("<slug:slug>/players/<int:pk>/edit/", players.player_edit, name="player-edit"),
    path("<slug:slug>/players/<int:pk>/delete/", players.player_delete, name="player-delete"),
    path("<slug:slug>/players/<int:pk>/erase/", players.player_erase, name="player-erase"),
    path("<slug:slug>/players/<int:pk>/data/", players.player_data, name="player-data"),
    *[
        path(f"<slug:slug>/players/<int:pk>/{action}/", players._player_action(action), name=name)
        for action, (_service, name) in players.ACTIONS.items()
    ],
    path("<slug:slug>/check-in/", players.desk, name="desk"),
    # The dashboard and a tournament's page

    path("", dashboard.dashboard, name="dashboard"),
    path("<slug:slug>/", dashboard.tournament_detail, name="tournament"),
    # Rounds, tables, seating and bankers

    path("<slug:slug>/rounds/", rounds.round_list, name="rounds"),
    path("<slug:slug>/rounds/new/", rounds.round_create, name="round_create"),
    path("<slug:slug>/rounds/<int:number>/", include([
        path("", rounds.round_detail, name="round"),
        path("preview/", rounds.round_preview, name="round_preview"),
        path("seat/", rounds.round_seat, name="round_seat"),
        path("swap/", rounds.round_swap, name="round_swap"),
        path("move/", rounds.round_move, name="round_move"),
        path("lock/", rounds.round_lock, name="round_lock"),
        path("unlock/", rounds.round_unlock, name="round_unlock"),
        path("start/", rounds.round_start, name="round_start"),
        path("bankers/", rounds.round_bankers, name="round_bankers"),
        path("bankers/<int:table_number>/", include([
            path("assign/", rounds.table_assign_banker, name="table_assign_banker"),
            path("link/", rounds.table_issue_link, name="table_issue_link"),
            path("restore/", rounds.table_restore_link, name="table_restore_link"),
            path("revoke/", rounds.table_revoke_link, name="table_revoke_link"),
        ])),
    ])),
    # The team and the audit log

    path("<slug:slug>/staff/", staff.staff_page, name="staff"),
    path("<slug:slug>/staff/<int:role_id>/remove/", staff.staff_dismiss, name="staff-remove"),
    path("<slug:slug>/audit/", staff.audit_page, name="audit"),
    # Incidents

    path("<slug:slug>/players/<int:pk>/incidents/", incidents.player_incidents, name="player-incidents"),
    # Alternates

    path("<slug:slug>/alternates/", alternates.alternate_list, name="alternates"),
    path("<slug:slug>/alternates/rank/", alternates.alternate_rank, name="alternate-rank"),
    path(
        "<slug:slug>/rounds/<int:number>/replace/", alternates.alternate_replace, name="alternate-replace"
    ),
    # Sign-ups and the outbox

    path("<slug:slug>/signups/", signups.signup_list, name="signups"),
    path("<slug:slug>/signups/settings/", signups.signup_settings, name="signup-settings"),
    path("<slug:slug>/signups/close/", signups.signup_close, name="signup-close"),
    path("<slug:slug>/signups/<int:signup_id>/resend/", signups.signup_resend, name="signup-resend"),
    path("<slug:slug>/signups/<int:signup_id>/move-up/", signups.signup_move_up, name="signup-move-up"),
    path("<slug:slug>/signups/<int:signup_id>/erase/", signups.signup_erase, name="signup-erase"),
    path("<slug:slug>/outbox/", signups.outbox, name="outbox"),
    path("<slug:slug>/outbox/<int:mail_id>/resend/", signups.outbox_resend, name="outbox-resend"),
    path("<slug:slug>/players/<int:pk>/fee-paid/", signups.fee_paid, name="player-fee-paid"),
]

#: Mount at the site root (``config/urls.py``): ``path("", include(banker_link_urlpatterns))``
#: or ``urlpatterns += banker_link_urlpatterns``; the URL name is ``banker_link``.
banker_link_urlpatterns = [
    path("b/<str:token>/", rounds.open_banker_link, name="banker_link"),
]
