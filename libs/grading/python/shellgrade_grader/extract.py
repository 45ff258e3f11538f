"""Safe extraction of (possibly hostile) archives with tarfile extraction filters.

The 'data' filter refuses absolute paths, '..', links leaving the destination and device
files, strips owners and dangerous mode bits, and keeps symlinks that stay inside the tree.
"""
import tarfile
from pathlib import Path


class ExtractionError(Exception):
    """The archive cannot be opened or contains something the 'data' filter refuses."""


def _require_filters() -> None:
    if not hasattr(tarfile, "data_filter"):
        raise ExtractionError("this Python has no tarfile extraction filters (need >= 3.11.4)")


def safe_extract(archive: "str | Path", dest: "str | Path") -> Path:
    """Extracts a .tar.gz (or plain .tar) into dest (created) and returns dest."""
    _require_filters()
    target = Path(dest)
    target.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(archive, mode="r:*") as tf:
            tf.extractall(target, filter="data")
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ExtractionError(f"cannot extract {Path(archive).name}: {exc}") from exc
    return target


def normalise(name: str) -> str:
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return "/".join(parts)


def read_members(archive: "str | Path", gz_only: bool = False) -> "dict[str, tarfile.TarInfo]":
    """Header of each entry by normalised path, without extracting (exact modes, link targets)."""
    try:
        with tarfile.open(archive, mode="r:gz" if gz_only else "r:*") as tf:
            return {normalise(m.name): m for m in tf.getmembers()}
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise ExtractionError(f"cannot read {Path(archive).name}: {exc}") from exc
