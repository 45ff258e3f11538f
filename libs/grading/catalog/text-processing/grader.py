"""Grader of text-processing: expected outputs are recomputed from the question's data files."""
from collections import Counter

from shellgrade_grader import Grading, checks as c

g = Grading.from_argv()
question = g.question_root("TEXT")
root = g.submission_root("TEXT")

rows = [l.split() for l in c.read_text(question / "access.log").splitlines() if l.strip()]
students = [l.split(",") for l in c.read_text(question / "grades.csv").splitlines()[1:] if l.strip()]
counts = Counter(r[2] for r in rows)
by_count = sorted(counts.items(), key=lambda kv: -kv[1])

g.check(1, "users.txt: distinct users, sorted", lambda: c.lines_equal(root / "users.txt", sorted({r[1] for r in rows})))
g.check(2, "actions.txt: counts per action, most frequent first",
        lambda: c.lines_equal(root / "actions.txt", [f"{n} {a}" for a, n in by_count], squeeze_spaces=True))
g.check(3, "groups.txt: distinct groups, sorted", lambda: c.lines_equal(root / "groups.txt", sorted({s[1] for s in students})))
g.check(4, "top.txt: the best student", lambda: c.lines_equal(root / "top.txt", [max(students, key=lambda s: int(s[2]))[0]]))
g.finish()
