"""Filters of the public pages: sums of money and game clocks in the active language."""

from __future__ import annotations

from django import template

from referee.feed import amount, format_clock, ordinal

register = template.Library()
register.filter("ordinal", ordinal)  # a place in the active language: 1st / 1. (German)


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
