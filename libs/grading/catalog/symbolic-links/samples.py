"""Question and sample answers of symbolic-links (in-tree links are legitimate submissions)."""
from treespec import LEAK_GRADER, File, Link, Tree

T = "LINKS"


def question() -> Tree:
    return Tree([
        File(f"{T}/releases/v1/config.txt", "version=1\n"),
        File(f"{T}/releases/v2/config.txt", "version=2\n"),
        File(f"{T}/bin/tool-1.0", "#!/bin/sh\necho tool 1.0\n", 0o755),
        File(f"{T}/bin/tool-2.0", "#!/bin/sh\necho tool 2.0\n", 0o755),
    ])


def good() -> Tree:
    return (question().copy().put(Link(f"{T}/current", "releases/v2"))
            .put(Link(f"{T}/config.txt", "current/config.txt")).put(Link(f"{T}/bin/tool", "tool-2.0")))


def bad():
    wrong_version = (question().copy().put(Link(f"{T}/current", "releases/v1"))
                     .put(Link(f"{T}/config.txt", "releases/v2/config.txt")))
    copies = (question().copy().put(File(f"{T}/current/config.txt", "version=2\n"))
              .put(File(f"{T}/config.txt", "version=2\n")).put(Link(f"{T}/bin/tool", "tool-2.0"))
              .put(Link(f"{T}/releases/v1/config.txt", "../v2/config.txt")))
    return [
        ("wrong-version-no-tool", wrong_version, [1, 3]),
        ("copies-instead-of-links", copies, [1, 2, 4]),
    ]


def bad_tree(name: str) -> Tree:
    return next(tree for n, tree, _ in bad() if n == name)


def tampering():
    # In-tree links only pass validation; links to the grader or the question are refused (422).
    t = (question().copy().put(Link(f"{T}/current", "releases/v1"))
         .put(Link(f"{T}/config.txt", "releases/v2/config.txt"))
         .put(File(f"{T}/bin/tool", "#!/bin/sh\n" + LEAK_GRADER, 0o755)))
    return [("script-instead-of-link", t, bad_tree("wrong-version-no-tool"))]
