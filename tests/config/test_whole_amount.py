"""One reading of a typed amount for every form that takes one (the paper sheet, an amended
count): German and English thousands marks, spaces, nothing typed."""

from __future__ import annotations

import pytest

from config.inputs import whole_amount


@pytest.mark.parametrize(("typed", "amount"), [
    ("1.900", 1900), ("1,900", 1900), ("1 900", 1900), ("1\u202f900", 1900), (" 250 ", 250),
    (1660, 1660), ("", None), (None, None), ("-90", -90),
])
def test_typed_amounts(typed, amount):
    assert whole_amount(typed) == amount


@pytest.mark.parametrize("typed", ["x", "12a", True])
def test_what_is_no_whole_number_is_refused(typed):
    with pytest.raises(ValueError):
        whole_amount(typed)
