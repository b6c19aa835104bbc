"""Issue 26 (13): ``make serve`` without a terminal prints the organizer's one-time link at the
first start only; a later start says how to get a new one (``python -m laptop organizer_link``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rehearsal.laptop import Serve
from rehearsal.stack import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_set_password_link_is_printed_at_the_first_start_only(tmp_path):
    outputs = []
    for _start in range(2):
        serve = Serve(ROOT, tmp_path / "data", free_port(), workers=1)
        try:
            serve.wait_for("Stop with Ctrl-C")
        finally:
            serve.stop()
        outputs.append("".join(serve.lines))
    assert "/password/set/" in outputs[0]
    assert "/password/set/" not in outputs[1]
    assert "python -m laptop organizer_link organizer" in outputs[1]
