from django.urls import path

from referee import views
from referee.console import views as console

app_name = "banker"

urlpatterns = [
    path("", views.my_tables, name="tables"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("table/<int:table_id>/", views.table_console, name="table"),
    path("table/<int:table_id>/main/", console.main, name="console-main"),
    path("table/<int:table_id>/check/", console.check, name="console-check"),
    path("table/<int:table_id>/count/", console.count, name="console-count"),
    path("table/<int:table_id>/confirm/", console.confirm, name="console-confirm"),
    path("table/<int:table_id>/dispute/", console.dispute, name="console-dispute"),
    path("table/<int:table_id>/reopen-count/", console.reopen_count, name="console-reopen-count"),
]
