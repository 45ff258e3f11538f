"""A rehearsal of one grading's library code, run by the zygote once before its first job.

Python 3.11 specialises each function's bytecode in place after its first few calls, and fills its
method caches as it goes. A job forked from a zygote that never ran the grading code does that
work again in every job — and writes into the zygote's pages while doing it, each write a
copy-on-write page fault. Rehearsing on synthetic material (built here, never a job's input) leaves
the specialised code in the zygote, so each job starts from it. The rehearsal touches nothing
outside a temporary folder of the zygote's private /tmp, writes nothing on the zygote's channels
and starts no process.
"""
import io
import json
import os
import shutil
import tarfile
import tempfile
from pathlib import Path

from . import checks, protocol
from .extract import MANIFEST_NAME, describe, normalise, read_members
from .feedback import OK
from .grading import Grading

#: Rounds: enough for the interpreter to specialise what one grading calls a few times.
ROUNDS = 12
_SCRIPT = b"#!/bin/sh\necho Hello World\n"


def rehearse() -> None:
    with tempfile.TemporaryDirectory(prefix="sg-rehearsal-") as top:
        root = Path(top)
        question, submitted = _write_inputs(root)
        for i in range(ROUNDS):
            _one_grading(root / f"run-{i}", question, submitted)
        _channel_round_trip()


def _archive(path: Path, top: str, files: "dict[str, bytes]") -> None:
    with tarfile.open(path, "w:gz") as tf:
        for name in (top, f"{top}/sub"):
            info = tarfile.TarInfo(name)
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tf.addfile(info)
        for name, data in files.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mode = len(data), 0o755 if name.endswith(".sh") else 0o644
            tf.addfile(info, io.BytesIO(data))


def _write_inputs(root: Path) -> "tuple[Path, Path]":
    question, submitted = root / "question.tar.gz", root / "submitted.tar.gz"
    nested = io.BytesIO()
    with tarfile.open(fileobj=nested, mode="w:gz") as tf:
        info = tarfile.TarInfo("inner/list.txt")
        info.size = 3
        tf.addfile(info, io.BytesIO(b"a\nb"))
    _archive(question, "Q", {"script.sh": _SCRIPT, "sub/list.txt": b"one\ntwo\n"})
    _archive(submitted, "S", {"answers.txt": b"1: one\n2: 2\n3: chmod u+x hello.sh\n", "hello.sh": _SCRIPT,
                              "inner.tgz": nested.getvalue(), "sub/notes.txt": b"x"})
    with tarfile.open(submitted) as tf:
        manifest = [describe(m) for m in tf.getmembers() if normalise(m.name)]
    (root / MANIFEST_NAME).write_text(json.dumps(manifest))
    return question, submitted


def _one_grading(workdir: Path, question: Path, submitted: Path) -> None:
    workdir.mkdir()
    g = Grading(workdir / "statement.html", question, submitted, "en", workdir)
    q = g.question_root("Q")
    s = g.submission_root("S")
    answers = checks.parse_answers(s / "answers.txt")
    g.check(1, "answer 1", lambda: checks.answer_equals(answers, 1, (q / "sub" / "list.txt").read_text().split()[0]))
    g.check(2, "answer 2", lambda: checks.answer_matches(answers, 3, [r"chmod (u\+x|\+x) (\./)?hello\.sh"]))
    g.check(3, "executable", lambda: checks.user_executable(s / "hello.sh"))
    g.check(4, "same bytes", lambda: checks.same_bytes(s / "hello.sh", (q / "script.sh").read_bytes()))
    g.check(5, "nested", lambda: "inner/list.txt" in read_members(s / "inner.tgz", gz_only=True))
    g.check(6, "members", lambda: len(g.submission_members()) > 0)
    g.feedback.to_json()
    if [i["status"] for i in g.feedback.items] != [OK] * 6:  # the library itself is broken: say so at start
        raise RuntimeError(f"the zygote's rehearsal grading failed: {g.feedback.to_json()}")
    for tree in (q.parent, s.parent):
        for folder, _dirs, _files in os.walk(tree):
            os.chmod(folder, 0o755)  # (freeze made the question read-only)
    shutil.rmtree(workdir)


def _channel_round_trip() -> None:
    """run_script's side of the channel: a request encoded and sent, a reply received and decoded."""
    a, b = protocol.socket_pair()
    reply = protocol.REPLY_HEAD.pack(1, 0, 0, 12, 0) + b"Hello World\n"
    try:
        for _ in range(ROUNDS):
            protocol.send(a, protocol.encode_request("/job/submission/S/hello.sh", [], None, 5.0, "", True))
            protocol.send(b, reply)
            protocol.receive(b)
            protocol.decode_reply(protocol.receive(a))
    finally:
        a.close()
        b.close()
