"""Warm start for the `pool` execution mode.

Started ahead of its job inside a fresh sandbox (python -S -u -m shellgrade_grader.warm): it
pre-imports what graders use, then waits for ONE line on stdin (the locale) meaning the four
input files are in place, and grades exactly as `python -m shellgrade_grader.supervise <locale>`
would (grader.py under its own uid, student scripts in sandboxes of their own). One job per
process: nothing leaks between jobs.
"""
import json  # noqa: F401  (pre-imports: the point of a warm interpreter)
import os
import pathlib  # noqa: F401
import re  # noqa: F401
import shutil  # noqa: F401
import subprocess  # noqa: F401
import sys
import gzip  # noqa: F401  (tarfile imports it on the first .tar.gz: once here, not once per job)
import tarfile  # noqa: F401

import shellgrade_grader  # noqa: F401
from shellgrade_grader.procname import show_as
from shellgrade_grader.supervise import grade


def main() -> None:
    line = sys.stdin.readline()
    if not line:  # the pool closed before giving a job
        sys.exit(0)
    locale = line.strip() or "en"
    sys.stdin = open(os.devnull)
    show_as(f"grade-{locale}")
    grade(locale)


main()
