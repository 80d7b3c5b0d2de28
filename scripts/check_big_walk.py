"""Check a one-step strategy's whole tree of a big game node by node against the naive reference.

    python scripts/check_big_walk.py TREE --rules mm-6-9 --strategy entropy [--nodes 5] [--seed 7]

TREE is the strategy's tree as keypeg saved it (`keypeg evaluate --rules mm-6-9 -s entropy
--checkpoint DB --save-tree TREE`: from a finished walk's checkpoint it is rebuilt in
seconds). Random secrets are followed down the tree to a node of 3 to 12 candidates below
the first guess; there the plain-Python chooser of `tests/naive.py` scores every code of
the game against the node's candidates (each answer by the naive scorer; about 20 s per
node for MM(6,9)'s 531,441 codes) and its choice is compared with the tree's guess. The
candidates are those of the clues on the path (`GameState`), checked against the node's
size in the tree. `keypeg tree verify TREE` is the other check: the tree replayed over
every secret.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def check(tree_path: Path, rules_name: str, strategy: str, nodes: int, seed: int,
          smallest: int = 3, largest: int = 12) -> list[bool]:
    from tests import naive

    from keypeg.game import GameState
    from keypeg.rules import find_rules
    from keypeg.space import get_space
    from keypeg.tree import DecisionTree

    rules = find_rules(rules_name)
    if rules.feedback != "blackwhite" or not rules.repeats:
        raise SystemExit("this check reads codes as all_codes(pegs, colours) with repeats "
                         "and black/white answers.")
    space = get_space(rules)
    tree = DecisionTree.load(tree_path)
    child = tree.children()
    codes = naive.all_codes(rules.pegs, rules.colors)
    rng = random.Random(seed)
    results: list[bool] = []
    while len(results) < nodes:
        secret = rng.randrange(space.size)
        node, clues = 0, []
        while int(tree.guess[node]) != secret:
            g = int(tree.guess[node])
            size = int(tree.size[node])
            if clues and smallest <= size <= largest:
                state = GameState.from_clues(rules, clues)
                if state.count != size:
                    raise SystemExit(f"the node after {' '.join(clues)} holds {size} secrets "
                                     f"in the tree, but {state.count} codes fit its clues.")
                cands = [codes[c] for c in state.candidates]
                got = codes[g]
                if space.text(g) != "".join(str(x + 1) for x in got):
                    raise SystemExit("the naive codes are not in keypeg's code order.")
                started = time.perf_counter()
                want = naive.naive_choose(codes, cands, strategy, "blackwhite")
                same = want == got
                results.append(same)
                print(f"{size} candidates after {' '.join(clues)}: the tree plays "
                      f"{space.text(g)}, the naive chooser "
                      f"{''.join(str(x + 1) for x in want)}: "
                      f"{'the same' if same else 'DIFFERENT'} "
                      f"({time.perf_counter() - started:.0f} s)", flush=True)
                break
            r = int(space.responses(g, np.array([secret], dtype=np.int32))[0])
            clues.append(f"{space.text(g)}={space.feedback(r)}")
            node = int(child[node, r])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--rules", default="mm-6-9")
    parser.add_argument("--strategy", required=True,
                        choices=["maxsize", "expsize", "entropy", "parts"])
    parser.add_argument("--nodes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    results = check(args.tree, args.rules, args.strategy, args.nodes, args.seed)
    print(f"{sum(results)} of {len(results)} nodes: the tree's guess is the naive choice")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
