"""Small checks returning a Verdict (ok + explanation shown to the student)."""
import os
import re
import stat
import tarfile
from pathlib import Path

from .feedback import Verdict


def _name(path: Path) -> str:
    return path.name or str(path)


def exists(path: Path) -> Verdict:
    if os.path.lexists(path):
        return Verdict(True, f"{_name(path)} is present")
    return Verdict(False, f"{_name(path)} is missing")


def is_file(path: Path) -> Verdict:
    if path.is_file() and not path.is_symlink():
        return Verdict(True, f"{_name(path)} is a regular file")
    return Verdict(False, f"{_name(path)} is not a regular file" if os.path.lexists(path) else f"{_name(path)} is missing")


def is_dir(path: Path) -> Verdict:
    if path.is_dir() and not path.is_symlink():
        return Verdict(True, f"{_name(path)}/ is a folder")
    return Verdict(False, f"{_name(path)} is not a folder" if os.path.lexists(path) else f"{_name(path)}/ is missing")


def user_executable(path: Path) -> Verdict:
    if not path.is_file():
        return Verdict(False, f"{_name(path)} is missing")
    if path.stat().st_mode & stat.S_IXUSR:
        return Verdict(True, f"{_name(path)} is executable by its owner")
    return Verdict(False, f"{_name(path)} is not executable by its owner (chmod u+x)")


def mode_is(member: "tarfile.TarInfo | None", expected: int, label: str) -> Verdict:
    """Compares the permission bits recorded in the archive (extraction alters them)."""
    if member is None:
        return Verdict(False, f"{label} is missing")
    got = member.mode & 0o777
    if got == expected:
        return Verdict(True, f"{label} has mode {expected:03o}")
    return Verdict(False, f"{label} has mode {got:03o}, expected {expected:03o}")


def resolves_to(link: Path, expected: Path, root: Path) -> Verdict:
    """link is a symbolic link, relative, staying in root and resolving to expected."""
    if not link.is_symlink():
        return Verdict(False, f"{_name(link)} is not a symbolic link" if os.path.lexists(link) else f"{_name(link)} is missing")
    target = os.readlink(link)
    if os.path.isabs(target):
        return Verdict(False, f"{_name(link)} -> {target} is absolute, use a relative target")
    real, want, top = link.resolve(), expected.resolve(), root.resolve()
    if top not in real.parents and real != top:
        return Verdict(False, f"{_name(link)} -> {target} leaves the folder")
    if real != want:
        return Verdict(False, f"{_name(link)} -> {target} does not lead to {expected.relative_to(root)}")
    return Verdict(True, f"{_name(link)} -> {target}")


def read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def same_bytes(path: Path, expected: bytes) -> Verdict:
    if not path.is_file():
        return Verdict(False, f"{_name(path)} is missing")
    if path.read_bytes() == expected:
        return Verdict(True, f"{_name(path)} has the expected content")
    return Verdict(False, f"{_name(path)} differs from the expected content")


def _normalise(line: str, squeeze: bool) -> str:
    return " ".join(line.split()) if squeeze else line.rstrip()


def lines_equal(path: Path, expected: "list[str]", squeeze_spaces: bool = False) -> Verdict:
    """Compares lines (trailing blank lines ignored; optionally whitespace-insensitive)."""
    if not path.is_file():
        return Verdict(False, f"{_name(path)} is missing")
    got = [_normalise(l, squeeze_spaces) for l in read_text(path).splitlines()]
    while got and got[-1] == "":
        got.pop()
    want = [_normalise(l, squeeze_spaces) for l in expected]
    if got == want:
        return Verdict(True, f"{_name(path)} has the expected {len(want)} line(s)")
    for i, (g, w) in enumerate(zip(got, want), start=1):
        if g != w:
            return Verdict(False, f"{_name(path)} line {i}: got {g!r}, expected {w!r}")
    return Verdict(False, f"{_name(path)} has {len(got)} line(s), expected {len(want)}")


def contains_line(path: Path, pattern: str) -> Verdict:
    if not path.is_file():
        return Verdict(False, f"{_name(path)} is missing")
    rx = re.compile(pattern)
    if any(rx.search(l) for l in read_text(path).splitlines()):
        return Verdict(True, f"{_name(path)} contains a line matching {pattern}")
    return Verdict(False, f"{_name(path)} has no line matching {pattern}")


ANSWER_LINE = re.compile(r"^\s*(\d+)\s*[:.)]\s?(.*)$")


def parse_answers(path: Path) -> "dict[int, str]":
    """'1: ls -a' lines of an answers.txt; other lines (comments) are ignored."""
    answers: dict[int, str] = {}
    if not path.is_file():
        return answers
    for line in read_text(path).splitlines():
        m = ANSWER_LINE.match(line)
        if m:
            answers[int(m.group(1))] = " ".join(m.group(2).split())
    return answers


def answer_matches(answers: "dict[int, str]", num: int, accepted: "list[str]") -> Verdict:
    """Answer `num` fully matches one of the accepted regular expressions."""
    given = answers.get(num, "")
    if not given:
        return Verdict(False, f"no answer on line {num}")
    if any(re.fullmatch(p, given) for p in accepted):
        return Verdict(True, f"answer {num} is correct")
    return Verdict(False, f"answer {num} ({given!r}) is not correct")


def answer_equals(answers: "dict[int, str]", num: int, expected: str) -> Verdict:
    """Answer `num` is exactly `expected` (surrounding spaces ignored)."""
    return answer_matches(answers, num, [re.escape(" ".join(expected.split()))])
