"""The feedback list and the single JSON line a grader prints."""
import json
import sys

OK, NOT_OK, NOT_TESTED = "OK", "NOT OK", "not tested"
#: Feedback texts quote student files and output: bounded, so an answer cannot flood the result
#: line (the service caps it) and turn a wrong answer into a failed grading.
MAX_VERIF, MAX_EXPL, MAX_ITEMS = 200, 500, 200


def bounded(text: str, limit: int) -> str:
    text = "".join(ch if ch.isprintable() or ch in "\n\t" else "?" for ch in str(text)[: limit + 1])
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Verdict:
    """A check's outcome and its explanation: immutable, compared and hashed by value.

    Written out rather than a frozen dataclass: importing dataclasses (inspect, ast, dis,
    tokenize...) and generating its methods cost every grading process ~10 ms of CPU.
    """

    __slots__ = ("ok", "expl")
    __match_args__ = ("ok", "expl")

    def __init__(self, ok: bool, expl: str = "") -> None:
        object.__setattr__(self, "ok", ok)
        object.__setattr__(self, "expl", expl)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.ok, self.expl) == (other.ok, other.expl)

    def __hash__(self) -> int:
        return hash((self.ok, self.expl))

    def __repr__(self) -> str:
        return f"Verdict(ok={self.ok!r}, expl={self.expl!r})"

    def __bool__(self) -> bool:
        return self.ok


class Feedback:
    def __init__(self) -> None:
        self.items: list[dict] = []

    def add(self, num_q: int, verif: str, status: str, expl: str = "") -> None:
        if status not in (OK, NOT_OK, NOT_TESTED):
            raise ValueError(f"unknown status {status!r}")
        if len(self.items) >= MAX_ITEMS:
            raise ValueError(f"a grader reports at most {MAX_ITEMS} items")
        self.items.append({"numQ": num_q, "verif": bounded(verif, MAX_VERIF), "status": status,
                           "expl": bounded(expl, MAX_EXPL)})

    def grade(self) -> int:
        """int(100 x passed / total); items 'not tested' count as not passed."""
        if not self.items:
            return 0
        passed = sum(1 for i in self.items if i["status"] == OK)
        return int(100 * passed / len(self.items))

    def to_json(self) -> str:
        return json.dumps({"grade": self.grade(), "comment": self.items}, ensure_ascii=False)

    def emit(self, out=None) -> None:
        stream = out or sys.stdout
        stream.write(self.to_json() + "\n")
        stream.flush()
