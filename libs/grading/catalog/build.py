#!/usr/bin/env python3
"""Builds every catalog exercise's question archive and sample answers, deterministically.

    "$(bash infra/bin/servers tool-path grader-python)" libs/grading/catalog/build.py

Each exercise folder holds exercise.json, statement.html, grader.py and samples.py; samples.py
defines question() and good() returning Trees, bad() returning (name, Tree, [numQ NOT OK]) and
tampering() returning (name, Tree, honest Tree): an answer attacking the grader and the honest wrong
answer it must score exactly like.
Output: catalog/build/<slug>/{question.tar.gz,good.tgz,bad-<name>.tgz,tamper-<name>[-honest].tgz} and
catalog/build/manifest.json.
"""
import compileall
import importlib.util
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BUILD = HERE / "build"
sys.path.insert(0, str(HERE))
from treespec import tar_gz  # noqa: E402


def load_samples(folder: Path):
    spec = importlib.util.spec_from_file_location(f"samples_{folder.name.replace('-', '_')}", folder / "samples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def write(path: Path, data: bytes) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f"{path.suffix}.tmp{os.getpid()}")  # concurrent builds (jest workers) never collide
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return str(path.relative_to(BUILD))


def build_exercise(folder: Path) -> dict:
    meta = json.loads((folder / "exercise.json").read_text())
    assert meta["slug"] == folder.name, f"{folder}: slug must equal the folder name"
    mod = load_samples(folder)
    out = BUILD / meta["slug"]
    entry = {
        "question": write(out / "question.tar.gz", tar_gz(mod.question().entries)),
        "good": write(out / "good.tgz", tar_gz(mod.good().entries)),
        "bad": [],
    }
    for name, tree, not_ok in mod.bad():
        entry["bad"].append({"name": name, "file": write(out / f"bad-{name}.tgz", tar_gz(tree.entries)),
                             "expectedNotOk": sorted(not_ok)})
    entry["tampering"] = [
        {"name": name, "file": write(out / f"tamper-{name}.tgz", tar_gz(tree.entries)),
         "honest": write(out / f"tamper-{name}-honest.tgz", tar_gz(honest.entries))}
        for name, tree, honest in mod.tampering()
    ]
    return entry


def main() -> None:
    folders = sorted(p for p in HERE.iterdir() if (p / "exercise.json").is_file())
    manifest = {f.name: build_exercise(f) for f in folders}
    write(BUILD / "manifest.json", (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode())
    # Graders import the helper library on every run: ship it pre-compiled (read-only in the sandbox).
    compileall.compile_dir(str(HERE.parent / "python"), quiet=1)
    print(f"built {len(manifest)} exercises into {BUILD}")


if __name__ == "__main__":
    main()
