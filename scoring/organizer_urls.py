"""The round desk's pages under ``/manage/`` (namespace ``round_desk``).

Mount in ``config/urls.py``: ``path("manage/", include("scoring.organizer_urls"))``. No path
here can be taken by ``tournament.urls`` (``/manage/<slug>/…``): the import page lives at
``/manage/tournaments/import/`` and no slug page is called ``import``.
"""

from django.urls import path

from . import organizer

app_name = "round_desk"

urlpatterns = [
    path("tournaments/import/", organizer.import_upload, name="import"),
    path("<slug:slug>/desk/", organizer.desk_page, name="desk"),
    path("<slug:slug>/desk/live/", organizer.desk_live, name="desk-live"),
    path("<slug:slug>/rounds/<int:number>/close/", organizer.close_round, name="close-round"),
    path("<slug:slug>/final/seat/", organizer.seat_final, name="seat-final"),
    path("<slug:slug>/results/<int:game_id>/resolve/", organizer.resolve_result, name="resolve"),
    path("<slug:slug>/export/", organizer.export_download, name="export"),
]
