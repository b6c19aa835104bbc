"""The organizers' print pages under ``/manage/`` (namespace ``print``).

Mount in ``config/urls.py``: ``path("manage/", include("printing.urls"))``. Every path
here has ``print`` as its second segment, which no other ``/manage/<slug>/…`` page uses.
"""

from django.urls import path, register_converter

from printing import views as print_views

app_name = "print"


class JobConverter:
    regex = "[0-9a-f]{32}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(JobConverter, "printjob")

urlpatterns = [
    path("<slug:slug>/print/", print_views.print_index, name="index"),
    path("<slug:slug>/print/<int:number>/", print_views.print_round, name="round"),
    path("<slug:slug>/print/<int:number>/<slug:document>.pdf", print_views.print_download,
         name="download"),
    path("<slug:slug>/print/<int:number>/<slug:document>/job/", print_views.print_start,
         name="start"),
    path("<slug:slug>/print/jobs/<printjob:job>/", print_views.print_job, name="job"),
    path("<slug:slug>/print/jobs/<printjob:job>/progress", print_views.print_job,
         {"fragment": True}, name="progress"),
    path("<slug:slug>/print/jobs/<printjob:job>/file", print_views.print_file, name="file"),
    # One player's card at check-in (the desk may print it: CHECK_IN).
    path("<slug:slug>/print/players/<int:pk>/card.pdf", print_views.player_card,
         name="player-card"),
]
