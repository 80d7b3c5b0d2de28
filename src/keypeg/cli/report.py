"""`keypeg report`: a static HTML report with figures (being built)."""


def report_command() -> None:
    """Write a static HTML report with figures (being built)."""
    raise SystemExit("keypeg report is not built yet.")
