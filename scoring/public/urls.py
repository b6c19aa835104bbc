from django.urls import path

from . import views

app_name = "public"

urlpatterns = [
    path("<slug:slug>/", views.tournament_page, name="tournament"),
    path("<slug:slug>/tables/", views.tables_page, name="tables"),
    path("<slug:slug>/tables/<int:number>/", views.table_page, name="table"),
    path("<slug:slug>/players/<int:player_id>/", views.player_page, name="player"),
    path("<slug:slug>/screen", views.screen_page, name="screen"),
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
    path("<slug:slug>/live/players/<int:player_id>", views.player_fragment,
         name="fragment-player"),
    path("<slug:slug>/live/screen/standings", views.screen_standings_fragment,
         name="fragment-screen-standings"),
    path("<slug:slug>/live/screen/tables", views.screen_tables_fragment,
         name="fragment-screen-tables"),
]
