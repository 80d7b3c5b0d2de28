"""The noise study's command line: arguments refused in one sentence, progress on stderr."""

from __future__ import annotations

import re

import pytest

from keypeg import noise_study
from keypeg.errors import KeypegError
from keypeg.rules import Rules


@pytest.mark.parametrize("argv,message", [
    (["MM(2,3)", "abc"], "GAMES must be a whole number >= 1, like 1000, not 'abc'."),
    (["MM(2,3)", "0"], "GAMES must be a whole number >= 1, like 1000, not '0'."),
    (["MM(2,3)", "-5"], "GAMES must be a whole number >= 1, like 1000, not '-5'."),
    (["MM(2,3)", "1.5"], "GAMES must be a whole number >= 1, like 1000, not '1.5'."),
    (["nonsense", "5"], "unknown rules 'nonsense'"),
    (["MM(2,3)", "5", "6"], "takes at most RULES and GAMES"),
    (["MM(2,3)", "5", "--eps", "0,1"], "--eps takes noise levels from 0 to below 1"),
    (["MM(2,3)", "5", "--eps=abc"], "--eps takes noise levels"),
    (["MM(2,3)", "5", "--seed", "-1"], "--seed must be a whole number from 0"),
    (["MM(2,3)", "5", "--eps"], "argument --eps: expected one argument"),
    (["MM(2,3)", "5", "--players"], "unknown option '--players'"),
])
def test_bad_arguments_are_one_sentence_and_exit_2(argv, message, capsys):
    """'abc' was a ValueError traceback, 0 a ZeroDivisionError, -5 a numpy error and an
    unknown rules name an UnknownRulesError traceback."""
    assert noise_study.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("games", [0, -5, 2.0, True])
def test_the_library_refuses_a_bad_number_of_games(games):
    with pytest.raises(KeypegError, match="number of games must be a whole number >= 1"):
        noise_study.noise_study(Rules(pegs=2, colors=3), games)


def test_progress_goes_to_stderr_and_stdout_keeps_its_format(capsys, monkeypatch):
    """A study of classic 20 ran 13 s without a word."""
    monkeypatch.setattr(noise_study, "PROGRESS_EVERY", (0.0, 0.0))
    assert noise_study.main(["MM(2,3)", "2"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert re.fullmatch(r"MM\(2,3\): 2 secrets, 10 rows \(the rules have no board: 10 "
                        r"taken\), [0-9.]+ s", lines[0])
    assert len(lines) == 1 + 4 * 3
    assert all(re.fullmatch(r"  eps [0-9.]+ +\S+ +solved +[0-9.]+%  mean of solved [0-9.]+",
                            line) for line in lines[1:])
    progress = err.splitlines()
    assert progress[-1] == "noise study: 24 of 24 games played (100%)"
    assert all(line.startswith("noise study: ") for line in progress)


def test_eps_and_seed_choose_the_levels_and_the_secrets(capsys):
    """The study had no way to choose its noise levels or its seed (review)."""
    assert noise_study.main(["MM(2,3)", "3", "--eps", "0.2,0.3", "--seed=7"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert [line.split()[1] for line in lines] == ["0.2"] * 3 + ["0.3"] * 3
    mine = noise_study.noise_study(Rules(pegs=2, colors=3), 3, eps_values=(0.2, 0.3), seed=7)
    assert [f"{r['eps']:g} {r['player']} {r['solved']}" for r in mine["results"]] == [
        " ".join(line.split()[1:3]) + f" {round(float(line.split()[4][:-1]) * 3 / 100)}"
        for line in lines]


def test_progress_reports_every_game_to_the_callback():
    seen: list[tuple[int, int]] = []
    noise_study.noise_study(Rules(pegs=2, colors=3), 2, eps_values=(0.0,),
                            progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 6) for i in range(1, 7)]


def test_help_prints_the_usage():
    # (it was "unknown rules '--help'")
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "keypeg.noise_study", "--help"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("usage: python -m keypeg.noise_study")


def test_each_noise_level_is_printed_as_given(capsys):
    """0.005 and 0.01 were both printed 'eps 0.01' (two decimals): six rows, two levels,
    and nothing told which was which."""
    assert noise_study.main(["MM(2,3)", "2", "--eps", "0.005,0.01"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert [line.split()[1] for line in lines] == ["0.005"] * 3 + ["0.01"] * 3


def test_json_gives_the_rows_a_study_exports(capsys):
    """A researcher had to parse the printed table: --json prints the rows."""
    import json

    assert noise_study.main(["MM(2,3)", "3", "--eps", "0.2", "--seed=7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    mine = noise_study.noise_study(Rules(pegs=2, colors=3), 3, eps_values=(0.2,), seed=7)
    assert data["results"] == mine["results"] and data["rules"] == "MM(2,3)"
