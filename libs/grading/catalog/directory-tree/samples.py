"""Question and sample answers of directory-tree."""
from treespec import noise, Dir, File, Tree

T = "TREE"
LEAVES = ["src/main", "src/test", "docs/api", "docs/guide", "build/debug", "build/release"]


def question() -> Tree:
    return Tree([File(f"{T}/HOWTO.txt", "Build the tree described in the statement here.\n")])


def good() -> Tree:
    t = question().copy()
    for leaf in LEAVES:
        t.put(Dir(f"{T}/project/{leaf}"))
    return t.put(File(f"{T}/project/README.md", "# My project\n\nA tree built with mkdir -p.\n"))


def bad():
    missing_release = good().remove(f"{T}/project/build/release").put(Dir(f"{T}/project/tmp"))
    readme_wrong = good().put(File(f"{T}/project/README.md", "my project\n"))
    flat = question().copy().put(Dir(f"{T}/project/src_main")).put(Dir(f"{T}/project/docs/api"))
    return [
        ("missing-release-extra-tmp", missing_release, [3, 5]),
        ("readme-first-line", readme_wrong, [4]),
        ("flat-names", flat, [1, 2, 3, 4, 5]),
    ]


def bad_tree(name: str) -> Tree:
    return next(tree for n, tree, _ in bad() if n == name)


def tampering():
    bomb = good().put(File(f"{T}/project/README.md", noise(300_000) + "\n"))
    return [("feedback-bomb", bomb, bad_tree("readme-first-line"))]
