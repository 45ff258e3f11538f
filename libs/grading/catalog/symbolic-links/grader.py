"""Grader of symbolic-links: relative links that stay in the tree and lead to the right place."""
from shellgrade_grader import Grading, Verdict, checks as c

g = Grading.from_argv()
root = g.submission_root("LINKS")


def regular_releases() -> Verdict:
    for v in ("v1", "v2"):
        path = root / "releases" / v / "config.txt"
        if path.is_symlink() or not path.is_file():
            return Verdict(False, f"releases/{v}/config.txt is no longer a regular file")
    return Verdict(True, "releases/ holds regular files")


g.check(1, "current -> releases/v2", lambda: c.resolves_to(root / "current", root / "releases" / "v2", root))
g.check(2, "config.txt leads to releases/v2/config.txt",
        lambda: c.resolves_to(root / "config.txt", root / "releases" / "v2" / "config.txt", root))
g.check(3, "bin/tool -> tool-2.0", lambda: c.resolves_to(root / "bin" / "tool", root / "bin" / "tool-2.0", root))
g.check(4, "releases/ files are still regular files", regular_releases)
g.finish()
