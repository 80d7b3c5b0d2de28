"""The code in docs/*.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
BLOCKS = [(path.name, i, code)
          for path in sorted(DOCS.glob("*.md"))
          for i, code in enumerate(re.findall(r"```python\n(.*?)```", path.read_text(),
                                              flags=re.S))]


def test_the_docs_have_examples():
    assert any(name == "experiments.md" for name, _, _ in BLOCKS)


@pytest.mark.parametrize("name,index,code", BLOCKS,
                         ids=[f"{name}-{i}" for name, i, _ in BLOCKS])
def test_doc_block_runs(name, index, code, capsys):
    exec(compile(code, f"{name}[{index}]", "exec"), {})
