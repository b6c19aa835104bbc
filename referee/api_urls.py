from django.urls import path

from referee import api

urlpatterns = [
    path("tables/<int:table_id>/events", api.TableEventsView.as_view(), name="table-events"),
    path("tables/<int:table_id>/state", api.TableStateView.as_view(), name="table-state"),
    path("tables/<int:table_id>/record", api.TableRecordView.as_view(), name="table-record"),
]
