from django.urls import path

from public import api

urlpatterns = [
    path("tournaments/<slug:slug>/standings", api.StandingsView.as_view(), name="standings"),
    path("tournaments/<slug:slug>/tables", api.TableOverviewView.as_view(), name="tables"),
]
