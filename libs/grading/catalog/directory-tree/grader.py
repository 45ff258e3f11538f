"""Grader of directory-tree: expected folders, README first line, nothing extra."""
import os

from shellgrade_grader import Grading, Verdict, checks as c

EXPECTED_DIRS = ["src", "src/main", "src/test", "docs", "docs/api", "docs/guide", "build", "build/debug", "build/release"]

g = Grading.from_argv()
root = g.submission_root("TREE")
project = root / "project" if root else None


def dirs(*rel: str) -> Verdict:
    for r in rel:
        v = c.is_dir(project / r)
        if not v:
            return Verdict(False, f"project/{r} is not a folder" if os.path.lexists(project / r) else f"project/{r}/ is missing")
    return Verdict(True, " and ".join(f"project/{r}/" for r in rel) + " exist")


def readme() -> Verdict:
    path = project / "README.md"
    if not c.is_file(path):
        return Verdict(False, "project/README.md is missing")
    lines = c.read_text(path).splitlines()
    first = lines[0].strip() if lines else ""
    return Verdict(first == "# My project", f"first line is {first!r}")


def nothing_else() -> Verdict:
    allowed = set(EXPECTED_DIRS) | {"README.md"}
    extra = []
    for here, subdirs, files in os.walk(project):
        for name in subdirs + files:
            rel = os.path.relpath(os.path.join(here, name), project)
            if rel not in allowed:
                extra.append(rel)
    return Verdict(not extra, "no extra entries" if not extra else "unexpected: " + ", ".join(sorted(extra)[:5]))


g.check(1, "project/src/{main,test} exist", lambda: dirs("src/main", "src/test"))
g.check(2, "project/docs/{api,guide} exist", lambda: dirs("docs/api", "docs/guide"))
g.check(3, "project/build/{debug,release} exist", lambda: dirs("build/debug", "build/release"))
g.check(4, "project/README.md starts with '# My project'", readme)
g.check(5, "nothing else under project/", nothing_else)
g.finish()
