"""Evaluation: read labelled datasets, run extractors side by side, score and report.

    from scrapy_boilerplate.evaluation import find_datasets, get_runner, evaluate_dataset

    dataset, = find_datasets(["data/wcxb-dev"])
    result = evaluate_dataset(dataset, [get_runner("article"), get_runner("trafilatura")])

Modules: ``datasets`` (lazy readers), ``metrics`` (token shingles, snippets), ``runners``
(our and other extractors behind one interface), ``evaluate`` (the run), ``report``
(table / Markdown / JSON), ``cli`` (the ``evaluate`` subcommand). Imports no Scrapy; other
extractors are imported only when their runner is asked for.
"""

from __future__ import annotations

from .datasets import (
    ArticleBenchmarkDataset,
    Dataset,
    DatasetError,
    JsonlDataset,
    Page,
    find_datasets,
    open_dataset,
)
from .evaluate import DatasetResult, PageResult, RunnerResult, evaluate_dataset, evaluate_runner
from .metrics import (
    PageScore,
    ShingleSummary,
    SnippetCounts,
    SnippetSummary,
    score_page,
    shingles,
    snippet_hits,
    summarize,
    summarize_snippets,
    tokenize,
)
from .report import render
from .runners import OTHER_EXTRACTORS, Runner, RunnerUnavailable, get_runner

__all__ = [
    "OTHER_EXTRACTORS",
    "ArticleBenchmarkDataset",
    "Dataset",
    "DatasetError",
    "DatasetResult",
    "JsonlDataset",
    "Page",
    "PageResult",
    "PageScore",
    "Runner",
    "RunnerResult",
    "RunnerUnavailable",
    "ShingleSummary",
    "SnippetCounts",
    "SnippetSummary",
    "evaluate_dataset",
    "evaluate_runner",
    "find_datasets",
    "get_runner",
    "open_dataset",
    "render",
    "score_page",
    "shingles",
    "snippet_hits",
    "summarize",
    "summarize_snippets",
    "tokenize",
]
