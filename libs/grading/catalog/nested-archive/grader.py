"""Grader of nested-archive: password from two nested levels, and a well-formed backup archive."""
import tarfile

from shellgrade_grader import Grading, Verdict, checks as c, read_members, safe_extract

g = Grading.from_argv()
question = g.question_root("ARCH")
root = g.submission_root("ARCH")
answers = c.parse_answers(root / "answers.txt") if root else {}


def password() -> str:
    outer = safe_extract(question / "parcel.tgz", g.workdir / "parcel")
    inner = safe_extract(outer / "box" / "inner.tar.gz", g.workdir / "inner")
    return c.read_text(inner / "secret.txt").split(":", 1)[1].strip()


def backup_members() -> dict:
    return read_members(root / "backup.tar.gz", gz_only=True)


def is_gzip_tar() -> Verdict:
    path = root / "backup.tar.gz"
    if not path.is_file():
        return Verdict(False, "backup.tar.gz is missing")
    if path.read_bytes()[:2] != b"\x1f\x8b":
        return Verdict(False, "backup.tar.gz is not gzip-compressed (use tar czf)")
    backup_members()
    return Verdict(True, "backup.tar.gz is a gzip-compressed tar")


def has_docs() -> Verdict:
    with tarfile.open(root / "backup.tar.gz", "r:gz") as tf:
        names = {n.rstrip("/").removeprefix("./"): n for n in tf.getnames()}
        for doc in ("a.txt", "b.txt"):
            name = names.get(f"docs/{doc}")
            if name is None:
                return Verdict(False, f"docs/{doc} is not in backup.tar.gz")
            if tf.extractfile(name).read() != (question / "docs" / doc).read_bytes():
                return Verdict(False, f"docs/{doc} in backup.tar.gz was modified")
    return Verdict(True, "docs/a.txt and docs/b.txt are archived")


def only_docs() -> Verdict:
    others = [n for n in backup_members() if n != "docs" and not n.startswith("docs/")]
    return Verdict(not others, "only docs/" if not others else "also contains: " + ", ".join(sorted(others)[:5]))


g.check(1, "answers.txt line 1: the nested password", lambda: c.answer_equals(answers, 1, password()))
g.check(2, "backup.tar.gz is a gzip tar archive", is_gzip_tar)
g.check(3, "backup.tar.gz holds docs/a.txt and docs/b.txt", has_docs)
g.check(4, "backup.tar.gz holds only docs/", only_docs)
g.check(5, "parcel.tgz is unchanged", lambda: c.same_bytes(root / "parcel.tgz", (question / "parcel.tgz").read_bytes()))
g.finish()
