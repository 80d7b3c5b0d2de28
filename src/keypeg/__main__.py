"""Allow `python -m keypeg`."""

from keypeg._command import main

main()
