from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import views
from config.ratelimit import RateLimitedLoginView
from desk import urls as desk_urls
from exchange import urls as exchange_urls
from public import views as public_views
from tournament.urls import banker_link_urlpatterns
from tournament.views.dashboard import landing

urlpatterns = [
    path("", public_views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # What is public and the players' rights, in German and English (linked from the footer).
    path("privacy/", TemplateView.as_view(template_name="privacy.html"), name="privacy"),
    path("login/", RateLimitedLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Where a login without ``next`` leads: each role to the page it works on.
    path("start/", landing, name="start"),
    # The one-time link a new staff account sets its password with (Django's reset token).
    path(
        "password/set/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            post_reset_login=True, success_url="/start/"
        ),
        name="password_set",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    # The organizer's pages send a logged-out visitor to admin:login (staff_member_required);
    # the site has its own login (rate-limited, in the site's look), so Django admin's is only
    # a way there. ``next`` is kept by the query string.
    path("admin/login/", views.login_redirect, name="admin-login-redirect"),
    path("admin/", admin.site.urls),
    path("favicon.ico", views.favicon, name="favicon"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("public.api_urls")),
    path("api/v1/", include("exchange.api_urls")),
    path("api/v1/", include("tournament.api_urls")),
    path("api/v1/", include("referee.api_urls")),
    # The round desk and the tournament documents share the desk's namespace (round_desk:…).
    path("manage/", include(([*desk_urls.urlpatterns, *exchange_urls.urlpatterns], "round_desk"))),
    path("manage/", include("printing.urls")),
    path("manage/", include("tournament.urls")),
    path("banker/", include("referee.urls")),
    path("t/", include("public.urls")),
    # A player's own page, by the personal code on the player card (no login).
    path("p/", public_views.me_start, name="me-start"),
    path("p/<str:code>/", public_views.me_page, name="me"),
    path("p/<str:code>/live", public_views.me_fragment, name="me-live"),
    *banker_link_urlpatterns,
]

# Django's, made safe against a malformed POST body (see config.views).
handler404 = "config.views.page_not_found"
handler403 = "config.views.permission_denied"
