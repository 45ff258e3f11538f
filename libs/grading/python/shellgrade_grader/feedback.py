"""The feedback list and the single JSON line a grader prints."""
import json
import sys
from dataclasses import dataclass

OK, NOT_OK, NOT_TESTED = "OK", "NOT OK", "not tested"


@dataclass(frozen=True)
class Verdict:
    ok: bool
    expl: str = ""

    def __bool__(self) -> bool:
        return self.ok


class Feedback:
    def __init__(self) -> None:
        self.items: list[dict] = []

    def add(self, num_q: int, verif: str, status: str, expl: str = "") -> None:
        if status not in (OK, NOT_OK, NOT_TESTED):
            raise ValueError(f"unknown status {status!r}")
        self.items.append({"numQ": num_q, "verif": verif, "status": status, "expl": expl})

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
