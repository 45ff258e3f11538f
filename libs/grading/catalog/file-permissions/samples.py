"""Question and sample answers of file-permissions (modes are read from the tar headers)."""
from treespec import LEAK_GRADER, Dir, File, Tree

T = "PERMS"


def question() -> Tree:
    return Tree([
        File(f"{T}/secret.txt", "the cake is a lie\n"),
        File(f"{T}/run.sh", "#!/bin/sh\necho running\n"),
        Dir(f"{T}/private", 0o755),
        File(f"{T}/private/diary.txt", "dear diary\n", 0o600),
        File(f"{T}/notes.txt", "chmod takes octal or symbolic modes\n"),
        File(f"{T}/public/index.html", "<h1>welcome</h1>\n"),
    ])


def with_modes(tree: Tree, **modes: int) -> Tree:
    out = tree.copy()
    for key, mode in modes.items():
        path = {"secret": "secret.txt", "run": "run.sh", "private": "private", "notes": "notes.txt",
                "index": "public/index.html"}[key]
        e = out.get(f"{T}/{path}")
        out.put(Dir(e.path, mode) if isinstance(e, Dir) else File(e.path, e.content, mode))
    # keep the original order so the archive still looks like `tar czf` output
    order = [e.path for e in tree.entries]
    out.entries.sort(key=lambda e: order.index(e.path))
    return out


def good() -> Tree:
    return with_modes(question(), secret=0o600, run=0o755, private=0o750, notes=0o444)


def bad():
    return [
        ("group-readable-secret", with_modes(question(), secret=0o640, run=0o755, private=0o750, notes=0o444), [1]),
        ("forgot-exec-and-readonly", with_modes(question(), secret=0o600, run=0o644, private=0o750, notes=0o644), [2, 4]),
        ("everything-private", with_modes(question(), secret=0o600, run=0o700, private=0o700, notes=0o400,
                                          index=0o600), [2, 3, 4, 5]),
    ]


def bad_tree(name: str) -> Tree:
    return next(tree for n, tree, _ in bad() if n == name)


def tampering():
    # This grader reads tar headers only and echoes nothing the student wrote: a script that
    # would rewrite the question if it ran is graded like the plain wrong answer.
    t = with_modes(question(), secret=0o640, run=0o755, private=0o750, notes=0o444)
    t.put(File(f"{T}/run.sh", "#!/bin/sh\nchmod 600 /job/submission/PERMS/secret.txt\n" + LEAK_GRADER, 0o755))
    return [("script-never-run", t, bad_tree("group-readable-secret"))]
