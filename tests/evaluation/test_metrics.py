"""Token-shingle and snippet metrics on small cases worked out by hand."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from scrapy_boilerplate.evaluation.metrics import (
    PageScore,
    SnippetCounts,
    f1,
    normalize_whitespace,
    paired_f1_resamples,
    score_page,
    shingles,
    snippet_hits,
    summarize,
    summarize_snippets,
    tokenize,
    tokens_for_lang,
)

# --- tokens -------------------------------------------------------------------------------


def test_plain_tokens_are_word_character_runs():
    assert tokenize("Hello, world! It's 2024_x.") == ["Hello", "world", "It", "s", "2024_x"]
    assert tokenize("Grüße aus Köln – naïve café") == ["Grüße", "aus", "Köln", "naïve", "café"]
    assert tokenize("") == []
    assert tokenize(None) == []


def test_plain_tokens_make_a_chinese_sentence_one_token():
    assert tokenize("我爱北京天安门。Python 3") == ["我爱北京天安门", "Python", "3"]


def test_cjk_tokens_split_han_kana_and_thai_into_characters():
    assert tokenize("我爱北京天安门。Python 3", "cjk") == [
        "我", "爱", "北", "京", "天", "安", "门", "Python", "3",
    ]  # fmt: skip
    # hiragana, katakana (with the long-vowel mark) and kanji alike
    assert tokenize("東京タワーへ行く", "cjk") == ["東", "京", "タ", "ワ", "ー", "へ", "行", "く"]
    # Thai: every character, vowel signs included (สวัสดี is 6 code points)
    assert tokenize("สวัสดี ครับ", "cjk") == ["ส", "ว", "ั", "ส", "ด", "ี", "ค", "ร", "ั", "บ"]
    # Hangul is written with spaces: words stay whole
    assert tokenize("안녕하세요 세계", "cjk") == ["안녕하세요", "세계"]
    # Latin text next to Han is split at the script boundary, not glued
    assert tokenize("iPhone手机", "cjk") == ["iPhone", "手", "机"]


def test_unknown_tokenization():
    with pytest.raises(ValueError):
        tokenize("x", "words")
    with pytest.raises(ValueError):
        tokens_for_lang("words", "en")


@pytest.mark.parametrize(
    "mode, lang, expected",
    [
        ("auto", "zh", "cjk"),
        ("auto", "zh-TW", "cjk"),
        ("auto", "ja", "cjk"),
        ("auto", "th", "cjk"),
        ("auto", "ko", "plain"),
        ("auto", "en", "plain"),
        ("auto", None, "plain"),
        ("plain", "zh", "plain"),
        ("cjk", "en", "cjk"),
    ],
)
def test_tokens_for_lang(mode, lang, expected):
    assert tokens_for_lang(mode, lang) == expected


# --- shingles -----------------------------------------------------------------------------


def test_shingles_are_4_token_windows():
    # 5 tokens -> 5 - 4 + 1 = 2 windows
    assert shingles(["a", "b", "c", "d", "e"]) == Counter(
        {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}
    )


def test_short_text_is_one_shingle_and_empty_text_none():
    assert shingles(["a"]) == Counter({("a",): 1})
    assert shingles(["a", "b", "c"]) == Counter({("a", "b", "c"): 1})
    assert shingles([]) == Counter()


def test_shingles_are_a_multiset():
    # "a a a a a a": 6 - 4 + 1 = 3 windows, all equal to (a, a, a, a)
    assert shingles(["a"] * 6) == Counter({("a", "a", "a", "a"): 3})


# --- one page -----------------------------------------------------------------------------


def test_score_page_counts():
    # truth  a b c d e f -> abcd, bcde, cdef
    # pred   a b c d e x -> abcd, bcde, cdex
    # tp = 2 (abcd, bcde), fp = 1 (cdex), fn = 1 (cdef)
    s = score_page("a b c d e f", "a b c d e x")
    assert (s.tp, s.fp, s.fn) == (2, 1, 1)
    # fractions of tp + fp + fn = 4: 2/4, 1/4, 1/4
    assert s.fractions == (0.5, 0.25, 0.25)
    # precision = tp / (tp + fp) = 2/3, recall = tp / (tp + fn) = 2/3, F1 = 2/3
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == pytest.approx(2 / 3)
    assert s.f1 == pytest.approx(2 / 3)
    assert not s.exact


def test_score_page_multiset_intersection():
    # truth "a a a a a" -> (aaaa) x 2; pred "a a a a" -> (aaaa) x 1
    # tp = min(2, 1) = 1, fp = 1 - 1 = 0, fn = 2 - 1 = 1 -> P = 1/1, R = 1/2
    s = score_page("a a a a a", "a a a a")
    assert (s.tp, s.fp, s.fn) == (1, 0, 1)
    assert (s.precision, s.recall) == (1.0, 0.5)


def test_score_page_ignores_punctuation_and_spacing():
    # the same tokens: one shingle each side, equal -> fp = fn = 0, exact
    s = score_page("Hello,   world!\n\nBye.", "Hello world Bye")
    assert (s.tp, s.fp, s.fn, s.exact) == (1, 0, 0, True)
    assert (s.precision, s.recall) == (1.0, 1.0)


def test_empty_prediction_has_no_precision():
    # truth "a b" is one shingle; nothing predicted: tp = 0, fp = 0, fn = 1
    s = score_page("a b", "")
    assert (s.tp, s.fp, s.fn) == (0, 0, 1)
    assert s.precision is None and s.recall == 0.0 and s.f1 == 0.0


def test_empty_truth_has_no_recall():
    # truth "" has no shingle; pred "x" is one: tp = 0, fp = 1, fn = 0 -> P = 0/1
    s = score_page("", "x")
    assert (s.tp, s.fp, s.fn) == (0, 1, 0)
    assert s.precision == 0.0 and s.recall is None


def test_both_empty_scores_one():
    # fp = fn = 0 -> 1 for both; the empty token sequences are equal
    s = score_page("", "  ")
    assert (s.precision, s.recall, s.exact) == (1.0, 1.0, True)


def test_cjk_tokens_change_the_score():
    # plain: truth "我爱北京天安门" and pred "我爱北京" are one token each, and differ:
    # tp = 0, fp = 1, fn = 1 -> P = R = 0
    plain = score_page("我爱北京天安门", "我爱北京", "plain")
    assert (plain.precision, plain.recall) == (0.0, 0.0)
    # cjk: truth has 7 characters -> 7 - 4 + 1 = 4 shingles; pred 4 -> 1 shingle (我爱北京),
    # which is the truth's first: tp = 1, fp = 0, fn = 3 -> P = 1, R = 1/4
    cjk = score_page("我爱北京天安门", "我爱北京", "cjk")
    assert (cjk.tp, cjk.fp, cjk.fn) == (1, 0, 3)
    assert (cjk.precision, cjk.recall) == (1.0, 0.25)


# --- a set of pages -----------------------------------------------------------------------

# page A: P = 2/3, R = 2/3 (tp 2, fp 1, fn 1)
A = PageScore(tp=2, fp=1, fn=1, truth_empty=False, pred_empty=False, exact=False)
# page B: P = 1, R = 1/2 (tp 1, fp 0, fn 1)
B = PageScore(tp=1, fp=0, fn=1, truth_empty=False, pred_empty=False, exact=False)
# page C: nothing predicted: P undefined, R = 0
C = PageScore(tp=0, fp=0, fn=3, truth_empty=False, pred_empty=True, exact=False)
# page D: empty truth, something predicted: P = 0, R undefined
D = PageScore(tp=0, fp=2, fn=0, truth_empty=True, pred_empty=False, exact=False)
# page E: both empty: P = R = 1, exact
E = PageScore(tp=0, fp=0, fn=0, truth_empty=True, pred_empty=True, exact=True)


def test_summarize_averages_over_defined_pages():
    s = summarize([A, B, C, D], n_bootstrap=0)
    # precision over A, B, D (C predicted nothing): (2/3 + 1 + 0) / 3 = 5/9
    assert s.precision == pytest.approx(5 / 9)
    assert s.precision_pages == 3
    # recall over A, B, C (D has no truth): (2/3 + 1/2 + 0) / 3 = 7/18
    assert s.recall == pytest.approx(7 / 18)
    assert s.recall_pages == 3
    # F1 of the averages: 2 * 5/9 * 7/18 / (5/9 + 7/18) = (70/162) / (17/18) = 70/153
    assert s.f1 == pytest.approx(70 / 153)
    assert s.accuracy == 0.0
    assert math.isnan(s.f1_std)  # no bootstrap asked for


def test_summarize_counts_a_page_with_nothing_to_find_as_one():
    s = summarize([A, E], n_bootstrap=0)
    # precision (2/3 + 1) / 2 = 5/6; recall (2/3 + 1) / 2 = 5/6; F1 = 5/6
    assert s.precision == pytest.approx(5 / 6)
    assert s.recall == pytest.approx(5 / 6)
    assert s.f1 == pytest.approx(5 / 6)
    # accuracy: 1 page (E) of 2 has equal token sequences
    assert s.accuracy == 0.5


def test_summarize_nothing():
    s = summarize([])
    assert s.pages == 0 and math.isnan(s.f1)


def test_bootstrap_is_seeded_and_deterministic():
    pages = [A, B, C, D, E] * 4
    one = summarize(pages, n_bootstrap=200, seed=7)
    two = summarize(pages, n_bootstrap=200, seed=7)
    assert one == two
    other = summarize(pages, n_bootstrap=200, seed=8)
    assert other.f1_std != one.f1_std
    assert 0 < one.precision_std < 0.5 and 0 < one.recall_std < 0.5 and 0 < one.f1_std < 0.5


def test_bootstrap_std_of_identical_pages_is_zero():
    s = summarize([A] * 10, n_bootstrap=100)
    zero = pytest.approx(0.0, abs=1e-12)  # every resample has the same mean, 2/3
    assert (s.precision_std, s.recall_std, s.f1_std) == (zero, zero, zero)


def test_bootstrap_std_matches_the_standard_error():
    # 50 pages with P = R = 1 and 50 with P = 1, R = 1/2 (B): recall values are 1 or 1/2,
    # population std 1/4, so the std of a mean of 100 draws is 0.25 / sqrt(100) = 0.025;
    # 2000 resamples estimate it within a few per cent.
    perfect = PageScore(tp=3, fp=0, fn=0, truth_empty=False, pred_empty=False, exact=True)
    s = summarize([perfect] * 50 + [B] * 50, n_bootstrap=2000, seed=1)
    assert s.recall_std == pytest.approx(0.025, rel=0.1)
    assert s.precision_std == 0.0


def test_paired_resamples_give_each_extractors_set_f1_on_the_same_pages():
    perfect = PageScore(tp=3, fp=0, fn=0, truth_empty=False, pred_empty=False, exact=True)
    ours = [perfect] * 30 + [B] * 30
    other = [B] * 30 + [B] * 30  # the same pages, worse on the first 30
    f1s = paired_f1_resamples([ours, other], n_bootstrap=300, seed=3)
    assert f1s.shape == (2, 300)
    # the resamples centre on the whole set's F1
    assert f1s[0].mean() == pytest.approx(summarize(ours, 0).f1, abs=0.01)
    assert f1s[1].mean() == pytest.approx(summarize(other, 0).f1, abs=0.01)
    # paired: ours is never behind, since it is at least as good on every page
    assert (f1s[0] >= f1s[1]).all()


def test_paired_resamples_of_one_extractor_twice_have_no_margin():
    pages = [A, B, C, D, E] * 6
    f1s = paired_f1_resamples([pages, pages], n_bootstrap=100, seed=0)
    assert (f1s[0] == f1s[1]).all() and f1s[0].std() > 0


def test_paired_resamples_are_seeded_and_draw_what_summarize_draws():
    pages = [A, B, C, D, E] * 4
    one = paired_f1_resamples([pages], n_bootstrap=200, seed=7)
    assert (one == paired_f1_resamples([pages], n_bootstrap=200, seed=7)).all()
    assert one[0].std() == pytest.approx(summarize(pages, n_bootstrap=200, seed=7).f1_std)


def test_paired_resamples_need_the_same_pages():
    with pytest.raises(ValueError, match="same pages"):
        paired_f1_resamples([[A, B], [A]], n_bootstrap=10)
    assert paired_f1_resamples([], n_bootstrap=10).shape == (0, 10)
    assert paired_f1_resamples([[A], [B]], n_bootstrap=0).shape == (2, 0)
    assert np.isnan(paired_f1_resamples([[]], n_bootstrap=10)).all()


def test_f1_helper():
    # 2 * 0.5 * 1 / 1.5 = 2/3
    assert f1(0.5, 1.0) == pytest.approx(2 / 3)
    assert f1(0.0, 0.0) == 0.0
    assert math.isnan(f1(math.nan, 1.0))


# --- snippets -----------------------------------------------------------------------------


def test_normalize_whitespace():
    assert normalize_whitespace("  a \n\t b  ") == "a b"
    assert normalize_whitespace(None) == ""


def test_snippet_hits_collapse_whitespace_on_both_sides():
    pred = "The quick  brown\nfox jumps over\n\nthe lazy   dog."
    counts = snippet_hits(
        pred,
        with_snippets=["quick brown fox", "a  cat"],  # found (across a line break); missed
        without_snippets=["the lazy dog", "Cookie notice"],  # found -> fp; not found
    )
    assert counts == SnippetCounts(tp=1, fp=1, fn=1, tn=1)
    # page P = 1/(1+1), R = 1/(1+1)
    assert (counts.precision, counts.recall) == (0.5, 0.5)


def test_snippet_hits_on_empty_prediction():
    counts = snippet_hits("", ["a b"], ["c"])
    assert counts == SnippetCounts(tp=0, fp=0, fn=1, tn=1)
    assert counts.precision is None and counts.recall == 0.0 and counts.f1 == 0.0


def test_snippets_are_micro_averaged():
    pages = [
        SnippetCounts(tp=2, fp=0, fn=1),
        SnippetCounts(tp=1, fp=1, fn=0),
        SnippetCounts(tp=0, fp=1, fn=2),
    ]
    s = summarize_snippets(pages)
    # sums: tp = 3, fp = 2, fn = 3 -> P = 3/5, R = 3/6; F1 = 2 * 0.6 * 0.5 / 1.1 = 6/11
    assert (s.tp, s.fp, s.fn) == (3, 2, 3)
    assert s.precision == pytest.approx(0.6)
    assert s.recall == pytest.approx(0.5)
    assert s.f1 == pytest.approx(6 / 11)
    # a macro average would differ: P (1 + 1/2 + 0) / 3 = 1/2
    assert s.pages == 3
