"""The organizer's pages, one module per area; each module exports its ``urlpatterns``."""
