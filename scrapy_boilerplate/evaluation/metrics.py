"""Quality metrics: token-shingle precision / recall / F1, accuracy, snippet hits.

Token shingles, as the widely cited article-extraction benchmark defines them:

* tokens are runs of ``\\w`` (Unicode word characters); with the CJK-aware variant every
  Han, kana or Thai character is a token of its own (for Chinese, Japanese and Thai, which
  are written without spaces, ``\\w+`` makes a whole sentence one token);
* the shingles of a text are the multiset of its 4-token windows; a text of 1 to 3 tokens
  is one shingle, an empty text has none;
* per page, tp / fp / fn are the multiset intersection and the two differences of the
  reference's and the prediction's shingles, divided by tp + fp + fn;
* precision tp / (tp + fp) is averaged over the pages with a non-empty prediction, recall
  tp / (tp + fn) over the pages with a non-empty reference; a page with fp = fn = 0 (also
  one where both are empty) scores 1 for both; F1 is the harmonic mean of the two averages;
* accuracy is the share of pages whose token sequence equals the reference's;
* standard deviations come from a seeded bootstrap over pages.

Snippet hits (sets with ``with`` / ``without`` snippets): a ``with`` snippet found in the
prediction (whitespace collapsed on both sides) is a true positive, else a false negative;
a ``without`` snippet found is a false positive; precision, recall and F1 are micro-averaged.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "CJK_LANGS",
    "PageScore",
    "ShingleSummary",
    "SnippetCounts",
    "SnippetSummary",
    "f1",
    "normalize_whitespace",
    "paired_f1_resamples",
    "score_page",
    "shingles",
    "snippet_hits",
    "summarize",
    "summarize_snippets",
    "tokenize",
    "tokens_for_lang",
]

#: the window size of the benchmark's shingles
SHINGLE_SIZE = 4
#: resamples and seed of the bootstrap (deterministic by default)
N_BOOTSTRAP = 1000
BOOTSTRAP_SEED = 0
#: languages (ISO 639-1) that ``tokens="auto"`` scores with the CJK-aware tokenizer
CJK_LANGS = frozenset(("zh", "ja", "th"))

# Characters that are tokens on their own in the CJK-aware variant: Han (with the
# ideographic iteration marks and numerals), hiragana, katakana (full and half width) and
# Thai (letters, vowel signs, tone marks, digits). Hangul is written with spaces: not here.
CJK_CHARACTERS = (
    "\u0e01-\u0e3a\u0e40-\u0e4e\u0e50-\u0e59"  # Thai
    "\u3005\u3007\u3021-\u3029\u3038-\u303b"  # ideographic iteration marks and numerals
    "\u3041-\u3096\u3099-\u309f"  # hiragana
    "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f"  # katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han: extension A, unified, compatibility
    "\U00020000-\U000323af"  # Han: extensions B to H
)

_TOKEN_RES = {
    "plain": re.compile(r"\w+"),
    "cjk": re.compile(f"[{CJK_CHARACTERS}]|[^\\W{CJK_CHARACTERS}]+"),
}
_SPACES = re.compile(r"\s+")


def tokenize(text: str | None, tokens: str = "plain") -> list[str]:
    """Split text into tokens: ``"plain"`` (runs of ``\\w``) or ``"cjk"`` (each Han, kana or
    Thai character alone, other ``\\w`` runs as in ``plain``)."""
    if not text:
        return []
    try:
        pattern = _TOKEN_RES[tokens]
    except KeyError:
        raise ValueError(f"unknown tokenization {tokens!r} (plain or cjk)") from None
    return pattern.findall(text)


def tokens_for_lang(mode: str, lang: str | None) -> str:
    """The tokenization for a page: ``mode`` itself, or for ``"auto"`` ``"cjk"`` when the
    page's language is Chinese, Japanese or Thai and ``"plain"`` otherwise."""
    if mode == "auto":
        code = (lang or "").lower().replace("_", "-").split("-")[0]
        return "cjk" if code in CJK_LANGS else "plain"
    if mode not in _TOKEN_RES:
        raise ValueError(f"unknown tokenization {mode!r} (plain, cjk or auto)")
    return mode


def shingles(tokens: Sequence[str], n: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """The multiset of ``n``-token windows; 1 to ``n - 1`` tokens make one shingle, none none."""
    if not tokens:
        return Counter()
    if len(tokens) < n:
        return Counter([tuple(tokens)])
    # windows of n tokens: zip stops at the shortest slice (by design, so strict=False)
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))


def normalize_whitespace(text: str | None) -> str:
    """Collapse every run of whitespace to one space and strip both ends."""
    return _SPACES.sub(" ", text).strip() if text else ""


def f1(precision: float, recall: float) -> float:
    """The harmonic mean of precision and recall (0 when both are 0; NaN if either is)."""
    if math.isnan(precision) or math.isnan(recall):
        return math.nan
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


@dataclass(frozen=True, slots=True)
class PageScore:
    """Token-shingle counts of one page.

    ``tp``, ``fp``, ``fn`` are raw shingle counts; ``truth_empty`` / ``pred_empty`` say
    whether either side has no tokens; ``exact`` whether the token sequences are equal.
    """

    tp: int
    fp: int
    fn: int
    truth_empty: bool
    pred_empty: bool
    exact: bool

    @property
    def precision(self) -> float | None:
        """tp / (tp + fp); 1 if fp = fn = 0; None (not averaged) if the prediction is empty."""
        if self.fp == 0 and self.fn == 0:
            return 1.0
        if self.pred_empty:
            return None
        return self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float | None:
        """tp / (tp + fn); 1 if fp = fn = 0; None (not averaged) if the reference is empty."""
        if self.fp == 0 and self.fn == 0:
            return 1.0
        if self.truth_empty:
            return None
        return self.tp / (self.tp + self.fn)

    @property
    def f1(self) -> float:
        """The page's own F1 (an undefined side counts as 0), for ranking pages."""
        p, r = self.precision, self.recall
        return f1(p or 0.0, r or 0.0)

    @property
    def fractions(self) -> tuple[float, float, float]:
        """tp, fp, fn divided by tp + fp + fn, as the benchmark reports them."""
        total = self.tp + self.fp + self.fn
        if total == 0:
            return 0.0, 0.0, 0.0
        return self.tp / total, self.fp / total, self.fn / total


def score_page(truth: str | None, prediction: str | None, tokens: str = "plain") -> PageScore:
    """Compare a prediction with the reference text by token shingles."""
    truth_tokens = tokenize(truth, tokens)
    pred_tokens = tokenize(prediction, tokens)
    truth_sh = shingles(truth_tokens)
    pred_sh = shingles(pred_tokens)
    tp = sum((truth_sh & pred_sh).values())
    return PageScore(
        tp=tp,
        fp=sum(pred_sh.values()) - tp,
        fn=sum(truth_sh.values()) - tp,
        truth_empty=not truth_tokens,
        pred_empty=not pred_tokens,
        exact=truth_tokens == pred_tokens,
    )


@dataclass(frozen=True, slots=True)
class ShingleSummary:
    """Token-shingle metrics over a set of pages (NaN where nothing could be averaged)."""

    pages: int
    precision: float
    recall: float
    f1: float
    accuracy: float
    precision_std: float
    recall_std: float
    f1_std: float
    precision_pages: int
    recall_pages: int


def _page_arrays(scores: Sequence[PageScore]) -> tuple[np.ndarray, np.ndarray]:
    p = np.array([np.nan if s.precision is None else s.precision for s in scores], dtype=float)
    r = np.array([np.nan if s.recall is None else s.recall for s in scores], dtype=float)
    return p, r


def _mean_defined(values: np.ndarray) -> float:
    defined = values[~np.isnan(values)]
    return float(defined.mean()) if defined.size else math.nan


def summarize(
    scores: Sequence[PageScore], n_bootstrap: int = N_BOOTSTRAP, seed: int = BOOTSTRAP_SEED
) -> ShingleSummary:
    """Average page scores: precision, recall, F1 of the averages, accuracy, bootstrap stds.

    The bootstrap draws ``n_bootstrap`` resamples of the pages (with replacement) from a
    generator seeded with ``seed``, recomputes the averages in each and reports their
    standard deviations: the same input always gives the same numbers.
    """
    n = len(scores)
    if n == 0:
        nan = math.nan
        return ShingleSummary(0, nan, nan, nan, nan, nan, nan, nan, 0, 0)
    p, r = _page_arrays(scores)
    precision, recall = _mean_defined(p), _mean_defined(r)
    accuracy = sum(s.exact for s in scores) / n
    p_std = r_std = f_std = math.nan
    if n_bootstrap > 0:
        p_std, r_std, f_std = _bootstrap_std(p, r, n_bootstrap, seed)
    return ShingleSummary(
        pages=n,
        precision=precision,
        recall=recall,
        f1=f1(precision, recall),
        accuracy=accuracy,
        precision_std=p_std,
        recall_std=r_std,
        f1_std=f_std,
        precision_pages=int((~np.isnan(p)).sum()),
        recall_pages=int((~np.isnan(r)).sum()),
    )


def _resampled_means(
    p: np.ndarray, r: np.ndarray, idx: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean precision, mean recall and their F1 of each resample (a row of page indices
    ``idx``), NaN where a resample has no page to average."""
    p_def, r_def = ~np.isnan(p), ~np.isnan(r)
    p_val, r_val = np.where(p_def, p, 0.0), np.where(r_def, r, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mp = p_val[idx].sum(axis=1) / p_def[idx].sum(axis=1)
        mr = r_val[idx].sum(axis=1) / r_def[idx].sum(axis=1)
        mf = np.where(mp + mr > 0, 2 * mp * mr / (mp + mr), 0.0)
    mf[np.isnan(mp) | np.isnan(mr)] = np.nan
    return mp, mr, mf


def _resamples(n: int, n_bootstrap: int, seed: int, chunk: int = 100) -> Iterable[np.ndarray]:
    """The bootstrap's page indices, ``chunk`` resamples of ``n`` pages at a time (the
    same draws for the same ``n``, ``n_bootstrap`` and ``seed``)."""
    rng = np.random.default_rng(seed)
    done = 0
    while done < n_bootstrap:
        k = min(chunk, n_bootstrap - done)
        yield rng.integers(0, n, size=(k, n))
        done += k


def _bootstrap_std(
    p: np.ndarray, r: np.ndarray, n_bootstrap: int, seed: int
) -> tuple[float, float, float]:
    """Standard deviations of mean precision, mean recall and their F1 over resamples."""
    parts = [_resampled_means(p, r, idx) for idx in _resamples(p.size, n_bootstrap, seed)]
    mp, mr, mf = (np.concatenate(column) for column in zip(*parts, strict=True))

    def std(values: np.ndarray) -> float:
        values = values[~np.isnan(values)]
        return float(values.std()) if values.size else math.nan

    return std(mp), std(mr), std(mf)


def paired_f1_resamples(
    runs: Sequence[Sequence[PageScore]], n_bootstrap: int = N_BOOTSTRAP, seed: int = BOOTSTRAP_SEED
) -> np.ndarray:
    """The set's F1 (of the averages, as :func:`summarize` gives it) of each of several
    extractors' scores of the same pages (``runs``: one list per extractor, the pages in
    the same order), over the same bootstrap resamples of the pages: a
    ``(len(runs), n_bootstrap)`` array whose row differences are the resampled margins
    between two extractors (paired: each resample draws the same pages for all of them,
    so the spread a set's page mix gives both cancels). NaN where a resample has nothing
    to average."""
    n = len(runs[0]) if runs else 0
    if any(len(run) != n for run in runs):
        raise ValueError("paired resamples need every extractor's scores of the same pages")
    if not runs or n_bootstrap <= 0:
        return np.zeros((len(runs), max(n_bootstrap, 0)))
    if n == 0:
        return np.full((len(runs), n_bootstrap), np.nan)
    arrays = [_page_arrays(run) for run in runs]
    chunks = [
        [_resampled_means(p, r, idx)[2] for p, r in arrays]
        for idx in _resamples(n, n_bootstrap, seed)
    ]
    return np.concatenate([np.stack(chunk) for chunk in chunks], axis=1)


@dataclass(frozen=True, slots=True)
class SnippetCounts:
    """Snippet hits of one page: ``with`` found (tp) or missed (fn), ``without`` found (fp)."""

    tp: int
    fp: int
    fn: int
    tn: int = 0

    @property
    def precision(self) -> float | None:
        """tp / (tp + fp), None if no snippet was found."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        """tp / (tp + fn), None if the page has no ``with`` snippet."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float:
        """The page's own F1 (an undefined side counts as 0; 1 if there is nothing to find
        and nothing wrong was found)."""
        if self.tp + self.fp + self.fn == 0:
            return 1.0
        return f1(self.precision or 0.0, self.recall or 0.0)


def snippet_hits(
    prediction: str | None,
    with_snippets: Iterable[str] | None,
    without_snippets: Iterable[str] | None,
) -> SnippetCounts:
    """Count the snippets found in a prediction (substring match, whitespace collapsed)."""
    text = normalize_whitespace(prediction)
    tp = fn = fp = tn = 0
    for snippet in with_snippets or ():
        s = normalize_whitespace(snippet)
        if not s:
            continue
        if s in text:
            tp += 1
        else:
            fn += 1
    for snippet in without_snippets or ():
        s = normalize_whitespace(snippet)
        if not s:
            continue
        if s in text:
            fp += 1
        else:
            tn += 1
    return SnippetCounts(tp=tp, fp=fp, fn=fn, tn=tn)


@dataclass(frozen=True, slots=True)
class SnippetSummary:
    """Micro-averaged snippet precision, recall and F1 over a set of pages."""

    pages: int
    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float


def summarize_snippets(counts: Sequence[SnippetCounts]) -> SnippetSummary:
    """Sum the snippet counts of all pages, then precision = tp/(tp+fp), recall = tp/(tp+fn)."""
    tp = sum(c.tp for c in counts)
    fp = sum(c.fp for c in counts)
    fn = sum(c.fn for c in counts)
    precision = tp / (tp + fp) if tp + fp else math.nan
    recall = tp / (tp + fn) if tp + fn else math.nan
    return SnippetSummary(
        pages=len(counts),
        tp=tp,
        fp=fp,
        fn=fn,
        precision=precision,
        recall=recall,
        f1=f1(precision, recall),
    )
