"""Helper library for shellgrade grading scripts (docs/design.md, Grading contract).

A grader is run as ``python3 -u grader.py statement.html question.tar.gz submitted.tar.gz <locale>``
in a fresh sandbox directory and must print ONE JSON line ``{"grade": int, "comment": [...]}``.

    from shellgrade_grader import Grading, checks as c
    g = Grading.from_argv()
    root = g.submission_root("SCRIPTS")
    g.check(1, "hello.sh is user-executable", lambda: c.user_executable(root / "hello.sh"))
    g.finish()
"""
import gc as _gc

# Every grading imports this library (and its stdlib modules) in a fresh interpreter: the cyclic
# collector would only scan the import's own objects, a few ms of CPU each time.
_collecting = _gc.isenabled()
_gc.disable()
try:
    from .feedback import Feedback, Verdict
    from .extract import ExtractionError, safe_extract, read_members
    from .grading import Grading
    from .run import RunResult, run_script
    from . import checks
finally:
    if _collecting:
        _gc.enable()
del _collecting

__all__ = [
    "Feedback", "Verdict", "ExtractionError", "safe_extract", "read_members",
    "Grading", "RunResult", "run_script", "checks",
]
