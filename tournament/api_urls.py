from rest_framework.routers import SimpleRouter

from tournament import api
from tournament.rounds import api as api_rounds
from tournament.rounds import api_tables

router = SimpleRouter(trailing_slash="/?")
api.register(router)
api_rounds.register(router)
api_tables.register(router)

urlpatterns = router.urls
