"""Safe extraction of (possibly hostile) archives with tarfile extraction filters.

One reader decides (docs/design.md, Untrusted input): the service validated the submission with its own tar reader and
wrote what it saw next to it (``submitted.manifest.json``: every entry's path, type, size, mode
and link target, in order). Before anything is extracted, the tarfile members that extraction
would write are compared with that manifest, so an archive that two readers read differently
(pax records one of them ignores, GNU long names mixed with pax, a name stored twice...) is
refused instead of extracted into something nobody checked. Independently of the manifest,
only plain member types and the pax records a plain ``tar`` writes are accepted.

The 'data' filter then refuses absolute paths, '..', links leaving the destination and device
files, strips owners and dangerous mode bits, and keeps symlinks that stay inside the tree.
"""
import json
import os
import sys
import tarfile
from contextlib import contextmanager
from pathlib import Path

MANIFEST_NAME = "submitted.manifest.json"
# The service tells a refused archive (a 422 for the student) from a failed grading by this exit
# status and the JSON line printed just before it (libs/grading sandbox-grader.ts).
ARCHIVE_REFUSED = 65

_KINDS = {
    tarfile.REGTYPE: "file", tarfile.AREGTYPE: "file", tarfile.CONTTYPE: "file",
    tarfile.DIRTYPE: "directory", tarfile.SYMTYPE: "symlink", tarfile.LNKTYPE: "link",
}
# Same list as the service's validator (libs/grading/src/validate-archive.ts, PAX_SYNTAX).
_PAX_KEYWORDS = {"path", "linkpath", "size", "mtime", "atime", "ctime", "uid", "gid", "uname", "gname"}
_INERT_PAX_PREFIXES = ("LIBARCHIVE.xattr.", "SCHILY.xattr.")


class ExtractionError(Exception):
    """The archive cannot be opened or contains something the 'data' filter refuses."""


class ArchiveMismatch(ExtractionError):
    """The archive reads differently here than where it was validated: it is refused whole."""

    reason = "archive-mismatch"


def _require_filters() -> None:
    if not hasattr(tarfile, "data_filter"):
        raise ExtractionError("this Python has no tarfile extraction filters (need >= 3.11.4)")


def normalise(name: str) -> str:
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return "/".join(parts)


def load_manifest(archive: "str | Path") -> "list | None":
    """The validated entries written beside `archive` by the service, or None (a grader run by hand)."""
    path = Path(archive).with_name(MANIFEST_NAME)
    if not path.is_file():
        return None
    return json.loads(path.read_text())


def describe(member: tarfile.TarInfo) -> dict:
    """A member as the service's validator describes an entry (ArchiveEntry)."""
    entry = {"path": normalise(member.name), "type": _KINDS[member.type], "size": member.size, "mode": member.mode}
    if member.type in (tarfile.SYMTYPE, tarfile.LNKTYPE):
        entry["linkname"] = member.linkname
    return entry


def checked_members(tf: tarfile.TarFile, expected: "list | None" = None) -> "list[tarfile.TarInfo]":
    """Every member, once each was found plain and the whole list equal to `expected` (when given)."""
    if tf.pax_headers:
        raise ArchiveMismatch("the archive carries a global pax header, which is not allowed")
    members = tf.getmembers()
    kinds: "dict[str, str]" = {}
    for m in members:
        _check_plain(m)
        name, kind = normalise(m.name), _KINDS[m.type]
        if name in kinds and "directory" not in (kinds[name], kind):
            raise ArchiveMismatch(f"entry {name[:100]!r} is stored twice in the archive")
        kinds[name] = kind
    if expected is not None:
        _compare(members, expected)
    return members


def _check_plain(m: tarfile.TarInfo) -> None:
    if m.type not in _KINDS or m.sparse is not None:
        raise ArchiveMismatch(f"entry {m.name[:100]!r} is not a plain file, folder or link")
    for keyword in m.pax_headers:
        if keyword not in _PAX_KEYWORDS and not keyword.startswith(_INERT_PAX_PREFIXES):
            raise ArchiveMismatch(f"entry {m.name[:100]!r} carries the tar extension {keyword[:60]!r}, which is not allowed")


def _compare(members: "list[tarfile.TarInfo]", expected: list) -> None:
    # The validator skips the archive's own root folder ("./"), as extraction does.
    seen = [describe(m) for m in members if not (normalise(m.name) == "" and m.type == tarfile.DIRTYPE)]
    for i, (got, want) in enumerate(zip(seen, expected)):
        if got != want:
            raise ArchiveMismatch(f"entry {i + 1} reads as {got['path'][:100]!r} here but was validated as {str(want.get('path'))[:100]!r}")
    if len(seen) != len(expected):
        raise ArchiveMismatch(f"the archive has {len(seen)} entries here but {len(expected)} were validated")


def refuse_archive(exc: ArchiveMismatch) -> None:
    """Ends the grading: the submission is refused as an invalid archive, like one the validator refuses."""
    sys.stdout.write(json.dumps({"archive_refused": {"reason": exc.reason, "message": str(exc)[:300]}}) + "\n")
    sys.stdout.flush()
    os._exit(ARCHIVE_REFUSED)


@contextmanager
def _read_as_validated(archive: "str | Path", expected: "list | None", doing: str):
    """The open archive and its checked members (checked_members); any failure is an ExtractionError."""
    try:
        with tarfile.open(archive, mode="r:*") as tf:
            yield tf, checked_members(tf, expected)
    except ExtractionError:
        raise
    except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
        raise ExtractionError(f"cannot {doing} {Path(archive).name}: {exc}") from exc


def read_checked_members(archive: "str | Path", expected: "list | None") -> "dict[str, tarfile.TarInfo]":
    """Headers of each entry by normalised path, once the members were found plain and as validated."""
    with _read_as_validated(archive, expected, "read") as (_tf, members):
        return {normalise(m.name): m for m in members}


def safe_extract(archive: "str | Path", dest: "str | Path", expected: "list | None" = None) -> Path:
    """Extracts a .tar.gz (or plain .tar) into dest (created) and returns dest."""
    _require_filters()
    target = Path(dest)
    target.mkdir(parents=True, exist_ok=True)
    with _read_as_validated(archive, expected, "extract") as (tf, members):
        tf.extractall(target, members=members, filter="data")
    return target


def freeze(tree: Path) -> None:
    """Makes every folder of `tree` read-only: reference material nothing later may replace."""
    for folder, _dirs, _files in os.walk(tree):
        os.chmod(folder, 0o555)


def read_members(archive: "str | Path", gz_only: bool = False) -> "dict[str, tarfile.TarInfo]":
    """Header of each entry by normalised path, without extracting (exact modes, link targets)."""
    try:
        with tarfile.open(archive, mode="r:gz" if gz_only else "r:*") as tf:
            return {normalise(m.name): m for m in tf.getmembers()}
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ExtractionError(f"cannot read {Path(archive).name}: {exc}") from exc
