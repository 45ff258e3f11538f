"""Grader of file-permissions: compares the modes recorded in the submitted archive."""
from shellgrade_grader import Grading, Verdict, checks as c

g = Grading.from_argv()
root = g.submission_root("PERMS")
members = g.submission_members() if root else {}


def member(path: str):
    return members.get(f"PERMS/{path}")


def others_can_read() -> Verdict:
    m = member("public/index.html")
    if m is None:
        return Verdict(False, "public/index.html is missing")
    return Verdict(bool(m.mode & 0o004), f"public/index.html has mode {m.mode & 0o777:03o}")


g.check(1, "secret.txt is rw-------", lambda: c.mode_is(member("secret.txt"), 0o600, "secret.txt"))
g.check(2, "run.sh is rwxr-xr-x", lambda: c.mode_is(member("run.sh"), 0o755, "run.sh"))
g.check(3, "private/ is rwxr-x---", lambda: c.mode_is(member("private"), 0o750, "private/"))
g.check(4, "notes.txt is r--r--r--", lambda: c.mode_is(member("notes.txt"), 0o444, "notes.txt"))
g.check(5, "public/index.html is readable by others", others_can_read)
g.finish()
