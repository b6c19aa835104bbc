"""The API of tournament documents (mounted at ``/api/v1/``)."""

from django.urls import path

from exchange import api

urlpatterns = [
    path("tournaments/import/jobs/<str:job_id>", api.ImportJobView.as_view(),
         name="tournament-import-job"),
    path("tournaments/import", api.ImportView.as_view(), name="tournament-import"),
    path("tournaments/<slug:slug>/export", api.ExportView.as_view(), name="tournament-export"),
]
