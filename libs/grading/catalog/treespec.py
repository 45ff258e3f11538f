"""Deterministic .tar.gz building for the catalog (fixed owners, mtimes, gzip header).

Rebuilding gives byte-identical archives, so samples are generated, never committed.
"""
import gzip
import io
import tarfile
from dataclasses import dataclass, field

MTIME = 1_700_000_000  # 2023-11-14, any fixed instant works
OWNER = dict(uid=1000, gid=1000, uname="student", gname="student")


@dataclass(frozen=True)
class File:
    path: str
    content: "str | bytes"
    mode: int = 0o644

    def data(self) -> bytes:
        return self.content.encode() if isinstance(self.content, str) else self.content


@dataclass(frozen=True)
class Dir:
    path: str
    mode: int = 0o755


@dataclass(frozen=True)
class Link:
    path: str
    target: str


@dataclass(frozen=True)
class Tgz:
    """A nested archive stored as a file."""
    path: str
    entries: tuple
    mode: int = 0o644
    gzipped: bool = True

    def data(self) -> bytes:
        return tar_gz(list(self.entries)) if self.gzipped else tar_bytes(list(self.entries))


@dataclass
class Tree:
    """An editable list of entries: samples start from the question and change a few things."""
    entries: list = field(default_factory=list)

    def copy(self) -> "Tree":
        return Tree(list(self.entries))

    def put(self, entry) -> "Tree":
        self.entries = [e for e in self.entries if e.path != entry.path] + [entry]
        return self

    def remove(self, path: str) -> "Tree":
        self.entries = [e for e in self.entries if e.path != path and not e.path.startswith(path + "/")]
        return self

    def get(self, path: str):
        return next(e for e in self.entries if e.path == path)


def _with_parents(entries: list) -> list:
    """Adds the folder entries a real `tar czf` would record, before their first child."""
    seen = {e.path for e in entries if isinstance(e, Dir)}
    out = []
    for e in entries:
        parts = e.path.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            if parent not in seen:
                seen.add(parent)
                out.append(Dir(parent))
        out.append(e)
    return out


def _info(name: str, kind: bytes, mode: int, size: int = 0, target: str = "") -> tarfile.TarInfo:
    ti = tarfile.TarInfo(name)
    ti.type, ti.mode, ti.size, ti.mtime, ti.linkname = kind, mode, size, MTIME, target
    for k, v in OWNER.items():
        setattr(ti, k, v)
    return ti


def tar_bytes(entries: list) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for e in _with_parents(entries):
            if isinstance(e, Dir):
                tf.addfile(_info(e.path + "/", tarfile.DIRTYPE, e.mode))
            elif isinstance(e, Link):
                tf.addfile(_info(e.path, tarfile.SYMTYPE, 0o777, target=e.target))
            else:
                data = e.data()
                tf.addfile(_info(e.path, tarfile.REGTYPE, e.mode, len(data)), io.BytesIO(data))
    return buf.getvalue()


def tar_gz(entries: list) -> bytes:
    return gzip_bytes(tar_bytes(entries))


def gzip_bytes(data: bytes) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    return out.getvalue()


# --- tampering answers (docs/design.md, Untrusted input: student code never sees or changes the grader)
def noise(size: int, seed: int = 7) -> str:
    """Letters that gzip cannot squeeze much (a feedback bomb must pass the archive limits)."""
    out, x = [], seed
    for _ in range(size):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append("abcdefghijklmnopqrstuvwxyz"[x % 26])
    return "".join(out)


#: Shell that prints the hidden grader wherever it may sit relative to the script.
LEAK_GRADER = 'for f in /job/grader.py ../grader.py ../../grader.py; do cat "$f" 2>/dev/null; done\n'
