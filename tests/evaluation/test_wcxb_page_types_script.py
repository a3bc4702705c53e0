"""``benchmarks.wcxb_page_types``: wcxb-dev's token F1 split by page type."""

from __future__ import annotations

import json


def page(page_id: str, tp: int, fp: int, fn: int) -> dict:
    score = {"tp": tp, "fp": fp, "fn": fn, "truth_empty": False, "pred_empty": False}
    return {"id": page_id, "ms": 1.0, "tokens": "plain", "score": {**score, "exact": False}}


def test_page_types_are_read_from_wcxbs_truth(script, tmp_path):
    (tmp_path / "wcxb-dev").mkdir()
    rows = [{"id": "1", "page_type": "forum"}, {"id": 2, "page_type": "article"}]
    text = "\n".join(map(json.dumps, rows)) + "\n"
    (tmp_path / "wcxb-dev" / "truth.jsonl").write_text(text, encoding="utf-8")
    assert script.page_types(tmp_path) == {"1": "forum", "2": "article"}


def test_a_librarys_cached_pages_are_scored_per_type(script, tmp_path):
    (tmp_path / "quality").mkdir()
    pages = [page("1", 9, 1, 0), page("2", 1, 0, 1), page("3", 0, 5, 5)]
    cache = tmp_path / "quality" / "wcxb-dev__somelib.json"
    cache.write_text(json.dumps({"key": "", "elapsed_s": 0, "pages": pages}), encoding="utf-8")
    types = {"1": "article", "2": "article", "3": "forum"}
    scores = script.library_by_type("somelib", types, tmp_path)
    assert set(scores) == {"article", "forum"}
    assert scores["forum"] == 0.0
    assert 0.5 < scores["article"] < 1.0
    assert script.library_by_type("not-run", types, tmp_path) == {}
