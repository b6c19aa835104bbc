from rest_framework.routers import SimpleRouter

from . import api, api_rounds

router = SimpleRouter(trailing_slash="/?")
api.register(router)
api_rounds.register(router)

urlpatterns = router.urls
