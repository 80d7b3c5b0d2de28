"""The numbers published in the source documents, from `data/published.json`.

>>> published()["optimal"]["classic"]["total"]
5625
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def published() -> dict[str, Any]:
    """Return the published numbers (the seeds' tables) as nested dicts."""
    text = resources.files("keypeg").joinpath("data/published.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data
