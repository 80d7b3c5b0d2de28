"""The command lines of keypeg's `python -m` studies (`study`, `noise_study`): argparse,
its errors said in one sentence. Apart from `errors` so that argparse is not imported by
every command (`errors` is)."""

from __future__ import annotations

import argparse
from typing import NoReturn

from .errors import KeypegError


class SentenceParser(argparse.ArgumentParser):
    """argparse for keypeg's `python -m` studies: an error raises `KeypegError` with
    argparse's sentence (the caller says it on stderr, with what is allowed, and exits 2)
    instead of printing the usage lines and exiting itself."""

    def error(self, message: str) -> NoReturn:
        raise KeypegError(message)
