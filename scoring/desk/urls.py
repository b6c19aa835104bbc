"""The round desk's pages under ``/manage/`` (namespace ``round_desk``).

Mount in ``config/urls.py``: ``path("manage/", include("scoring.desk.urls"))``. No path
here can be taken by ``tournament.urls`` (``/manage/<slug>/…``): the import page lives at
``/manage/tournaments/import/`` and no slug page is called ``import``.
"""

from django.urls import path

from scoring.exchange import views as exchange_views

from . import paper, rulings, screens
from . import views as organizer

app_name = "round_desk"

urlpatterns = [
    path("tournaments/import/", exchange_views.import_upload, name="import"),
    path("tournaments/import/jobs/<str:job_id>/", exchange_views.import_job, name="import-job"),
    path("tournaments/import/jobs/<str:job_id>/progress", exchange_views.import_job,
         {"fragment": True}, name="import-job-progress"),
    path("<slug:slug>/desk/", organizer.desk_page, name="desk"),
    path("<slug:slug>/desk/live/", organizer.desk_page, {"fragment": True}, name="desk-live"),
    # Hall screens: what each one shows, chosen here and followed by the screen.
    path("<slug:slug>/screens/", screens.screens_page, name="screens"),
    path("<slug:slug>/screens/<int:screen_id>/mode/", screens.screen_mode, name="screen-mode"),
    path("<slug:slug>/screens/<int:screen_id>/remove/", screens.screen_remove, name="screen-remove"),
    path("<slug:slug>/rounds/<int:number>/close/", organizer.close_round, name="close-round"),
    path("<slug:slug>/final/seat/", organizer.seat_final, name="seat-final"),
    path("<slug:slug>/results/<int:game_id>/resolve/", organizer.resolve_result, name="resolve"),
    path("<slug:slug>/results/<int:game_id>/", rulings.result_page, name="result"),
    path("<slug:slug>/results/<int:game_id>/reopen/", rulings.reopen, name="reopen"),
    path("<slug:slug>/games/<int:game_id>/extra-time/", rulings.extra_time, name="extra-time"),
    path("<slug:slug>/rounds/<int:number>/delay/", rulings.delay_round, name="delay-round"),
    path("<slug:slug>/rounds/<int:number>/reopen/", organizer.reopen_round, name="reopen-round"),
    path("<slug:slug>/rounds/<int:number>/referee-move/", rulings.move_player, name="move-player"),
    path("<slug:slug>/rounds/<int:number>/tables/<int:table_number>/paper/", paper.paper_result,
         name="paper"),
    path("<slug:slug>/results/<int:game_id>/code/", paper.confirm_with_code, name="confirm-code"),
    path("<slug:slug>/export/", exchange_views.export_download, name="export"),
]
