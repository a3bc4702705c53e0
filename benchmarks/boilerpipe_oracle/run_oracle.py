"""Run the reference Java boilerpipe 1.2.0 over HTML pages and record its outputs.

This is the "oracle" the Python port is compared against. It compiles the small
Java program ``Oracle.java`` (next to this file) into ``build/`` when needed, starts
ONE JVM for all pages (JVM start-up is slow), feeds it ``<id>\\t<path>`` lines on
stdin and reads one JSON object per (page, extractor) from its stdout.

Command line::

    python -m benchmarks.boilerpipe_oracle.run_oracle --out OUT.jsonl \\
        [--extractors article,default,...] [--limit N] DATASET_DIR_OR_FILES...

From Python::

    from benchmarks.boilerpipe_oracle.run_oracle import run_oracle
    records = run_oracle([("page-1", "/path/page-1.html.gz")], ["article", "blocks"])

Standard library only (Python 3.10+). See README.md in this folder for the output
format.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "Oracle.java"
BUILD_DIR = HERE / "build"
CLASS_FILE = BUILD_DIR / "Oracle.class"

JAVA_DIR = Path("/usr/share/java")
# Order matters: the boilerpipe jar carries patched NekoHTML classes
# (org.cyberneko.html.HTMLElements, HTMLTagBalancer) that must shadow nekohtml.jar's.
JARS = (
    JAVA_DIR / "boilerpipe-1.2.0.jar",
    JAVA_DIR / "nekohtml.jar",
    JAVA_DIR / "xercesImpl.jar",
)
APT_PACKAGES = ("default-jdk-headless", "libboilerpipe-java")
INSTALL_COMMAND = "apt-get install -y " + " ".join(APT_PACKAGES)
JAVA_OPTS = ("-Xss64m",)

#: Real extractors, in the order they are run by default.
EXTRACTORS = (
    "article",
    "default",
    "largest",
    "canola",
    "keep_everything",
    "keep_everything_min_words",  # KeepEverythingWithMinKWordsExtractor(15)
    "num_words_rules",
    "article_sentences",
)
#: Pseudo-extractor: the parsed TextDocument's blocks, before any filter.
BLOCKS = "blocks"
ALL_NAMES = EXTRACTORS + (BLOCKS,)

DEFAULT_TASK_TIMEOUT = 300.0  # seconds for one page, all extractors together
_MAX_SILENT_CRASHES = 3  # JVMs in a row that die before printing anything


class OracleUnavailable(RuntimeError):
    """Java, javac or the boilerpipe jars are missing."""


class OracleError(RuntimeError):
    """The JVM misbehaved in a way that is not tied to one page."""


# --------------------------------------------------------------------- setup


def _missing_requirements(need_javac: bool) -> list[str]:
    missing = []
    if shutil.which("java") is None:
        missing.append("java")
    if need_javac and shutil.which("javac") is None:
        missing.append("javac")
    missing += [str(jar) for jar in JARS if not jar.exists()]
    return missing


def _needs_compile() -> bool:
    return not CLASS_FILE.exists() or CLASS_FILE.stat().st_mtime < SOURCE.stat().st_mtime


def ensure_built() -> Path:
    """Compile Oracle.java into build/ if the class is missing or stale.

    Raises OracleUnavailable if Java or the jars are missing. Safe to call from
    several processes at once: each compiles into its own temporary folder and
    moves the class files into place atomically.
    """
    need = _needs_compile()
    missing = _missing_requirements(need_javac=need)
    if missing:
        raise OracleUnavailable(
            "missing " + ", ".join(missing) + "; install with: " + INSTALL_COMMAND
        )
    if need:
        BUILD_DIR.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=BUILD_DIR, prefix=".javac-") as tmp:
            cmd = [
                "javac",
                "-encoding",
                "UTF-8",
                "-nowarn",
                "-d",
                tmp,
                "-cp",
                os.pathsep.join(str(j) for j in JARS),
                str(SOURCE),
            ]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise OracleError("javac failed:\n" + proc.stdout + proc.stderr)
            for produced in Path(tmp).glob("*.class"):
                os.replace(produced, BUILD_DIR / produced.name)
    return BUILD_DIR


def java_command(extractors: Sequence[str]) -> list[str]:
    classpath = os.pathsep.join([str(BUILD_DIR)] + [str(j) for j in JARS])
    return ["java", *JAVA_OPTS, "-cp", classpath, "Oracle", *extractors]


# ----------------------------------------------------------------------- run


def _check_inputs(tasks: Sequence[tuple[str, str]], extractors: Sequence[str]) -> None:
    if not extractors:
        raise ValueError("no extractor given")
    unknown = [e for e in extractors if e not in ALL_NAMES]
    if unknown:
        raise ValueError(f"unknown extractor(s) {unknown}; known: {list(ALL_NAMES)}")
    if len(set(extractors)) != len(extractors):
        raise ValueError(f"extractor listed twice: {list(extractors)}")
    for task_id, path in tasks:
        if any(c in task_id for c in "\t\r\n") or any(c in str(path) for c in "\r\n"):
            raise ValueError(f"task id/path may not contain tabs or newlines: {task_id!r}")


def _error_record(task_id: str, extractor: str, message: str) -> dict:
    record = {"id": task_id, "extractor": extractor, "title": None}
    record["blocks" if extractor == BLOCKS else "text"] = None
    record.update({"ms": None, "error": message})
    return record


class _Jvm:
    """One Oracle JVM working through tasks[start:]."""

    def __init__(self, tasks: Sequence[tuple[str, str]], extractors: Sequence[str]):
        self.proc = subprocess.Popen(
            java_command(extractors),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._threads = [
            threading.Thread(target=self._feed, args=(tasks,), daemon=True),
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _feed(self, tasks: Sequence[tuple[str, str]]) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            for task_id, path in tasks:
                stdin.write(f"{task_id}\t{os.path.abspath(path)}\n".encode())
            stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            pass  # the JVM died or was killed; the reader notices

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    def next_line(self, timeout: float | None) -> bytes | None:
        """A stdout line, None at EOF; raises queue.Empty on timeout."""
        return self.lines.get(timeout=timeout)

    def finish(self, kill: bool = False) -> int:
        if kill and self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait()
        for thread in self._threads:
            thread.join(timeout=5)
        return code

    def describe_exit(self, code: int) -> str:
        tail = " | ".join(line for line in self.stderr_tail if line)
        return f"JVM exited with code {code}" + (f": {tail}" if tail else "")


def iter_oracle(
    tasks: Sequence[tuple[str, str]],
    extractors: Sequence[str],
    task_timeout: float | None = DEFAULT_TASK_TIMEOUT,
) -> Iterator[dict]:
    """Yield the oracle's records in task order, extractor order within a task.

    Exactly ``len(tasks) * len(extractors)`` records come out. A page that crashes
    or hangs the JVM (longer than ``task_timeout`` seconds for all its extractors)
    gets records with an "error" and a fresh JVM goes on with the next page.
    """
    tasks = [(str(i), str(p)) for i, p in tasks]
    extractors = list(extractors)
    _check_inputs(tasks, extractors)
    if not tasks:
        return
    ensure_built()

    n_ext = len(extractors)
    index = 0  # next task without all its records
    silent_crashes = 0
    while index < len(tasks):
        jvm = _Jvm(tasks[index:], extractors)
        got = 0  # records received for tasks[index]
        made_progress = False
        failure: str | None = None
        try:
            while index < len(tasks):
                try:
                    line = jvm.next_line(task_timeout)
                except queue.Empty:
                    failure = f"timeout: no result after {task_timeout:g} s; JVM killed"
                    jvm.finish(kill=True)
                    made_progress = True  # a hang, not a JVM that cannot start
                    break
                if line is None:  # EOF before all tasks were done
                    failure = jvm.describe_exit(jvm.finish())
                    break
                record = json.loads(line)
                task_id, expected = tasks[index][0], extractors[got]
                if record.get("id") != task_id or record.get("extractor") != expected:
                    raise OracleError(
                        f"out of step: expected {task_id!r}/{expected!r}, "
                        f"got {record.get('id')!r}/{record.get('extractor')!r}"
                    )
                made_progress = True
                yield record
                got += 1
                if got == n_ext:
                    index, got = index + 1, 0
        finally:
            if failure is None:  # normal end, or the consumer stopped early
                code = jvm.finish(kill=index < len(tasks))
                if index == len(tasks) and code != 0:
                    raise OracleError(jvm.describe_exit(code))
        if failure is None:
            break
        if not made_progress:
            silent_crashes += 1
            if silent_crashes >= _MAX_SILENT_CRASHES:
                raise OracleError(
                    f"the JVM died {silent_crashes} times in a row without output: {failure}"
                )
        else:
            silent_crashes = 0
        task_id = tasks[index][0]
        for extractor in extractors[got:]:
            yield _error_record(task_id, extractor, failure)
        index += 1


def run_oracle(
    tasks: list[tuple[str, str]],
    extractors: list[str],
    task_timeout: float | None = DEFAULT_TASK_TIMEOUT,
) -> list[dict]:
    """Run boilerpipe over ``(id, path)`` tasks; one record per task and extractor.

    ``extractors`` are names from EXTRACTORS plus the pseudo-extractor "blocks".
    Paths are UTF-8 HTML files, gzip-compressed if they end in ".gz". Raises
    OracleUnavailable when Java or the boilerpipe jars are not installed.
    """
    return list(iter_oracle(tasks, extractors, task_timeout=task_timeout))


# ------------------------------------------------------------------- inputs


def dataset_tasks(dataset_dir: str | Path, limit: int | None = None) -> list[tuple[str, str]]:
    """(id, page path) for the pages listed in a dataset folder's truth.jsonl."""
    dataset_dir = Path(dataset_dir)
    tasks = []
    with open(dataset_dir / "truth.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            if limit is not None and len(tasks) >= limit:
                break
            entry = json.loads(line)
            tasks.append((str(entry["id"]), str(dataset_dir / entry["page_file"])))
    return tasks


def collect_tasks(inputs: Iterable[str], limit: int | None = None) -> list[tuple[str, str]]:
    """Tasks for dataset folders (at most ``limit`` pages each) and plain HTML
    files (id = file name; at most ``limit`` of them in all)."""
    tasks: list[tuple[str, str]] = []
    plain = 0
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            if not (path / "truth.jsonl").exists():
                raise ValueError(f"{path}: a folder must be a dataset with truth.jsonl")
            tasks += dataset_tasks(path, limit)
        elif path.is_file():
            if limit is None or plain < limit:
                tasks.append((path.name, str(path)))
                plain += 1
        else:
            raise ValueError(f"{path}: no such file or folder")
    return tasks


# ---------------------------------------------------------------------- CLI


def _parse_extractors(value: str) -> list[str]:
    names: list[str] = []
    for name in (n.strip() for n in value.split(",")):
        if not name:
            continue
        expanded = list(EXTRACTORS) if name == "all" else [name]
        for n in expanded:
            if n not in ALL_NAMES:
                raise argparse.ArgumentTypeError(
                    f"unknown extractor {n!r}; known: {', '.join(ALL_NAMES)} (or 'all')"
                )
            if n not in names:
                names.append(n)
    if not names:
        raise argparse.ArgumentTypeError("no extractor given")
    return names


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run the reference Java boilerpipe 1.2.0 over HTML pages "
        "and write its outputs as JSON lines.",
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="DATASET_DIR_OR_FILE",
        help="dataset folder (with truth.jsonl) or HTML file (.html[.gz])",
    )
    parser.add_argument("--out", required=True, help="output .jsonl file")
    parser.add_argument(
        "--extractors",
        type=_parse_extractors,
        default=list(EXTRACTORS),
        help="comma-separated names from: "
        + ", ".join(ALL_NAMES)
        + "; 'all' = every real extractor (default: all; 'blocks' only on request)",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        help="at most N pages from each dataset folder (and at most N plain files)",
    )
    parser.add_argument(
        "--task-timeout",
        type=float,
        default=DEFAULT_TASK_TIMEOUT,
        help=f"seconds allowed for one page, all extractors (default {DEFAULT_TASK_TIMEOUT:g})",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)

    try:
        ensure_built()
    except OracleUnavailable as exc:
        missing = str(exc).split(";")[0]
        print(
            f"run_oracle: cannot run the Java boilerpipe oracle: {missing}\n"
            "Install Java 17 and boilerpipe 1.2.0 (Debian/Ubuntu; as root or with sudo):\n"
            f"  {INSTALL_COMMAND}",
            file=sys.stderr,
        )
        return 2

    try:
        tasks = collect_tasks(args.inputs, args.limit)
    except ValueError as exc:
        parser.error(str(exc))
    counts = collections.Counter(task_id for task_id, _ in tasks)
    duplicates = [task_id for task_id, n in counts.items() if n > 1]
    if duplicates:
        print(
            f"run_oracle: warning: {len(duplicates)} duplicate id(s), e.g. "
            f"{sorted(duplicates)[:3]}",
            file=sys.stderr,
        )

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    n_ext = len(args.extractors)
    errors = 0
    started = time.monotonic()
    last_report = started
    with open(partial, "w", encoding="ascii") as fh:
        for n, record in enumerate(iter_oracle(tasks, args.extractors, args.task_timeout), 1):
            fh.write(json.dumps(record, ensure_ascii=True) + "\n")
            if record.get("error"):
                errors += 1
            now = time.monotonic()
            if not args.quiet and (now - last_report >= 10 or n == len(tasks) * n_ext):
                last_report = now
                print(
                    f"[oracle] {n // n_ext}/{len(tasks)} pages, {errors} errors, "
                    f"{now - started:.1f} s",
                    file=sys.stderr,
                )
    os.replace(partial, out)
    elapsed = time.monotonic() - started
    if not args.quiet:
        print(
            f"[oracle] wrote {len(tasks) * n_ext} records ({len(tasks)} pages x "
            f"{n_ext} extractors, {errors} with errors) to {out} in {elapsed:.1f} s",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
