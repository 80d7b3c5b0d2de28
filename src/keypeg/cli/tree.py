"""`keypeg tree`: show, export, import and verify decision trees (being built)."""

import typer

tree_app = typer.Typer(help="Decision trees: show, export, import, verify.", no_args_is_help=True)
