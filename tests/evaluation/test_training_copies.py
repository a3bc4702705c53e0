"""``benchmarks.training_copies``: how an experiment's altered copies of the training pages
join ``boosted``'s training for one run, each copy in its page's fold."""

from __future__ import annotations

from types import SimpleNamespace

from benchmarks import grouped_cv
from benchmarks.training_copies import sites_with_copies, training_copies, with_copies
from scrapy_boilerplate.training import boosted as training_module
from scrapy_boilerplate.training.dataset import site_groups


def upper_copy(page_id, html, main_text):
    """A copy in capitals, none for page "b"."""
    return None if page_id == "b" else (html.upper(), main_text and main_text.upper())


def test_each_page_is_followed_by_its_copy_with_the_same_snippets():
    jobs = [
        ("set", "a", "<p>one</p>", "one", ("one",), ()),
        ("set", "b", "<p>two</p>", "two", (), ()),
        ("set", "c", "<p>three</p>", None, ("three",), ("x",)),
    ]
    out = list(with_copies(jobs, upper_copy, "#up"))
    assert [(job[1], job[2], job[3]) for job in out] == [
        ("a", "<p>one</p>", "one"),
        ("a#up", "<P>ONE</P>", "ONE"),
        ("b", "<p>two</p>", "two"),
        ("c", "<p>three</p>", None),
        ("c#up", "<P>THREE</P>", None),
    ]
    assert out[1][4:] == jobs[0][4:] and out[4][4:] == jobs[2][4:]


def test_a_copy_is_in_its_pages_site():
    corpus = SimpleNamespace(datasets=["x", "x", "x"], page_ids=["p1", "p1#up", "p2"])
    sites = sites_with_copies("#up")([], corpus)
    plain = SimpleNamespace(datasets=["x", "x", "x"], page_ids=["p1", "p1", "p2"])
    assert sites == site_groups([], plain)
    assert corpus.page_ids == ["p1", "p1#up", "p2"]  # the corpus keeps the copies' ids


def test_the_patches_last_for_the_run_only():
    own_jobs, own_groups = training_module._jobs, grouped_cv.site_groups
    with training_copies(upper_copy, "#up"):
        assert training_module._jobs is not own_jobs
        assert grouped_cv.site_groups is not own_groups
    assert training_module._jobs is own_jobs and grouped_cv.site_groups is own_groups
