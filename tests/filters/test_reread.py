"""What the filters that read a page again share (``filters/reread.py``): a name in the
registry, a spec they pickle and compare by, and a word bound that cannot be negative."""

import pickle

import pytest

from scrapy_boilerplate import FILTERS
from scrapy_boilerplate.filters import NoscriptContent, WithoutCommentThreads
from scrapy_boilerplate.filters.reread import ReadAgain


@pytest.mark.parametrize(
    ("name", "cls"),
    [("noscript_content", NoscriptContent), ("without_comment_threads", WithoutCommentThreads)],
)
def test_registered_pickled_and_compared_by_their_spec(name, cls):
    assert FILTERS[name] is cls
    assert issubclass(cls, ReadAgain)
    f = cls(["keep_everything"], min_words=5)
    assert pickle.loads(pickle.dumps(f)) == f
    assert f != cls(["keep_everything"])
    with pytest.raises(ValueError):
        cls(min_words=-1)


def test_the_base_is_not_a_filter_of_its_own():
    assert ReadAgain not in FILTERS.values()
