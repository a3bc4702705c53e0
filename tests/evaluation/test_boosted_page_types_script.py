"""``benchmarks.boosted_page_types``: the default labeler trained on WCXB's pages of every
type, the other types' blocks weighted down (an experiment, not kept)."""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.boosted import BoostedCorpus


def corpus() -> BoostedCorpus:
    """Three pages of two blocks: a WCXB article, a WCXB forum, a Readability page."""
    return BoostedCorpus(
        features=np.zeros((6, 1), np.float32),
        labels=np.ones(6, np.int8),
        words=np.array([9, 99, 9, 99, 9, 99], np.int32),
        offsets=np.array([0, 2, 4, 6]),
        datasets=["wcxb-dev", "wcxb-dev", "mozilla-readability"],
        page_ids=["1", "2", "1"],
        page_types=["article", "forum", ""],
    )


def test_only_wcxbs_other_types_are_weighted_and_only_for_the_run(script):
    own = training_module.block_weights
    c = corpus()
    keep = np.arange(6)
    plain = own(c, keep, 0.0)
    with script.other_types_weighted(0.25):
        weighted = training_module.block_weights(c, keep, 0.0)
    np.testing.assert_allclose(weighted, plain * [1, 1, 0.25, 0.25, 1, 1])
    assert training_module.block_weights is own


def test_the_experiment_trains_on_every_type_by_default(script):
    args = script.command_line().parse_args([])
    assert (args.page_types, args.other_weight, args.kind_columns) == ("", 1.0, False)
    args = script.command_line().parse_args(["--page-types", "article", "--other-weight", "0.3"])
    assert (args.page_types, args.other_weight) == ("article", 0.3)
