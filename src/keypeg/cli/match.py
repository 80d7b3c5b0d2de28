"""`keypeg match`: a match against the computer in the terminal (seed 004's two-player
rules, `keypeg.match`): an even number of games, roles alternating, the score table after
each game. The match is stored after every move, so `--resume ID` continues it after a
restart. The match itself is loaded only when one starts (`keypeg --help` stays light)."""

import getpass
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from ..catalog import STRATEGY_NAMES, strategy_label
from ..errors import KeypegError
from ..limits import check_seed, plural, shorten
from ..rules import Rules
from .common import (
    QUIT_WORDS,
    ask,
    command,
    console,
    err_console,
    gives_up,
    not_a_code,
    shown_name,
    tell,
)

if TYPE_CHECKING:
    from ..match import Match, MatchGame
    from ..store import Store

SCORING_NAMES = ("guesses", "keypegs")
#: What the "answer by hand?" question takes for yes, and for no (Enter).
HAND_WORDS = frozenset({"hand", "y", "yes"})
AUTO_WORDS = frozenset({"", "auto", "n", "no"})
#: Commands of play and assist that a match does not have (they were read as a code:
#: "'hint' has an unknown symbol 'h'").
HELPER_WORDS = {"hint", "hints", "cut", "list"}


@command
def match(
    ctx: typer.Context,
    rules: Rules,
    games: Annotated[int, typer.Option(
        "--games", "-n", help="Games in the match: a positive even number (each player makes "
        "as many codes as they break).")] = 2,
    opponent: Annotated[str, typer.Option(
        "--opponent", help="The strategy the computer breaks your codes with: "
        + ", ".join(STRATEGY_NAMES) + " (played symmetrised, so it cannot be exploited).")
    ] = "entropy",
    codemaker: Annotated[str, typer.Option(
        "--codemaker", help="How the computer makes its codes: uniform (a random code), game "
        "(the game value's mixture), against:STRATEGY (a code STRATEGY needs most guesses "
        "for) or adaptive (commits to no code, answers to keep the most codes).")
    ] = "uniform",
    scoring: Annotated[str, typer.Option(
        "--scoring", help="guesses (the codemaker scores a point per guess, one more when the "
        "code is not broken within the rows) or keypegs (a point per key peg placed; rows x "
        "pegs when not broken).")
    ] = "guesses",
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed for the computer's choices (reproducible matches).")] = None,
    symmetrise: Annotated[bool, typer.Option(
        "--symmetrise/--no-symmetrise", help="Play the computer's strategy under a random "
        "relabelling of colours and positions each game (the default), so no secret is "
        "better against it than the others of its kind.")] = True,
    resume: Annotated[str | None, typer.Option(
        "--resume", "--match-id", help="Continue a stored match by the id it printed (with "
        "its own rules and options).")] = None,
) -> None:
    """Play a match against the computer: you break its code in game 1, it breaks yours in
    game 2, and so on; the codemaker scores. Type a code, 'give up' or 'quit' (the match is
    saved: continue it with --resume ID)."""
    from ..match import MAX_GAMES, Match, Player, load_match, save_match
    from ..store import Store

    if resume is not None:
        given = []  # the options typed besides --resume, as typed (--no-symmetrise)
        for p in ctx.command.params:
            source = ctx.get_parameter_source(p.name or "")
            if p.name != "resume" and getattr(source, "name", "") == "COMMANDLINE":
                off = ctx.params.get(p.name or "") is False and p.secondary_opts
                given.append((p.secondary_opts if off else p.opts)[0])
        if given:  # (they had been dropped without a word)
            raise KeypegError(f"--resume continues a match with its own rules and options; "
                              f"leave out {', '.join(given)}.")
    store = Store()
    if resume is not None:
        found = load_match(store, resume.strip())
        if found is None:
            raise KeypegError(f"no stored match with id {shorten(resume)!r}; start one with "
                              "keypeg match --games N.")
        play_match(found, store)
        return
    if isinstance(games, bool) or games < 2 or games % 2 or games > MAX_GAMES:
        raise KeypegError(f"--games must be an even number from 2 to {MAX_GAMES} (2, 4, 6, "
                          f"...), not {games:,}.")
    if scoring.strip().lower() not in SCORING_NAMES:
        raise KeypegError(f"--scoring is guesses or keypegs, not {shorten(scoring)!r}.")
    check_seed(seed)
    # (--codemaker game works out the game value first where none ships with keypeg: up to a
    # minute, which passed in silence)
    with err_console.status(f"{shown_name(rules)}: preparing the match (the game value, where "
                            "it is not shipped, takes up to a minute)"):
        new = Match(rules, games, [Player.person("you"),
                                   Player.computer(opponent, codemaker, symmetrise=symmetrise)],
                    scoring=scoring.strip().lower(), seed=seed)
    save_match(store, new)
    play_match(new, store)


# ----------------------------------------------------------------------------- session
def play_match(m: "Match", store: "Store") -> None:
    """Play `m` in the terminal until it is over or the person quits, saving every move."""
    describe(m)
    shown: dict[int, int] = {}  # rows printed per game
    announced: set[int] = set()
    remind = m.phase == "answer"  # resumed while answering by hand: the secret was said once
    while True:
        catch_up(m, shown, announced)
        if remind:
            console.print("You answer keypeg's guesses from your secret; type 'secret' to "
                          "see it.")
            remind = False
        if m.over:
            console.print(f"[bold]Final score:[/] {m.result_text()}")
            return
        g = m.current
        assert g is not None
        phase = m.phase
        try:
            if phase == "secret":
                done = choose_secret(m, g)
            elif phase == "answer":
                done = answer(m, g)
            else:
                done = guess(m, g)
        except KeypegError as exc:  # (a refused hand answer too)
            tell(exc)
            continue
        if done is None:
            console.print(f"The match is saved; continue it with: keypeg match --resume "
                          f"{m.id}")
            return
        from ..match import MatchStateError, save_match

        try:
            save_match(store, m)
        except MatchStateError:
            # (the store's words are the page's: "reload it")
            raise KeypegError(f"the match was saved meanwhile by another window, so this "
                              f"move is not kept; see where it stands with: keypeg match "
                              f"--resume {m.id}") from None


def describe(m: "Match") -> None:
    """Say who plays what, how points are scored, and how to resume."""
    computer = next(p for p in m.players.values() if p.is_computer)
    rows = f"{m.rows} rows"
    console.print(f"[bold]A match of {m.n_games} games[/] on {shown_name(m.rules)} "
                  f"({m.rules.with_max_guesses(None).describe()}; a board of {rows}).")
    if m.scoring == "guesses":
        console.print("The codemaker scores a point for each guess, and one more when the "
                      "code is not broken within the rows.")
    else:
        console.print("The codemaker scores a point for each key peg placed (for "
                      "green/amber answers, each green and each amber); a code not broken "
                      "within the rows scores as a give-up, rows x pegs.")
    how = ("symmetrised: under a random relabelling of colours and positions each game, so "
           "no code is better against it than the others of its kind" if computer.symmetrise
           else "as it is (not symmetrised)")
    console.print(f"The computer breaks codes with {strategy_label(computer.strategy)}, "
                  f"played {how}; it "
                  f"makes codes {codemaker_words(computer.codemaker)}.")
    from ..codes import example_code
    from ..feedback import answer_legend  # (numpy: not for keypeg --help)

    console.print(f"Breaking, type a code like {example_code(m.rules)}, 'give up' or 'score'. "
                  + answer_legend(m.rules))
    if m.over:  # (resumed after its last game: nothing to save or continue)
        console.print(f"Match id {m.id} is over; 'keypeg match' starts another.")
        return
    console.print(f"Match id {m.id}: 'quit' saves it; continue with keypeg match --resume "
                  f"{m.id}")


def codemaker_words(spec: str) -> str:
    """How the computer makes its codes, in words ("by uniform" had been printed)."""
    if spec == "uniform":
        return "by drawing one uniformly at random"
    if spec == "game":
        return "by the game value's optimal mixture (keypeg value)"
    if spec == "adaptive":
        return "adaptively: it commits to no code and answers to keep the most codes possible"
    if spec.startswith("against:"):
        return f"against {spec.split(':', 1)[1]}: a code that strategy needs most guesses for"
    return f"by {spec}"


def catch_up(m: "Match", shown: dict[int, int], announced: set[int]) -> None:
    """Print what happened since the last look: new games, the computer's rows, the end of
    each game with the score table."""
    for g in m.games:
        if g.number not in shown:
            shown[g.number] = 0
            b, k = m.players[g.breaker].name, m.players[g.maker].name
            console.print(f"\n[bold]Game {g.number} of {m.n_games}[/]: {b} "
                          f"{'break' if b == 'you' else 'breaks'} the code, {k} "
                          f"{'make' if k == 'you' else 'makes'} it.")
        for i in range(shown[g.number], len(g.history)):
            guess, fb = g.history[i]
            console.print(f"  {i + 1}. [bold]{guess}[/]  {fb}")
        shown[g.number] = len(g.history)
        if g.over and g.number not in announced:
            announced.add(g.number)
            console.print(m.outcome_text(g)[:1].upper() + m.outcome_text(g)[1:])
            print_table(m)


def print_table(m: "Match") -> None:
    names = {s: p.name for s, p in m.players.items()}
    table = Table(box=None, padding=(0, 2), header_style="dim")
    for column in ("game", "breaker", "maker", "guesses"):
        table.add_column(column, justify="right" if column in ("game", "guesses") else "left")
    for side in ("A", "B"):
        table.add_column(names[side], justify="right")
    for g in m.games:
        if not g.over:
            continue
        pts = m.points(g)
        note = " (forfeit)" if g.forfeit else " (gave up)" if g.gave_up else (
            "" if g.solved else " (not broken)")
        table.add_row(str(g.number), names[g.breaker], names[g.maker],
                      f"{len(g.history)}{note}", str(pts["A"]), str(pts["B"]))
    total = m.scores
    table.add_row("total", "", "", "", f"[bold]{total['A']}[/]", f"[bold]{total['B']}[/]")
    console.print(table)


def secret_line(prompt: str) -> str | None:
    """Read a secret: hidden when typed at a terminal, else a plain line (pipes, tests)."""
    if sys.stdin.isatty():
        try:
            return getpass.getpass(prompt).strip()
        except (EOFError, KeyboardInterrupt):  # (Ctrl-C: saved, as at every other prompt)
            console.print()
            return None
    return ask(prompt)


def choose_secret(m: "Match", g: "MatchGame") -> bool | None:
    console.print(f"Choose a secret for game {g.number}: type it (it is not shown), or "
                  "'random' to let keypeg draw one for you.")
    while True:
        secret = secret_line("your secret> ")
        if secret is None or secret.lower() in QUIT_WORDS:
            return None
        if not secret:
            return True
        if secret.strip().lower() == "random":
            break
        from ..codes import Code, allowed_text, example_code

        try:
            Code.parse(secret, m.rules)  # checked now, before the next question
            break
        except KeypegError:
            # (the message would show the secret typed hidden: say what a code is instead)
            once = "" if m.rules.repeats else ", each at most once"
            tell(KeypegError(f"that secret is not a code of these rules: "
                             f"{m.rules.pegs} symbols from {allowed_text(m.rules)}{once}, like "
                             f"{example_code(m.rules)}; type it again, or 'random'."))
    while True:
        how = ask("Answer the computer's guesses yourself? Type 'hand' for yes; Enter lets "
                  "keypeg answer truly from your secret> ")
        if how is None or how.lower() in QUIT_WORDS:
            return None
        word = how.strip().lower()
        if word in HAND_WORDS or word in AUTO_WORDS:
            break
        # (a typo, or an answer typed too soon, had meant 'keypeg answers')
        tell(KeypegError(f"type 'hand' to answer each guess yourself, or press Enter to let "
                         f"keypeg answer, not {shorten(how)!r}."))
    hand = word in HAND_WORDS
    with thinking(m):
        m.choose_secret(secret, "hand" if hand else "auto")
    if hand and secret.strip().lower() == "random":
        # (answering by hand needs the secret: it was drawn unseen)
        console.print(f"keypeg drew your secret: [bold]{g.secret}[/] "
                      "(answer from it).")
    if hand:
        from ..feedback import example_answer  # (numpy: not for keypeg --help)

        console.print("Answer each guess like " + example_answer(m.rules) + "; each answer is "
                      "checked against the earlier ones, and all of them against your secret "
                      "at the end (a wrong answer forfeits the game).")
    return True


def answer(m: "Match", g: "MatchGame") -> bool | None:
    k = len(g.history) + 1
    line = ask(f"  {k}. keypeg guesses [bold]{g.pending}[/]; your answer> ")
    if line is None or line.lower() in QUIT_WORDS:
        return None
    word = line.lower()
    if word == "score":
        print_table(m)
    elif word == "secret":  # (the codemaker's own: drawn unseen, or typed long ago)
        console.print(f"  your secret: [bold]{g.secret}[/]")
    elif word == "help" or gives_up(word) or word.split(" ")[0] in HELPER_WORDS:
        # (they were read as feedback: "cannot read feedback 'score'")
        from ..feedback import example_answer

        console.print(f"Answer keypeg's guess from your secret, like "
                      f"{example_answer(m.rules)}; or type 'secret' (shows it), 'score', or "
                      "'quit' (saves the match). The codebreaker gives up, not the "
                      "codemaker.")
    elif line:
        with thinking(m):
            m.answer(line)
    return True


def guess(m: "Match", g: "MatchGame") -> bool | None:
    k = len(g.history) + 1
    line = ask(f"guess {k}/{m.rows}> ")
    if line is None or line.lower() in QUIT_WORDS:
        return None
    word = line.lower()
    if gives_up(word):
        with thinking(m):
            m.give_up()
    elif word == "help" or word.split(" ")[0] in HELPER_WORDS:
        no = "No hints in a match: you play on your own. " if word != "help" else ""
        console.print(f"{no}Type a code, 'give up' (the codemaker scores "
                      f"{plural(m.max_points, 'point')}), 'score' or 'quit' (saves the match).")
    elif word == "score":
        print_table(m)
    elif line:
        if not_a_code(line, m.rules):
            from ..codes import example_code

            raise KeypegError(f"{shorten(line)!r} is not a code or a command; type a code like "
                              f"{example_code(m.rules)}, 'give up', 'score' or 'quit'.")
        with thinking(m):
            m.guess(line)
    return True


def thinking(m: "Match") -> Any:
    """A spinner while a move of the person's lets the computer move (its guess, or its
    secret for the next game): seconds on big games (super: up to 11 s), which passed in
    silence."""
    return err_console.status(f"{shown_name(m.rules)}: keypeg is thinking")

