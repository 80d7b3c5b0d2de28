"""The terminal sessions behind `keypeg play` (you break the computer's secret) and
`keypeg assist` (you play on a real board and keypeg follows along). Loaded only when a
session starts (the command definitions in `interactive` stay light for --help)."""

from collections.abc import Sequence

import numpy as np
from rich.markup import escape
from rich.table import Table

from ..belief import Lies, NoiseModel, draw_secret, misreport, noise_caution
from ..codes import Code, allowed_text, example_code
from ..errors import InconsistentHistoryError, KeypegError
from ..feedback import answer_legend, example_answer, score
from ..game import Clue, GameState
from ..hints import Hint, cut, hint
from ..limits import check_seed, percent, plural, shorten
from ..rules import Rules
from ..space import CodeSpace
from .common import (
    QUIT_WORDS,
    ask,
    console,
    gives_up,
    load_space,
    not_a_code,
    shown_name,
    tell,
)

#: Whether this process has given a hint yet (the first may compile the kernels).
_HINTED = [False]


#: Seconds the first hint of a process runs before its spinner says why it may be slow.
COMPILE_NOTE_SECONDS = 4.0


def thinking_hint(state: GameState, **options: object) -> Hint:
    """Return the hint for `state`, with a spinner while it is computed. The first hint of
    a fresh install compiles the kernels, which takes a minute or two: the spinner says so
    when a process's first hint runs past `COMPILE_NOTE_SECONDS` (said at once, it blamed
    a fresh install on every warm run)."""
    import threading

    with console.status("thinking") as status:
        note = threading.Timer(COMPILE_NOTE_SECONDS, lambda: status.update(
            "thinking (a first hint after installing also compiles the kernels: a minute "
            "or two)"))
        if not _HINTED[0]:
            note.daemon = True
            note.start()
        try:
            found = hint(state, **options)  # type: ignore[arg-type]
        finally:
            note.cancel()
    _HINTED[0] = True
    return found


def show_hint(state: GameState, history: Sequence[Clue] = (), **options: object) -> None:
    """Print the hint for `state`; Ctrl-C while it is worked out cancels the hint, not the
    session (it ended the game, and assist lost every clue typed)."""
    try:
        found = thinking_hint(state, **options)
    except KeyboardInterrupt:
        console.print("Hint cancelled.")
        return
    print_hint(found, history)


def print_hint(h: Hint, history: Sequence[Clue] = ()) -> None:
    """Print a hint: count, bits, the candidates when few, the recommended guess, then each
    strategy's guess, strongest first (clues named from `history`)."""
    console.print(f"  [bold]{plural(h.count, 'code')}[/] still possible, "
                  f"{h.bits:.2f} bits missing.")
    if h.candidates is not None and h.likely is None:
        console.print("  possible: " + " ".join(h.candidates))
    print_belief(h, history)
    best = h.recommended
    if best is not None:
        why = (("the optimal guess: fewest guesses on average" if h.likely is None else
                "the optimal guess: fewest expected guesses under the prior")
               if best is h.optimal else f"{best.name}'s guess")
        leaves = (f"; it leaves at most {plural(best.largest_part, 'code')}"
                  if h.likely is None else "")  # (under noise or a prior: every code may stay)
        console.print(f"  try [bold]{best.guess}[/] ({why}{leaves}).")
    if h.strategies:
        table = Table(box=None, padding=(0, 2), show_header=True, header_style="dim")
        table.add_column("strategy")
        table.add_column("would play")
        # (under a prior or noise the strategies weigh the codes: the chance that a guess
        # wins says more than a count of codes, and under noise every code may stay)
        weighed = h.likely is not None
        table.add_column("chance it is the secret" if weighed else "largest part",
                         justify="right")
        for s in [*([h.optimal] if h.optimal else []), *h.strategies]:
            mark = "" if s.possible else " [dim](cannot be the secret)[/]"
            table.add_row(s.name, s.guess + mark, percent(s.chance or 0.0) if weighed
                          else f"{s.largest_part:,}")
        console.print(table)
    if h.optimal_note:
        console.print(f"  [dim]optimal: {escape(h.optimal_note)}[/]")
    if h.note:
        console.print(f"  [dim]{escape(h.note)}[/]")


def print_belief(h: Hint, history: Sequence[Clue] = ()) -> None:
    """Under a prior or noise: the likeliest secrets, and how doubtful each clue is."""
    if h.likely is not None:
        console.print("  most likely: " + ", ".join(f"{c} {percent(p)}" for c, p in h.likely[:6]))
    if h.doubts and max(h.doubts) >= 0.005:
        shown = ", ".join(f"{i + 1}: {d:.0%}" for i, d in enumerate(h.doubts))
        worst = max(range(len(h.doubts)), key=h.doubts.__getitem__)
        named = f" ({history[worst]})" if worst < len(history) else ""
        if h.noise.startswith("lies"):
            # (lies:K gives no probabilities: a share of the codes, each counted alike, had
            # been called the chance a clue was a lie)
            console.print(f"  share of the codes still possible under which each clue is a "
                          f"lie: {shown}; most often clue {worst + 1}{named}, for "
                          f"{h.doubts[worst]:.0%} of them.")
        else:
            console.print(f"  chance each clue was misreported: {shown}; the likeliest "
                          f"wrong one is clue {worst + 1}{named}, at {h.doubts[worst]:.0%}.")


def print_cut(state: GameState, words: list[str]) -> None:
    """Print how a guess would cut the candidates ('cut CODE')."""
    if len(words) != 2:
        raise KeypegError(
            (f"cut takes one guess, like 'cut {example_code(state.rules)}'" if len(words) > 2
             else f"give the guess to cut with, like 'cut {example_code(state.rules)}'")
            + ".")
    guess = Code.parse(words[1], state.rules)  # (shown as the board writes it: rgby, 1234)
    if not state.belief.uniform:
        _weighted_cut(state, guess)
        return
    parts = cut(state, guess)
    biggest = max(n for _, n in parts)
    console.print(f"  {guess} cuts {plural(state.count, 'code')} into "
                  f"{plural(len(parts), 'part')}, the largest {biggest:,}:")
    for fb, n in parts:
        console.print(f"  {fb:>6} {n:>7,} " + "#" * max(1, round(40 * n / biggest)))
    _say_information(state, guess)


def _say_information(state: GameState, guess: Code) -> None:
    """The information the guess's answer gives about the secret, in bits: I(S;R), the
    answer's entropy less its noise (the score information gain plays by); the entropy too
    where noise makes them differ. No command had shown them."""
    from ..belief import likelihood
    from ..experiments import masses, score_masses

    space = state.space
    m = masses(space.block(np.array([guess.index]), state.candidates), state.posterior,
               space.n_responses)
    noisy = None if state.noise.hard else likelihood(space, state.noise)
    gain = float(score_masses(m, "information", likelihood=noisy)[0])
    text = (f"  its answer tells {gain:.3f} of the {state.entropy:.3f} bits missing "
            "(information gain)")
    if noisy is not None:
        heard = float(score_masses(m, "entropy", likelihood=noisy)[0])
        text += f"; the answer's entropy is {heard:.3f} bits, the rest being noise"
    console.print(text + ".")


def _weighted_cut(state: GameState, guess: Code) -> None:
    """'cut CODE' under a prior or noise: each part with its chance, as the hints weigh the
    codes (the parts are by the true answer, which a noisy answer may not tell)."""
    space = state.space
    true = space.responses(guess.index, state.candidates)
    sizes = np.bincount(true, minlength=space.n_responses)
    mass = np.bincount(true, weights=state.posterior, minlength=space.n_responses)
    parts = np.flatnonzero(sizes)
    top = float(mass.max())
    console.print(f"  {guess} cuts {plural(state.count, 'code')} into "
                  f"{plural(parts.size, 'part')} by their true answer; the chance of each:")
    for r in parts.tolist():
        m = float(mass[r])
        console.print(f"  {str(space.feedback(r)):>6} {int(sizes[r]):>7,} {percent(m):>9} "
                      + "#" * max(1, round(40 * m / top)))
    _say_information(state, guess)


def print_state_line(state: GameState) -> None:
    if state.belief.uniform:
        console.print(f"  {plural(state.count, 'code')} still possible, "
                      f"{state.bits:.2f} bits missing.")
        return
    code, p = state.top(1)[0]
    console.print(f"  {plural(state.count, 'code')} still possible, {state.entropy:.2f} bits "
                  f"missing; most likely {code} ({percent(p)}).")


def _confess(wrong: list[tuple[int, str, str]]) -> None:
    """After a noisy game: say which answers were wrong."""
    for turn, reported, true in wrong:
        console.print(f"  [yellow]answer {turn} was wrong:[/] I said {reported}, the truth "
                      f"was {true}.")


def play_game(rules: Rules, seed: int | None, prior: str | None = None,
              noise: str | None = None) -> None:
    """Play one game in the terminal: the computer picks a secret (from the prior, when
    given), the person guesses; with a noise model the computer's answers are sometimes
    wrong, as the model says, and the hints take that into account."""
    check_seed(seed)
    space = load_space(rules)
    state = GameState.start(space, prior=prior, noise=noise, warn=False)  # checks both
    secret = space.code(draw_secret(space, prior, seed))
    model = state.noise
    rng = np.random.default_rng(None if seed is None else seed + 1)
    lies_left = model.k if isinstance(model, Lies) else 0
    wrong: list[tuple[int, str, str]] = []  # (turn, reported, true)
    limit = rules.max_guesses
    console.print(
        f"[bold]{shown_name(rules)}[/]: {rules.describe()}. I picked a secret among "
        f"{space.size:,} codes ({allowed_text(rules)})"
        + (f", drawn from the prior {prior}" if prior else "") + "."
    )
    if model.may_err:  # (no warning for symmetric:0 or lies:0)
        console.print(f"[yellow]My answers may be wrong ({model}); a win is always "
                      "reported truly.[/]")
    _caution(model, space)
    console.print(
        "Type a guess like "
        f"{example_code(rules)}, or 'hint', "
        "'cut CODE', 'give up', 'quit'. " + answer_legend(rules)
    )
    while True:
        turn = len(state.history) + 1
        if limit is not None and turn > limit:
            console.print(f"[bold red]Out of guesses.[/] The secret was [bold]{secret}[/].")
            _confess(wrong)
            return
        left = f"/{limit}" if limit else ""
        line = ask(f"guess {turn}{left}> ")
        if line is None or line.lower() in QUIT_WORDS:
            console.print("Bye.")
            return
        word = line.lower()
        if not word:
            continue
        if word in ("hint", "h", "?"):
            show_hint(state, state.history)
            continue
        if gives_up(word):
            played = plural(len(state.history), "guess", "guesses")
            console.print(f"The secret was [bold]{secret}[/] (after {played}). 'keypeg play' "
                          "starts another game.")
            _confess(wrong)
            return
        if word == "help":
            console.print("Type a code, 'hint', 'cut CODE', 'give up' or 'quit'.")
            continue
        if word.startswith("cut"):
            try:
                print_cut(state, line.split())
            except KeypegError as exc:
                tell(exc)
            continue
        try:
            guess = Code.parse(line, rules)
        except KeypegError as exc:
            if not_a_code(line, rules):
                tell(KeypegError(f"{shorten(line)!r} is not a code or a command; type a code "
                                 f"like {example_code(rules)}, 'hint', 'cut CODE', 'give up' "
                                 "or 'quit'."))
            else:
                tell(exc)
            continue
        again = state.replayed(guess)
        if again is not None:
            console.print(f"  {again}")
            continue
        true = score(secret.symbols, guess.symbols, rules)
        t = space.response_index(true)
        r = misreport(space, model, t, rng, lies_left)
        fb = space.feedback(r)
        if r != t:
            lies_left -= 1
            wrong.append((turn, str(fb), str(true)))
        state = state.after(guess, fb)
        console.print(f"  {turn}. [bold]{guess}[/]  {fb}")
        if state.solved:
            console.print(f"[bold green]Solved in {turn} guess{'es' * (turn != 1)}![/]")
            _confess(wrong)
            return
        print_state_line(state)


def _caution(model: NoiseModel, space: CodeSpace) -> None:
    """Warn, in a line, of a noise rate that makes answers more often wrong than right."""
    caution = noise_caution(model, space)
    if caution:
        console.print(f"[yellow]Note: {caution[0].lower()}{caution[1:]}[/]")


def assist_help(rules: Rules) -> str:
    """The assist's help, its examples in the rules' own notation ('1122 1B1W' was shown
    for every game, though Codebreaker 1-3 refuses 1122 and answers in G/A/-)."""
    entry = _example_entry(rules)
    return (f"Enter each guess with the feedback you received, like '{entry}' or "
            f"'{entry.replace(' ', '=')}'.\n"
            "Commands: list, hint, cut CODE, history, undo (takes back your last change), "
            "drop N, fix N FEEDBACK, help, quit.")


def _example_entry(rules: Rules) -> str:
    """A clue as assist reads it, in the rules' own notation: '1122 2B2W'."""
    return f"{example_code(rules)} {example_answer(rules)}"


def _parse_entry(line: str, rules: Rules) -> Clue:
    if "=" in line:
        return Clue.parse(line, rules)
    if not_a_code(line.split()[0], rules) or gives_up(line):
        # ('give up', 'foo bar': "'give' has an unknown symbol 'i'")
        raise KeypegError(f"{shorten(line)!r} is not a clue or a command; enter a guess and "
                          f"its feedback, like '{_example_entry(rules)}', or 'help'.")
    if len(line.split()) < 2:
        raise KeypegError(
            f"{shorten(line)!r} is not a clue; enter a guess and its feedback, like "
            + f"'{_example_entry(rules)}'."
        )
    return Clue.parse(line, rules)


def _show_history(clues: list[Clue]) -> None:
    if not clues:
        console.print("  no clues yet.")
    for i, clue in enumerate(clues, 1):
        console.print(f"  {i}. {clue.guess}  {clue.feedback}")


class _Quit(Exception):
    """'quit' typed at a prompt inside a session's step: the session ends."""


def _resolve(clues: list[Clue], exc: InconsistentHistoryError, rules: Rules,
             before: list[Clue] | None) -> bool:
    """Offer to correct or drop the suspect clue after a contradiction; return True when
    the clues were changed (raises `_Quit` on 'quit'). 'undo' here takes back the change
    that led to it (`before`)."""
    console.print(f"[bold red]Contradiction:[/] {escape(str(exc))}")
    if len(exc.suspects) != 1:
        console.print("Use 'fix N FEEDBACK' or 'drop N' to repair the clues.")
        return False
    i = exc.suspects[0]
    options = ", ".join(exc.corrections.get(i, ()))
    while True:
        answer = ask(
            f"Correct clue {i + 1} ({clues[i]}): type its feedback ({options}), "
            "'drop' to remove it, or Enter to keep it: "
        )
        words = answer.lower().split() if answer else []
        if words in (["drop"], ["drop", str(i + 1)]):
            console.print(f"  Dropped clue {i + 1} ({clues[i]}).")
            del clues[i]
            return True
        if answer and answer.lower() in QUIT_WORDS:
            raise _Quit
        if words == ["undo"]:
            if before is None or before == clues:
                console.print("  Nothing to undo here; 'fix N FEEDBACK' or 'drop N' "
                              "repairs the clues.")
                continue
            console.print(f"  {_undone(clues, before)}")
            clues[:] = before
            return True
        if words and words[0] in _EDITS:
            # (fix N FEEDBACK, drop N: carried out here as at the clue prompt)
            try:
                console.print(f"  {_edit(clues, words, rules)}")
                return True
            except KeypegError as exc2:
                tell(exc2)
                continue
        if len(words) > 1 and words[0] not in ASSIST_COMMANDS:
            # (the whole clue typed again, its guess with the corrected feedback)
            try:
                whole = Clue.parse(answer or "", rules)
            except KeypegError:
                whole = None
            if whole is not None and whole.guess == clues[i].guess:
                clues[i] = whole
                return True
        if not answer or words[0] in ASSIST_COMMANDS:
            # (kept: a command here would have been read as feedback, and the prompt
            # come back until Enter; the contradiction stays until fixed or dropped)
            if answer:
                console.print(f"Clue {i + 1} kept; 'fix {i + 1} FEEDBACK' or 'drop {i + 1}' "
                              "repairs it later.")
            return False
        try:
            clues[i] = Clue.make(clues[i].guess, answer, rules)
            return True
        except KeypegError as exc2:
            tell(exc2)


#: Codes assist's 'list' shows at most.
ASSIST_LIST = 200
#: The words assist reads as commands (the first word of a line).
ASSIST_COMMANDS = ("help", "history", "list", "hint", "h", "?", "cut", "undo", "drop", "fix")


def assist_game(rules: Rules, prior: str | None = None, noise: str | None = None) -> None:
    """Follow a game on a real board in the terminal. With a noise model (or lies:K) a
    wrong clue does not end the game: keypeg shows the likeliest secrets, how doubtful each
    clue is, names the likeliest wrong one, and suggests a guess by information gain."""
    space = load_space(rules)
    clues: list[Clue] = []
    start = GameState.start(space, prior=prior, noise=noise, warn=False)  # (a Note says it)
    state: GameState | None = start
    tolerant = not start.trusted
    warned = -1  # the clue count the board's last row was said at
    past: list[list[Clue]] = []  # the clues before each change, for 'undo'
    console.print(f"[bold]{shown_name(rules)}[/]: {rules.describe()}; {space.size:,} codes"
                  + (f"; clues may be wrong ({start.noise})" if start.noise.may_err else "")
                  + ".")
    _caution(start.noise, space)
    console.print(assist_help(rules))
    console.print(answer_legend(rules))
    while True:
        if rules.max_guesses is not None and len(clues) == rules.max_guesses and (
                state is None or not state.solved) and warned != len(clues):
            # (the board's rows are used up: the clues go on, for a board played on)
            warned = len(clues)
            console.print(f"[yellow]That was the board's last row ({rules.max_guesses}); "
                          "the code was not broken within it.[/] More clues are still "
                          "taken.")
        line = ask(f"clue {len(clues) + 1}> ")
        if line is None or line.lower() in QUIT_WORDS:
            console.print("Bye.")
            return
        words = line.split()
        cmd = words[0].lower() if words else ""
        before: list[Clue] | None = list(clues)
        try:
            if not cmd:
                continue
            if cmd == "help":
                console.print(assist_help(rules))
                continue
            if cmd == "history":
                _show_history(clues)
                continue
            if cmd in ("list", "hint", "h", "?", "cut"):
                if state is None:
                    console.print("[red]The clues contradict each other; fix or drop one.[/]")
                elif cmd == "list":
                    console.print(" ".join(state.candidate_texts(ASSIST_LIST)))
                    if state.count > ASSIST_LIST:
                        console.print(f"  (the first {ASSIST_LIST} of {state.count:,}; "
                                      "keypeg solve --json lists them all)")
                elif cmd == "cut":
                    print_cut(state, words)
                else:
                    show_hint(state, state.history)
                continue
            if cmd == "undo":
                console.print(f"  {_undo(clues, past)}")
                if clues == before:
                    continue
                before = None  # (an undo is not itself undone)
            elif cmd in _EDITS:
                console.print(f"  {_edit(clues, words, rules)}")
            else:
                entry = _parse_entry(line, rules)
                won = next((i for i, c in enumerate(clues) if c.feedback.is_win(rules)), None)
                if won is not None and tolerant and not entry.feedback.is_win(rules):
                    # (under noise, where a win is told truly, the next clue had been
                    # recorded after "Solved", and the hint then named a code that cannot
                    # be the secret; a second win, or with exact answers a clue that
                    # contradicts the win, is offered for repair as any contradiction is)
                    raise KeypegError(
                        f"clue {won + 1} ({clues[won].guess} {clues[won].feedback}) won the "
                        f"game: the secret is {clues[won].guess}; type 'undo' or 'fix "
                        f"{won + 1} FEEDBACK' to go on from before it, or 'quit'.")
                again = _repeated(clues, entry, tolerant)
                if again:
                    console.print(f"  {again}")
                    continue
                clues.append(entry)
                if state is None and _still_contradictory(start, clues):
                    # (the clues contradicted before this one: it is recorded, and the
                    # old contradiction named in a line, not offered for repair again)
                    if before is not None:
                        past.append(before)
                    continue
        except KeypegError as exc:
            tell(exc)
            continue
        try:
            state = _recompute(start, clues, rules, before)
        except _Quit:
            console.print("Bye.")
            return
        finally:
            if before is not None and clues != before:
                past.append(before)
        won = next((i for i, c in enumerate(clues) if c.feedback.is_win(rules)), None)
        if state is not None and won is not None:
            # (a win anywhere: after 'fix' of a later clue the last one is no win)
            played = plural(won + 1, "guess", "guesses")
            console.print(f"[bold green]Solved in {played}:[/] the secret is "
                          f"[bold]{clues[won].guess}[/]. Type 'undo' to go back or 'quit'.")
            continue
        if state is not None:
            show_hint(state, state.history, strategies=tolerant)


#: The commands that change the clues.
_EDITS = ("undo", "drop", "fix")


def _edit(clues: list[Clue], words: list[str], rules: Rules) -> str:
    """Carry out 'drop N' or 'fix N FEEDBACK' on `clues` and return the line that says
    what was done (they had changed the clues without a word: 'drop 1' twice dropped two
    different clues, the second renumbered)."""
    cmd = words[0].lower()
    n = _clue_number(words, len(clues), rules)
    if cmd == "drop":
        old = clues.pop(n)
        renumbered = " (the clues after it move up one)" if n < len(clues) else ""
        return f"Dropped clue {n + 1} ({old}){renumbered}."
    old = clues[n]
    clues[n] = Clue.make(old.guess, " ".join(words[2:]), rules)
    return f"Clue {n + 1} is now {clues[n]} (was {old.feedback})."


def _undo(clues: list[Clue], past: list[list[Clue]]) -> str:
    """Take back the last change to `clues` (a clue entered, fixed or dropped, with any
    repair made at the prompt it led to), restoring them from `past`, and return the line
    that says what was undone. 'undo' after 'fix' had taken back the last clue whole."""
    if not past:
        return ("Nothing to undo: there are no clues yet." if not clues
                else "Nothing to undo: these clues are as they were before any change.")
    back = past.pop()
    line = _undone(clues, back)
    clues[:] = back
    return line


def _undone(now: list[Clue], back: list[Clue]) -> str:
    """Say in a line how `back` differs from `now` (the clues an undo returns to)."""
    if len(now) == len(back) + 1 and now[:-1] == back:
        return f"Took back clue {len(now)} ({now[-1]})."
    if len(back) == len(now) + 1:
        for i, clue in enumerate(back):
            if back[:i] + back[i + 1:] == now:
                moved = " (the clues after it move down one)" if i < len(now) else ""
                return f"Put back clue {i + 1} ({clue}){moved}."
    if len(now) == len(back):
        changed = [i for i, (a, b) in enumerate(zip(now, back, strict=True)) if a != b]
        if len(changed) == 1:
            i = changed[0]
            return (f"Clue {i + 1} is {back[i]} again (the change to {now[i].feedback} is "
                    "undone).")
    shown = "; ".join(f"{i}. {clue}" for i, clue in enumerate(back, 1)) or "no clues"
    return f"Back to the clues before the last change: {shown}."


def _repeated(clues: list[Clue], entry: Clue, tolerant: bool) -> str | None:
    """The line refusing a clue that repeats one already entered word for word (with
    trusted answers it tells nothing; with answers that may be wrong, asking again does),
    or None."""
    if tolerant:
        return None
    for i, clue in enumerate(clues, 1):
        if clue == entry:
            return (f"That is clue {i} again ({clue}): it tells nothing new, so it is not "
                    "recorded.")
    return None


def _replay(start: GameState, clues: list[Clue]) -> GameState:
    state = start
    for clue in clues:
        state = state.after(clue.guess, clue.feedback)
    return state


def _recompute(start: GameState, clues: list[Clue], rules: Rules,
               before: list[Clue] | None) -> GameState | None:
    """Return the state after `clues` from `start`, or None (after offering a repair) when
    they contradict each other. `before`: the clues before this line's change, which an
    'undo' at the repair prompt returns to (None after an undo)."""
    try:
        return _replay(start, clues)
    except InconsistentHistoryError as exc:
        if not _resolve(clues, exc, rules, before):
            return None
    try:
        return _replay(start, clues)
    except InconsistentHistoryError as exc:
        console.print(f"[red]Still contradictory:[/] {escape(str(exc))}")
        return None


def _still_contradictory(start: GameState, clues: list[Clue]) -> bool:
    """After a clue added to clues that already contradicted each other: say in a line
    that it is recorded and which clues still cannot all hold (True), or return False when
    they now hold together (a new clue cannot do that; `_recompute` would show it)."""
    try:
        _replay(start, clues)
    except InconsistentHistoryError as exc:
        which = " and ".join(str(i + 1) for i in exc.conflict) or "before it"
        console.print(f"Clue {len(clues)} recorded. [red]The clues still contradict each "
                      f"other[/] (clues {which} cannot all hold): use 'fix N FEEDBACK' or "
                      "'drop N'.")
        return True
    return False


def _clue_number(words: list[str], count: int, rules: Rules) -> int:
    if len(words) < 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= count:
        feedback = f" {example_answer(rules)}" if words[0].lower() == "fix" else ""
        raise KeypegError(
            (f"give a clue number from 1 to {count}, like '{words[0]} {count}{feedback}'."
             if count > 1 else f"there is one clue: '{words[0]} 1{feedback}'.") if count
            else "there are no clues yet."
        )
    if words[0].lower() == "fix" and len(words) < 3:
        raise KeypegError(f"give the corrected feedback too, like 'fix {words[1]} "
                          f"{example_answer(rules)}'.")
    return int(words[1]) - 1
