"""The margin between two extractors on a set, resampled over the same pages.

The computation behind ``benchmarks.margins`` (its command line and table) and the
interval column of ``benchmarks.quality``'s table against the best other library: both
extractors' set F1 over the same bootstrap resamples of the pages
(:func:`~scrapy_boilerplate.evaluation.metrics.paired_f1_resamples`), the margin's
spread, and the mean over several sets.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from scrapy_boilerplate.evaluation.evaluate import RunnerResult
from scrapy_boilerplate.evaluation.metrics import N_BOOTSTRAP, PageScore, paired_f1_resamples

#: the issue's target for the mean over the unseen sets
TARGET = 0.93


class SetMargin(NamedTuple):
    """One set: ours and the best other library, their F1 on the whole set, and the
    resampled F1s of both (same resamples)."""

    dataset: str
    ours: float
    best_name: str
    best: float
    ours_resampled: np.ndarray
    best_resampled: np.ndarray

    @property
    def margin(self) -> float:
        return self.ours - self.best

    def summary(self) -> dict[str, Any]:
        """The margin, its spread over the resamples and the share ours leads in."""
        return {
            "dataset": self.dataset,
            "ours": self.ours,
            "best_other": self.best_name,
            "best": self.best,
            **spread(self.margin, self.ours_resampled - self.best_resampled),
        }


def spread(value: float, resampled: np.ndarray) -> dict[str, float]:
    """A margin and its resamples: standard deviation, 95 % percentile interval, share of
    resamples at zero or above (NaN resamples, with nothing to average, left out)."""
    defined = resampled[~np.isnan(resampled)]
    if not defined.size:
        return {
            "margin": value,
            "std": math.nan,
            "low": math.nan,
            "high": math.nan,
            "ahead": math.nan,
        }
    low, high = np.percentile(defined, [2.5, 97.5])
    return {
        "margin": value,
        "std": float(defined.std()),
        "low": float(low),
        "high": float(high),
        "ahead": float((defined >= 0).mean()),
    }


def aligned_scores(results: list[RunnerResult]) -> list[list[PageScore]]:
    """Each result's token-shingle scores of the pages every result scored, in one page
    order (pages with snippets only, and pages one of them lacks, left out)."""
    by_id = [{p.id: p.score for p in r.pages if p.score is not None} for r in results]
    common = [pid for pid in by_id[0] if all(pid in scores for scores in by_id[1:])]
    return [[scores[pid] for pid in common] for scores in by_id]


def set_margin(
    name: str,
    ours: RunnerResult,
    anchors: list[RunnerResult],
    n_bootstrap: int = N_BOOTSTRAP,
    seed: int = 0,
) -> SetMargin | None:
    """Ours against the best of ``anchors`` (by F1 on the whole set) on one set; None when
    no anchor scored it."""
    scored = [
        a
        for a in anchors
        if a.available and a.shingles is not None and not math.isnan(a.shingles.f1)
    ]
    if ours.shingles is None or math.isnan(ours.shingles.f1) or not scored:
        return None
    best = max(scored, key=lambda a: a.shingles.f1)
    resampled = paired_f1_resamples(aligned_scores([ours, best]), n_bootstrap, seed)
    return SetMargin(name, ours.shingles.f1, best.runner, best.shingles.f1, *resampled)


def mean_margin(margins: list[SetMargin], target: float = TARGET) -> dict[str, Any]:
    """The mean over the sets of ours and of the best per set, the margin of the means
    with its spread, and the share of resamples in which our mean reaches ``target``."""
    ours = np.mean([m.ours_resampled for m in margins], axis=0)
    best = np.mean([m.best_resampled for m in margins], axis=0)
    ours_mean = float(np.mean([m.ours for m in margins]))
    best_mean = float(np.mean([m.best for m in margins]))
    defined = ours[~np.isnan(ours)]
    low, high = np.percentile(defined, [2.5, 97.5]) if defined.size else (math.nan, math.nan)
    return {
        "sets": [m.dataset for m in margins],
        "ours": ours_mean,
        "best": best_mean,
        **spread(ours_mean - best_mean, ours - best),
        "ours_low": float(low),
        "ours_high": float(high),
        "target": target,
        "reaches_target": float((defined >= target).mean()) if defined.size else math.nan,
    }
