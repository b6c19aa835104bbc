"""The round desk's pages under ``/manage/`` (namespace ``round_desk``).

Mounted by ``config/urls.py`` under ``/manage/``, together with ``exchange.urls``' pages
(import, export) in the same namespace. No path here can be taken by ``tournament.urls``
(``/manage/<slug>/…``).
"""

from django.urls import path

from desk import (
    paper,
    round_edits,
    rulings,
    screens,
)
from desk import views as organizer

urlpatterns = [
    path("<slug:slug>/desk/", organizer.desk_page, name="desk"),
    path("<slug:slug>/desk/live/", organizer.desk_page, {"fragment": True}, name="desk-live"),
    # Hall screens: what each one shows, chosen here and followed by the screen.
    path("<slug:slug>/screens/", screens.screens_page, name="screens"),
    path("<slug:slug>/screens/<int:screen_id>/mode/", screens.screen_mode, name="screen-mode"),
    path("<slug:slug>/screens/<int:screen_id>/remove/", screens.screen_remove, name="screen-remove"),
    path("<slug:slug>/rounds/<int:number>/close/", organizer.close_round, name="close-round"),
    path("<slug:slug>/final/seat/", organizer.seat_final, name="seat-final"),
    # A round none of whose games has begun: seat it again (a final from its qualifiers) or
    # delete it; each asks first.
    path("<slug:slug>/rounds/<int:number>/reseat/", round_edits.reseat_round, name="reseat-round"),
    path("<slug:slug>/rounds/<int:number>/delete/", round_edits.delete_round, name="delete-round"),
    path("<slug:slug>/results/<int:game_id>/resolve/", organizer.resolve_result, name="resolve"),
    path("<slug:slug>/results/<int:game_id>/", rulings.result_page, name="result"),
    path("<slug:slug>/results/<int:game_id>/reopen/", rulings.reopen, name="reopen"),
    path("<slug:slug>/verify/", rulings.verify_page, name="verify"),
    path("<slug:slug>/games/<int:game_id>/extra-time/", rulings.extra_time, name="extra-time"),
    path("<slug:slug>/rounds/<int:number>/delay/", rulings.delay_round, name="delay-round"),
    path("<slug:slug>/rounds/<int:number>/reopen/", organizer.reopen_round, name="reopen-round"),
    path("<slug:slug>/rounds/<int:number>/referee-move/", rulings.move_player, name="move-player"),
    path("<slug:slug>/rounds/<int:number>/referee-swap/", rulings.swap_players,
         name="swap-players"),
    path("<slug:slug>/rounds/<int:number>/tables/<int:table_number>/paper/", paper.paper_result,
         name="paper"),
    path("<slug:slug>/results/<int:game_id>/code/", paper.confirm_with_code, name="confirm-code"),
]
