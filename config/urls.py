from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from tournament.views.rounds import banker_link_urlpatterns

from . import views
from .ratelimit import RateLimitedLoginView

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("login/", RateLimitedLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("scoring.api_urls")),
    path("api/v1/", include("scoring.api_exchange")),
    path("api/v1/", include("tournament.api_urls")),
    path("api/v1/", include("referee.api_urls")),
    path("manage/", include("scoring.organizer_urls")),
    path("manage/", include("scoring.print_urls")),
    path("manage/", include("tournament.urls")),
    path("banker/", include("referee.urls")),
    path("t/", include("scoring.urls")),
    *banker_link_urlpatterns,
]

# Django's, made safe against a malformed POST body (see config.views).
handler404 = "config.views.page_not_found"
handler403 = "config.views.permission_denied"
