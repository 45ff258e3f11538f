"""Question and sample answers of text-processing; the data is generated, with distinct counts."""
from collections import Counter

from treespec import noise, File, Tree

T = "TEXT"
USERS = ["mallory", "alice", "dave", "bob", "carol", "erin"]
ACTIONS = ["login"] * 6 + ["read"] * 5 + ["write"] * 3 + ["logout"] * 2 + ["delete"]
STUDENTS = [("zoe", "B2", 14), ("adam", "A1", 12), ("lea", "A2", 17), ("tom", "B1", 9), ("ines", "A1", 19),
            ("hugo", "B2", 11), ("emma", "A2", 15), ("noah", "B1", 8)]


def access_log() -> str:
    lines = []
    for i in range(40):
        user = USERS[(i * 7) % len(USERS)]
        action = ACTIONS[(i * 5) % len(ACTIONS)]
        lines.append(f"{8 + i // 6:02d}:{(i * 13) % 60:02d} {user} {action}")
    return "\n".join(lines) + "\n"


def grades_csv() -> str:
    return "name,group,grade\n" + "".join(f"{n},{g},{s}\n" for n, g, s in STUDENTS)


def expected():
    rows = [l.split() for l in access_log().splitlines()]
    counts = Counter(r[2] for r in rows)
    return {
        "users": sorted({r[1] for r in rows}),
        "actions": [f"{n:7d} {a}" for a, n in sorted(counts.items(), key=lambda kv: -kv[1])],
        "uniq_unsorted": uniq_c([r[2] for r in rows]),
        "groups": sorted({g for _, g, _ in STUDENTS}),
        "top": max(STUDENTS, key=lambda s: s[2])[0],
    }


def uniq_c(items):
    """What `uniq -c` prints without a sort first: counts of adjacent runs only."""
    out, prev, n = [], None, 0
    for it in items + [None]:
        if it == prev:
            n += 1
            continue
        if prev is not None:
            out.append(f"{n:7d} {prev}")
        prev, n = it, 1
    return out


def question() -> Tree:
    return Tree([File(f"{T}/access.log", access_log()), File(f"{T}/grades.csv", grades_csv())])


def lines(path: str, items) -> File:
    return File(f"{T}/{path}", "".join(f"{i}\n" for i in items))


def good() -> Tree:
    e = expected()
    return (question().copy().put(lines("users.txt", e["users"])).put(lines("actions.txt", e["actions"]))
            .put(lines("groups.txt", e["groups"])).put(lines("top.txt", [e["top"]])))


def bad():
    e = expected()
    rows = [l.split() for l in access_log().splitlines()]
    unsorted = good().put(lines("users.txt", [r[1] for r in rows][:8])).put(lines("top.txt", ["zoe"]))
    return [
        ("unsorted-users-wrong-top", unsorted, [1, 4]),
        ("uniq-without-sort", good().put(lines("actions.txt", e["uniq_unsorted"])), [2]),
        ("header-in-groups", good().put(lines("groups.txt", sorted(e["groups"] + ["group"]))), [3]),
    ]


def bad_tree(name: str) -> Tree:
    return next(tree for n, tree, _ in bad() if n == name)


def tampering():
    rows = [l.split() for l in access_log().splitlines()]
    bomb = (good().put(lines("users.txt", [noise(300_000)] + [r[1] for r in rows][:8]))
            .put(lines("top.txt", ["zoe"])))
    return [("feedback-bomb", bomb, bad_tree("unsorted-users-wrong-top"))]
