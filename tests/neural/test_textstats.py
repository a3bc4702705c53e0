"""Web2Text's text statistics (``neural/textstats.py``): CJK text counts per character."""

from scrapy_boilerplate.neural.textstats import block_text_stats


def test_cjk_statistics_are_per_character():
    st = block_text_stats(["我们的世界", "hello world"], [0.0, 0.0])
    assert st[0, 1] == 5  # five words: one per Han character
    assert st[0, 3] >= 2  # 我 and 的 are stopwords (of our list)
    assert st[1, 1] == 2
