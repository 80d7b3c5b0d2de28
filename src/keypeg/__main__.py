"""Allow `python -m keypeg`."""

from keypeg.cli import main

main()
