"""Evaluation results as a text table, Markdown or JSON.

Every table says which tokenization its token-shingle numbers use. Columns appear only
when they apply: token-shingle metrics for sets with reference text, snippet metrics for
sets with snippets; the ``lxml`` floor row only has timings.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from .evaluate import DatasetResult, PageResult, RunnerResult

__all__ = ["FORMATS", "render", "render_json", "render_markdown", "render_table", "to_data"]

FORMATS = ("table", "json", "markdown")


def _num(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def _pm(value: float, std: float) -> str:
    if math.isnan(value):
        return "n/a"
    if math.isnan(std):
        return _num(value)
    return f"{value:.3f} ± {std:.3f}"


def _ms(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    return f"{value:.2f}" if value < 10 else f"{value:.1f}"


def _rate(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "inf"
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _columns(ds: DatasetResult) -> list[str]:
    cols = ["extractor"]
    if ds.text_pages:
        cols += ["pages", "precision", "recall", "F1", "accuracy"]
    if ds.snippet_pages:
        cols += ["snippet pages", "snippet P", "snippet R", "snippet F1"]
    cols += ["median ms", "p95 ms", "pages/s", "median CPU ms", "failures"]
    return cols


def _row(ds: DatasetResult, r: RunnerResult) -> list[str]:
    name = r.runner if r.kind != "floor" else f"{r.runner} (parse only)"
    n_cols = len(_columns(ds))
    if not r.available:
        return [name, *(["not installed"] + [""] * (n_cols - 2))]
    row = [name]
    if ds.text_pages:
        s = r.shingles
        if s is None or r.kind == "floor":
            row += ["", "", "", "", ""]
        else:
            row += [
                str(s.pages),
                _pm(s.precision, s.precision_std),
                _pm(s.recall, s.recall_std),
                _pm(s.f1, s.f1_std),
                _num(s.accuracy),
            ]
    if ds.snippet_pages:
        sn = r.snippets
        if sn is None or r.kind == "floor":
            row += ["", "", "", ""]
        else:
            row += [str(sn.pages), _num(sn.precision), _num(sn.recall), _num(sn.f1)]
    t = r.timing
    if t is None:
        row += ["", "", "", "", ""]
    else:
        row += [
            _ms(t.median_ms),
            _ms(t.p95_ms),
            _rate(t.pages_per_s),
            _ms(t.median_cpu_ms),
            str(r.failures),
        ]
    return row


def _page_row(p: PageResult) -> list[str]:
    if p.score is not None:
        prec, rec, f = p.score.precision, p.score.recall, p.score.f1
    elif p.snippets is not None:
        prec, rec, f = p.snippets.precision, p.snippets.recall, p.snippets.f1
    else:
        prec = rec = None
        f = math.nan
    return [p.id, _num(prec), _num(rec), _num(f), _ms(p.ms), p.error or ""]


_PAGE_COLUMNS = ["id", "P", "R", "F1", "ms", "error"]


def _heading(ds: DatasetResult) -> str:
    parts = [f"{ds.pages} pages"]
    if ds.text_pages:
        parts.append(f"{ds.text_pages} with reference text")
    if ds.snippet_pages:
        parts.append(f"{ds.snippet_pages} with snippets")
    return f"{ds.name} ({', '.join(parts)})"


def _notes(ds: DatasetResult) -> list[str]:
    notes = []
    if ds.text_pages:
        notes.append(f"tokens: {ds.tokens_label}")
        notes.append(
            "precision/recall/F1: token-shingle (4-grams), mean over pages ± bootstrap std"
        )
    if ds.snippet_pages:
        notes.append("snippet P/R/F1: micro-averaged snippet hits (with / without)")
    notes.append("ms: wall clock per page; pages/s: pages / total wall time; CPU ms: process time")
    return notes


def _aligned(columns: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "") -> str:
    widths = [
        max(len(c), *(len(r[i]) for r in rows)) if rows else len(c) for i, c in enumerate(columns)
    ]
    lines = []
    for cells in [list(columns), *rows]:
        out = []
        for i, cell in enumerate(cells):
            out.append(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]))
        lines.append(indent + "  ".join(out).rstrip())
    return "\n".join(lines)


def _markdown_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def esc(cell: str) -> str:
        return cell.replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(columns) + " |"
    sep = "|" + "|".join(["---"] + ["---:"] * (len(columns) - 1)) + "|"
    body = ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return "\n".join([head, sep, *body])


def _worst(r: RunnerResult, n: int) -> list[PageResult]:
    return r.worst(n) if r.available and r.kind != "floor" else []


def render_table(results: Sequence[DatasetResult], per_page: int = 0) -> str:
    """Plain-text tables, one per dataset (and the worst pages per extractor)."""
    out: list[str] = []
    for ds in results:
        out.append(f"== {_heading(ds)} ==")
        out.extend(_notes(ds))
        out.append(_aligned(_columns(ds), [_row(ds, r) for r in ds.runners]))
        for r in ds.runners:
            worst = _worst(r, per_page)
            if worst:
                out.append(f"-- {ds.name}: {len(worst)} worst pages of {r.runner} --")
                out.append(_aligned(_PAGE_COLUMNS, [_page_row(p) for p in worst], "  "))
        out.append("")
    return "\n".join(out)


def render_markdown(results: Sequence[DatasetResult], per_page: int = 0, level: int = 2) -> str:
    """Markdown: a section per dataset with its table (and the worst pages per extractor)."""
    h = "#" * level
    out: list[str] = []
    for ds in results:
        out.append(f"{h} {_heading(ds)}")
        out.append("")
        for note in _notes(ds):
            out.append(f"- {note}")
        out.append("")
        out.append(_markdown_table(_columns(ds), [_row(ds, r) for r in ds.runners]))
        out.append("")
        for r in ds.runners:
            worst = _worst(r, per_page)
            if worst:
                out.append(f"{h}# {ds.name}: the {len(worst)} worst pages of `{r.runner}`")
                out.append("")
                out.append(_markdown_table(_PAGE_COLUMNS, [_page_row(p) for p in worst]))
                out.append("")
    return "\n".join(out)


def _clean(value: Any) -> Any:
    """NaN and infinity are not JSON: make them null."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def to_data(results: Sequence[DatasetResult], per_page: int = 0) -> list[dict[str, Any]]:
    """Plain data for the results: per dataset, per extractor summaries (and worst pages)."""
    data = []
    for ds in results:
        runners = []
        for r in ds.runners:
            entry: dict[str, Any] = {
                "extractor": r.runner,
                "kind": r.kind,
                "version": r.version,
                "available": r.available,
            }
            if not r.available:
                entry["reason"] = r.reason
            else:
                entry["failures"] = r.failures
                entry["timing"] = None if r.timing is None else asdict(r.timing)
                if r.kind != "floor":
                    entry["shingles"] = None if r.shingles is None else asdict(r.shingles)
                    entry["snippets"] = None if r.snippets is None else asdict(r.snippets)
                    if per_page:
                        entry["worst_pages"] = [_page_data(p) for p in r.worst(per_page)]
            runners.append(entry)
        data.append(
            {
                "dataset": ds.name,
                "path": ds.path,
                "pages": ds.pages,
                "text_pages": ds.text_pages,
                "snippet_pages": ds.snippet_pages,
                "tokens": ds.tokens,
                "tokens_label": ds.tokens_label,
                "cjk_pages": ds.cjk_pages,
                "extractors": runners,
            }
        )
    return _clean(data)


def _page_data(p: PageResult) -> dict[str, Any]:
    out = p.to_dict()
    if p.score is not None:
        out["precision"], out["recall"], out["f1"] = (
            p.score.precision,
            p.score.recall,
            p.score.f1,
        )
    elif p.snippets is not None:
        out["precision"], out["recall"], out["f1"] = (
            p.snippets.precision,
            p.snippets.recall,
            p.snippets.f1,
        )
    return out


def render_json(
    results: Sequence[DatasetResult], per_page: int = 0, meta: dict[str, Any] | None = None
) -> str:
    """JSON: ``{"meta": ..., "datasets": [...]}``."""
    return json.dumps(
        {"meta": meta or {}, "datasets": to_data(results, per_page)},
        ensure_ascii=False,
        indent=2,
    )


def render(
    results: Sequence[DatasetResult],
    fmt: str = "table",
    per_page: int = 0,
    meta: dict[str, Any] | None = None,
) -> str:
    """Render results in one of :data:`FORMATS`."""
    if fmt == "table":
        return render_table(results, per_page)
    if fmt == "markdown":
        return render_markdown(results, per_page)
    if fmt == "json":
        return render_json(results, per_page, meta)
    raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
