"""A server process keeps the loaded site out of the collector's sweeps (issue 29: the
collector took ~4 % of a banker's post with Python's defaults): the WSGI and ASGI entry points
freeze what the start loaded, every view module included, and collect less often."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.settle import THRESHOLDS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_the_entry_point_freezes_the_loaded_site(entry):
    probe = (
        "import gc, json, sys;"
        f"import {entry};"
        "print(json.dumps({'frozen': gc.get_freeze_count(), 'thresholds': gc.get_threshold(),"
        " 'views': 'referee.api' in sys.modules, 'works': callable(" + entry + ".application)}))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True, timeout=120)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["frozen"] > 10_000
    assert tuple(result["thresholds"]) == THRESHOLDS
    assert result["views"]  # loaded before the freeze, not by the first request
    assert result["works"]
