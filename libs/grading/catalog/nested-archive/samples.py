"""Question and sample answers of nested-archive (two levels of nesting)."""
from treespec import noise, Dir, File, Tgz, Tree

T = "ARCH"
PASSWORD = "penguin42"
INNER = Tgz("box/inner.tar.gz", (File("secret.txt", f"The password is: {PASSWORD}\n"),))
PARCEL = Tgz(f"{T}/parcel.tgz", (File("box/README", "Open inner.tar.gz too.\n"), INNER))
DOCS = (File("docs/a.txt", "first document\n"), File("docs/b.txt", "second document\n"))


def question() -> Tree:
    return Tree([PARCEL, File(f"{T}/answers.txt", "1: \n"),
                 File(f"{T}/docs/a.txt", "first document\n"), File(f"{T}/docs/b.txt", "second document\n")])


def good() -> Tree:
    return question().copy().put(File(f"{T}/answers.txt", f"1: {PASSWORD}\n")).put(Tgz(f"{T}/backup.tar.gz", DOCS))


def bad():
    flat = (File("a.txt", "first document\n"), File("b.txt", "second document\n"), File("notes", "x\n"))
    return [
        ("wrong-password", good().put(File(f"{T}/answers.txt", "1: The password is\n")), [1]),
        ("flat-backup", good().put(Tgz(f"{T}/backup.tar.gz", flat)), [3, 4]),
        ("uncompressed-backup", good().put(Tgz(f"{T}/backup.tar.gz", DOCS, gzipped=False)), [2, 3, 4]),
        ("parcel-replaced", good().put(File(f"{T}/parcel.tgz", "not an archive\n")).put(Dir(f"{T}/box")), [5]),
    ]


def bad_tree(name: str) -> Tree:
    return next(tree for n, tree, _ in bad() if n == name)


def tampering():
    bomb = good().put(File(f"{T}/answers.txt", "1: The password is " + noise(300_000) + "\n"))
    return [("feedback-bomb", bomb, bad_tree("wrong-password"))]
