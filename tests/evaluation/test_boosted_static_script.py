"""``benchmarks.boosted_static``: the text-similarity columns it tries on the default
labeler, and how they reach the features for one run only."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.evaluation.datasets import open_dataset
from scrapy_boilerplate.neural import boosted as boosted_module
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES, boosted_features
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.training import boosted as training_module


def test_similarities_are_cosines_with_the_page_the_title_and_the_neighbours(script):
    vectors = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    words = np.array([1.0, 2.0, 1.0])
    sims = script.similarities(vectors, words, title=np.array([0.0, 3.0]))
    # the page: 1*(1,0) + 2*(1,1) + 1*(0,2) = (3, 4), unit (0.6, 0.8)
    r = 1 / np.sqrt(2)
    np.testing.assert_allclose(sims[:, 0], [0.6, 1.4 * r, 0.8], rtol=1e-6)
    np.testing.assert_allclose(sims[:, 1], [0.0, r, 1.0], rtol=1e-6)
    np.testing.assert_allclose(sims[:, 2], [0.0, r, r], rtol=1e-6)  # the previous block
    np.testing.assert_allclose(sims[:, 3], [r, r, 0.0], rtol=1e-6)  # the next block


def test_a_zero_vector_or_no_title_gives_zeros_not_nan(script):
    sims = script.similarities(np.zeros((2, 3)), np.array([0.0, 0.0]), np.zeros(3))
    assert np.isfinite(sims).all() and not sims.any()
    assert script.similarities(np.zeros((0, 3)), np.zeros(0), np.zeros(3)).shape == (0, 4)


def test_word_count_similarities_compare_lower_cased_words(script):
    # the page counts red 2, fox 2, blue 1, sky 1; the title the, red, fox once each
    sims = script.word_count_similarities(["Red fox", "red fox", "blue sky"], "The Red Fox")
    np.testing.assert_allclose(sims[0], [4 / np.sqrt(2 * 10), 2 / np.sqrt(2 * 3), 0.0, 1.0])
    np.testing.assert_allclose(sims[2, 1:], [0.0, 0.0, 0.0])


def test_extra_columns_reach_the_labeler_and_training_for_the_run_only(script):
    doc = parse_html(
        "<html><body><p>One paragraph of some words here.</p><p>Two.</p></body></html>"
    )
    own = boosted_features(doc)

    def ones(d):
        return np.ones((len(d.blocks), 2))

    with script.extra_columns(["a", "b"], ones):
        for module in (boosted_module, training_module):
            assert module.BOOSTED_FEATURES == (*BOOSTED_FEATURES, "a", "b")
            extended = module.boosted_features(doc)
            np.testing.assert_array_equal(extended[:, :-2], own)
            assert (extended[:, -2:] == 1).all() and extended.dtype == np.float32
    for module in (boosted_module, training_module):
        assert module.BOOSTED_FEATURES == BOOSTED_FEATURES
        assert module.boosted_features is boosted_features


def test_the_static_variants_need_the_table(script, capsys):
    with pytest.raises(SystemExit):
        script.main(["--variant", "sim"])
    assert "--table" in capsys.readouterr().err


def test_the_experiment_scripts_share_one_command_line(script, tmp_path):
    parser = script.experiment_parser("An experiment.", tmp_path / "out")
    args = parser.parse_args([])
    assert (args.out, args.unseen, args.folds, args.threads, args.seed) == (
        tmp_path / "out",
        False,
        4,
        2,
        0,
    )
    assert args.page_types == "article"  # as the shipped model trains
    args = parser.parse_args(["--unseen", "--seed", "3", "--folds", "2", "--page-types", ""])
    assert (args.unseen, args.seed, args.folds, args.page_types) == (True, 3, 2, "")


def test_training_pages_carry_their_url_to_the_columns_as_extracted_pages_do(
    script, mini_dir, tmp_path
):
    (tmp_path / "wcxb-dev").symlink_to(mini_dir)  # the one training set the run finds
    page = next(iter(open_dataset(mini_dir).iter_pages()))
    seen = []

    def urls(doc):
        seen.append(doc.url)
        return np.zeros((len(doc.blocks), 1))

    job = ("wcxb-dev", page.id, page.html, page.main_text, None, None)
    with script.extra_columns(["url"], urls), script.training_urls(tmp_path):
        assert not isinstance(training_module._page(job), str)
    assert seen == [page.url] and page.url
    training_module._page(job)  # the package's own builder again: no URL
    assert training_module.parse_page(page.html).url is None
