"""The names keypeg's strategies, options and objectives go by: plain data, importable
without numpy or numba, so the command line can describe them (``keypeg --help``) at once.
"""

from __future__ import annotations

#: Registry order: the order of tables and hints.
STRATEGY_NAMES = ("consistent", "random", "maxsize", "expsize", "entropy", "parts", "optimal",
                  "genetic")
#: The one-step strategies (cheap to ask for a hint at any time).
ONE_STEP_NAMES = STRATEGY_NAMES[:6]
#: The five strategies of the published tables.
TABLE_STRATEGIES = ("consistent", "maxsize", "expsize", "entropy", "parts")
#: Other names people use for the strategies.
ALIASES = {
    "knuth": "maxsize",
    "minimax": "maxsize",
    "irving": "expsize",
    "neuwirth": "entropy",
    "kooi": "parts",
    "most-parts": "parts",
    "random-consistent": "random",
    "lexical": "consistent",
    "ga": "genetic",
    "berghman": "genetic",
}
#: What the strategies are known as, after who described them.
KNOWN_AS = {
    "maxsize": "Knuth's minimax",
    "expsize": "Irving's expected size",
    "entropy": "Neuwirth's entropy",
    "parts": "Kooi's most parts",
    "genetic": "Berghman, Goossens and Leus's genetic algorithm",
}


def strategy_label(name: str) -> str:
    """Return a strategy's name with what it is known as: 'maxsize (Knuth's minimax)'
    (`--opponent knuth` was described as 'maxsize' alone)."""
    return f"{name} ({KNOWN_AS[name]})" if name in KNOWN_AS else name


#: How entropy can be compared: exactly, or in one of seed 000's floating-point spellings.
ENTROPY_SPELLING_NAMES = ("exact", "nlog2n", "plog2p", "plnp", "plog2p-float32")
#: Tie rules after "could be the secret": the lexically first or last probe.
TIE_RULES = ("first", "last")
#: What the optimal search minimises: total guesses, or the worst case first.
OBJECTIVES = ("total", "worst")
#: Formats `keypeg tree export` writes (treeformats.py): keypeg's JSON, Graphviz source, an
#: SVG picture, Irving-style text, the text view, and arfst23's punch-card and YAML files.
TREE_EXPORT_FORMATS = ("json", "dot", "svg", "irving", "text", "arfst", "arfst-yaml")
#: Formats `keypeg tree import` and `verify` read ("arfst": punch card or YAML, either).
TREE_IMPORT_FORMATS = ("auto", "json", "irving", "arfst")
