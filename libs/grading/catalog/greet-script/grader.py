"""Grader of greet-script: runs the student's script (inside the sandbox) with several arguments."""
from shellgrade_grader import Grading, Verdict, checks as c, run_script

g = Grading.from_argv()
root = g.submission_root("SCRIPT")
script = root / "greet.sh" if root else None


def shebang() -> Verdict:
    if not c.is_file(script):
        return Verdict(False, "greet.sh is missing")
    first = c.read_text(script).split("\n", 1)[0]
    ok = first.startswith("#!") and first.split("/")[-1].split()[0] in ("sh", "bash", "dash")
    return Verdict(ok, f"first line is {first!r}")


def run(*args: str, expect_out: "str | None", expect_code: int, usage: bool = False) -> Verdict:
    if not c.is_file(script):
        return Verdict(False, "greet.sh is missing")
    r = run_script(script, args, timeout=5)
    if r.timed_out:
        return Verdict(False, "greet.sh did not finish within 5 s")
    shown = " ".join(repr(a) for a in args) or "no argument"
    if r.returncode != expect_code:
        return Verdict(False, f"with {shown} the exit status is {r.returncode}, expected {expect_code}")
    if usage:
        lines = (r.stdout + r.stderr).strip().splitlines()
        ok = bool(lines) and lines[0].lower().startswith("usage:")
        return Verdict(ok, "prints a usage line" if ok else "no line starting with 'usage:'")
    got = r.stdout.strip()
    return Verdict(got == expect_out, f"with {shown} it prints {got!r}")


g.check(1, "greet.sh starts with a shebang", shebang)
g.check(2, "greet.sh is executable by its owner", lambda: c.user_executable(script))
g.check(3, "greet.sh Alice prints 'Hello, Alice!'", lambda: run("Alice", expect_out="Hello, Alice!", expect_code=0))
g.check(4, "greet.sh without argument prints a usage and exits 1", lambda: run(expect_out=None, expect_code=1, usage=True))
g.check(5, "greet.sh 'Ada Lovelace' keeps the space", lambda: run("Ada Lovelace", expect_out="Hello, Ada Lovelace!", expect_code=0))
g.finish()
