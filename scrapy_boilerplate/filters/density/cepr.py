"""CEPR: content extraction via path ratios (Wu, Li, Hu, Wu, CIKM 2013).

Every text node is scored with the text-to-tag-path ratio TPR of its tag path (or the
extended ETPR), the scores are smoothed over the neighbouring text nodes in document order
with a Gaussian weighted by the similarity of their tag paths (edit distance), and the
nodes above ``tau = lambda * std(smoothed scores)`` are content. The ETPR formula, the
kernel and lambda are not verified against the paper (``docs/algorithms.md`` 3.2): they are
parameters, with defaults chosen on our dev sets (``docs/density.md``).
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np

from ...document import Document
from ._dom import DensityFilter, DomStats, check_combine, check_range, label_runs
from .tpc import tag_path_ratios

__all__ = [
    "CEPR_LAMBDA",
    "CEPR_RADIUS",
    "CEPR_SIGMA",
    "PATH_DISTANCE_CELLS",
    "CEPRFilter",
    "cepr_scores",
    "path_distance",
]

#: tau = lambda * std(smoothed scores); lambda UNVERIFIED (CEPR, Wu et al. 2013), dev-set choice
CEPR_LAMBDA = 0.2
#: Gaussian kernel over text nodes: radius and sigma; UNVERIFIED (CEPR), dev-set choice
CEPR_RADIUS = 3
CEPR_SIGMA = 1.0
#: the largest radius a spec may set: the work per run grows with it (ours)
CEPR_MAX_RADIUS = 50
#: suffixes whose edit-distance table would exceed this many cells get the upper bound
#: max(len) instead (freak pages nested thousands deep stay linear); ours
PATH_DISTANCE_CELLS = 4096

# ASCII and CJK punctuation, counted by the extended ratio
_PUNCTUATION = (
    "!\"'(),-.:;?[]{}\u2014\u2018\u2019\u201c\u201d\u2026\u3001\u3002\u300a\u300b"
    "\u300c\u300d\u3010\u3011\uff01\uff08\uff09\uff0c\uff1a\uff1b\uff1f"
)
_FIND_PUNCTUATION = re.compile(f"[{re.escape(_PUNCTUATION)}]").findall


def path_distance(stats: DomStats, a: int, b: int) -> int:
    """Edit distance between the tag paths ``a`` and ``b`` (ids). The paths form a trie,
    so only what follows their common prefix is compared."""
    return _path_distance(stats.path_parent, stats.path_depth, stats.path_tag, a, b)


def _path_distance(pparent: list[int], pdepth: list[int], ptag: list[str], a: int, b: int) -> int:
    sa: list[str] = []
    sb: list[str] = []
    while pdepth[a] > pdepth[b]:
        sa.append(ptag[a])
        a = pparent[a]
    while pdepth[b] > pdepth[a]:
        sb.append(ptag[b])
        b = pparent[b]
    while a != b:
        sa.append(ptag[a])
        sb.append(ptag[b])
        a = pparent[a]
        b = pparent[b]
    la, lb = len(sa), len(sb)
    if la == 0 or lb == 0:
        return la + lb
    if la * lb > PATH_DISTANCE_CELLS:
        return max(la, lb)
    return _levenshtein(tuple(sa), tuple(sb))


@functools.lru_cache(maxsize=1 << 16)
def _levenshtein(sa: tuple[str, ...], sb: tuple[str, ...]) -> int:
    # Levenshtein over the two reversed suffixes (reversing both keeps the distance).
    # Cached: the same few tag suffixes ("a" under "li" against "p", ...) recur on every page.
    la, lb = len(sa), len(sb)
    prev = list(range(lb + 1))
    for x in range(1, la + 1):
        cur = [x] + [0] * lb
        ta = sa[x - 1]
        for y in range(1, lb + 1):
            cur[y] = min(prev[y] + 1, cur[y - 1] + 1, prev[y - 1] + (ta != sb[y - 1]))
        prev = cur
    return prev[lb]


def _path_similarities(stats: DomStats, pid: np.ndarray, radius: int) -> list[np.ndarray]:
    """For d = 1 .. radius, the similarity 1 - edit distance / the longer length of the
    tag paths of runs k and k + d (each distinct pair of paths computed once)."""
    m = pid.size
    offsets = [d for d in range(1, radius + 1) if d < m]
    if not offsets:
        return []
    npaths = len(stats.path_tag)
    a = np.concatenate([pid[:-d] for d in offsets]).astype(np.int64)
    b = np.concatenate([pid[d:] for d in offsets]).astype(np.int64)
    lo = np.minimum(a, b)
    codes = lo * npaths + np.maximum(a, b)  # symmetric: one code per unordered pair
    uniq, inverse = np.unique(codes, return_inverse=True)
    pparent, pdepth, ptag = stats.path_parent, stats.path_depth, stats.path_tag
    sims = np.ones(uniq.size)
    for k, code in enumerate(uniq.tolist()):
        x, y = divmod(code, npaths)
        if x != y:
            longer = pdepth[x] if pdepth[x] > pdepth[y] else pdepth[y]
            sims[k] = 1.0 - _path_distance(pparent, pdepth, ptag, x, y) / longer
    values = sims[inverse]
    out = []
    pos = 0
    for d in offsets:
        out.append(values[pos : pos + m - d])
        pos += m - d
    return out


def cepr_scores(
    stats: DomStats,
    extended: bool = True,
    radius: int = CEPR_RADIUS,
    sigma: float = CEPR_SIGMA,
) -> tuple[np.ndarray, np.ndarray]:
    """The smoothed path ratio of every text run with text: (run indices, scores).

    The raw score is TPR, or with ``extended`` our ETPR = TPR x (1 + std of the lengths of
    the path's runs) x (1 + std of their punctuation counts). Smoothing: for neighbours up
    to ``radius`` runs away, weight ``exp(-d^2 / 2 sigma^2) x (1 - edit distance of the
    two tag paths / the longer length)``, normalised by the sum of the weights.
    """
    runs, tpr = tag_path_ratios(stats)
    if runs.size == 0:
        return runs, tpr
    pid = stats.path[stats.run_owner[runs]]
    score = tpr
    if extended:
        npaths = len(stats.path_tag)
        counts = np.maximum(np.bincount(pid, minlength=npaths), 1)

        def path_std(values: np.ndarray) -> np.ndarray:
            mean = np.bincount(pid, weights=values, minlength=npaths) / counts
            square = np.bincount(pid, weights=values * values, minlength=npaths) / counts
            return np.sqrt(np.maximum(square - mean * mean, 0.0))[pid]

        texts = stats.run_text
        find = _FIND_PUNCTUATION
        punct = np.fromiter(
            (len(find(texts[r])) for r in runs.tolist()), dtype=np.float64, count=runs.size
        )
        score = tpr * (1.0 + path_std(stats.run_len[runs])) * (1.0 + path_std(punct))
    num = score.copy()
    den = np.ones(runs.size)
    if sigma <= 0:
        return runs, score
    for d, similarity in enumerate(_path_similarities(stats, pid, int(radius)), start=1):
        w = math.exp(-(d * d) / (2.0 * sigma * sigma)) * similarity  # pairs (k, k + d)
        num[:-d] += w * score[d:]
        den[:-d] += w
        num[d:] += w * score[:-d]
        den[d:] += w
    return runs, num / den


class CEPRFilter(DensityFilter):
    """CEPR (Wu et al. 2013): labels as content the blocks whose text runs (by characters)
    have a smoothed path ratio above ``threshold_lambda`` x its standard deviation."""

    name = "cepr"

    def __init__(
        self,
        threshold_lambda: float = CEPR_LAMBDA,
        extended: bool = True,
        radius: int = CEPR_RADIUS,
        sigma: float = CEPR_SIGMA,
        skip_hidden: bool = True,
        combine: str = "set",
    ) -> None:
        self.threshold_lambda = check_range(
            "threshold_lambda", threshold_lambda, -math.inf, math.inf
        )
        self.extended = extended
        # each run is compared with the runs up to ``radius`` away (check_range)
        self.radius = check_range("radius", radius, 0, CEPR_MAX_RADIUS)
        self.sigma = check_range("sigma", sigma, -math.inf, math.inf)
        self.skip_hidden = skip_hidden
        self.combine = check_combine(combine)

    def __call__(self, doc: Document) -> bool:
        stats = self.stats(doc)
        if stats is None:
            return False
        runs, smoothed = cepr_scores(stats, self.extended, self.radius, self.sigma)
        selected = np.zeros(stats.run_len.size, dtype=bool)
        if runs.size:
            tau = self.threshold_lambda * float(smoothed.std())
            selected[runs[smoothed > tau]] = True
        return label_runs(doc, stats, selected, self.combine)
