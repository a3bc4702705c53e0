"""Web2Text's text statistics (``neural/textstats.py``): CJK text counts per character; an
e-mail address is found in linear time."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate.neural.textstats import block_text_stats, has_email

from ..helpers import LINEAR_GROWTH_LIMIT, growth


def test_cjk_statistics_are_per_character():
    st = block_text_stats(["我们的世界", "hello world"], [0.0, 0.0])
    assert st[0, 1] == 5  # five words: one per Han character
    assert st[0, 3] >= 2  # 我 and 的 are stopwords (of our list)
    assert st[1, 1] == 2


EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]*\w")


@settings(max_examples=5000, deadline=None)
@given(st.text(alphabet="aZ1_-.+@ é中!\n", max_size=20))
def test_has_email_finds_what_the_email_pattern_finds(text):
    assert has_email(text) == bool(EMAIL.search(text))


def test_has_email_is_linear_on_long_runs_without_an_at_sign():
    # the pattern searched from every character of "a-a-a-...": 18 s for 100 KB
    assert growth(has_email, lambda n: "a@" + "a-" * n, 100_000) < LINEAR_GROWTH_LIMIT
    assert growth(has_email, lambda n: "a@b-" * n, 20_000) < LINEAR_GROWTH_LIMIT
