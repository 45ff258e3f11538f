"""Question and sample answers of command-answers."""
from treespec import noise, File, Tree

T = "QUIZ"


def sheet(*answers: str) -> File:
    lines = ["# Write one command line after each number."]
    lines += [f"{i}: {a}" for i, a in enumerate(answers, start=1)]
    return File(f"{T}/answers.txt", "\n".join(lines) + "\n")


def question() -> Tree:
    return Tree([sheet(*[""] * 6)])


def good() -> Tree:
    return Tree([sheet("ls -la", "pwd", "wc -l data.txt", "man grep", "cp -r src backup", "tail -n 5 log.txt")])


def bad():
    return [
        ("two-wrong", Tree([sheet("ls -a", "cd", "cat data.txt | wc -l", "man grep", "cp src backup", "tail -5 log.txt")]), [2, 5]),
        ("unfinished", Tree([sheet("ls --all", "pwd", "wc -l < data.txt")]), [4, 5, 6]),
    ]


def bad_tree(name: str) -> Tree:
    return next(tree for n, tree, _ in bad() if n == name)


def tampering():
    bomb = sheet("ls -a", "cd " + noise(300_000), "cat data.txt | wc -l", "man grep", "cp src backup", "tail -5 log.txt")
    return [("feedback-bomb", Tree([bomb]), bad_tree("two-wrong"))]
