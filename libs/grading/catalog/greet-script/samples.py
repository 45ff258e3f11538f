"""Question and sample answers of greet-script."""
from treespec import File, Tree

T = "SCRIPT"
GOOD = """#!/bin/sh
# greet.sh NAME: greets NAME
if [ $# -lt 1 ]; then
    echo "usage: greet.sh NAME" >&2
    exit 1
fi
printf 'Hello, %s!\\n' "$1"
"""
UNQUOTED = """#!/bin/bash
printf 'Hello, %s!\\n' $1
"""


def question() -> Tree:
    return Tree([File(f"{T}/README.txt", "Write greet.sh in this folder.\n")])


def good() -> Tree:
    return question().copy().put(File(f"{T}/greet.sh", GOOD, 0o755))


def bad():
    no_shebang = GOOD.split("\n", 1)[1]
    return [
        ("unquoted-no-usage", question().copy().put(File(f"{T}/greet.sh", UNQUOTED, 0o755)), [4, 5]),
        ("no-shebang-not-executable", question().copy().put(File(f"{T}/greet.sh", no_shebang, 0o644)), [1, 2]),
        ("missing-script", question(), [1, 2, 3, 4, 5]),
    ]
