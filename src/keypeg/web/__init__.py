"""The web page and its JSON API (FastAPI); `keypeg serve` runs it."""
