"""Fuzzing `keypeg solve` (hypothesis): whatever the arguments, the command answers with
codes (exit 0), a contradiction (exit 1) or one sentence on stderr (exit 2); never a
traceback, never a long echo of the input."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from keypeg.cli import app
from keypeg.rules import PRESETS

runner = CliRunner()

MARKS = "GAY-._X"
texts = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="0123456789RGBYOPWKC_. ,", max_size=14),
    st.text(alphabet="０１２３４５６７８９ＢＷ", max_size=8),
    st.integers(-10**6, 10**30).map(str),
    st.just("1" * 5000),
)
feedbacks = st.one_of(
    st.text(max_size=8),
    st.builds(lambda b, w: f"{b}B{w}W", st.integers(-3, 12), st.integers(-3, 12)),
    st.text(alphabet=MARKS, min_size=1, max_size=7),
    st.just("9" * 5000 + "B"),
)
clues = st.one_of(
    st.builds(lambda g, f: f"{g}={f}", texts, feedbacks),
    texts,
    st.builds(lambda g, f: f"{g}={f}", st.sampled_from(["1122", "01234", "1234", "012"]),
              st.sampled_from(["1B1W", "0B0W", "4B0W", "GA--A", "GGGGG", "-----", "2B"])),
)
# (the presets of up to 200,000 codes: bigger ones are valid but slow to enumerate)
preset_names = st.sampled_from([p.name for p in PRESETS if p.rules.size <= 200_000]
                               + ["", "chess", "cb9", " classic "])


@st.composite
def rules_options(draw: st.DrawFn) -> list[str]:
    if draw(st.booleans()):
        return ["--rules", draw(preset_names)]
    pegs = draw(st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 13, 99]))
    colors = draw(st.sampled_from([-1, 0, 1, 2, 3, 4, 6, 10, 36, 37, 1000]))
    flags = draw(st.lists(st.sampled_from(["--no-repeats", "--positional", "--blanks",
                                            "--digits"]), unique=True))
    symbols = colors + ("--blanks" in flags)
    if 1 <= pegs <= 12 and symbols >= 1:
        size = symbols**pegs if "--no-repeats" not in flags else (
            math.perm(symbols, pegs) if symbols >= pegs else 0)
        assume(size <= 200_000)  # bigger spaces are valid but slow to enumerate
    return ["--pegs", str(pegs), "--colors", str(colors), *flags]


GAMES = [
    (["--rules", "classic"], "classic"),
    (["--rules", "bulls"], "bulls-and-cows"),
    (["--rules", "cb1"], "codebreaker-1"),
    (["--pegs", "3", "--colors", "4"], None),
    (["--pegs", "3", "--colors", "3", "--positional", "--blanks"], None),
]


@st.composite
def game_clues(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Options of a valid game and clues in it: true answers about one secret, answers
    about other secrets (contradictions), copies (long histories) and some junk."""
    from keypeg.feedback import score
    from keypeg.rules import Rules, find_rules
    from keypeg.space import get_space

    options, name = draw(st.sampled_from(GAMES))
    if name is not None:
        rules = find_rules(name)
    else:
        pegs, colors = int(options[1]), int(options[3])
        rules = Rules(pegs=pegs, colors=colors, feedback="positional"
                      if "--positional" in options else "blackwhite",
                      blanks="--blanks" in options)
    space = get_space(rules)
    index = st.integers(0, space.size - 1)
    secret = space.code(draw(index))
    out: list[str] = []
    for _ in range(draw(st.integers(1, 12))):
        guess = space.code(draw(index))
        other = space.code(draw(index)) if draw(st.integers(0, 5)) == 0 else secret
        clue = f"{guess}={score(other.symbols, guess.symbols, rules)}"
        out += [clue] * draw(st.sampled_from([1, 1, 1, 2, 40, 70]))
    if draw(st.booleans()):
        out.insert(draw(st.integers(0, len(out))), draw(clues))
    return options, out


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(game_clues(), st.booleans())
def test_solve_in_valid_games_never_fails_with_a_traceback(game, as_json):
    options, clue_list = game
    args = ["solve", *options, *(["--json"] if as_json else []), "--", *clue_list]
    check(runner.invoke(app, args), args)


def check(result, args):
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args, result.exception)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2)
    if result.exit_code:
        assert result.stderr.startswith("error: ")
        assert result.stderr.count("\n") <= 2 and len(result.stderr) < 2000


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules_options(), st.lists(clues, min_size=1, max_size=70), st.booleans(),
       st.sampled_from([[], ["--max-guesses", "0"], ["--max-guesses", "3"]]))
def test_solve_never_fails_with_a_traceback(rules, clue_list, as_json, extra):
    args = ["solve", *rules, *extra, *(["--json"] if as_json else []), "--", *clue_list]
    check(runner.invoke(app, args), args)
