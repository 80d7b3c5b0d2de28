"""Beliefs: priors, noise models and the posterior, against a plain Bayes update."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keypeg.belief import Lies, PinPrior, parse_noise, prior_weights
from keypeg.errors import InconsistentHistoryError, KeypegError
from keypeg.feedback import Feedback
from keypeg.game import GameState
from keypeg.rules import Rules, find_rules
from keypeg.space import get_space
from tests import naive

GAMES = [
    Rules(pegs=3, colors=3),
    Rules(pegs=2, colors=4),
    Rules(pegs=3, colors=3, feedback="positional"),
    Rules(pegs=3, colors=4, repeats=False, feedback="positional"),
]


def fb_text(marks: tuple[int, ...], rules: Rules) -> str:
    if rules.feedback == "blackwhite":
        return f"{marks[0]}B{marks[1]}W"
    return str(Feedback.positional(marks))


def code_text(code: tuple[int, ...]) -> str:
    return "".join(str(x + 1) for x in code)


@st.composite
def histories(draw: st.DrawFn):
    rules = draw(st.sampled_from(GAMES))
    codes = naive.all_codes(rules.pegs, rules.symbols, rules.repeats)
    answers = naive.naive_answers(rules.pegs, rules.symbols, rules.feedback, rules.repeats)
    noise = draw(st.sampled_from(["exact", "symmetric", "per-peg"]
                                 if rules.feedback == "positional" else ["exact", "symmetric"]))
    eps = 0.0 if noise == "exact" else draw(st.sampled_from([0.0, 0.01, 0.2, 0.5]))
    secret = draw(st.sampled_from(codes))
    clues = []
    for _ in range(draw(st.integers(0, 6))):
        guess = draw(st.sampled_from(codes))
        reported = naive.score(secret, guess, rules.feedback)
        if noise != "exact" and draw(st.integers(0, 3)) == 0:
            reported = draw(st.sampled_from(answers))  # a misreport (maybe the truth)
        clues.append((guess, reported))
    prior = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=len(codes),
                          max_size=len(codes)).filter(lambda w: sum(w) > 0))
    return rules, codes, answers, noise, eps, clues, prior


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(histories(), st.booleans())
def test_posterior_equals_the_plain_bayes_update(case, uniform):
    rules, codes, answers, noise, eps, clues, prior = case
    if uniform:
        prior = [1.0] * len(codes)
    want = naive.naive_posterior(codes, prior, clues, rules.feedback, noise, eps, answers)
    spec = "exact" if noise == "exact" else f"{noise}:{eps}"
    texts = [f"{code_text(g)}={fb_text(r, rules)}" for g, r in clues]
    if not want:
        with pytest.raises(InconsistentHistoryError):
            GameState.from_clues(rules, texts, prior=None if uniform else np.array(prior),
                                 noise=spec)
        return
    state = GameState.from_clues(rules, texts, prior=None if uniform else np.array(prior),
                                 noise=spec)
    space = state.space
    got = {tuple(int(x) for x in space.codes[i]): float(p)
           for i, p in zip(state.candidates, state.posterior, strict=True) if p > 0}
    assert set(got) == set(want)
    for code, p in want.items():
        assert got[code] == pytest.approx(p, rel=1e-9, abs=1e-300)
    assert state.entropy == pytest.approx(-sum(p * math.log2(p) for p in want.values()))


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(histories(), st.integers(0, 2))
def test_lies_keep_the_codes_that_contradict_at_most_k_clues(case, k):
    rules, codes, _answers, _noise, _eps, clues, _prior = case
    want = naive.naive_liars(codes, clues, rules.feedback, k)
    texts = [f"{code_text(g)}={fb_text(r, rules)}" for g, r in clues]
    if not want:
        with pytest.raises(InconsistentHistoryError, match=f"lies:{k}"):
            GameState.from_clues(rules, texts, noise=f"lies:{k}")
        return
    state = GameState.from_clues(rules, texts, noise=f"lies:{k}")
    space = state.space
    assert [tuple(int(x) for x in space.codes[i]) for i in state.candidates] == want


def test_eps_zero_and_exact_are_todays_filtering():
    classic = find_rules("classic")
    clues = ["1122=1B1W", "3456=0B2W", "1345=1B1W"]
    plain = GameState.from_clues(classic, clues)
    for noise in ("exact", "symmetric:0", "lies:0"):
        state = GameState.from_clues(classic, clues, noise=noise)
        assert np.array_equal(state.candidates, plain.candidates), noise
        assert state.entropy == pytest.approx(plain.bits)
    assert plain.weights is None and plain.doubts() == [0.0, 0.0, 0.0]


def test_lies_find_the_secret_and_name_the_wrong_clue():
    """Secret 1234; the third answer is misreported. With lies:1 the secret stays, and the
    clue with the most doubt is the wrong one."""
    classic = find_rules("classic")
    truth = [("1122", "1234"), ("3456", "1234"), ("1314", "1234"), ("2142", "1234"),
             ("4231", "1234"), ("1243", "1234")]
    state = GameState.start(classic, noise="lies:1")
    from keypeg.codes import Code
    from keypeg.feedback import score

    for i, (guess, secret) in enumerate(truth):
        fb = score(Code.parse(secret, classic).symbols, Code.parse(guess, classic).symbols,
                   classic)
        text = str(fb) if i != 2 else "0B0W"  # the lie
        state = state.after(guess, text)
    assert state.is_candidate("1234")
    doubts = state.doubts()
    assert max(range(len(doubts)), key=doubts.__getitem__) == 2
    with pytest.raises(InconsistentHistoryError, match="even with 0 of them wrong"):
        GameState.from_clues(classic, ["1122=1B1W", "1122=0B0W"], noise="lies:0")


def test_top_and_posterior_under_a_prior():
    bulls = find_rules("bulls")
    state = GameState.start(bulls, prior="pin")
    top = state.top(3)
    assert top[0][0] in ("0123", "1234", "9876", "6789")  # runs weigh most among distinct
    assert sum(p for _, p in state.top(10**6)) == pytest.approx(1.0)
    assert state.entropy < math.log2(5040)


def test_pin_prior_features():
    pin = PinPrior()
    assert pin.features([0, 0, 0, 0]) == ["same"]
    assert pin.features([1, 2, 3, 4]) == ["run"]
    assert pin.features([9, 8, 7, 6]) == ["run"]
    assert pin.features([1, 2, 1, 2]) == ["pairs", "date"]  # 12 Dec / Dec 12
    assert "year" in pin.features([1, 9, 8, 4])
    assert "date" in pin.features([2, 5, 1, 2]) and "date" not in pin.features([3, 2, 1, 3])
    assert "keypad" in pin.features([2, 5, 8, 0]) and "keypad" in pin.features([1, 4, 7])
    assert pin.weight([0, 0, 0, 0]) == pin.same
    assert PinPrior(year=20).weight([1, 9, 8, 5]) == 20  # 1985: a year, no other feature
    assert PinPrior(same=2, keypad=3).weight([5, 5, 5]) == 2


@pytest.mark.parametrize("text,message", [
    ("symmetric:1", "0 <= EPS < 1"),
    ("symmetric:-0.1", "0 <= EPS < 1"),
    ("symmetric:x", "unknown noise"),
    ("lies:-1", "K >= 0"),
    ("lies", "unknown noise"),
    ("gaussian:0.1", "unknown noise"),
])
def test_bad_noise_is_one_sentence(text, message):
    with pytest.raises(KeypegError, match=message):
        parse_noise(text)


def test_per_peg_needs_positional_feedback():
    with pytest.raises(KeypegError, match="positional"):
        GameState.start(find_rules("classic"), noise="per-peg:0.1")


def test_prior_files(tmp_path):
    classic = find_rules("classic")
    space = get_space(classic)
    good = tmp_path / "prior.csv"
    good.write_text("code,weight\n1122,3\n3456,1\n")
    w = prior_weights(space, f"file:{good}")
    assert w[space.index("1122")] == pytest.approx(0.75) and np.count_nonzero(w) == 2
    state = GameState.start(classic, prior=f"file:{good}")
    assert state.count == 2 and state.top(1) == [("1122", 0.75)]
    for body, message in [("1129,1\n", "unknown symbol"), ("1122,-1\n", "negative"),
                          ("1122,0\n", "weight 0"), ("1122\n", "one code and its weight"),
                          ("1122,abc\n", "line 1: the weight .abc. is not a number")]:
        bad = tmp_path / "bad.csv"
        bad.write_text(body)
        with pytest.raises(KeypegError, match=message):
            prior_weights(space, f"file:{bad}")
    with pytest.raises(KeypegError, match="does not exist"):
        prior_weights(space, f"file:{tmp_path / 'nope.csv'}")
    with pytest.raises(KeypegError, match="digit games"):
        prior_weights(space, "pin")
    with pytest.raises(KeypegError, match="unknown prior"):
        prior_weights(space, "zipf")


def test_a_prior_file_under_the_home_folder(tmp_path, monkeypatch):
    """file:~/x.csv was read as a folder named ~ (review)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "prior.csv").write_text("1122,3\n3456,1\n")
    w = prior_weights(get_space(find_rules("classic")), "file:~/prior.csv")
    assert np.count_nonzero(w) == 2


def test_a_prior_that_excludes_every_fitting_code():
    classic = find_rules("classic")
    only = np.zeros(1296)
    only[0] = 1.0  # only 1111
    with pytest.raises(InconsistentHistoryError, match="prior"):
        GameState.from_clues(classic, ["1122=0B0W"], prior=only)


def test_noise_survives_a_contradiction():
    classic = find_rules("classic")
    with pytest.raises(InconsistentHistoryError):
        GameState.from_clues(classic, ["1122=1B1W", "1122=0B0W"])
    state = GameState.from_clues(classic, ["1122=1B1W", "1122=0B0W"], noise="symmetric:0.05")
    doubts = state.doubts()
    # every code breaks one of them; all stay but 1122 (answered with no win, it is none)
    assert state.count == 1295 and not state.is_candidate("1122")
    assert sum(doubts) >= 1 - 1e-9
    assert all(0 < d < 1 for d in doubts)
    assert isinstance(parse_noise("lies:2"), Lies)


def test_information_does_not_repeat_a_guess_that_ties_with_a_new_one():
    """Under lies:5 after three answers every code is still possible and every guess tells
    as little: the hint named 01234, played first (the first code won the tie)."""
    from keypeg.bayes import belief_choices

    state = GameState.start("codebreaker-1", noise="lies:5")
    for guess, answer in (("01234", "GA---"), ("56789", "-A-A-"), ("13579", "A-G--")):
        state = state.after(guess, answer)
    assert state.count == 30240 - 3  # (all but the three guesses: none was a win)
    chosen = state.space.text(belief_choices(state, ["information"])[0]["information"])
    assert chosen not in {"01234", "56789", "13579"}


def test_one_code_left_is_zero_bits_not_minus_zero():
    """'keypeg solve 1111=4B0W --noise symmetric:0' printed '-0.00 bits still missing'."""
    import math

    from keypeg.game import GameState

    state = GameState.start("classic", noise="symmetric:0").after("1111", "4B0W")
    assert state.count == 1 and math.copysign(1.0, state.bits) == 1.0
    assert f"{state.bits:.2f}" == "0.00"


def test_lies_take_a_whole_number():
    """lies:1.5 was 'an unknown noise model', as if lies were not one."""
    from keypeg.belief import parse_noise

    with pytest.raises(KeypegError, match="lies:K takes a whole number of lies K, not '1.5'"):
        parse_noise("lies:1.5")


def test_prior_file_duplicates_signs_huge_weights_and_a_byte_order_mark(tmp_path):
    """A code listed twice was summed (a negative weight could pass with a second line);
    two weights of 1e308 overflowed to 'no code the prior allows'; Excel's byte-order mark
    broke the header; a bad weight's error named neither its line nor its code."""
    import warnings

    space = get_space(Rules(pegs=2, colors=3))
    path = tmp_path / "prior.csv"

    def weights(body: str | bytes) -> np.ndarray:
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (an overflow warned, then misled)
            w = prior_weights(space, f"file:{path}")
        assert w is not None
        return w

    with pytest.raises(KeypegError, match="code 11 is listed twice, on lines 2 and 3"):
        weights("code,weight\n11,1\n11,2\n")
    with pytest.raises(KeypegError, match="line 1: the weight '-1' of 11 is negative"):
        weights("11,-1\n11,2\n")
    with pytest.raises(KeypegError, match="line 2: the weight 'nan' of 12 is not a finite"):
        weights("11,1\n12,nan\n")
    w = weights("11,1e308\n12,1e308\n")
    assert w[space.index("11")] == w[space.index("12")] == 0.5
    w = weights("\ufeffcode,weight\n11,3\n12,1\n".encode())
    assert w[space.index("11")] == 0.75
    state = GameState.start(space.rules, prior=f"file:{path}")
    assert state.top(1) == [("11", 0.75)]


def test_library_priors_mappings_and_bad_weights():
    """A mapping raised a raw TypeError, a callable's text weight a raw ValueError, and a
    NaN weight was not called out as such."""
    from keypeg.codes import Code

    rules = Rules(pegs=2, colors=3)
    state = GameState.start(rules, prior={"11": 1})
    assert state.count == 1 and state.top(1) == [("11", 1.0)]
    state = GameState.start(rules, prior={"11": 1, Code.parse("12", rules): 3})
    assert state.top(2) == [("12", 0.75), ("11", 0.25)]
    for prior, message in [
        ({"11": 1, Code.parse("11", rules): 2}, "gives code 11 two weights"),
        ({"14": 1}, "lists '14', not a code of these rules"),
        ({"11": "x"}, "gives code 11 the weight 'x', which is not a number"),
        ({"11": -1}, "gives code 11 the weight -1.0, which is negative"),
        ({"11": 0}, "every code weight 0"),
        (lambda code: "x", "gives code 11 the weight 'x', which is not a number"),
        (lambda code: float("nan"), "code 11 the weight nan, which is not a finite number"),
        (np.full(9, np.nan), "code 11 the weight nan, which is not a finite number"),
        (["a"] * 9, "a prior array needs one number per code"),
    ]:
        with pytest.raises(KeypegError, match=message):
            GameState.start(rules, prior=prior)


def test_noise_labels_read_back_as_the_same_model():
    """symmetric:0.9999999999999999 was labelled 'symmetric:1', which the parser refuses."""
    for text in ("symmetric:0.9999999999999999", "symmetric:0.05", "symmetric:0",
                 "per-peg:0.30000000000000004", "per-peg:0.02"):
        model = parse_noise(text)
        assert str(model) == text and parse_noise(str(model)) == model
    assert str(parse_noise("symmetric:1e-20")) == "symmetric:1e-20"


def test_solve_shows_small_probabilities():
    """Every likely code of a 531,441-code game read '0.0%'."""
    from typer.testing import CliRunner

    from keypeg.cli import app

    result = CliRunner().invoke(app, ["solve", "--rules", "MM(2,3)", "12=1B0W",
                                      "--noise", "symmetric:0.001"])
    assert result.exit_code == 0, result.output
    assert "0.0%" not in result.output
    text = " ".join(result.output.split())
    # by hand: MM(2,3) has 5 answers; 12 is out (no win), the 4 codes answering 1B0W (11,
    # 13, 22, 32) weigh 0.999, the 4 others 0.001 / 3 (3: the answers neither true nor a
    # win) each: 0.001 / 3 / (4 x 0.999 + 4 x 0.001 / 3) = 0.00834 %, all 4 0.0334 %
    assert "21 0.00834%" in text and "wrong with probability 0.0334%" in text


def test_simulated_noise_is_the_noise_the_beliefs_assume():
    """misreport never told a win falsely and zeroed that chance, so answers were wrong
    less often than EPS (4.6 % at 5 %), while the beliefs assumed a win could be misread."""
    from keypeg.belief import Symmetric, misreport

    space = get_space(find_rules("classic"))
    rng = np.random.default_rng(7)
    true = space.response_index(Feedback.parse("1B1W", space.rules))
    drawn = np.array([misreport(space, Symmetric(0.2), true, rng) for _ in range(80_000)])
    assert not (drawn == space.win).any()
    wrong = float((drawn != true).mean())
    assert abs(wrong - 0.2) < 4 * (0.2 * 0.8 / drawn.size) ** 0.5  # (it was 0.1875)
    assert misreport(space, Symmetric(0.2), space.win, rng) == space.win


def test_a_noise_rate_past_usual_gets_a_caution():
    """symmetric:0.95 had been taken without a word, though a wrong answer is then likelier
    than the true one. Classic has 14 answers: symmetric noise spreads EPS over the 12 that
    are neither true nor the win, so the true answer (1 - EPS) is less likely than one
    wrong answer (EPS / 12) past EPS = 12/13 = 0.923; past 0.5 it is wrong more often."""
    from keypeg.belief import noise_caution

    space = get_space(find_rules("classic"))
    assert space.n_responses == 14
    for eps in (0.0, 0.05, 0.49):
        assert noise_caution(parse_noise(f"symmetric:{eps}"), space) is None
    for eps in (0.51, 0.92):
        assert "more often wrong than right" in noise_caution(
            parse_noise(f"symmetric:{eps}"), space)
    assert "a wrong answer is likelier than the true one" in noise_caution(
        parse_noise("symmetric:0.93"), space)
    assert noise_caution(parse_noise("lies:3"), space) is None
    assert noise_caution(parse_noise("exact"), space) is None
    # (per-peg, three marks: a mark is told truly with 1 - EPS, as each other mark with
    # EPS / 2, so one wrong mark is likelier past EPS = 2/3)
    cb = get_space(find_rules("codebreaker-1"))
    assert "likelier than the true one" in noise_caution(parse_noise("per-peg:0.7"), cb)
    assert "likelier" not in (noise_caution(parse_noise("per-peg:0.6"), cb) or "")


def test_the_library_warns_of_a_noise_rate_past_usual():
    """GameState.start took symmetric:0.95 without a word (the CLI says a Note)."""
    import warnings

    from keypeg.errors import NoiseCaution

    with pytest.warns(NoiseCaution, match="With symmetric:0.95 a wrong answer is likelier"):
        GameState.start(find_rules("classic"), noise="symmetric:0.95")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GameState.start(find_rules("classic"), noise="symmetric:0.05")
        GameState.start(find_rules("classic"), noise="lies:2")
        # (a caller that says it in its own words, as play, assist and the web API do)
        GameState.start(find_rules("classic"), noise="symmetric:0.95", warn=False)
