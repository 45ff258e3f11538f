"""Unit tests of the grader helper library (run: python3 -m pytest libs/grading/python/tests)."""
import io
import json
import tarfile
from pathlib import Path

import pytest

from shellgrade_grader import ExtractionError, Feedback, Grading, checks as c, run_script, safe_extract


def make_tgz(path: Path, entries) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, kind, payload in entries:
            ti = tarfile.TarInfo(name)
            if kind == "file":
                data = payload.encode()
                ti.size, ti.mode = len(data), 0o644
                tf.addfile(ti, io.BytesIO(data))
            elif kind == "symlink":
                ti.type, ti.linkname = tarfile.SYMTYPE, payload
                tf.addfile(ti)
            elif kind == "dir":
                ti.type, ti.mode = tarfile.DIRTYPE, 0o755
                tf.addfile(ti)
    return path


def test_grade_is_int_of_passed_over_total_and_not_tested_counts():
    fb = Feedback()
    fb.add(1, "a", "OK")
    fb.add(2, "b", "NOT OK")
    fb.add(3, "c", "not tested")
    assert fb.grade() == 33
    out = io.StringIO()
    fb.emit(out)
    line = out.getvalue()
    assert line.count("\n") == 1
    assert json.loads(line)["grade"] == 33


def test_safe_extract_keeps_in_tree_symlinks(tmp_path):
    arc = make_tgz(tmp_path / "a.tgz", [("T/v2/c.txt", "file", "x"), ("T/cur", "symlink", "v2")])
    root = safe_extract(arc, tmp_path / "out")
    assert (root / "T" / "cur").is_symlink()
    assert (root / "T" / "cur" / "c.txt").read_text() == "x"


@pytest.mark.parametrize("entries", [
    [("T/up", "symlink", "../../etc")],
    [("T/../../x.txt", "file", "x")],
])
def test_safe_extract_refuses_escapes(tmp_path, entries):
    arc = make_tgz(tmp_path / "bad.tgz", entries)
    with pytest.raises(ExtractionError):
        safe_extract(arc, tmp_path / "out")
    assert not (tmp_path / "x.txt").exists()


def test_safe_extract_lands_absolute_names_inside_dest(tmp_path):
    arc = make_tgz(tmp_path / "abs.tgz", [("/sg-abs.txt", "file", "x")])
    root = safe_extract(arc, tmp_path / "out")
    assert (root / "sg-abs.txt").read_text() == "x"
    assert not Path("/sg-abs.txt").exists()


def test_parse_answers_and_matching(tmp_path):
    f = tmp_path / "answers.txt"
    f.write_text("# comment\n1: ls   -la\n2) pwd\n3:\n")
    answers = c.parse_answers(f)
    assert answers == {1: "ls -la", 2: "pwd", 3: ""}
    assert c.answer_matches(answers, 1, [r"ls -la"]).ok
    assert not c.answer_equals(answers, 3, "x").ok


def test_run_script_times_out_and_kills_the_group(tmp_path):
    script = tmp_path / "slow.sh"
    script.write_text("#!/bin/sh\nsleep 30 &\nsleep 30\n")
    r = run_script(script, timeout=0.5)
    assert r.timed_out and r.returncode is None


def test_a_crashing_check_is_not_ok_not_a_crash(tmp_path, capsys):
    g = Grading(Path("s"), Path("q"), Path("sub"), "en", tmp_path)
    g.check(1, "boom", lambda: 1 / 0)
    g.check(2, "fine", lambda: (True, "ok"))
    g.finish()
    out = json.loads(capsys.readouterr().out)
    assert [i["status"] for i in out["comment"]] == ["NOT OK", "OK"]
    assert out["grade"] == 50


def test_feedback_texts_are_bounded_and_printable():
    from shellgrade_grader.feedback import MAX_EXPL, MAX_VERIF
    fb = Feedback()
    fb.add(1, "v" * 1000, "NOT OK", "got " + "x" * 300_000 + "\x1b[2J")
    item = fb.items[0]
    assert len(item["verif"]) == MAX_VERIF and len(item["expl"]) == MAX_EXPL
    assert item["expl"].endswith("…") and "\x1b" not in fb.to_json()


def test_the_supervisor_channel_round_trips_and_ends_at_eof():
    import socket
    from shellgrade_grader import protocol
    a, b = socket.socketpair()
    protocol.send(a, b"x\0y")
    assert protocol.receive(b) == b"x\0y"
    a.close()
    assert protocol.receive(b) is None


def test_a_run_request_is_flat_fields_then_stdin_and_refuses_what_it_cannot_carry():
    # native/student-supervisor.c reads exactly this layout
    from shellgrade_grader import protocol
    request = protocol.encode_request("/job/submission/T/s.sh", ["x y", ""], None, 2.5, "in\0put", False)
    assert request == b"/job/submission/T/s.sh\0\0" b"2500\0" b"0\0" b"2\0" b"x y\0\0" b"in\0put"
    with pytest.raises(ValueError, match="null byte"):
        protocol.encode_request("/job/submission/T/s.sh", ["a\0b"], None, 1, "", True)


def test_a_run_reply_decodes_bounded_bytes_as_text():
    import struct
    from shellgrade_grader import protocol
    out, err = "héllo".encode()[:2], b"oops"  # output cut inside a character, as the 64 KiB bound may cut it
    reply = struct.pack("!BiBII", 1, 137, 0, len(out), len(err)) + out + err
    assert protocol.decode_reply(reply) == (137, "h\ufffd", "oops", False)
    assert protocol.decode_reply(struct.pack("!BiBII", 0, 0, 1, 0, 0)) == (None, "", "", True)


def test_verdict_and_run_result_keep_their_frozen_dataclass_behaviour():
    from shellgrade_grader import RunResult, Verdict
    v = Verdict(True, "fine")
    assert v == Verdict(ok=True, expl="fine") and v != Verdict(True, "other") and v != (True, "fine")
    assert hash(v) == hash(Verdict(True, "fine")) and bool(v) and not Verdict(False)
    assert Verdict(False).expl == "" and repr(v) == "Verdict(ok=True, expl='fine')"
    r = RunResult(0, "out", "err", False)
    assert r == RunResult(returncode=0, stdout="out", stderr="err", timed_out=False) and r != RunResult(None, "out", "err", True)
    assert repr(r) == "RunResult(returncode=0, stdout='out', stderr='err', timed_out=False)"
    assert len({r, RunResult(0, "out", "err", False)}) == 1
    for obj, field in ((v, "ok"), (r, "stdout")):
        with pytest.raises(AttributeError):
            setattr(obj, field, None)
        with pytest.raises(AttributeError):
            obj.extra = 1
    match r:
        case RunResult(code, out, _, timed_out):
            assert (code, out, timed_out) == (0, "out", False)


def test_importing_the_library_spares_the_grading_process_the_heavy_modules():
    # every grading imports it in a fresh interpreter: dataclasses drags inspect, ast, dis
    # and tokenize along (~10 ms of CPU), typing ~2 ms, socket ~3 ms; subprocess waits for a script run beside the grader
    import subprocess
    import sys
    code = ("import sys; import shellgrade_grader, shellgrade_grader.supervise, shellgrade_grader.run; "
            "print(' '.join(m for m in ('dataclasses', 'inspect', 'typing', 'traceback', 'subprocess', 'socket') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == []


def test_the_zygote_rehearsal_grades_its_own_material_silently_and_leaves_nothing(tmp_path, monkeypatch, capsys):
    # rehearsal.py runs the grading library once in the zygote before its first job: it must pass its own
    # checks (or the zygote would fail to start), print nothing on the zygote's channels and leave no folder
    import tempfile
    from shellgrade_grader import rehearsal
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    rehearsal.rehearse()
    assert capsys.readouterr() == ("", "")
    assert list(tmp_path.iterdir()) == []


def test_the_grader_runs_as_main_without_the_imports_runpy_would_add(tmp_path):
    # run_as_main replaces runpy.run_path, which imports pkgutil and typing (~4.7 ms in every grading process)
    import subprocess
    import sys
    grader = tmp_path / "grader.py"
    grader.write_text("import sys\nprint(__name__, __file__, sys.modules['__main__'].__dict__ is globals(), sys.argv[1:])\n")
    code = ("import sys; from shellgrade_grader import supervise; sys.argv = ['grader.py', 'a']; supervise.run_as_main('grader.py'); "
            "print(' '.join(m for m in ('pkgutil', 'typing', 'runpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(Path(__file__).resolve().parents[1])}).stdout.splitlines()
    assert out == ["__main__ grader.py True ['a']", ""]


def _run_grader_with(tmp_path, compiled_from: "bytes | None", code_text: str = "print('compiled')", raw: "bytes | None" = None) -> str:
    """What grader.py (printing 'source') prints when run by run_as_main beside a grader.code."""
    import marshal
    import subprocess
    import sys
    (tmp_path / "grader.py").write_text("print('source')\n")
    if raw is not None:
        (tmp_path / "grader.code").write_bytes(raw)
    elif compiled_from is not None:
        (tmp_path / "grader.code").write_bytes(marshal.dumps((compiled_from, compile(code_text, "grader.py", "exec"))))
    code = "from shellgrade_grader import supervise; supervise.run_as_main('grader.py', 'grader.code')"
    return subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(Path(__file__).resolve().parents[1])}).stdout.strip()


def test_the_grader_runs_from_the_services_compiled_code_only_when_it_was_compiled_from_that_source(tmp_path):
    # grader.code (marshal of source and code, from the service) saves compiling grader.py per grading
    assert _run_grader_with(tmp_path, b"print('source')\n") == "compiled"
    assert _run_grader_with(tmp_path, b"print('another grader')\n") == "source"  # stale or foreign: never run
    assert _run_grader_with(tmp_path, None, raw=b"\x00not marshal") == "source"  # unreadable: compiled as before
    assert _run_grader_with(tmp_path, None, raw=__import__("marshal").dumps((b"print('source')\n", "not code"))) == "source"


def test_the_student_supervisor_starts_with_every_signal_reset_without_a_warning():
    # two invalid signal numbers (the C library's own, 32 and 33) would cost a RuntimeWarning each,
    # written to the grading's log
    import os
    import warnings
    from shellgrade_grader.supervise import _ALL_SIGNALS
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pid = os.posix_spawn("/bin/true", ["true"], {}, setsigdef=_ALL_SIGNALS, setsigmask=())
    assert os.waitpid(pid, 0)[1] == 0
