"""The pages of tournament documents under ``/manage/``: import (with its job's progress) and
export. ``config/urls.py`` mounts them in the round desk's namespace (``round_desk:import``,
``round_desk:export``), where the organizers find them; no path here can be taken by
``tournament.urls``: the import page lives at ``/manage/tournaments/import/`` and no slug page
is called ``import``."""

from django.urls import path

from exchange import views

urlpatterns = [
    path("tournaments/import/", views.import_upload, name="import"),
    path("tournaments/import/jobs/<str:job_id>/", views.import_job, name="import-job"),
    path("tournaments/import/jobs/<str:job_id>/progress", views.import_job,
         {"fragment": True}, name="import-job-progress"),
    path("<slug:slug>/export/", views.export_download, name="export"),
]
