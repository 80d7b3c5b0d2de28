"""Test setup: a cache directory inside the checkout, so tables are built once per machine."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("KEYPEG_CACHE_DIR", str(ROOT / ".keypeg-cache"))
