from .views import alternates, dashboard, incidents, players, staff, tournaments
from .views import rounds as rounds_views

app_name = "organizer"

# tournaments first: /manage/new/ must win over /manage/<slug>/.
urlpatterns = [*tournaments.urlpatterns, *players.urlpatterns, *dashboard.urlpatterns]
urlpatterns += rounds_views.urlpatterns
urlpatterns += staff.urlpatterns
urlpatterns += incidents.urlpatterns
urlpatterns += alternates.urlpatterns
