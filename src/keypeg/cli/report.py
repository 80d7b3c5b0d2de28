"""`keypeg report`: a static HTML report with figures (the work is in `keypeg.report`; no
numpy or matplotlib is imported until the command runs)."""

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from ..errors import KeypegError
from ..limits import REPORT_OPTIMAL_SECONDS, check_max_seconds, plural
from ..rules import Rules
from .common import command, console, err_console, shown_name

#: Seconds of work before the progress display appears (a quick report shows none).
PROGRESS_AFTER = 1.0


class _Steps:
    """A progress bar over the report's steps, shown on a terminal once the work has taken
    longer than `PROGRESS_AFTER` seconds."""

    def __init__(self, title: str, total: int) -> None:
        self.started = time.perf_counter()
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                 TimeElapsedColumn(), console=err_console, transient=True,
                                 disable=not err_console.is_terminal)
        self.task = self.progress.add_task(title, total=total)
        self.title = title
        self.shown = False

    def __call__(self, what: str, done: int) -> None:
        self.progress.update(self.task, completed=done, description=f"{self.title}: {what}")
        if not self.shown and time.perf_counter() - self.started > PROGRESS_AFTER:
            self.shown = True
            self.progress.start()

    def close(self) -> None:
        if self.shown:
            self.progress.stop()


@command
def report_command(
    rules: Rules,
    out: Annotated[str, typer.Option("--out", "-o", help="Folder to write index.html and "
                                     "its figures into (created if missing).")],
    max_seconds: Annotated[float, typer.Option(
        "--max-seconds", help="Seconds for each optimal search the report needs; a search "
        "past it leaves its cell empty.")] = REPORT_OPTIMAL_SECONDS,
) -> None:
    """Write a static HTML report with figures: a histogram per strategy, the first-guess
    table, the ledger of optimal totals as a heat map and the entropy float study."""
    check_max_seconds(max_seconds)
    from ..report import STEPS, build_report, prepare_folder
    from ..store import Store

    if not out.strip():  # Path("") would be the current folder
        raise KeypegError("--out is empty; give the folder to write the report into, like "
                          "report.")
    folder = Path(out)
    prepare_folder(folder)  # a folder that cannot be written is refused before any work
    steps = _Steps(shown_name(rules), len(STEPS))
    try:
        report = build_report(rules, folder, store=Store(), seconds=max_seconds, on_step=steps)
    finally:
        steps.close()
    for note in report.notes:
        err_console.print(escape(f"note: {note}"))
    if report.removed:
        err_console.print(escape(
            f"note: removed {plural(len(report.removed), 'figure')} of an earlier report "
            f"from {out} that this one does not draw ({', '.join(report.removed)})."))
    console.print(escape(f"wrote {report.index} with {len(report.figures)} figures "
                         f"({report.seconds:.1f} s)."))
