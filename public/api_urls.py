from django.urls import path

from public import api

urlpatterns = [
    path("tournaments/<slug:slug>/standings",
         api.answered_early(api.StandingsView.as_view()), name="standings"),
    path("tournaments/<slug:slug>/tables",
         api.answered_early(api.TableOverviewView.as_view()), name="tables"),
]
