"""The grading session: arguments, extraction of the inputs, numbered checks, final print."""
import sys
from collections.abc import Callable
from pathlib import Path

from .extract import ArchiveMismatch, ExtractionError, freeze, load_manifest, read_checked_members, refuse_archive, safe_extract
from .feedback import NOT_OK, NOT_TESTED, OK, Feedback, Verdict

#: What a check returns (no typing import: it would cost every grading process ~2 ms of CPU).
CheckResult = Verdict | bool | tuple[bool, str]


class Grading:
    def __init__(self, statement: Path, question: Path, submitted: Path, locale: str, workdir: Path) -> None:
        self.statement, self.question, self.submitted = statement, question, submitted
        self.locale = locale
        self.workdir = workdir
        self.feedback = Feedback()
        self._blocked: "str | None" = None

    @classmethod
    def from_argv(cls, argv: "list[str] | None" = None) -> "Grading":
        args = (argv if argv is not None else sys.argv)[1:]
        if len(args) != 4:
            sys.stderr.write("usage: grader.py statement.html question.tar.gz submitted.tar.gz <locale>\n")
            sys.exit(2)
        statement, question, submitted, locale = args
        return cls(Path(statement), Path(question), Path(submitted), locale, Path.cwd())

    # --- inputs -----------------------------------------------------------------------
    def submission_root(self, top: str) -> "Path | None":
        """Extracts the submission and returns its top folder; blocks later checks if absent."""
        try:
            dest = safe_extract(self.submitted, self.workdir / "submission", load_manifest(self.submitted))
        except ArchiveMismatch as exc:
            refuse_archive(exc)  # read otherwise than validated: a 422 for the student, not a grade
        except ExtractionError as exc:
            self._blocked = str(exc)
            return None
        root = dest / top
        if not root.is_dir() or root.is_symlink():
            self._blocked = f"the archive must contain a top folder {top}/"
            return None
        return root

    def question_root(self, top: str) -> Path:
        """The question archive is trusted (written by the teacher) but still extracted safely."""
        tree = safe_extract(self.question, self.workdir / "question")
        freeze(tree)  # whatever runs later (a student's extraction included) cannot replace it
        return tree / top

    def submission_members(self) -> dict:
        """Tar headers of the submission (exact modes before extraction filters touch them), as validated."""
        try:
            return read_checked_members(self.submitted, load_manifest(self.submitted))
        except ArchiveMismatch as exc:
            refuse_archive(exc)
            raise  # (refuse_archive never returns)

    # --- checks -----------------------------------------------------------------------
    def check(self, num_q: int, verif: str, fn: Callable[[], CheckResult]) -> bool:
        """Runs one numbered check; an exception in it counts as NOT OK, never a crash."""
        if self._blocked is not None:
            self.feedback.add(num_q, verif, NOT_TESTED, self._blocked)
            return False
        try:
            result = fn()
        except Exception as exc:  # a student file can break any check
            import traceback  # only when a check fails with an exception
            traceback.print_exc(file=sys.stderr)
            self.feedback.add(num_q, verif, NOT_OK, f"check failed: {type(exc).__name__}: {exc}")
            return False
        ok, expl = _as_verdict(result)
        self.feedback.add(num_q, verif, OK if ok else NOT_OK, expl)
        return ok

    def finish(self) -> None:
        self.feedback.emit()


def _as_verdict(result: CheckResult) -> "tuple[bool, str]":
    if isinstance(result, Verdict):
        return result.ok, result.expl
    if isinstance(result, tuple):
        return bool(result[0]), str(result[1])
    return bool(result), ""
