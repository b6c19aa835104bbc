"""Filters of the organizer's pages."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def email_break(address):
    """An e-mail address that may wrap before its ``@`` (``<wbr>``): a column of addresses as
    narrow as the longer half, not the whole (the sign-ups' table at 1280 px, issue of its
    waiting-list buttons cut at the right edge)."""
    if not address:
        return ""
    local, at, domain = str(address).partition("@")
    if not at:
        return address
    return format_html("{}<wbr>@{}", local, domain)
