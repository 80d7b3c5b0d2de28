import itertools
import json
import random
import re

import pytest
from typer.testing import CliRunner

from keypeg.cli import app
from keypeg.published import published
from keypeg.rules import find_rules
from keypeg.space import get_space
from tests import naive

runner = CliRunner()
PUB = published()
CLASSIC_TABLE = PUB["evaluate"]["classic"]
CLASSIC_CODES = naive.all_codes(4, 6)


def naive_count(clues):
    """How many classic codes fit `clues` ("1122=0B0W" texts), by the naive reference."""
    parsed = []
    for clue in clues:
        guess, fb = clue.split("=")
        parsed.append((tuple(int(x) - 1 for x in guess), (int(fb[0]), int(fb[2]))))
    return len(naive.naive_filter(CLASSIC_CODES, parsed, "blackwhite"))


def naive_cut(cands, guess):
    """(parts, largest part) when `guess` (a classic code text) cuts `cands`."""
    g = tuple(int(x) - 1 for x in guess)
    sizes: dict[tuple[int, ...], int] = {}
    for c in cands:
        key = naive.blackwhite(c, g)
        sizes[key] = sizes.get(key, 0) + 1
    return len(sizes), max(sizes.values())
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


def test_rules_written_mm_p_c_with_flags():
    result = run(["solve", "--rules", "MM(3,4) [no repeats]", "123=1B1W", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    fits = ["".join(c) for c in itertools.permutations("1234", 3)
            if naive.blackwhite(c, "123") == (1, 1)]
    assert len(fits) == 6 and sorted(data["codes"]) == fits

def test_solve_limits_listing():
    result = run(["solve", "1122=0B0W"])
    n = naive_count(["1122=0B0W"])
    assert result.exit_code == 0
    assert f"{n} codes fit" in result.stdout and f"and {n - 50} more" in result.stdout


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
    (["play", "--rules", "classic", "--noise", "lies:10"], "fewer lies than rows (at most 9)"),
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
    # bad guesses are explained, the game goes on ('xyz': no symbol of the rules at all)
    assert "'xyz' is not a code or a command" in result.stdout
    assert "Solved in 2 guesses" in result.stdout


def test_play_give_up_and_limit():
    secret = secret_for(9)
    result = run(["play", "--seed", "9"], input="give up\n")
    assert f"The secret was {secret}" in result.stdout
    wrong = [c for c in ("1111", "2222", "3333") if c != secret][:2]
    result = run(["play", "--seed", "9", "--max-guesses", "2"], input="\n".join(wrong) + "\n")
    assert "Out of guesses" in result.stdout and secret in result.stdout


def test_play_a_guess_played_again_uses_no_row():
    secret = secret_for(9)
    wrong = "1111" if secret != "1111" else "2222"
    result = run(["play", "--seed", "9", "--max-guesses", "2"],
                 input=f"{wrong}\n{wrong.lower()}\n{secret}\n")
    feedback = "{}B{}W".format(*naive.blackwhite(secret, wrong))
    assert (f"{wrong} was guess 1 ({feedback}) and would get the same answer again, so it "
            "uses no row") in result.stdout
    assert "Solved in 2 guesses" in result.stdout
    result = run(["play", "--seed", "9"], input="cut rgby\nquit\n")
    assert "1234 cuts 1,296 codes into" in result.stdout  # as the board writes it
    # with lies an answer asked again may differ: the row is used
    result = run(["play", "--seed", "9", "--noise", "lies:1"], input=f"{wrong}\n{wrong}\nquit\n")
    assert "was guess 1" not in result.stdout and f"2. {wrong}" in result.stdout


def test_play_positional():
    secret = secret_for(1, "cb1")
    assert secret != "01234"  # the seed is chosen so that the first guess does not win
    result = run(["play", "--rules", "cb1", "--seed", "1"], input=f"01234\n{secret}\n")
    assert "Solved in 2 guesses" in result.stdout


def test_assist_follows_and_repairs():
    lines = "\n".join(["1122 0B0W", "3456=1B1W", "list", "3456 4B0W", "drop 3", "history",
                       "quit"]) + "\n"
    result = run(["assist"], input=lines)
    assert result.exit_code == 0
    assert f"{naive_count(['1122=0B0W'])} codes still possible" in result.stdout
    assert "3334 3335" in result.stdout  # list
    assert "Contradiction" in result.stdout and "clue 3 (3456=4B0W)" in result.stdout
    after_history = result.stdout.split("to repair the clues.")[-1]
    assert "2. 3456  1B1W" in after_history and "3. 3456" not in after_history


def test_assist_records_clues_after_a_contradiction_and_names_it_in_a_line():
    lines = "\n".join(["1122 1B1W", "1122 0B0W", "3456 1B0W", "1234 1B0W", "fix 2 1B1W",
                       "history", "quit"]) + "\n"
    result = run(["assist"], input=lines)
    assert result.exit_code == 0
    assert result.stdout.count("Contradiction") == 1  # the repair is offered once
    for n in (3, 4):
        assert (f"Clue {n} recorded. The clues still contradict each other (clues 1 and 2 "
                "cannot all hold)") in result.stdout
    clues = ["1122=1B1W", "1122=1B1W", "3456=1B0W", "1234=1B0W"]  # nothing lost
    assert f"{naive_count(clues)} codes still possible" in result.stdout
    assert "4. 1234  1B0W" in result.stdout

def test_assist_prompts_to_correct_the_single_suspect():
    lines = "\n".join([*(c.replace("=", " ") for c in LOCK_CLUES), "042 0B0W", "7", "3B0W",
                       "quit"]) + "\n"
    result = run(["assist", *LOCK], input=lines)
    assert "Contradiction" in result.stdout
    assert "Correct clue 6 (042=0B0W)" in result.stdout
    assert "cannot read feedback '7'" in result.stdout  # a bad answer is asked again
    assert "Solved in 6 guesses: the secret is 042." in result.stdout


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
    assert [r["total"] for r in rows] == [CLASSIC_TABLE["all_probes"][r["strategy"]]["total"]
                                          for r in rows]
    assert [r["histogram"] for r in rows] == [
        CLASSIC_TABLE["all_probes"][r["strategy"]]["histogram"] for r in rows]


def test_evaluate_options_and_table():
    result = run(["evaluate", "-s", "entropy", "--entropy", "plnp", "--json"])
    plnp = PUB["entropy_study"]["classic"]["spellings"]["plnp"][0]
    assert json.loads(result.stdout)[0]["total"] == plnp
    result = run(["evaluate", "-s", "maxsize", "--possible-only", "--json"])
    assert json.loads(result.stdout)[0]["total"] == CLASSIC_TABLE["possible_only"]["maxsize"][
        "total"]
    result = run(["evaluate", "-s", "consistent", "--first", "3456"])
    forced = CLASSIC_TABLE["consistent_forced_first"]["3456"]["total"]
    assert result.exit_code == 0 and f"{forced:,}" in result.stdout and "3456" in result.stdout


def test_evaluate_several_strategies():
    """A second --strategy replaced the first without a word."""
    table = CLASSIC_TABLE["all_probes"]
    for args in (["-s", "maxsize", "-s", "entropy"], ["-s", "maxsize,entropy"],
                 ["-s", "knuth, entropy", "--strategy", "maxsize"]):  # knuth is maxsize
        rows = json.loads(run(["evaluate", *args, "--json"]).stdout)
        assert [(r["strategy"], r["total"]) for r in rows] == [
            ("maxsize", table["maxsize"]["total"]), ("entropy", table["entropy"]["total"])]
    rows = json.loads(run(["evaluate", "-s", "all", "-s", "optimal", "--json"]).stdout)
    assert [r["strategy"] for r in rows] == ["consistent", "maxsize", "expsize", "entropy",
                                             "parts", "optimal"]
    assert rows[-1]["total"] == PUB["optimal"]["classic"]["total"]
    result = run(["evaluate", "-s", "maxsize,,entropy"])
    assert result.exit_code == 2 and "between each pair of commas" in result.stderr


def test_evaluate_save_tree(tmp_path):
    path = tmp_path / "{strategy}.json"
    result = run(["evaluate", "--save-tree", str(path)])
    assert result.exit_code == 0
    from keypeg.tree import DecisionTree

    assert DecisionTree.load(tmp_path / "parts.json").total == CLASSIC_TABLE["all_probes"][
        "parts"]["total"]
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
    (["solve", "--pegs", "abc", "1=1B"], "error: invalid value for '--pegs'"),
    (["solve"], "error: missing argument"),
    (["bogus"], "error: no such command 'bogus'"),
    (["--bogus"], "error: no such option: --bogus"),  # (click's capital, unlike ours)
    # (typer's words were "Input should be a valid integer, unable to parse string as an
    # integer")
    (["play", "--seed", "abc"], "invalid value for '--seed': it must be a whole number"),
    (["optimal", "--max-seconds", "x"], "'--max-seconds': it must be a number (see"),
])
def test_usage_errors_through_the_console_script(args, message):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "keypeg", *args], capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.startswith("error: ") and message in out.stderr
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1
    assert ". (see" not in out.stderr  # (click's 'missing argument 'clues'. (see ...)')


@pytest.mark.parametrize("args", [[], ["tree"]])
def test_a_group_without_a_command_shows_its_help_and_no_empty_error(args):
    """'keypeg' alone printed its help, then 'error:  (see 'keypeg --help')'."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "keypeg", *args], capture_output=True, text=True)
    assert out.returncode == 2 and "Usage: " in out.stdout and "COMMAND" in out.stdout
    assert "error:" not in out.stdout + out.stderr


@pytest.mark.parametrize("args", [["-h"], ["tree", "-h"], ["tree", "show", "-h"],
                                  ["play", "-h"]])
def test_dash_h_is_help(args):
    """'keypeg -h' said 'Error: No such option: -h'."""
    out = run(args)
    assert out.exit_code == 0 and "Usage: keypeg" in out.output


def test_cut_command_in_play_and_assist():
    parts, largest = naive_cut(CLASSIC_CODES, "1122")
    result = run(["play", "--seed", "1"], input="cut 1122\ncut\nquit\n")
    assert f"1122 cuts 1,296 codes into {parts} parts, the largest {largest}" in result.stdout
    assert "like 'cut 1122'" in result.stdout
    after = [c for c in CLASSIC_CODES if naive.blackwhite(c, (0, 0, 1, 1)) == (0, 0)]
    parts, largest = naive_cut(after, "3456")
    result = run(["assist"], input="1122 0B0W\ncut 3456\nhint\nquit\n")
    assert (f"3456 cuts {len(after)} codes into {parts} parts, the largest {largest}"
            in result.stdout)
    assert "maxsize" in result.stdout


def test_optimal_json_and_store():
    result = run(["optimal", "--pegs", "3", "--colors", "4", "--json", "--recompute"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert {"total", "mean", "worst", "histogram", "first_guess", "seconds", "nodes"} <= set(data)
    want = PUB["ledger"]["totals"]["3"]["4"]
    assert data["total"] == want and not data["cached"]
    again = json.loads(run(["optimal", "--pegs", "3", "--colors", "4", "--json"]).stdout)
    assert again["cached"] and again["total"] == want


def test_evaluate_plays_the_optimum_within_the_boards_rows():
    """Under --max-guesses the optimal row is the fewest guesses among the trees that find
    every secret within the rows, as `keypeg optimal --max-guesses` finds it (it had been
    the shipped uncapped tree: 7 secrets beyond 5 rows in classic, where 5,626 fits in 5);
    where no tree fits, the fewest guesses over all trees (MM(4,4) within 3: 905), and the
    row says so (a review read 'optimal' as the board's optimum)."""
    best = PUB["optimal"]["classic"]
    row = json.loads(run(["evaluate", "-s", "optimal", "--max-guesses", "5", "--json"]).stdout)[0]
    assert (row["total"], row["worst"], row["beyond_rows"]) == (best["max5_total"], 5, 0)
    mini = PUB["ledger"]["totals"]["4"]["4"]
    row = json.loads(run(["evaluate", "-s", "optimal", "--rules", "mini", "--max-guesses", "3",
                          "--json"]).stdout)[0]
    assert row["total"] == mini and row["beyond_rows"] > 0
    assert row["note"].startswith("no tree finds every secret within 3 guesses")
    text = run(["evaluate", "-s", "optimal", "--rules", "mini", "--max-guesses", "3"]).stdout
    assert "Note: No tree finds every secret within 3 guesses" in text
    row = json.loads(run(["evaluate", "-s", "optimal", "--rules", "mini", "--max-guesses", "4",
                          "--json"]).stdout)[0]
    assert row["beyond_rows"] == 0 and "note" not in row


def test_json_says_what_was_asked_as_the_text_does():
    """Exact evaluate rows say their rules, secrets and that they are exact (as a sampled
    row does), and optimal's JSON what was asked (the text header's rules, objective,
    possible codes only, cap and first guess): a review had to parse labels for them."""
    row = json.loads(run(["evaluate", "-s", "maxsize", "--rules", "mini", "--json"]).stdout)[0]
    assert (row["rules"], row["secrets"], row["approximate"]) == ("mini", 256, False)
    data = json.loads(run(["optimal", "--rules", "mini", "--possible-only", "--max-guesses",
                           "6", "--first", "1122", "--json"]).stdout)
    assert {k: data[k] for k in ("rules", "objective", "possible_only", "max_guesses",
                                 "first")} == {"rules": "mini", "objective": "total",
                                               "possible_only": True, "max_guesses": 6,
                                               "first": "1122"}


def test_optimal_classic_is_shipped_and_capped():
    best = PUB["optimal"]["classic"]
    data = json.loads(run(["optimal", "--json"]).stdout)
    assert data["total"] == best["total"] and data["histogram"] == best["histogram"]
    data = json.loads(run(["optimal", "--max-guesses", "5", "--json"]).stdout)
    assert data["total"] == best["max5_total"] and data["worst"] == 5
    result = run(["optimal", "--objective", "worst", "--rules", "mini"])
    assert result.exit_code == 0 and "worst case first" in result.stdout


def test_no_tree_within_the_cap_is_exit_code_1():
    """No tree finds 256 secrets in two guesses (one guess has at most 14 answers): the
    answer is no, exit code 1 as for contradicting clues, not the bad-input code 2."""
    from keypeg import KeypegError, NoStrategyError, solve_optimal

    result = run(["optimal", "--rules", "mini", "--max-guesses", "2"])
    assert result.exit_code == 1, result.output
    assert result.output == ("error: no strategy finds every secret within 2 guesses under "
                             "these conditions.\n")
    with pytest.raises(NoStrategyError) as caught:
        solve_optimal("mini", max_guesses=2)
    assert isinstance(caught.value, KeypegError)  # (the web API's 4xx and old callers)


def test_optimal_trace_and_save(tmp_path):
    result = run(["optimal", "--pegs", "3", "--colors", "4", "--trace", "--save",
                  str(tmp_path / "t.json")])
    want = PUB["ledger"]["totals"]["3"]["4"]
    assert "----- 123" in result.stdout and f" = {want}" in result.stdout
    from keypeg.tree import DecisionTree

    assert DecisionTree.load(tmp_path / "t.json").total == want


@pytest.mark.parametrize("args,message", [
    (["optimal", "--objective", "best"], "--objective"),
    (["optimal", "--first", "9999"], "unknown symbol"),
    (["evaluate", "-s", "optimal", "--first", "1123"], "keypeg optimal"),
])
def test_optimal_bad_input(args, message):
    result = run(args)
    assert result.exit_code == 2 and message in result.stderr


CLASSIC_POSITION = ["1122=0B1W", "3344=1B0W", "5516=1B1W"]


def test_optimal_from_a_position():
    data = json.loads(run(["optimal", *CLASSIC_POSITION, "--json", "--recompute"]).stdout)
    cands = [c for c in CLASSIC_CODES
             if all(naive.blackwhite(c, tuple(int(x) - 1 for x in clue[:4]))
                    == (int(clue[5]), int(clue[7])) for clue in CLASSIC_POSITION)]
    ahead = naive.naive_optimal(CLASSIC_CODES, cands, "blackwhite")
    assert data["position"] == {"clues": 3, "candidates": len(cands),
                                "next_guess": data["first_guess"], "total_from_here": ahead,
                                "mean_from_here": round(ahead / len(cands), 4)}
    # the next guess cuts the candidates as an optimal one must: the naive optimum after it
    g = tuple(int(x) - 1 for x in data["first_guess"])
    parts: dict = {}
    for c in cands:
        parts.setdefault(naive.blackwhite(c, g), []).append(c)
    after = len(cands) + sum(naive.naive_optimal(CLASSIC_CODES, p, "blackwhite")
                             for fb, p in parts.items() if fb != (4, 0))
    assert after == ahead
    assert data["total"] == ahead + 3 * len(cands)
    assert sum(data["histogram"][:3]) == 0  # nothing is found before the fourth guess
    text = run(["optimal", *CLASSIC_POSITION]).stdout
    assert "after 3 clues, 9 codes possible" in text and "next guess" in text
    assert f"from here on {ahead} guesses in all" in text


@pytest.mark.parametrize("args,message", [
    (["1122=0B1W", "--first", "1234"], "--first applies only before the first guess"),
    (["1122=4B0W"], "already found"),
    (["1122=4B1W"], "key pegs"),
])
def test_optimal_from_a_bad_position(args, message):
    result = run(["optimal", *args])
    assert result.exit_code == 2 and message in result.stderr


def test_a_search_out_of_time_has_its_own_exit_code():
    # not bad input (2): the search ran out of --max-seconds (3)
    result = run(["optimal", "--rules", "bc", "--max-seconds", "0.5", "--recompute"])
    assert result.exit_code == 3 and "did not finish" in result.stderr


def test_evaluate_optimal():
    rows = json.loads(run(["evaluate", "-s", "optimal", "--json"]).stdout)
    assert rows[0]["total"] == PUB["optimal"]["classic"]["total"]
    assert rows[0]["strategy"] == "optimal"


def test_ledger_small_cells(monkeypatch):
    import keypeg.solver.ledger as ledger

    real = ledger.run_ledger
    monkeypatch.setattr(ledger, "run_ledger", lambda **kw: real(max_codes=100, **kw))
    result = run(["ledger", "--json"])
    assert result.exit_code == 0
    cells = json.loads(result.stdout)
    assert all(c["status"] == "ok" for c in cells) and len(cells) == 16
    result = run(["ledger"])
    assert "16 cells agree, 0 disagree" in result.stdout


@pytest.mark.parametrize("width", [80, 250])
def test_the_ledger_table_is_never_cut(monkeypatch, width):
    """On an 80-column terminal every cell of the pegs x colours grid was cut to '1…' and
    '(…': too narrow for the grid, the ledger is listed one cell per row."""
    import keypeg.solver.ledger as ledger
    from keypeg.cli import common

    real = ledger.run_ledger
    monkeypatch.setattr(ledger, "run_ledger", lambda **kw: real(max_codes=5000, **kw))
    monkeypatch.setattr(common.console, "width", width)
    text = run(["ledger"]).stdout
    assert "…" not in text
    assert ("5,625 (6)" if width > 200 else "MM(4,6)") in text  # (the grid, or the list)
    if width < 200:  # the list names the published total it compares with
        (row,) = [line for line in text.splitlines() if "MM(4,6)" in line]
        assert f"{PUB['ledger']['totals']['4']['6']:,}: agrees" in row and "published" in text


def test_a_ledger_that_checked_nothing_is_not_a_pass(monkeypatch):
    """--max-seconds 0.001 skipped every cell and exited 0 ("0 cells agree"): a check that
    checked nothing now exits 3, the code for out of time. (Every cell skipped, as a run
    in a fresh process skips them: cells solved earlier in this process are cached.)"""
    import keypeg.solver.ledger as ledger

    def skipped(**kw):
        return [{"pegs": p, "colors": c, "expected": t, "status": "skipped"}
                for p, c, t in ledger.LEDGER_CELLS]

    monkeypatch.setattr(ledger, "run_ledger", skipped)
    result = run(["ledger", "--max-seconds", "0.001"])
    assert result.exit_code == 3 and "0 cells agree" in result.stdout
    assert "no cell was checked within --max-seconds 0.001" in result.output


@pytest.mark.parametrize("args,message", [
    (["serve", "--workers", "0"], "--workers must be from 1 to 32, not 0"),
    (["serve", "--workers", "999"], "--workers must be from 1 to 32, not 999"),
    (["serve", "--port", "70000"], "--port must be from 1 to 65535"),
])
def test_serve_bad_input(args, message):
    result = run(args)
    assert result.exit_code == 2 and message in result.stderr


# ---------------------------------------------------------------------- hardening
def one_sentence_error(result, code=2):
    assert result.exit_code == code, result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") <= 2
    assert len(result.stderr) < 400
    return result.stderr


def test_64_or_more_contradicting_clues_are_diagnosed():
    clues = ["1122=1B1W"] * 63 + ["1122=0B0W"]
    err = one_sentence_error(run(["solve", *clues]), code=1)
    assert "clue 64 (1122=0B0W)" in err and "could have been 1B1W" in err
    # (assist takes a clue repeated word for word once: 63 different true clues for the
    # secret 1234, then a false one)
    space = get_space(find_rules("classic"))
    secret = space.code(space.index("1234")).symbols
    true = ["{} {}B{}W".format(space.text(i), *naive.score(secret, space.code(i).symbols,
                                                           "blackwhite")) for i in range(63)]
    lines = "\n".join([*true, "1122 0B0W", "", "quit"]) + "\n"
    result = run(["assist"], input=lines)
    assert result.exit_code == 0 and "Correct clue 64 (1122=0B0W)" in result.stdout
    assert "could have been 1B1W" in result.stdout


@pytest.mark.parametrize("args", [
    ["evaluate", "--pegs", "8", "--colors", "8", "--strategy", "maxsize"],
    ["evaluate", "--pegs", "6", "--colors", "9", "--possible-only"],  # (not recorded)
    ["optimal", "--pegs", "12", "--colors", "4"],
    ["optimal", "--pegs", "6", "--colors", "9", "--max-seconds", "5"],
])
def test_oversized_jobs_are_refused_from_the_sizes(args):
    err = one_sentence_error(run(args))
    assert "needs the full feedback table" in err and "KEYPEG_TABLE_BUDGET" in err


def test_the_time_limit_stops_the_whole_job():
    import time

    started = time.perf_counter()
    err = one_sentence_error(run(["optimal", "--pegs", "5", "--colors", "6",
                                  "--max-seconds", "2", "--recompute"]), code=3)
    assert "did not finish within 2 seconds" in err
    assert time.perf_counter() - started < 2 + 3  # a second to stop, startup, a slow machine


@pytest.mark.parametrize("option", ["--save", "--save-tree"])
def test_output_paths_are_checked_before_any_work(tmp_path, option):
    # (a bounded job, so that a regression fails in seconds instead of searching for hours)
    command = ["optimal", "--max-seconds", "5"] if option == "--save" else ["evaluate"]
    missing = tmp_path / "no" / "such" / "{strategy}.json"
    err = one_sentence_error(run([*command, "--pegs", "5", "--colors", "6", option,
                                  str(missing)]))
    assert "does not exist" in err
    folder = tmp_path / "parts.json"
    folder.mkdir()
    err = one_sentence_error(run([*command, "--pegs", "5", "--colors", "6", option,
                                  str(tmp_path / ("{strategy}.json" if option == "--save-tree"
                                                  else "parts.json"))]))
    assert "is a folder" in err


@pytest.mark.parametrize("args,env,message", [
    (["evaluate", "-s", "random", "--seed", "-5"], {}, "--seed must be a whole number"),
    (["play", "--seed", "-5"], {}, "--seed must be a whole number"),
    (["solve", "1122=1B1W"], {"KEYPEG_TABLE_BUDGET": "abc"}, "KEYPEG_TABLE_BUDGET must be"),
    (["optimal", "--rules", "mini", "--max-seconds", "-1"], {}, "positive number of seconds"),
    (["ledger", "--max-seconds", "-1"], {}, "positive number of seconds"),
    (["optimal", "--max-seconds", "0"], {}, "positive number of seconds"),
    (["solve", "--rules", "", "1122=1B1W"], {}, "unknown rules ''"),
    (["optimal", "--rules", "mini", "--recompute"], {"KEYPEG_MEMO_BUDGET": "1e9"},
     "KEYPEG_MEMO_BUDGET must be"),
    (["optimal", "--rules", "mini", "--recompute"], {"KEYPEG_SPLIT_CODES": "lots"},
     "KEYPEG_SPLIT_CODES must be a whole number of codes"),
    (["optimal", "--rules", "mini", "--recompute"], {"KEYPEG_SPLIT_CODES": "2"},
     "KEYPEG_SPLIT_CODES must be 3 or more codes, not 2"),
])
def test_bad_values_are_one_sentence(monkeypatch, args, env, message):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert message in one_sentence_error(run(args))


def test_huge_input_is_not_echoed_back():
    err = one_sentence_error(run(["solve", "1" * 100_000 + "=1B1W"]))
    assert "100,000 symbols" in err
    err = one_sentence_error(run(["solve", "1122=" + "9" * 50_000 + "B"]))
    assert "cannot read feedback" in err


def test_full_width_digits_read_in_codes_and_feedback():
    result = run(["solve", "１１２２=１Ｂ１Ｗ", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["count"] == naive_count(["1122=1B1W"])


def test_messages_use_the_right_plurals():
    assert "has 1 symbol;" in one_sentence_error(run(["solve", "1=0B0W"]))
    err = one_sentence_error(run(["optimal", "--pegs", "2", "--colors", "3",
                                  "--max-guesses", "1", "--recompute"]), code=1)
    assert "within 1 guess " in err


def test_terminal_hints_follow_the_bounded_policy(monkeypatch):
    """Past the exact budget the terminal's hints choose among sampled candidates and say
    so, like the page's (forced here on a small game by shrinking the budget)."""
    import keypeg.hints as hints

    monkeypatch.setattr(hints, "EXACT_HINT_CODES", 10)
    monkeypatch.setattr(hints, "EXACT_HINT_WORK", 10)
    result = run(["play", "--rules", "cb4", "--seed", "2"], input="hint\nquit\n")
    assert result.exit_code == 0
    assert "approximate" in result.stdout and "100,000 codes still possible" in result.stdout
    assert "try " in result.stdout


@pytest.mark.slow
def test_hint_in_an_8_by_8_game_answers():
    result = run(["play", "--pegs", "8", "--colors", "8", "--seed", "3"],
                 input="hint\nquit\n")
    assert result.exit_code == 0
    assert "16,777,216 codes still possible" in result.stdout and "approximate" in result.stdout


# ---------------------------------------------------------------------- beliefs
def test_solve_with_noise_ranks_every_code():
    clues = ["1122=1B1W", "1122=0B0W"]  # contradictory: one of them is wrong
    result = run(["solve", "--noise", "symmetric:0.05", *clues, "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    # every code but 1122, answered with no win (a win is never misreported)
    assert data["count"] == len(data["codes"]) == len(data["probabilities"]) == 6**4 - 1
    assert "1122" not in data["codes"]
    assert sum(data["probabilities"]) == pytest.approx(1.0)
    probs = data["probabilities"]
    assert all(a >= b for a, b in zip(probs, probs[1:], strict=False))
    # ties in code order, and the codes fitting clue 1 or clue 2 first (one lie each)
    tied = [c for c, p in zip(data["codes"], probs, strict=True) if p == probs[0]]
    assert tied == sorted(tied)
    fits_one = naive_count(["1122=1B1W"]) + naive_count(["1122=0B0W"])
    assert probs[fits_one - 1] > probs[fits_one] and len(set(probs[:fits_one])) == 1


def test_solve_without_belief_options_is_unchanged():
    plain = json.loads(run(["solve", "1122=1B1W", "--json"]).stdout)
    assert set(plain) == {"count", "codes"} and plain["count"] == naive_count(["1122=1B1W"])
    exact = json.loads(run(["solve", "--noise", "exact", "1122=1B1W", "--json"]).stdout)
    assert exact["codes"] == plain["codes"]  # one probability for all: code order
    assert exact["probabilities"] == pytest.approx([1 / plain["count"]] * plain["count"])


def test_solve_with_lies_finds_the_secret_despite_one_wrong_clue():
    # secret 1234: the third answer (1345 -> true 0B3W) was reported 0B0W
    clues = ["1122=1B1W", "3456=0B2W", "1345=0B0W", "2354=1B2W", "4231=2B2W"]
    result = run(["solve", *clues])
    assert result.exit_code == 1  # trusted, they contradict
    data = json.loads(run(["solve", "--noise", "lies:1", *clues, "--json"]).stdout)
    assert "1234" in data["codes"]
    text = " ".join(run(["solve", "--noise", "lies:1", *clues]).stdout.split())
    assert "clue 3 (1345=0B0W)" in text
    # (lies:K has no probabilities: 'wrong with probability 100.0%' was said, 'codes
    # 50.0%' listed)
    assert "codes contradict at most 1 of the 5 clues" in text and "%" not in text
    assert "clue 3 (1345=0B0W), wrong whichever of these codes is the secret" in text
    err = run(["solve", "--noise", "lies:0", *clues])
    assert err.exit_code == 1 and "even with 0 of them wrong" in err.stderr


def test_solve_with_a_pin_prior():
    data = json.loads(run(["solve", "--rules", "bulls", "--prior", "pin", "0123=0B0W",
                           "--json"]).stdout)
    # the six runs of digits 4-9 weigh the most (PinPrior.run), ties in code order
    assert data["codes"][:6] == ["4567", "5678", "6789", "7654", "8765", "9876"]
    assert data["count"] == 6 * 5 * 4 * 3 and sum(data["probabilities"]) == pytest.approx(1.0)


@pytest.mark.parametrize("args,message", [
    (["solve", "--noise", "symmetric:1.5", "1122=1B1W"], "0 <= EPS < 1"),
    (["solve", "--noise", "lies:-1", "1122=1B1W"], "K >= 0"),
    (["solve", "--noise", "per-peg:0.1", "1122=1B1W"], "positional"),
    (["solve", "--noise", "wobbly", "1122=1B1W"], "unknown noise"),
    (["solve", "--prior", "pin", "1122=1B1W"], "digit games"),
    (["solve", "--prior", "zipf", "1122=1B1W"], "unknown prior"),
    (["solve", "--prior", "file:/no/such.csv", "1122=1B1W"], "does not exist"),
    (["evaluate", "--prior", "uniform", "--possible-only"], "do not combine"),
])
def test_bad_belief_values_are_one_sentence(args, message):
    assert message in one_sentence_error(run(args))


def test_prior_file_errors(tmp_path):
    bad = tmp_path / "prior.csv"
    bad.write_text("1122,2\n9999,1\n")
    assert "unknown symbol" in one_sentence_error(run(["solve", "--prior", f"file:{bad}",
                                                       "1122=1B1W"]))
    bad.write_text("1122,-2\n")
    assert "negative" in one_sentence_error(run(["solve", "--prior", f"file:{bad}",
                                                 "1122=1B1W"]))
    bad.write_text("1122,0\n")
    assert "weight 0" in one_sentence_error(run(["solve", "--prior", f"file:{bad}",
                                                 "1122=1B1W"]))


def test_assist_with_noise_names_the_wrong_clue_and_goes_on():
    lines = "\n".join(["1122 1B1W", "3456 0B2W", "1345 0B0W", "2354 1B2W", "quit"]) + "\n"
    result = run(["assist", "--noise", "symmetric:0.05"], input=lines)
    assert result.exit_code == 0 and "Contradiction" not in result.stdout
    assert "the likeliest wrong one is clue 3 (1345=0B0W)" in result.stdout
    assert "information's guess" in result.stdout
    trusted = run(["assist"], input=lines)
    assert "Contradiction" in trusted.stdout  # today's behaviour without noise


def test_play_with_noise_confesses_its_wrong_answers():
    result = run(["play", "--noise", "symmetric:0.5", "--seed", "3"],
                 input="1122\n3456\n1234\n5566\ngive up\n")
    assert result.exit_code == 0 and "may be wrong" in result.stdout
    assert "was wrong: I said" in result.stdout  # at EPS 0.5, some of four answers were


def test_evaluate_with_a_uniform_prior_reproduces_the_published_totals():
    rows = json.loads(run(["evaluate", "--prior", "uniform", "--json"]).stdout)
    by = {r["strategy"]: r for r in rows}
    for name, want in CLASSIC_TABLE["all_probes"].items():
        assert by[name]["total"] == want["total"] == by[name]["weighted_total"]
    assert "information" in by


def test_evaluate_with_a_prior_file_weights_the_totals(tmp_path):
    # weight 0 on the one-colour codes: the weighted total is the depth sum over the rest
    prior = tmp_path / "two-or-more.csv"
    prior.write_text("".join(f"{c},1\n" for c in get_space(find_rules("classic")).texts(
        range(1296)) if len(set(c)) > 1))
    rows = json.loads(run(["evaluate", "-s", "maxsize", "--prior", f"file:{prior}",
                           "--json"]).stdout)
    assert rows[0]["weighted_total"] == rows[0]["total"]  # every secret it covers weighs 1
    assert rows[0]["total"] < CLASSIC_TABLE["all_probes"]["maxsize"]["total"]


def test_optimal_with_a_prior_is_the_weighted_optimum(tmp_path):
    """Weight 0 on the six one-colour codes, 1 elsewhere: seed 004's game value 5,600."""
    want = PUB["optimal"]["classic"]["weighted_two_or_more_colours"]
    prior = tmp_path / "two-or-more.csv"
    codes = get_space(find_rules("classic")).texts(range(1296))
    prior.write_text("code,weight\n" + "".join(f"{c},1\n" for c in codes if len(set(c)) > 1))
    data = json.loads(run(["optimal", "--prior", f"file:{prior}", "--json",
                           "--recompute"]).stdout)
    assert data["weighted_total"] == want["total"]
    assert data["weighted_mean"] == pytest.approx(want["total"] / want["secrets"], abs=1e-4)
    # (as evaluate --prior gives them: "mean" plain over every code the tree finds, the
    # weighted total over the codes the prior weighs)
    assert data["secrets"] == 1296 and data["weighted_secrets"] == want["secrets"]
    assert data["mean"] == pytest.approx(data["total"] / 1296, abs=1e-4)
    plain = json.loads(run(["optimal", "--json"]).stdout)
    assert "weighted_total" not in plain  # a weighted result is never served unweighted
    # the table: the weighted total beside the expected guesses (the plain total over every
    # code stood there, beside the weighted mean)
    text = " ".join(run(["optimal", "--prior", f"file:{prior}"]).stdout.split())
    assert "expected" in text and "weighted" in text
    assert f"│ {want['total']:,} │ {want['total'] / want['secrets']:.4f} │" in text


def test_hints_under_a_prior_give_the_weighted_optimal_guess():
    import numpy as np

    from keypeg.game import GameState
    from keypeg.hints import hint
    from keypeg.rules import Rules
    from keypeg.solver import solve_optimal

    rules = Rules(pegs=3, colors=4)
    weights = np.arange(1, 65, dtype=float)  # later codes likelier
    state = GameState.from_clues(rules, ["112=1B0W"], prior=weights)
    h = hint(state, optimal_seconds=30)
    full = np.zeros(64)
    full[state.candidates] = state.posterior
    want = solve_optimal(rules, state=state, weights=full)
    assert h.optimal is not None and h.optimal.guess == want.first_guess
    # the prior matters here: trusting every code alike would open differently
    plain = solve_optimal(rules, state=GameState.from_clues(rules, ["112=1B0W"]))
    assert plain.first_guess != want.first_guess


def test_errors_keep_brackets_in_rules_names():
    """An error naming custom rules keeps their "[...]" (not read as rich markup)."""
    result = run(["optimal", "--pegs", "8", "--colors", "5", "--positional"])
    assert result.exit_code == 2
    assert "MM(8,5) [positional]" in result.output


def test_the_command_loads_numba_without_scipy_linalg():
    """`keypeg optimal` runs its kernels without importing scipy.linalg (0.2 s numba only
    spends finding a BLAS) or cffi, and later imports of both still work."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "keypeg", "optimal",
                          "--pegs", "3", "--colors", "3", "--json", "--recompute",
                          "--no-resume"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["total"] == published()["ledger"]["totals"]["3"]["3"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()}
    # (a refused import is still listed, without the package's own modules)
    assert "numba.np.arraymath" in imported
    assert not [name for name in imported if name.startswith("scipy.linalg._")]
    # nor cffi's C parser (numba's typing loads cffi only to call cffi functions)
    assert "numba.core.typing.cffi_utils" in imported
    assert not [name for name in imported if name.startswith(("cffi.", "pycparser"))]
    # (cffi is not a dependency: where it is installed, it still imports afterwards)
    import importlib.util

    has_cffi = importlib.util.find_spec("cffi") is not None
    script = ("from keypeg.cli import _numba_without_blas\n"
              "_numba_without_blas()\n"
              "import scipy.linalg\n"
              "print(scipy.linalg.det([[2.0]]))\n"
              + ("import cffi\nprint(cffi.FFI().sizeof('int'))\n" if has_cffi else ""))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == (["2.0", "4"] if has_cffi else ["2.0"])


def test_the_command_imports_with_the_collector_off():
    """The entry point (console script and `python -m keypeg`) turns the cyclic garbage
    collector off before the command's imports (they would be walked again and again), and
    the command still gives the published optimum."""
    import subprocess
    import sys
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text())["project"]["scripts"]
    assert scripts["keypeg"] == "keypeg._command:main"
    spy = ("import gc, sys\n"
           "class Spy:\n"
           "    def find_spec(self, name, path=None, target=None):\n"
           "        if name in ('keypeg.cli', 'numba'):\n"
           "            print(name, 'collector on' if gc.isenabled() else 'collector off',\n"
           "                  file=sys.stderr, flush=True)\n"
           "sys.meta_path.insert(0, Spy())\n"
           "sys.argv = ['keypeg', 'optimal', '--pegs', '3', '--colors', '3', '--json',\n"
           "            '--recompute', '--no-resume']\n"
           "import runpy\n"
           "runpy.run_module('keypeg', run_name='__main__')\n")
    out = subprocess.run([sys.executable, "-c", spy], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["total"] == published()["ledger"]["totals"]["3"]["3"]
    assert "keypeg.cli collector off" in out.stderr
    assert "numba collector off" in out.stderr
    assert "collector on" not in out.stderr


def test_long_running_commands_turn_the_collector_back_on():
    """A command that computes and exits keeps the collector off; one that keeps running
    (a game, the server) turns it back on."""
    import gc

    try:
        gc.disable()
        result = run(["solve", "--pegs", "3", "--colors", "3", "112=1B"])
        assert result.exit_code == 0, result.output
        assert not gc.isenabled()
        result = runner.invoke(app, ["play", "--pegs", "3", "--colors", "3", "--seed", "1"],
                               input="quit\n")
        assert result.exit_code == 0, result.output
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


@pytest.mark.parametrize("command", [["play", "--seed", "1"], ["assist"],
                                     ["match", "--seed", "1"]])
def test_typed_brackets_are_echoed_not_read_as_markup(command):
    """What a player types comes back in error messages: rich markup in it ("[/]" closes
    nothing: a traceback) is shown as typed."""
    result = run(command, input="[/]\n[bold]x\nquit\n")
    assert result.exit_code == 0
    assert "> '[/]' " in result.output and "> '[bold]x' " in result.output


@pytest.mark.parametrize("args,shown", [
    (["optimal", "--pegs", "3", "--colors", "3", "--no-repeats"],
     "MM(3,3) [no repeats]: optimal strategy"),
    (["evaluate", "--pegs", "3", "--colors", "3", "--no-repeats", "--strategy", "entropy"],
     "MM(3,3) [no repeats]: 3 pegs"),
    (["evaluate", "--pegs", "2", "--colors", "3", "--blanks", "--positional", "--strategy",
      "entropy"], "MM(2,3) [blanks, positional]: 2 pegs"),
    (["value", "--pegs", "2", "--colors", "3", "--no-repeats"],
     "Game value of MM(2,3) [no repeats]: 13/6"),
])
def test_rules_names_keep_their_brackets(args, shown):
    """A custom game's name, "MM(3,3) [no repeats]", is printed whole (rich once read the
    brackets as a style and dropped them: "MM(3,3) : optimal strategy")."""
    result = run(args)
    assert result.exit_code == 0
    assert shown in " ".join(result.output.split())


def test_version_is_the_package_version():
    import tomllib
    from pathlib import Path

    import keypeg

    declared = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    result = run(["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"keypeg {declared['project']['version']}"
    assert keypeg.__version__ == declared["project"]["version"]


def test_an_evaluation_too_big_to_run_exactly_points_to_sampling():
    result = run(["evaluate", "--rules", "mm-8-8", "--strategy", "entropy"])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "needs the full feedback table of mm-8-8" in text
    assert "Or estimate it from a sample of the secrets: --sample N --seed S." in text
    sampled = run(["evaluate", "--rules", "mm-8-8", "--strategy", "genetic", "--sample", "2",
                   "--json"])
    assert sampled.exit_code == 0 and json.loads(sampled.stdout)[0]["approximate"] is True


def test_a_stored_optimum_says_so():
    args = ["optimal", "--pegs", "2", "--colors", "4", "--no-repeats"]
    run(args)
    again = run(args)
    assert again.exit_code == 0
    assert "MM(2,4) [no repeats]: optimal strategy [stored result]" in " ".join(
        again.output.split())


def test_a_saved_file_is_named_as_given(tmp_path):
    path = tmp_path / "[b]tree.json"
    result = run(["optimal", "--pegs", "2", "--colors", "3", "--save", str(path)])
    assert result.exit_code == 0 and path.exists()
    assert f"saved the optimal tree to {path}" in " ".join(result.output.split())
    # evaluate's name for it works too (the review found --save here, --save-tree there)
    other = tmp_path / "other.json"
    assert run(["optimal", "--pegs", "2", "--colors", "3", "--save-tree", str(other)]
               ).exit_code == 0 and other.read_text() == path.read_text()


def test_help_lists_each_command_in_one_sentence():
    """`keypeg --help` lists each command with its docstring's first sentence on flowing
    lines (typer kept the docstring's line breaks: half-empty lines in the panel)."""
    from keypeg.cli import app
    from keypeg.cli.tree import tree_app

    for each in (app, tree_app):
        for info in each.registered_commands:
            assert info.short_help and "\n" not in info.short_help, info.name
            assert info.short_help.endswith("."), info.short_help
            assert " ".join(info.callback.__doc__.split()).startswith(info.short_help)
    listed = " ".join(run(["--help"]).output.replace("│", " ").split())
    assert ("Compute the exact optimal strategy: fewest guesses in total over every secret "
            "(with --prior: the fewest expected guesses, each secret weighted by the prior), "
            "from the start or after the CLUES given. ledger") in listed


def test_every_option_help_is_shown_whole():
    """typer reads option help as rich markup: 'Needs keypeg[cluster].' was shown as
    'Needs keypeg.', and 'MM(5,7) [no repeats]' as 'MM(5,7) '. Every bracketed word or
    phrase of every option's help must reach the screen."""
    import re

    import typer.main

    from keypeg.cli import app

    group = typer.main.get_command(app)
    checked = 0
    for path, command in _commands(group):
        shown = " ".join(run([*path, "--help"]).output.replace("│", " ").split())
        for param in command.params:
            text = getattr(param, "help", None) or ""
            for word in re.findall(r"\S*\[[^\]]+\]\S*", text.replace("\\[", "[")):
                checked += 1
                assert word in shown, (path, param.name, word)
    assert checked >= 3  # the two --cluster helps and --rules, at least


def _commands(group, path=()):
    import click

    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


@pytest.mark.parametrize("preset", ["classic", "codebreaker-1", "bulls-and-cows", "mm-8-8"])
def test_the_examples_shown_are_in_the_rules_own_notation(preset):
    """Assist showed '1122 1B1W' for every game (Codebreaker 1-3 refuses 1122 and answers
    in G/A/-), and play offered 11111118 as MM(8,8)'s example guess: each example given is
    now one the same command accepts."""
    import re

    out = run(["assist", "--rules", preset], input="quit\n").stdout
    code, answer = re.search(r"like '(\S+) (\S+)' or '\1=\2'", out).groups()
    out = run(["assist", "--rules", preset], input=f"{code} {answer}\nquit\n").stdout
    assert "codes still possible" in out or "code still possible" in out, out
    assert "rror" not in out and "annot" not in out, out
    out = run(["play", "--rules", preset, "--seed", "1"], input="quit\n").stdout
    guess = re.search(r"Type a guess like (\S+),", out).group(1)
    assert guess != "11111118"
    out = run(["play", "--rules", preset, "--seed", "1"], input=f"{guess}\nquit\n").stdout
    assert re.search(rf"1\. {guess} ", out), out


def test_the_live_search_line_keeps_its_time_and_text_at_80_columns(monkeypatch):
    """On a terminal of 80 columns the search's live line ('MM(5,7): searching: 91,153
    sets, first guess 0/7 (part 0/19), root 0% done') pushed the bar and the elapsed time
    off the line and cut its own end: now the time and bar come first and the text folds."""
    import io
    import re

    from rich.console import Console

    from keypeg.cli import optimal as cli_optimal

    out = io.StringIO()
    monkeypatch.setattr(cli_optimal, "err_console",
                        Console(file=out, force_terminal=True, width=80))
    d = {"phase": "searching", "nodes": 91153, "root_done": 0, "root_total": 7,
         "parts_done": 0, "parts_total": 19, "elapsed": 5.0}
    with cli_optimal.search_progress("MM(5,7)") as live:
        live(d)
    frame = [f for f in out.getvalue().split("\r\x1b[2K") if "searching" in f][-1]
    frame = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", frame)  # the last frame drawn, plain
    lines = [line.rstrip() for line in frame.split("\n") if line.strip()]
    assert all(len(line) <= 80 for line in lines), lines
    assert re.search(r"\d:\d\d:\d\d", frame) and "…" not in frame, lines
    assert "first guess 0/7 (part 0/19), root 0% done by count" in " ".join(
        frame.split()), lines


def test_evaluate_under_noise_plays_every_bayesian_player_to_the_end():
    """`evaluate --noise symmetric:EPS` (all players, the default) stopped with 'bayes-parts
    needs over 60 guesses here': counting every part down to the last trace of mass, the
    parts player never closed in on the likeliest code. Each player now finds every
    secret, in no fewer guesses in all than the optimum with trusted answers (mini:
    the published MM(4,4) value)."""
    result = run(["evaluate", "--rules", "mini", "--noise", "symmetric:0.05", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["strategy"] for r in rows] == ["information", "entropy", "expsize", "maxsize",
                                             "parts"]
    optimum = PUB["ledger"]["totals"]["4"]["4"]
    for r in rows:
        assert sum(r["histogram"]) == 256 and r["total"] >= optimum and r["worst"] <= 10
    # the table names each player as the JSON's label does (the Bayesian player)
    text = run(["evaluate", "--rules", "mini", "--noise", "lies:1", "-s", "entropy"]).stdout
    (row,) = [line for line in text.splitlines() if "1123" in line]
    assert row.split()[1] == "bayes-entropy", text


def test_evaluate_sample_seed_draws_the_secrets_apart_from_the_strategys_seed():
    """The genetic table (scripts/stats.py) plays seed 0 against secrets drawn with seed 1,
    which --seed alone (both at once) could not reproduce."""
    from keypeg.sampling import sampled_evaluation
    from keypeg.strategies import find_strategy

    result = run(["evaluate", "--rules", "mini", "-s", "genetic", "--sample", "30",
                  "--seed", "0", "--sample-seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)
    want = sampled_evaluation(find_rules("mini"), find_strategy("genetic", seed=0), 30, 1)
    assert (row["label"], row["seed"]) == ("genetic (seed 0)", 1)
    # (each seed in a field of its own: the strategy's had been only in the label; and the
    # draws are with replacement, which only a docstring had said)
    assert (row["sample_seed"], row["strategy_seed"], row["with_replacement"]) == (1, 0, True)
    assert "with replacement" in row["note"]
    assert row["histogram"] == want["histogram"]
    # the table's worst case is the sample's, and says so
    table = run(["evaluate", "--rules", "mini", "-s", "maxsize", "--sample", "30"])
    assert table.exit_code == 0 and "worst seen" in table.stdout
    refused = run(["evaluate", "--rules", "mini", "--sample-seed", "1"])
    assert refused.exit_code == 2 and "give --sample N too" in refused.output
    # a sampled run keeps no tree: --save-tree had written nothing, exit 0
    refused = run(["evaluate", "--rules", "mini", "-s", "maxsize", "--sample", "10",
                   "--save-tree", "never.json"])
    assert refused.exit_code == 2 and "keeps no tree; leave out --save-tree" in refused.output


def test_terminal_sessions_as_a_player_meets_them(tmp_path, monkeypatch):
    """A review of play, assist and match as a player found: words read as codes ('undo'
    has an unknown symbol 'u'), assist's list cut at 200 without saying so, its correction
    prompt reading 'quit' as feedback for ever, a match asking a second question before
    refusing a mistyped secret (and echoing the hidden secret), and a random secret to be
    answered by hand that was never shown."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["play", "--seed", "2"], input="undo\ngive  up\n").output
    assert "'undo' is not a code or a command; type a code like 1122" in out
    assert "The secret was 1422 (after 0 guesses)" in out  # (two spaces: still give up)
    assert "unknown symbol 'x'" in run(["play", "--seed", "2"], input="12x4\nquit\n").output
    out = run(["assist"], input="1122 0B1W\nlist\nquit\n").output
    assert "(the first 200 of 256; keypeg solve --json lists them all)" in out
    out = run(["assist"], input="1122 0B0W\n3456 1B0W\n1111 0B0W\n1111 2B0W\nhistory\n"
              "history\n").output
    assert "Clue 4 kept; 'fix 4 FEEDBACK' or 'drop 4' repairs it later." in out
    assert "cannot read feedback 'history'" not in out
    assert "4. 1111  2B0W" in out
    # 'quit' at the correction prompt ends the session (it had been read as 'keep')
    out = run(["assist"], input="1122 0B0W\n3456 1B0W\n1111 0B0W\n1111 2B0W\nquit\n"
              "history\n").output
    assert out.rstrip().endswith("Bye.") and "4. 1111" not in out
    # 'drop' there drops the clue (it had been read as the command word 'drop': kept)
    for drop in ("drop", "DROP 4"):
        out = run(["assist"], input="1122 0B0W\n3456 1B0W\n1111 0B0W\n1111 2B0W\n"
                  f"{drop}\nhistory\n").output
        assert "kept" not in out and "3. 1111  0B0W" in out and "4. 1111" not in out, out
    out = run(["assist"], input="1234 4B0W\n").output
    assert "Solved in 1 guess: the secret is 1234." in out
    out = run(["assist"], input="1122 1B1W\ndrop 0\nfix 1\nquit\n").output
    assert "there is one clue: 'drop 1'." in out  # ('like drop 2' named no clue)
    assert "like 'fix 1 2B2W'" in out
    out = run(["assist"], input="1122 1B1W\n1234 2B\nfix 9 1B\n").output
    assert "like 'fix 2 2B2W'" in out  # (the example had no feedback)
    out = run(["match", "--seed", "2"], input="give up\nyes\n31427\nrandom\nhand\nquit\n"
              ).output
    assert "that secret is not a code of these rules: 4 symbols" in out
    assert "31427" not in out  # typed hidden: not shown back
    assert re.search(r"keypeg drew your secret: \d{4} \(answer from it\)\.", out)


def test_match_shows_a_spinner_while_the_computer_moves(tmp_path, monkeypatch):
    """The computer's guesses and secrets took up to 11 s on super in silence."""
    import contextlib
    import importlib

    cli_match = importlib.import_module("keypeg.cli.match")  # (the package's 'match' is
    said = []  # the command)

    def status(text, *args, **kwargs):
        said.append(text)
        return contextlib.nullcontext()

    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    monkeypatch.setattr(cli_match.err_console, "status", status)
    assert run(["match", "--seed", "3"], input="1122\nquit\n").exit_code == 0
    assert said.count("classic: keypeg is thinking") == 1  # around the guess
    assert any("preparing the match" in s for s in said)


def test_ctrl_c_during_a_hint_cancels_the_hint_not_the_session(monkeypatch):
    """Ctrl-C while a hint was worked out ended assist, and every clue typed was lost."""
    import importlib

    sessions = importlib.import_module("keypeg.cli.sessions")
    real, calls = sessions.hint, []

    def interrupted(state, **options):
        calls.append(1)
        if len(calls) == 2:  # the hint asked for ('hint'), not the one after the clue
            raise KeyboardInterrupt
        return real(state, **options)

    monkeypatch.setattr(sessions, "hint", interrupted)
    result = run(["assist"], input="1122 1B1W\nhint\nhistory\nquit\n")
    assert "Hint cancelled." in result.output
    assert "1. 1122  1B1W" in result.output and result.output.rstrip().endswith("Bye.")


def test_sessions_say_what_answers_mean_and_when_the_board_is_full(tmp_path, monkeypatch):
    """The first screens never said what 0B1W or -G--G mean; assist took clue 11 on a
    board of 10 rows without a word; bulls-and-cows refused its own 1B2C."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["play", "--seed", "1"], input="quit\n").output
    assert "Answers count blacks (B: right colour, right place) and whites" in out
    out = run(["play", "--seed", "1", "-r", "codebreaker-1"], input="quit\n").output
    assert "Answers mark each peg: G the right symbol in the right place" in out
    out = run(["match", "--seed", "1", "-r", "bulls-and-cows"], input="quit\n").output
    assert "Breaking, type a code like 0123" in out and "cows (W or C" in out
    # (ten different clues true for the secret 6543: a clue repeated word for word is not
    # recorded again)
    guesses = ["1111", "2222", "1122", "1133", "1144", "1155", "2233", "2244", "2255", "1212",
               "1313"]
    lines = ["{} {}B{}W".format(g, *naive.score(tuple(int(c) - 1 for c in "6543"),
                                               tuple(int(c) - 1 for c in g), "blackwhite"))
             for g in guesses]
    out = run(["assist"], input="\n".join([*lines, "quit"]) + "\n").output
    assert "not recorded" not in out
    assert out.count("That was the board's last row (10)") == 1
    out = run(["assist", "-r", "bulls-and-cows"], input="0123 1B2C\nhistory\nquit\n").output
    assert "1. 0123  1B2W" in out


def test_a_bad_seed_names_its_range_in_digits():
    """--seed -1 said 'from 0 to 2**63 - 1', in programmer's notation."""
    out = run(["play", "--seed", "-1"], input="quit\n")
    assert out.exit_code == 2
    assert "--seed must be a whole number from 0 to 9,223,372,036,854,775,807, not -1" in (
        " ".join(out.output.split()))


def test_play_under_noise_says_still_possible_as_elsewhere():
    """Under --noise play said '1,296 codes possible' where every other line says 'still
    possible'."""
    out = run(["play", "--seed", "1", "--noise", "symmetric:0.1"], input="1122\nquit\n")
    # (every code but the guess, answered with no win)
    assert "1,295 codes still possible" in out.stdout and "codes possible," not in out.stdout


def test_evaluating_an_optimal_tree_keypeg_does_not_ship_is_bounded(monkeypatch):
    """'keypeg evaluate -s optimal --rules super' searched with no end (no --max-seconds);
    it now stops and says how to get the tree."""
    from keypeg.cli import evaluate

    monkeypatch.setattr(evaluate, "OPTIMAL_TREE_SECONDS", 0.5)
    result = run(["evaluate", "-s", "optimal", "--pegs", "6", "--colors", "5"])
    assert result.exit_code == 3
    assert "not found within 0.5 s" in result.output and "keypeg tree verify" in result.output


def test_evaluate_counts_the_secrets_beyond_the_boards_rows():
    """--max-guesses (a board's rows) had been accepted and ignored; now each row counts
    the secrets the strategy does not find within the rows (`beyond_rows`), in the table,
    the JSON, sampled and recorded rows alike. Expected: the consistent player walked by
    the naive scorer, each secret's guess counted."""
    from tests.naive import all_codes, blackwhite

    beyond = 0
    stack = [(all_codes(4, 6), 1)]
    while stack:
        cands, depth = stack.pop()
        guess = cands[0]
        beyond += depth > 6 and guess in cands
        parts: dict = {}
        for s in cands:
            parts.setdefault(blackwhite(s, guess), []).append(s)
        stack.extend((p, depth + 1) for fb, p in parts.items() if fb != (4, 0))
    assert beyond > 0
    result = run(["evaluate", "--rules", "classic", "-s", "consistent", "--max-guesses", "6",
                  "--json"])
    (row,) = json.loads(result.stdout)
    assert (row["max_guesses"], row["beyond_rows"]) == (6, beyond)
    text = run(["evaluate", "--rules", "classic", "-s", "consistent", "--max-guesses",
                "6"]).stdout
    (line,) = [x for x in text.splitlines() if "consistent" in x]
    assert "beyond" in text and line.split("│")[6].strip() == f"{beyond:,}", text
    assert "Beyond 6 rows: the secrets not found on a board of 6 rows" in text
    sampled = json.loads(run(["evaluate", "--rules", "classic", "-s", "consistent",
                              "--max-guesses", "6", "--sample", "40", "--json"]).stdout)[0]
    assert sampled["beyond_rows"] == sum(sampled["histogram"][6:])
    # classic's board has 10 rows: none beyond them, no column; mini has no board
    (row,) = json.loads(run(["evaluate", "--rules", "classic", "-s", "consistent",
                             "--json"]).stdout)
    assert (row["max_guesses"], row["beyond_rows"]) == (10, 0)
    assert "beyond" not in run(["evaluate", "--rules", "classic", "-s", "consistent"]).stdout
    (row,) = json.loads(run(["evaluate", "--rules", "mini", "-s", "consistent",
                             "--json"]).stdout)
    # (the keys are there all the same, null: the JSON has one shape for every game)
    assert row["beyond_rows"] is None and row["max_guesses"] is None


def test_a_review_as_a_demanding_user_found(tmp_path):
    """Messages that named the wrong mistake or Python's internals: an empty --strategy
    spoke of commas, 'cut' with two codes asked for the guess it was given, a prior 'file'
    that is a folder 'did not exist', a tree file's rules leaked Python's TypeError, and
    --sample drew 100,000 secrets of mini's 256 and called the result approximate."""
    from keypeg.tree import FORMAT

    def flat(result):
        return " ".join(one_sentence_error(result).split())

    assert "needs a strategy name, such as entropy, or all" in flat(
        run(["evaluate", "-s", ""]))
    assert "between each pair of commas" in flat(run(["evaluate", "-s", "entropy,,parts"]))
    out = run(["play", "--seed", "1"], input="cut 1122 3344\ncut\nquit\n").output
    assert "cut takes one guess, like 'cut 1122'." in out
    assert "give the guess to cut with, like 'cut 1122'." in out
    assert "' is a folder, not a file." in flat(
        run(["solve", "--prior", f"file:{tmp_path}", "1122=1B"]))
    for rules, why in (('"nonsense"', "unknown rules 'nonsense'; choose one of: classic"),
                       ('{"pegs": 4}', 'its "rules" must be a rules name such as "classic"'),
                       ('{"pegs": -4, "colors": 6}', "not -4)."),
                       ('{"pegs": 4, "colors": 6}', 'has no "root" field;')):
        path = tmp_path / "t.json"
        root = ', "root": {}' if "-4" in rules or "nonsense" in rules else ""
        path.write_text(f'{{"format": "{FORMAT}", "rules": {rules}{root}}}')
        message = flat(run(["tree", "verify", str(path)]))
        assert "no readable rules and root" not in message and why in message, message
        assert "__init__" not in message and ".)." not in message
    assert "--sample 100,000 is more than the 256 codes of mini; leave out --sample" in (
        flat(run(["evaluate", "--rules", "mini", "-s", "entropy", "--sample", "100000"])))
    assert run(["evaluate", "--rules", "mini", "-s", "entropy", "--sample", "256",
                "--json"]).exit_code == 0


def test_assist_repairs_say_what_they_did(tmp_path, monkeypatch):
    """'fix', 'undo' and the whole clue typed at the prompt that offers to correct a clue
    were swallowed ("Clue 4 kept"); undo and drop changed the clues without a word; a
    clue typed twice was counted twice (a solved game 'solved' again)."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    start = "1122 1B1W\n3456 0B2W\n1234 4B\n1111 4B\n"
    out = run(["assist"], input=start + "fix 4 1B\ncut 1111\nhistory\nquit\n").stdout
    assert "Clue 4 is now 1111=1B0W (was 4B0W)." in out and "4. 1111  1B0W" in out
    # (clue 3 is a win: solved, though the last clue is none; '1 codes into 1 parts')
    assert out.count("Solved in 3 guesses: the secret is 1234.") == 2
    assert "1111 cuts 1 code into 1 part, the largest 1" in out
    out = run(["assist"], input=start + "1111 1B\nhistory\nquit\n").stdout
    assert "4. 1111  1B0W" in out
    out = run(["assist"], input=start + "undo\nhistory\nquit\n").stdout
    assert "Took back clue 4 (1111=4B0W)." in out and "4. 1111" not in out
    out = run(["assist"], input="undo\n1122 1B1W\n1122 1B1W\n3456 0B2W\ndrop 1\ndrop 1\n"
                                "history\nquit\n").stdout
    assert "Nothing to undo: there are no clues yet." in out
    assert "That is clue 1 again (1122=1B1W): it tells nothing new" in out
    assert "Dropped clue 1 (1122=1B1W) (the clues after it move up one)." in out
    assert "Dropped clue 1 (3456=0B2W)." in out and "no clues yet" in out
    out = run(["assist"], input="give up\nquit\n").stdout
    assert "'give up' is not a clue or a command" in out
    helped = " ".join(run(["assist", "--help"]).stdout.split())
    assert "'undo', 'drop N', 'fix N FEEDBACK', 'help' or 'quit'" in helped


def test_assist_undo_takes_back_the_last_change(tmp_path, monkeypatch):
    """'undo' after 'fix' took back the last clue whole, not the fix; 'undo' after 'drop'
    took back another clue. It now undoes the last change, one at a time."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["assist"], input="1122 1B1W\n3456 0B2W\nfix 2 0B1W\nundo\nhistory\n"
                                "drop 1\nundo\nhistory\nundo\nundo\nundo\nquit\n").stdout
    assert "Clue 2 is 3456=0B2W again (the change to 0B1W is undone)." in out
    assert out.count("1. 1122  1B1W\n  2. 3456  0B2W") == 2
    assert "Put back clue 1 (1122=1B1W) (the clues after it move down one)." in out
    assert "Took back clue 2 (3456=0B2W)." in out and "Took back clue 1 (1122=1B1W)." in out
    assert out.count("Nothing to undo: there are no clues yet.") == 1
    # (a clue that contradicts, repaired at the prompt it leads to: one undo takes back
    # both; 'undo' at that prompt takes back the clue that led to it)
    start = "1122 1B1W\n3456 0B2W\n1234 4B\n1111 4B\n"
    out = run(["assist"], input=start + "1B\nhistory\nundo\nhistory\nquit\n").stdout
    assert "Correct clue 4 (1111=4B0W)" in out and "4. 1111  1B0W" in out
    assert "Took back clue 4 (1111=1B0W)." in out
    assert out.count("3. 1234  4B0W\nclue 4>") == 1  # (the second history: three clues)


def test_match_prompts_take_their_commands(tmp_path, monkeypatch):
    """At the hand-answer prompt 'score' was read as feedback; 'undo' while breaking was
    'an unknown symbol'; a Codebreaker secret with a repeated digit was refused without
    saying why."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["match", "--seed", "7"], input="undo\ngive up\n1234\nhand\nscore\nquit\n").stdout
    assert "'undo' is not a code or a command" in out
    assert "cannot read feedback 'score'" not in out and "total" in out.split("hand")[-1]
    out = run(["match", "-r", "cb1", "--seed", "3"], input="give up\n11111\nquit\n").stdout
    assert "5 symbols from digits 0-9, each at most once" in out
    out = run(["match", "--seed", "7", "--opponent", "knuth"], input="quit\n").stdout
    assert "maxsize (Knuth's minimax)" in out
    # (it said "it makes codes by uniform")
    assert "it makes codes by drawing one uniformly at random" in " ".join(out.split())


def test_a_hand_answering_codemaker_sees_their_secret_again(tmp_path, monkeypatch):
    """A secret drawn for a person who answers by hand was shown once: resumed, they had
    to answer about a code they could not see (or forfeit). 'secret' shows it, and a
    resumed match says so; a typo at the 'hand?' question had meant 'keypeg answers'."""
    from keypeg.match import load_match
    from keypeg.store import Store

    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["match", "--seed", "5", "-r", "mini"],
              input="give up\nrandom\nhnad\nhand\nsecret\nquit\n").stdout
    assert "type 'hand' to answer each guess yourself" in out and "'hnad'" in out
    match_id = out.rsplit("--resume", 1)[1].split()[0]
    secret = load_match(Store(tmp_path / "k.db"), match_id).games[1].secret
    assert f"answer>   your secret: {secret}" in out
    again = run(["match", "--resume", match_id], input="secret\nquit\n").stdout
    assert "type 'secret' to see it" in again and f"answer>   your secret: {secret}" in again


def test_a_match_saved_meanwhile_elsewhere_says_so_in_terminal_words(tmp_path, monkeypatch):
    """The store's refusal spoke of the page ("reload it and play on")."""
    import keypeg.match as match_module

    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["match", "--seed", "5", "-r", "mini"], input="quit\n").stdout
    match_id = out.rsplit("--resume", 1)[1].split()[0]

    def stale(store, match):
        raise match_module.MatchStateError("the match was changed meanwhile (in another "
                                           "window?); reload it and play on.")

    monkeypatch.setattr(match_module, "save_match", stale)
    result = run(["match", "--resume", match_id], input="1234\nquit\n")
    assert result.exit_code == 2 and "reload" not in result.output
    assert f"keypeg match --resume {match_id}" in result.output.rsplit("error:", 1)[1]


def test_play_under_noise_words(tmp_path, monkeypatch):
    """lies:0 warned that answers may be wrong; under noise every code may stay, so the
    hint's 'it leaves at most N codes' was wrong, and cut gave counts alone."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["play", "--noise", "lies:0", "--seed", "1"], input="quit\n").stdout
    assert "may be wrong" not in out
    out = run(["assist", "--noise", "symmetric:0"], input="quit\n").stdout
    assert "may be wrong" not in out
    out = run(["play", "--noise", "symmetric:0.1", "--seed", "1"],
              input="1122\ncut 1234\nhint\nquit\n").stdout
    assert "may be wrong" in out and "leaves at most" not in out
    assert "by their true answer; the chance of each" in out
    assert "chance it is the secret" in out
    assert "Note:" not in out  # (10 % is high but not past a caution)
    # (a rate that makes answers more often wrong than right is taken, with a caution)
    import warnings

    from keypeg.errors import NoiseCaution

    with warnings.catch_warnings():  # (the commands say it in a Note, not the warning too)
        warnings.simplefilter("error", NoiseCaution)
        out = run(["play", "--noise", "symmetric:0.95", "--seed", "1"], input="quit\n").stdout
        assert "Note: with symmetric:0.95 a wrong answer is likelier than the true one" in out
        out = run(["assist", "--noise", "symmetric:0.6"], input="quit\n").stdout
    assert "Note: with symmetric:0.6 an answer is more often wrong than right" in out
    # (the command says it once, in its words: not the library's warning beside it)
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "keypeg", "assist", "--noise",
                           "symmetric:0.95"], input="quit\n", capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.count("likelier than the true one") == 1, done.stdout
    assert "NoiseCaution" not in done.stderr + done.stdout


def test_evaluate_names_what_the_information_player_needs():
    # (it was "unknown strategy 'information'", though evaluate --prior/--noise plays it)
    err = one_sentence_error(run(["evaluate", "-s", "information"]))
    assert "'information' plays under a belief: add --prior or --noise" in err
    data = json.loads(run(["evaluate", "--rules", "mini", "-s", "information", "--noise",
                           "exact", "--json"]).stdout)
    assert data[0]["strategy"] == "information"


def test_assist_under_noise_takes_a_win_as_a_win(tmp_path, monkeypatch):
    """With --noise, assist said 'Solved' for 1234=4B and again for 1111=4B after it: a
    win ends a game, so the second is a contradiction, offered for repair."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["assist", "--noise", "symmetric:0.05"],
              input="1234 4B\n1111 4B\n\nquit\n").stdout
    assert "Solved in 1 guess" in out and "Solved in 2 guesses" not in out
    assert "Contradiction" in out


def test_assist_under_noise_refuses_clues_after_a_win_and_names_the_one_code(tmp_path,
                                                                           monkeypatch):
    """Under noise a clue after a win was recorded after 'Solved', and the hint then said
    'try 1111', a code that cannot be the secret; with one code left (a prior of two codes,
    one ruled out) the entropy row named another. symmetric:0 never errs: it gets the
    optimal hint as exact answers do (it had been 'for trusted answers only')."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["assist", "--rules", "mini", "--noise", "symmetric:0.1"],
              input="1122 4B0W\n2222 1B0W\nhistory\nhint\nquit\n").stdout
    assert "clue 1 (1122 4B0W) won the game: the secret is 1122" in out
    assert "2. 2222" not in out and "cannot be the secret" not in out
    prior = tmp_path / "p.csv"
    prior.write_text("13,1\n31,1\n")
    out = run(["assist", "--pegs", "2", "--colors", "3", "--noise", "symmetric:0.1",
               "--prior", f"file:{prior}"], input="13 0B0W\nquit\n").stdout
    rows = [line.split() for line in out.splitlines()
            if line.split()[:1] in (["information"], ["entropy"], ["maxsize"], ["parts"])]
    assert len(rows) == 4 and all(row[1] == "31" for row in rows), out
    out = run(["assist", "--pegs", "2", "--colors", "3", "--noise", "symmetric:0"],
              input="12 0B1W\nhint\nquit\n").stdout
    assert "the optimal guess" in out and "trusted answers only" not in out


def test_lies_say_a_share_of_codes_not_a_chance(tmp_path, monkeypatch):
    """lies:K has no probabilities: 'the likeliest wrong one is clue 1, at 78%' was the
    share of the codes left (each counted alike) under which clue 1 is a lie."""
    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    out = run(["assist", "--rules", "mini", "--noise", "lies:1"],
              input="1122 1B1W\nquit\n").stdout
    assert "chance each clue was misreported" not in out and "likeliest wrong" not in out
    assert "share of the codes still possible under which each clue is a lie: 1: 78%" in out
    # more lies allowed than clues: every code but 1122 (a win is told truly) fits
    text = " ".join(run(["solve", "--rules", "mini", "--noise", "lies:3", "1122=1B1W"]
                        ).stdout.split())
    assert text.startswith("255 codes fit with the clue a lie (noise lies:3)"), text
    assert "of the one clue" not in text
    # under a prior the optimal guess is the fewest expected guesses, not "on average"
    prior = tmp_path / "p.csv"
    prior.write_text("13,1\n31,1\n12,2\n")
    out = run(["assist", "--pegs", "2", "--colors", "3", "--prior", f"file:{prior}"],
              input="hint\nquit\n").stdout
    assert "the optimal guess: fewest expected guesses under the prior" in out


def test_cut_says_how_much_the_answer_tells(tmp_path, monkeypatch):
    """No command showed a guess's information in bits; cut does, checked against the
    entropy of the naive partition (exact answers: the information is that entropy)."""
    import math

    monkeypatch.setenv("KEYPEG_DB", str(tmp_path / "k.db"))
    codes = naive.all_codes(4, 4)
    left = [c for c in codes if naive.blackwhite(c, (0, 0, 1, 1)) == (1, 1)]
    parts: dict = {}
    for c in left:
        key = naive.blackwhite(c, (0, 1, 2, 3))
        parts[key] = parts.get(key, 0) + 1
    bits = -sum(n / len(left) * math.log2(n / len(left)) for n in parts.values())
    out = run(["assist", "--rules", "mini"], input="1122 1B1W\ncut 1234\nquit\n").stdout
    assert (f"its answer tells {bits:.3f} of the {math.log2(len(left)):.3f} bits missing "
            "(information gain)") in out
    out = run(["assist", "--rules", "mini", "--noise", "symmetric:0.1"],
              input="1122 1B1W\ncut 1234\nquit\n").stdout
    assert "the rest being noise" in out


def test_evaluate_under_a_belief_refuses_sample_rather_than_ignore_it():
    """--sample with --prior or --noise was ignored: the result was exact over every
    secret, with "approximate": false."""
    for belief in (["--noise", "symmetric:0.1"], ["--prior", "pin"]):
        rules = ["--rules", "mini"] if belief[0] == "--noise" else ["--pegs", "3", "--digits",
                                                                   "--colors", "10"]
        err = one_sentence_error(run(["evaluate", *rules, *belief, "-s", "entropy",
                                      "--sample", "40", "--json"]))
        assert "leave out --sample" in err


def test_evaluate_and_optimal_print_the_mean_alike():
    """evaluate's table gave 4.476 where optimal and tree show give four decimals."""
    total = CLASSIC_TABLE["all_probes"]["maxsize"]["total"]
    shown = run(["evaluate", "-s", "maxsize"]).stdout
    assert f"{total / 1296:.4f}" in shown
    best = PUB["ledger"]["totals"]["4"]["6"]
    assert f"{best / 1296:.4f}" in run(["optimal"]).stdout


def test_evaluate_json_says_its_version_and_whose_noise():
    """A researcher's export: the JSON had named no keypeg version, and under --noise said
    "noise" with no word that the answers played were true (the players assume it)."""
    from keypeg import __version__

    exact = json.loads(run(["evaluate", "--rules", "mini", "-s", "maxsize", "--json"]).stdout)
    assert exact[0]["keypeg_version"] == __version__ and exact[0]["total"] == 919
    noisy = json.loads(run(["evaluate", "--pegs", "3", "--colors", "4", "--noise",
                            "symmetric:0.05", "-s", "entropy", "--json"]).stdout)
    assert noisy[0]["note"] == "every answer true; the players assume the noise"
    assert noisy[0]["label"] == "bayes-entropy" and noisy[0]["keypeg_version"] == __version__


def test_evaluate_json_gives_the_options_as_fields():
    """A researcher's export: a strategy's options (tie rule, possible-only, entropy
    spelling, first guess, seed) had been only in its label's words."""
    rows = json.loads(run(["evaluate", "--rules", "mini", "-s", "entropy", "--tie", "last",
                           "--possible-only", "--entropy", "plog2p", "--first", "1122",
                           "--json"]).stdout)
    assert rows[0]["options"] == {"entropy": "plog2p", "possible_only": True, "tie": "last",
                                  "first": "1122"}
    assert rows[0]["label"] == "entropy (plog2p, possible only, tie last, first 1122)"
    plain = json.loads(run(["evaluate", "--rules", "mini", "-s", "maxsize", "-s", "random",
                            "--seed", "4", "--json"]).stdout)
    assert [r["options"] for r in plain] == [{}, {"seed": 4}]
    sampled = json.loads(run(["evaluate", "--rules", "classic", "-s", "random", "--seed", "2",
                              "--sample", "20", "--json"]).stdout)
    assert sampled[0]["options"] == {"seed": 2}
    noisy = json.loads(run(["evaluate", "--pegs", "3", "--colors", "3", "--noise",
                            "symmetric:0.05", "-s", "entropy", "--json"]).stdout)
    assert noisy[0]["options"] == {}


def test_evaluate_csv_holds_what_the_json_holds():
    """A researcher's export for a spreadsheet: --csv, a column per field, the histogram
    as found_on_N; the published classic totals (seed 001) in it, as in the JSON."""
    import csv
    import io

    out = run(["evaluate", "-s", "maxsize", "-s", "random", "--seed", "3", "--csv"]).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    data = json.loads(run(["evaluate", "-s", "maxsize", "-s", "random", "--seed", "3",
                           "--json"]).stdout)
    assert [r["strategy"] for r in rows] == ["maxsize", "random"]
    assert int(rows[0]["total"]) == CLASSIC_TABLE["all_probes"]["maxsize"]["total"]
    longest = max(len(d["histogram"]) for d in data)
    for row, want in zip(rows, data, strict=True):
        assert (int(row["total"]), float(row["mean"]), int(row["worst"])) == (
            want["total"], want["mean"], want["worst"])
        hist = [int(row[f"found_on_{i}"]) for i in range(1, longest + 1)]
        assert hist == want["histogram"] + [0] * (longest - len(want["histogram"]))
        assert row["approximate"] == "false" and row["rules"] == "classic"
    assert (rows[0]["options.seed"], rows[1]["options.seed"]) == ("", "3")
    sampled = list(csv.DictReader(io.StringIO(run(
        ["evaluate", "-s", "entropy", "--sample", "40", "--seed", "1", "--csv"]).stdout)))
    lo, hi = float(sampled[0]["ci95_low"]), float(sampled[0]["ci95_high"])
    assert lo < float(sampled[0]["mean"]) < hi and sampled[0]["approximate"] == "true"
    both = runner.invoke(app, ["evaluate", "-s", "maxsize", "--json", "--csv"])
    assert both.exit_code == 2 and "give one" in both.output
