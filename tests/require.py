"""Skip on a developer machine without a service; fail in CI (CI=true) where it must exist."""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI requires it: {reason}", pytrace=False)
    pytest.skip(reason)
