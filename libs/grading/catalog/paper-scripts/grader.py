"""Grader of paper-scripts: answers, an executable complete script, an untouched script, a nested archive."""
from shellgrade_grader import Grading, Verdict, checks as c, read_members, run_script

g = Grading.from_argv()
question = g.question_root("SCRIPTS")
root = g.submission_root("SCRIPTS")
ans = c.parse_answers(root / "answers.txt") if root else {}


def expected_word() -> str:
    return run_script(question / "ckiki.sh", use_shebang=False, timeout=5, teacher_material=True).stdout.strip()


def line_count() -> str:
    return str(len((question / "recue" / "liste.txt").read_text().splitlines()))


def hello_prints() -> Verdict:
    r = run_script(root / "hello.sh", timeout=5)
    if r.timed_out:
        return Verdict(False, "hello.sh did not finish within 5 s")
    if r.stdout.strip() == "Hello World":
        return Verdict(True, "hello.sh prints Hello World")
    return Verdict(False, f"hello.sh prints {r.stdout.strip()!r}, expected 'Hello World'")


def recue_archive() -> Verdict:
    if not (root / "recue.tgz").is_file():
        return Verdict(False, "recue.tgz is missing")
    members = read_members(root / "recue.tgz", gz_only=True)
    for name in ("message.txt", "liste.txt"):
        m = members.get(f"recue/{name}")
        if m is None or not m.isfile():
            return Verdict(False, f"recue.tgz has no recue/{name}")
    import tarfile
    with tarfile.open(root / "recue.tgz", "r:gz") as tf:
        for name in ("message.txt", "liste.txt"):
            if tf.extractfile(f"recue/{name}").read() != (question / "recue" / name).read_bytes():
                return Verdict(False, f"recue/{name} in recue.tgz differs from the original")
    return Verdict(True, "recue.tgz holds the recue folder")


g.check(1, "answers.txt line 1: output of ckiki.sh", lambda: c.answer_equals(ans, 1, expected_word()))
g.check(2, "answers.txt line 2: lines of recue/liste.txt", lambda: c.answer_equals(ans, 2, line_count()))
g.check(3, "answers.txt line 3: command making hello.sh executable", lambda: c.answer_matches(
    ans, 3, [r"chmod (u\+x|\+x|a\+x|u=rwx|7[0-7][0-7]) (\./)?hello\.sh"]))
g.check(4, "hello.sh is executable by its owner", lambda: c.user_executable(root / "hello.sh"))
g.check(5, "hello.sh is complete", hello_prints)
g.check(6, "ckiki.sh is unchanged", lambda: c.same_bytes(root / "ckiki.sh", (question / "ckiki.sh").read_bytes()))
g.check(7, "recue.tgz archives the recue folder", recue_archive)
g.check(8, "the recue folder was removed", lambda: Verdict(not (root / "recue").exists(),
                                                           "recue/ removed" if not (root / "recue").exists() else "recue/ is still there"))
g.finish()
