import json
import random

import pytest
from typer.testing import CliRunner

from keypeg.cli import app
from keypeg.rules import find_rules
from keypeg.space import get_space

runner = CliRunner()
LOCK = ["--pegs", "3", "--colors", "10", "--digits"]
LOCK_CLUES = ["682=1B0W", "614=0B1W", "206=0B2W", "738=0B0W", "380=0B1W"]


def run(args, input=None):
    result = runner.invoke(app, args, input=input)
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                      SystemExit)
    return result


def test_solve_lists_codes():
    result = run(["solve", *LOCK, *LOCK_CLUES])
    assert result.exit_code == 0
    assert "1 code fits" in result.stdout and "042" in result.stdout


def test_solve_json():
    result = run(["solve", "--rules", "cb4", "00000=GG---", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["count"] == 729 and len(data["codes"]) == 729 and data["codes"][0] == "00111"


def test_solve_limits_listing():
    result = run(["solve", "1122=0B0W"])
    assert result.exit_code == 0
    assert "256" in result.stdout and "and 206 more" in result.stdout


def test_solve_contradiction_exit_1():
    result = run(["solve", *LOCK, *LOCK_CLUES, "042=0B0W"])
    assert result.exit_code == 1
    assert "clue 6 (042=0B0W)" in result.stderr


@pytest.mark.parametrize("args,message", [
    (["solve", "1122=4B1W"], "5 key pegs"),
    (["solve", "1172=1B0W"], "unknown symbol '7'"),
    (["solve", "112=1B0W"], "has 3 symbols"),
    (["solve", "1122"], "GUESS=FEEDBACK"),
    (["solve", "--rules", "chess", "1122=1B0W"], "unknown rules 'chess'"),
    (["solve", "--rules", "classic", "--pegs", "5", "1122=1B0W"], "not both"),
    (["solve", "--pegs", "5", "--colors", "4", "--no-repeats", "12=1B0W"], "at least as many"),
    (["solve", "--pegs", "0", "1=1B0W"], "pegs must be"),
    (["solve", "--rules", "cb1", "11234=GGGGG"], "repeats '1'"),
    (["solve", "--rules", "cb1", "01234=GGGGA"], "cannot happen"),
    (["play", "--rules", "nope"], "unknown rules"),
    (["assist", "--max-guesses", "0"], "at least 1"),
])
def test_bad_input_is_one_sentence_exit_2(args, message):
    result = run(args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") <= 2


def secret_for(seed, name="classic"):
    space = get_space(find_rules(name))
    return space.text(random.Random(seed).randrange(space.size))


def test_play_to_a_win():
    secret = secret_for(5)
    result = run(["play", "--seed", "5"], input=f"1122\nhint\nxyz\n{secret}\n")
    assert result.exit_code == 0
    assert "still possible" in result.stdout
    assert "consistent" in result.stdout  # the hint table
    assert "unknown symbol" in result.stdout  # bad guesses are explained, the game goes on
    assert "Solved in 2 guesses" in result.stdout


def test_play_give_up_and_limit():
    secret = secret_for(9)
    result = run(["play", "--seed", "9"], input="give up\n")
    assert f"The secret was {secret}" in result.stdout
    wrong = "1111" if secret != "1111" else "2222"
    result = run(["play", "--seed", "9", "--max-guesses", "2"], input=f"{wrong}\n{wrong}\n")
    assert "Out of guesses" in result.stdout and secret in result.stdout


def test_play_positional():
    secret = secret_for(1, "cb1")
    result = run(["play", "--rules", "cb1", "--seed", "1"], input=f"01234\n{secret}\n")
    assert "Solved in 2 guesses" in result.stdout or secret == "01234"


def test_assist_follows_and_repairs():
    lines = "\n".join(["1122 0B0W", "3456=1B1W", "list", "3456 4B0W", "drop 3", "history",
                       "quit"]) + "\n"
    result = run(["assist"], input=lines)
    assert result.exit_code == 0
    assert "256 codes still possible" in result.stdout
    assert "3334 3335" in result.stdout  # list
    assert "Contradiction" in result.stdout and "clue 3 (3456=4B0W)" in result.stdout
    after_history = result.stdout.split("to repair the clues.")[-1]
    assert "2. 3456  1B1W" in after_history and "3. 3456" not in after_history


def test_assist_prompts_to_correct_the_single_suspect():
    lines = "\n".join([*(c.replace("=", " ") for c in LOCK_CLUES), "042 0B0W", "7", "3B0W",
                       "quit"]) + "\n"
    result = run(["assist", *LOCK], input=lines)
    assert "Contradiction" in result.stdout
    assert "Correct clue 6 (042=0B0W)" in result.stdout
    assert "cannot read feedback '7'" in result.stdout  # a bad answer is asked again
    assert "Solved!" in result.stdout


def test_assist_bad_entries_do_not_end_the_session():
    lines = "\n".join(["1122", "fix 9 1B0W", "1122 9B", "undo", "quit"]) + "\n"
    result = run(["assist"], input=lines)
    assert result.exit_code == 0
    assert "is not a clue" in result.stdout
    assert "there are no clues yet" in result.stdout
    assert "key pegs" in result.stdout


def test_python_dash_m(tmp_path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "keypeg", "solve", *LOCK, *LOCK_CLUES, "--json"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == {"count": 1, "codes": ["042"]}


def test_evaluate_json_all():
    result = run(["evaluate", "--json"])
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert [r["strategy"] for r in rows] == ["consistent", "maxsize", "expsize", "entropy",
                                             "parts"]
    assert {k for k in rows[0]} >= {"strategy", "first_guess", "total", "mean", "worst",
                                    "histogram"}
    assert [r["total"] for r in rows] == [7471, 5801, 5696, 5722, 5668]


def test_evaluate_options_and_table():
    result = run(["evaluate", "-s", "entropy", "--entropy", "plnp", "--json"])
    assert json.loads(result.stdout)[0]["total"] == 5723
    result = run(["evaluate", "-s", "maxsize", "--possible-only", "--json"])
    assert json.loads(result.stdout)[0]["total"] == 5828
    result = run(["evaluate", "-s", "consistent", "--first", "3456"])
    assert result.exit_code == 0 and "6,045" in result.stdout and "3456" in result.stdout


def test_evaluate_save_tree(tmp_path):
    path = tmp_path / "{strategy}.json"
    result = run(["evaluate", "--save-tree", str(path)])
    assert result.exit_code == 0
    from keypeg.tree import DecisionTree

    assert DecisionTree.load(tmp_path / "parts.json").total == 5668
    result = run(["evaluate", "--save-tree", str(tmp_path / "one.json")])
    assert result.exit_code == 2 and "{strategy}" in result.stderr


@pytest.mark.parametrize("args,message", [
    (["evaluate", "-s", "chess"], "unknown strategy"),
    (["evaluate", "--tie", "middle"], "tie rule"),
    (["evaluate", "-s", "parts", "--entropy", "plnp"], "only to the entropy"),
    (["evaluate", "--first", "7777"], "unknown symbol"),
    (["evaluate", "--entropy", "float16"], "entropy spelling"),
])
def test_evaluate_bad_input(args, message):
    result = run(args)
    assert result.exit_code == 2 and message in result.stderr


@pytest.mark.parametrize("args,message", [
    (["solve", "--pegs", "abc", "1=1B"], "Invalid value for '--pegs'"),
    (["solve"], "Missing argument"),
    (["bogus"], "No such command 'bogus'"),
])
def test_usage_errors_through_the_console_script(args, message):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "keypeg", *args], capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.startswith("error: ") and message in out.stderr
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1


def test_cut_command_in_play_and_assist():
    result = run(["play", "--seed", "1"], input="cut 1122\ncut\nquit\n")
    assert "1122 cuts 1,296 codes into 13 parts, the largest 256" in result.stdout
    assert "like 'cut 1122'" in result.stdout
    result = run(["assist"], input="1122 0B0W\ncut 3456\nhint\nquit\n")
    assert "3456 cuts 256 codes into 12 parts, the largest 60" in result.stdout
    assert "maxsize" in result.stdout and "3345" in result.stdout


def test_optimal_json_and_store():
    result = run(["optimal", "--pegs", "3", "--colors", "4", "--json", "--recompute"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert {"total", "mean", "worst", "histogram", "first_guess", "seconds", "nodes"} <= set(data)
    assert data["total"] == 206 and data["first_guess"] == "112" and not data["cached"]
    again = json.loads(run(["optimal", "--pegs", "3", "--colors", "4", "--json"]).stdout)
    assert again["cached"] and again["total"] == 206


def test_optimal_classic_is_shipped_and_capped():
    data = json.loads(run(["optimal", "--json"]).stdout)
    assert data["total"] == 5625 and data["histogram"] == [1, 8, 102, 630, 548, 7]
    data = json.loads(run(["optimal", "--max-guesses", "5", "--json"]).stdout)
    assert data["total"] == 5626 and data["worst"] == 5
    result = run(["optimal", "--objective", "worst", "--rules", "mini"])
    assert result.exit_code == 0 and "worst case first" in result.stdout


def test_optimal_trace_and_save(tmp_path):
    result = run(["optimal", "--pegs", "3", "--colors", "4", "--trace", "--save",
                  str(tmp_path / "t.json")])
    assert "----- 123" in result.stdout and "112 = 206" in result.stdout
    from keypeg.tree import DecisionTree

    assert DecisionTree.load(tmp_path / "t.json").total == 206


@pytest.mark.parametrize("args,message", [
    (["optimal", "--objective", "best"], "--objective"),
    (["optimal", "--first", "9999"], "unknown symbol"),
    (["optimal", "--pegs", "2", "--colors", "2", "--max-guesses", "2"], "no strategy"),
    (["optimal", "--rules", "bc", "--max-seconds", "0.5"], "did not finish"),
    (["evaluate", "-s", "optimal", "--first", "1123"], "keypeg optimal"),
])
def test_optimal_bad_input(args, message):
    result = run(args)
    assert result.exit_code == 2 and message in result.stderr


def test_evaluate_optimal():
    rows = json.loads(run(["evaluate", "-s", "optimal", "--json"]).stdout)
    assert rows[0]["total"] == 5625 and rows[0]["strategy"] == "optimal"


def test_ledger_small_cells(monkeypatch):
    import keypeg.cli.optimal as cli_optimal

    real = cli_optimal.run_ledger
    monkeypatch.setattr(cli_optimal, "run_ledger",
                        lambda **kw: real(max_codes=100, **kw))
    result = run(["ledger", "--json"])
    assert result.exit_code == 0
    cells = json.loads(result.stdout)
    assert all(c["status"] == "ok" for c in cells) and len(cells) == 16
    result = run(["ledger"])
    assert "16 cells agree, 0 disagree" in result.stdout


@pytest.mark.parametrize("args,message", [
    (["serve", "--workers", "0"], "--workers must be at least 1"),
    (["serve", "--port", "70000"], "--port must be from 1 to 65535"),
])
def test_serve_bad_input(args, message):
    result = run(args)
    assert result.exit_code == 2 and message in result.stderr
