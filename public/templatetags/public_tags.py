"""Filters of the public pages: sums of money and game clocks in the active language."""

from __future__ import annotations

from django import template

from referee.feed import amount, format_clock
from referee.feed import ordinal as feed_ordinal

register = template.Library()


@register.filter
def ordinal(value):
    """A place as an ordinal in the active language: 1st / 1. (German)."""
    return feed_ordinal(value)


@register.filter
def money(value):
    """1.500 (German) / 1,500 (English); empty for None."""
    if value is None or value == "":
        return ""
    return amount(value)


@register.filter
def clock(seconds):
    """Game time as minutes:seconds."""
    return format_clock(seconds)
