"""Run extractors over a dataset and score them: one extractor at a time, page by page.

Each extractor makes its own pass over the pages (read lazily from disk). Only the
extraction call on the decoded ``str`` is timed (parsing included). An exception on a page
is caught and counted as a failure; the page then scores as an empty prediction and the
run goes on. Each call is timed in wall-clock (``time.perf_counter``) and CPU time
(``time.process_time``), after one untimed warm-up call on the first page.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .datasets import Dataset, Page
from .metrics import (
    N_BOOTSTRAP,
    PageScore,
    ShingleSummary,
    SnippetCounts,
    SnippetSummary,
    score_page,
    snippet_hits,
    summarize,
    summarize_snippets,
    tokens_for_lang,
)
from .runners import Runner

__all__ = [
    "DatasetResult",
    "PageResult",
    "Progress",
    "RunnerResult",
    "Timing",
    "evaluate_dataset",
    "evaluate_runner",
    "run_page",
    "summarize_timing",
]

#: progress callback: (dataset name, runner name, pages done)
Progress = Callable[[str, str, int], None]


@dataclass(slots=True)
class PageResult:
    """What one extractor did on one page: its scores, time and error (if it failed).

    ``ms`` is wall-clock time of the call, ``cpu_ms`` the CPU time the process spent in it
    (the same on an idle machine; less affected by other work on a shared one).
    """

    id: str
    ms: float
    tokens: str
    score: PageScore | None = None
    snippets: SnippetCounts | None = None
    error: str | None = None
    chars: int = 0
    cpu_ms: float = math.nan

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for JSON and for caching results)."""
        return {
            "id": self.id,
            "ms": self.ms,
            "tokens": self.tokens,
            "score": None if self.score is None else asdict(self.score),
            "snippets": None if self.snippets is None else asdict(self.snippets),
            "error": self.error,
            "chars": self.chars,
            "cpu_ms": self.cpu_ms,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PageResult:
        """The inverse of :meth:`to_dict`."""
        score = data.get("score")
        snippets = data.get("snippets")
        return cls(
            id=data["id"],
            ms=data["ms"],
            tokens=data["tokens"],
            score=None if score is None else PageScore(**score),
            snippets=None if snippets is None else SnippetCounts(**snippets),
            error=data.get("error"),
            chars=data.get("chars", 0),
            cpu_ms=math.nan if data.get("cpu_ms") is None else data["cpu_ms"],
        )


@dataclass(frozen=True, slots=True)
class Timing:
    """Wall-clock milliseconds per page (median, 95th percentile, mean), pages per second,
    and the median and 95th percentile of CPU milliseconds per page."""

    median_ms: float
    p95_ms: float
    mean_ms: float
    pages_per_s: float
    total_s: float
    median_cpu_ms: float = math.nan
    p95_cpu_ms: float = math.nan


def summarize_timing(ms: Sequence[float], cpu_ms: Sequence[float] = ()) -> Timing:
    """Timing statistics of per-page milliseconds (pages/s = pages / total wall time)."""
    nan = math.nan
    if not ms:
        return Timing(nan, nan, nan, nan, 0.0)
    arr = np.asarray(ms, dtype=float)
    total_s = float(arr.sum()) / 1000
    cpu = np.asarray(cpu_ms, dtype=float)
    cpu = cpu[~np.isnan(cpu)]
    return Timing(
        median_ms=float(np.median(arr)),
        p95_ms=float(np.percentile(arr, 95)),
        mean_ms=float(arr.mean()),
        pages_per_s=len(arr) / total_s if total_s > 0 else math.inf,
        total_s=total_s,
        median_cpu_ms=float(np.median(cpu)) if cpu.size else nan,
        p95_cpu_ms=float(np.percentile(cpu, 95)) if cpu.size else nan,
    )


@dataclass(slots=True)
class RunnerResult:
    """One extractor over one dataset: per-page results and their summaries."""

    runner: str
    kind: str
    version: str | None
    available: bool = True
    reason: str | None = None
    pages: list[PageResult] = field(default_factory=list)
    shingles: ShingleSummary | None = None
    snippets: SnippetSummary | None = None
    timing: Timing | None = None

    @property
    def failures(self) -> int:
        """Pages on which the extractor raised an exception."""
        return sum(1 for p in self.pages if p.error is not None)

    def finish(self, n_bootstrap: int = N_BOOTSTRAP, seed: int = 0) -> RunnerResult:
        """Compute the summaries from the page results (returns self)."""
        scores = [p.score for p in self.pages if p.score is not None]
        snippets = [p.snippets for p in self.pages if p.snippets is not None]
        self.shingles = summarize(scores, n_bootstrap, seed) if scores else None
        self.snippets = summarize_snippets(snippets) if snippets else None
        self.timing = summarize_timing([p.ms for p in self.pages], [p.cpu_ms for p in self.pages])
        return self

    def worst(self, n: int) -> list[PageResult]:
        """The ``n`` pages with the lowest F1 (token-shingle F1, else snippet F1)."""

        def key(p: PageResult) -> tuple[float, float, str]:
            if p.score is not None:
                return (p.score.f1, p.score.recall or 0.0, p.id)
            if p.snippets is not None:
                return (p.snippets.f1, p.snippets.recall or 0.0, p.id)
            return (0.0, 0.0, p.id)

        return sorted(self.pages, key=key)[:n] if n > 0 else []


@dataclass(slots=True)
class DatasetResult:
    """Every extractor over one dataset."""

    name: str
    path: str
    tokens: str
    pages: int = 0
    text_pages: int = 0
    snippet_pages: int = 0
    cjk_pages: int = 0
    runners: list[RunnerResult] = field(default_factory=list)

    @property
    def tokens_label(self) -> str:
        """Which tokenization the numbers use, in words."""
        if self.tokens == "auto":
            return (
                f"auto: CJK-aware for zh/ja/th pages ({self.cjk_pages} of {self.text_pages}),"
                " plain \\w+ otherwise"
            )
        if self.tokens == "cjk":
            return "cjk: each Han/kana/Thai character is a token, \\w+ otherwise"
        return "plain: \\w+ runs"


def run_page(runner: Runner, page: Page, tokens_mode: str) -> PageResult:
    """Run one extractor on one page and score it (token shingles and / or snippets, by
    what the page has); an exception is recorded, not raised."""
    tokens = tokens_for_lang(tokens_mode, page.lang)
    error = None
    c0 = time.process_time()
    t0 = time.perf_counter()
    try:
        text = runner(page.html, page.url, page.lang)
    except Exception as exc:  # any failure on a page is counted, the run goes on
        text = ""
        error = f"{type(exc).__name__}: {exc}"[:300]
    ms = (time.perf_counter() - t0) * 1000
    cpu_ms = (time.process_time() - c0) * 1000
    if runner.kind == "floor":
        return PageResult(page.id, ms, tokens, error=error, cpu_ms=cpu_ms)
    score = None if page.main_text is None else score_page(page.main_text, text, tokens)
    snippets = (
        snippet_hits(text, page.with_snippets, page.without_snippets) if page.has_snippets else None
    )
    return PageResult(page.id, ms, tokens, score, snippets, error, len(text), cpu_ms)


def _warm_up(runner: Runner, page: Page) -> None:
    try:
        runner(page.html, page.url, page.lang)
    except Exception:  # the timed pass records the failure
        pass


def evaluate_runner(
    dataset: Dataset,
    runner: Runner,
    tokens: str = "auto",
    limit: int | None = None,
    n_bootstrap: int = N_BOOTSTRAP,
    seed: int = 0,
    progress: Progress | None = None,
    warmup: bool = True,
) -> RunnerResult:
    """Run one extractor over the pages of a dataset and score it.

    With ``warmup`` the first page is extracted once, untimed, before the timed pass, so
    that one-time set-up (lazy imports, caches, compiled patterns) is not billed to it.
    """
    result = RunnerResult(runner.name, runner.kind, runner.version, runner.available, runner.reason)
    if not runner.available:
        return result
    memory = getattr(runner, "site_memory", None)
    if memory is not None:
        memory.clear()  # each set read as a crawl of its own
    gc.collect()
    for n, page in enumerate(dataset.iter_pages(limit), 1):
        if n == 1 and warmup:
            _warm_up(runner, page)
            if memory is not None:
                memory.clear()  # (the untimed reading taught it nothing)
        result.pages.append(run_page(runner, page, tokens))
        if progress is not None:
            progress(dataset.name, runner.name, n)
    return result.finish(n_bootstrap, seed)


def _describe(dataset: Dataset, tokens: str, limit: int | None) -> DatasetResult:
    desc = DatasetResult(dataset.name, str(dataset.path), tokens)
    for page in dataset.iter_labels(limit):
        desc.pages += 1
        if page.main_text is not None:
            desc.text_pages += 1
            if tokens_for_lang(tokens, page.lang) == "cjk":
                desc.cjk_pages += 1
        if page.has_snippets:
            desc.snippet_pages += 1
    return desc


def evaluate_dataset(
    dataset: Dataset,
    runners: Sequence[Runner],
    tokens: str = "auto",
    limit: int | None = None,
    n_bootstrap: int = N_BOOTSTRAP,
    seed: int = 0,
    progress: Progress | None = None,
    run: Callable[[Dataset, Runner], RunnerResult] | None = None,
) -> DatasetResult:
    """Run each extractor in turn over the dataset's pages (same pages, same process).

    ``run`` replaces :func:`evaluate_runner` for one (dataset, runner) pair, e.g. to reuse
    cached results.
    """
    tokens_for_lang(tokens, None)  # validates the mode
    result = _describe(dataset, tokens, limit)
    for runner in runners:
        if run is not None:
            result.runners.append(run(dataset, runner))
        else:
            result.runners.append(
                evaluate_runner(dataset, runner, tokens, limit, n_bootstrap, seed, progress)
            )
    return result
