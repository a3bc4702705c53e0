"""``benchmarks.every_type_rescue``: the default with and without its every-type rescue,
read by the fold models of two runs."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from scrapy_boilerplate import extract
from scrapy_boilerplate.neural.boosted import DEFAULT_MODEL_DIR, DISCUSSIONS_MODEL_DIR

from ..helpers import bridge_story

LISTING = Path(__file__).parents[1] / "neural" / "wcxb-listing-2911.html.gz"


def test_a_fold_reads_with_the_other_runs_model_of_the_same_fold(script, tmp_path):
    # two runs' fold 2, here copies of the shipped article and every-type models
    for run, source in (("article", DEFAULT_MODEL_DIR), ("every", DISCUSSIONS_MODEL_DIR)):
        fold = tmp_path / run / "fold2"
        fold.mkdir(parents=True)
        for name in ("boosted.onnx", "boosted.json"):
            shutil.copy(source / name, fold / name)
    article_fold = str(tmp_path / "article" / "fold2")
    without = script.default_runner(tmp_path / "every", False)(article_fold)
    with_rescue = script.default_runner(tmp_path / "every", True)(article_fold)
    listing = gzip.decompress(LISTING.read_bytes()).decode("utf-8")
    # the article model keeps nothing of the listing; the every-type fold model reads it
    assert without(listing, None, "en") == ""
    assert with_rescue(listing, None, "en") == extract(listing).text != ""
    # a story with content: as the shipped default reads it, either way
    story = extract(bridge_story()).text
    assert without(bridge_story(), None, "en") == with_rescue(bridge_story(), None, "en") == story
