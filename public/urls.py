from django.urls import path

from public import signup, views

app_name = "public"

urlpatterns = [
    path("<slug:slug>/", views.tournament_page, name="tournament"),
    path("<slug:slug>/tables/", views.tables_page, name="tables"),
    path("<slug:slug>/tables/<int:number>/", views.table_page, name="table"),  # current round
    path("<slug:slug>/rounds/<int:round_number>/tables/<int:number>/", views.table_page,
         name="round-table"),
    path("<slug:slug>/players/<int:player_id>/", views.player_page, name="player"),
    path("<slug:slug>/screen", views.screen_page, name="screen"),
    # Players sign themselves up; the key in every e-mail opens their own sign-up page.
    path("<slug:slug>/signup/", signup.signup_page, name="signup"),
    path("<slug:slug>/signup/<str:token>/", signup.signup_status, name="signup-status"),
    path("<slug:slug>/signup/<str:token>/confirm/", signup.signup_confirm,
         name="signup-confirm"),
    path("<slug:slug>/signup/<str:token>/withdraw/", signup.signup_withdraw,
         name="signup-withdraw"),
    # Hall screens (kiosk mode), each showing what the desk chose for it.
    path("<slug:slug>/hall/<slug:key>/", views.hall_page, name="hall"),
    path("<slug:slug>/hall/<slug:key>/live", views.hall_fragment, name="hall-live"),
    # Fragments the pages poll (HTML, ETag, 304 when unchanged).
    path("<slug:slug>/live/standings", views.standings_fragment, name="fragment-standings"),
    path("<slug:slug>/live/standings/top", views.standings_top_fragment,
         name="fragment-standings-top"),
    path("<slug:slug>/live/find", views.find_fragment, name="fragment-find"),
    # The live pages poll this tiny document, then fetch only the cards that changed.
    path("<slug:slug>/live/v", views.versions, name="versions"),
    path("<slug:slug>/live/cards", views.cards, name="cards"),
    path("<slug:slug>/live/tables", views.tables_fragment, name="fragment-tables"),
    path("<slug:slug>/live/tables/<int:number>", views.table_fragment, name="fragment-table"),
    path("<slug:slug>/live/rounds/<int:round_number>/tables/<int:number>", views.table_fragment,
         name="fragment-round-table"),
    path("<slug:slug>/live/players/<int:player_id>", views.player_fragment,
         name="fragment-player"),
    path("<slug:slug>/live/screen/standings", views.screen_standings_fragment,
         name="fragment-screen-standings"),
    path("<slug:slug>/live/screen/tables", views.screen_tables_fragment,
         name="fragment-screen-tables"),
]
