import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keypeg._kernels import feedback as kfb
from keypeg.rules import Rules, find_rules
from keypeg.space import CodeSpace, get_space
from tests import naive

SMALL = [
    find_rules("classic"),
    Rules(pegs=3, colors=4),
    pytest.param(find_rules("bulls-and-cows"), marks=pytest.mark.slow),
    Rules(pegs=3, colors=4, feedback="positional"),
    Rules(pegs=3, colors=5, repeats=False, feedback="positional"),
    Rules(pegs=4, colors=3, blanks=True),
]


def naive_table(space):
    codes = [tuple(int(x) for x in row) for row in space.codes]
    alphabet = space.alphabet
    index = {fb.marks: i for i, fb in enumerate(alphabet.responses)}
    model = space.rules.feedback
    if space.size > 2000 and model == "blackwhite":  # the loop would take minutes
        black, white = naive.blackwhite_table(codes, space.rules.symbols)
        lookup = np.full((space.rules.pegs + 1, space.rules.pegs + 1), -1)
        for marks, i in index.items():
            lookup[marks] = i
        return lookup[black, white]
    return np.array([[index[naive.score(s, g, model)] for s in codes] for g in codes])


@pytest.mark.parametrize("rules", [Rules(pegs=3, colors=4), Rules(pegs=4, colors=3, blanks=True),
                                   find_rules("bulls-and-cows")], ids=["p3c4", "blanks", "bulls"])
def test_the_counting_reference_equals_the_board_one(rules):
    """naive.blackwhite_table (numpy, counting colours in common), which stands in for the
    pair-by-pair loop on bulls and cows, agrees with naive.blackwhite (peg by peg) on every
    pair of small games and on 40 guesses against every secret of bulls and cows."""
    codes = naive.all_codes(rules.pegs, rules.symbols, rules.repeats)
    black, white = naive.blackwhite_table(codes, rules.symbols)
    guesses = range(len(codes)) if len(codes) < 1000 else \
        np.random.default_rng(3).choice(len(codes), 40, replace=False)
    for g in guesses:
        want = [naive.blackwhite(s, codes[g]) for s in codes]
        assert list(zip(black[g].tolist(), white[g].tolist(), strict=True)) == want


@pytest.mark.parametrize(
    "rules", SMALL, ids=["classic", "p3c4", "bulls", "pos3c4", "pos3c5norep", "blanks"]
)
def test_table_equals_naive_on_every_pair(rules):
    space = CodeSpace(rules, disk_cache=False)
    assert [tuple(c) for c in space.codes] == naive.all_codes(rules.pegs, rules.symbols,
                                                              rules.repeats)
    table = space.build_table()
    assert np.array_equal(table, naive_table(space))


@pytest.mark.parametrize("rules", [find_rules("super"), find_rules("cb1"), find_rules("cb4"),
                                   Rules(pegs=3, colors=35), Rules(pegs=4, colors=26),
                                   Rules(pegs=4, colors=20, feedback="positional"),
                                   find_rules("mm-6-9"), Rules(pegs=8, colors=4),
                                   Rules(pegs=9, colors=2)],
                         ids=["super", "cb1", "cb4", "many-multisets", "wide-bw", "wide-pos",
                              "mm69", "eight-pegs", "nine-pegs"])
def test_big_spaces_on_random_pairs(rules):
    space = CodeSpace(rules, budget=0)  # no table: answers on the fly
    rng = np.random.default_rng(7)
    guesses = rng.integers(0, space.size, 40)
    secrets = rng.integers(0, space.size, 50).astype(np.int32)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    block = space.block(guesses, secrets)  # the block kernels, row by row
    counts = space.count_matrix(guesses, secrets)  # and the part-count kernels
    for i, g in enumerate(guesses):
        got = space.responses(int(g), secrets)
        want = [naive.score(codes[s], codes[g], rules.feedback) for s in secrets]
        assert [space.feedback(r).marks for r in got] == want
        assert [space.feedback(r).marks for r in block[i]] == want
        index = {space.feedback(r).marks: r for r in range(space.n_responses)}
        assert counts[i].tolist() == np.bincount([index[w] for w in want],
                                                 minlength=space.n_responses).tolist()


@pytest.mark.parametrize("rules", [find_rules("mm-6-9"), Rules(pegs=8, colors=4),
                                   Rules(pegs=9, colors=2), Rules(pegs=5, colors=8),
                                   Rules(pegs=5, colors=7, repeats=False),
                                   Rules(pegs=4, colors=5, blanks=True)],
                         ids=["mm69", "eight-pegs", "nine-pegs", "odd-pegs", "norepeat",
                              "blanks"])
def test_many_probes_by_halves(rules):
    """A block of many probes (as a candidate view builds) is summed from the tables of
    each half's symbols (`block_blackwhite_halves`): every answer equals the per-pair
    kernel's, and a sample of rows the naive scorer's."""
    from keypeg._kernels import feedback as kfb

    space = CodeSpace(rules, budget=0)
    rng = np.random.default_rng(11)
    count = min(space.size, 12_000)
    probes = np.sort(rng.choice(space.size, count, replace=False)).astype(np.int32)
    secrets = rng.choice(space.size, 25, replace=False).astype(np.int32)
    assert space._by_halves(count)  # the path under test
    block = space.block(probes, secrets)
    pairwise = np.empty_like(block)
    kfb.block_blackwhite(space.codes, space.multiset, space.common, space.alphabet.lut,
                         probes, secrets, pairwise)
    assert np.array_equal(block, pairwise)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    for i in rng.choice(count, 150, replace=False):
        want = [naive.score(codes[s], codes[probes[i]], rules.feedback) for s in secrets]
        assert [space.feedback(r).marks for r in block[i]] == want


def test_on_the_fly_equals_table():
    rules = find_rules("cb1")
    small = Rules(pegs=4, colors=5, feedback="positional")
    for r in (small, find_rules("classic")):
        with_table = CodeSpace(r, disk_cache=False)
        fly = CodeSpace(r, budget=0)
        assert with_table.table() is not None and fly.table() is None
        cands = with_table.all()[::3]
        probes = with_table.all()
        assert np.array_equal(with_table.count_matrix(probes, cands),
                              fly.count_matrix(probes, cands))
    assert rules.size == 30240


def test_table_cache_roundtrip(tmp_path, monkeypatch):
    monkeypatch.setenv("KEYPEG_CACHE_DIR", str(tmp_path))
    rules = Rules(pegs=3, colors=5)
    first = CodeSpace(rules).table()
    assert list(tmp_path.glob("table-*.npy"))
    second = CodeSpace(rules).table()
    assert np.array_equal(first, second)


def test_partition_and_filter():
    space = get_space(find_rules("classic"))
    g = space.index("1122")
    parts = space.partition(g, space.all())
    sizes = {str(space.feedback(r)): len(p) for r, p in parts.items()}
    # Knuth's first guess 1122 cuts 1296 codes into 13 parts, the largest 256
    assert len(sizes) == 13 and max(sizes.values()) == 256 and sum(sizes.values()) == 1296
    assert np.array_equal(space.part_sizes(g, space.all())[space.response_index("0B0W")], 256)
    for r, part in parts.items():
        assert np.array_equal(space.filter(space.all(), g, r), part)



def test_a_guess_and_an_answer_may_be_text_or_a_code():
    """The cutting methods take a code as text, `Code` or index and an answer as text,
    as the README's Library section says (they had refused 'a code index is a whole
    number, not 1122'); the parts are the naive scorer's."""
    from keypeg.codes import Code
    space = get_space(find_rules("classic"))
    everything = space.all()
    guess = Code.parse("1122", space.rules)
    expected: dict[tuple[int, int], int] = {}
    for code in naive.all_codes(4, 6):
        key = naive.blackwhite(code, (0, 0, 1, 1))
        expected[key] = expected.get(key, 0) + 1
    for g in ("1122", guess, space.index("1122")):
        parts = space.partition(g, everything)
        got = {(space.feedback(r).black, space.feedback(r).white): len(p)
               for r, p in parts.items()}
        assert got == expected
        assert np.array_equal(space.responses(g, everything),
                              space.responses(space.index("1122"), everything))
        assert space.part_sizes(g, everything).sum() == 1296
        assert len(space.filter(everything, g, "1B1W")) == expected[(1, 1)] == 208
    with pytest.raises(ValueError, match="has 5 symbols"):
        space.partition("12345", everything)
    with pytest.raises(ValueError, match="5 key pegs"):
        space.filter(everything, "1122", "5B")

clue_rules = st.sampled_from([find_rules("classic"), find_rules("bulls-and-cows"),
                              Rules(pegs=4, colors=4, feedback="positional")])


@settings(max_examples=40, deadline=None)
@given(clue_rules.flatmap(lambda r: st.tuples(
    st.just(r), st.lists(st.tuples(st.integers(0, r.size - 1), st.integers(0, r.size - 1)),
                         min_size=1, max_size=3))))
def test_filtering_matches_naive(case):
    rules, pairs = case
    space = get_space(rules)
    codes = [tuple(int(x) for x in row) for row in space.codes]
    clues = [(codes[g], naive.score(codes[s], codes[g], rules.feedback)) for g, s in pairs]
    index = {fb.marks: i for i, fb in enumerate(space.alphabet.responses)}
    cands = space.all()
    for (g, _), (_, marks) in zip(pairs, clues, strict=True):
        cands = space.filter(cands, g, index[marks])
    assert [codes[i] for i in cands] == naive.naive_filter(codes, clues, rules.feedback)


@pytest.mark.parametrize("rules", [find_rules("classic"), find_rules("bulls-and-cows"),
                                   Rules(pegs=4, colors=3, blanks=True),
                                   Rules(pegs=2, colors=18, feedback="positional"),
                                   Rules(pegs=2, colors=30, repeats=False)],
                         ids=["classic", "bulls", "blanks", "wide-pos", "no-repeat-wide"])
@pytest.mark.parametrize("marked", [True, False], ids=["marked", "sorted"])
def test_code_stats_equal_plain_python(rules, marked, monkeypatch):
    """The per-code tables a space builds in one compiled pass (`kfb.code_stats`,
    `kfb.multisets`) against plain Python: symbol counts, their 4-bit packing, symbol mask,
    base-n value, the multisets numbered in order of their sorted symbols, and
    the pegs two multisets share; multisets numbered both ways `kfb.multisets` can."""
    monkeypatch.setattr(kfb, "MARKED_KEYS", 2**20 if marked else -(2**62))
    space = CodeSpace(rules, disk_cache=False)
    n = rules.symbols
    codes = naive.all_codes(rules.pegs, n, rules.repeats)
    sorted_sets = sorted({tuple(sorted(c)) for c in codes})
    number = {m: i for i, m in enumerate(sorted_sets)}
    for i, code in enumerate(codes):
        assert space.counts[i].tolist() == [code.count(c) for c in range(n)]
        assert int(space.packed[i]) == (sum(code.count(c) << (4 * c) for c in range(n))
                                        if n <= kfb.PACKED_SYMBOLS else 0)
        assert int(space.colmask[i]) == sum(1 << c for c in set(code))
        assert int(space._values[i]) == sum(c * n ** (rules.pegs - 1 - k)
                                            for k, c in enumerate(code))
        assert int(space.multiset[i]) == number[tuple(sorted(code))]
    for a, sa in enumerate(sorted_sets):
        for b, sb in enumerate(sorted_sets):
            assert int(space.common[a, b]) == sum(min(sa.count(c), sb.count(c))
                                                  for c in range(n))


@pytest.mark.parametrize("env", [None, "1"])
def test_numpy_huge_pages_are_off_once_the_space_module_loads(env):
    """keypeg.pages: numpy's advice for huge pages made keypeg's fresh big arrays several
    times slower to fill here (codebreaker-1's optimum 15.4 s against 4.3 s); importing
    keypeg.space turns it off, and KEYPEG_HUGE_PAGES=1 keeps numpy's own."""
    import os
    import subprocess
    import sys

    script = ("from keypeg.pages import huge_pages_advised as a; before = a(); "
              "import keypeg.space; print(before, a())")
    environ = {k: v for k, v in os.environ.items() if k != "KEYPEG_HUGE_PAGES"}
    if env is not None:
        environ["KEYPEG_HUGE_PAGES"] = env
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=60, env=environ).stdout.split()
    default = out[0] == "True"  # (numpy's: on under Linux)
    assert out[1] == str(default if env == "1" else False)
    assert default or sys.platform != "linux"  # (the check above checked something)


def test_a_full_table_is_made_on_huge_pages_and_other_arrays_are_not(monkeypatch):
    """keypeg.pages: numpy's huge-page advice is on while a full table is built or loaded
    (every search reads it at random: a warm MM(4,6) search took 46 ms with huge pages and
    57 ms without), off again after it, and off meanwhile for another thread's arrays once
    the table's thread has left."""
    import threading

    from keypeg.pages import huge_pages, huge_pages_advised

    seen = []
    real = CodeSpace._load_or_build_table

    def watched(self):
        seen.append(huge_pages_advised())
        return real(self)

    monkeypatch.setattr(CodeSpace, "_load_or_build_table", watched)
    assert not huge_pages_advised()
    space = CodeSpace(Rules(pegs=3, colors=4), disk_cache=False)
    assert space.table() is not None and seen == [True]
    assert not huge_pages_advised()
    # two threads inside: the advice stays on until the last one leaves
    inside, release = threading.Event(), threading.Event()

    def other():
        with huge_pages():
            inside.set()
            release.wait(10)

    worker = threading.Thread(target=other)
    with huge_pages():
        worker.start()
        assert inside.wait(10)
    assert huge_pages_advised()
    release.set()
    worker.join(10)
    assert not huge_pages_advised()
