"""CETR: content extraction via tag ratios (Weninger, Hsu, Han, WWW 2010).

Per line of the page's source: the text-to-tag ratio TR (characters / tags, the divisor 1
when there is no tag), smoothed with a Gaussian; its smoothed absolute derivative G (the
difference to the mean of the next ``alpha`` lines); and a k-means (k = 3) on (TR, G) with
one centre pinned at the origin, whose cluster is the boilerplate (``docs/algorithms.md``
3.3). We have the DOM, not the source: the lines are rebuilt from the line breaks inside the
text runs (tags hold none), and the tags between runs belong to the line they sit on.
"""

from __future__ import annotations

import math
from itertools import repeat

import numpy as np

from ..._compiled import use_twin
from ...document import Document
from ._dom import DensityFilter, DomStats, check_combine, check_range, label_runs

__all__ = [
    "CETR_ALPHA",
    "CETR_CLUSTERS",
    "CETR_MAX_ITER",
    "CETR_MAX_LINE_TAGS",
    "CETR_SIGMA",
    "CETR_TOL",
    "CETRFilter",
    "cetr_features",
    "cetr_lines",
    "gaussian_smooth",
    "kmeans_pinned",
]

#: Gaussian smoothing sigma, in lines (CETR; dragnet's port uses 1.0)
CETR_SIGMA = 1.0
#: lines looked ahead by the absolute derivative G (CETR; dragnet's port: 3)
CETR_ALPHA = 3
#: k-means: clusters, iterations, tolerance (CETR 2-D model; dragnet's port: 3, 50, 1e-3)
CETR_CLUSTERS = 3
CETR_MAX_ITER = 50
CETR_TOL = 1e-3
#: a line with more tags is split at its text runs (a minified page is one line; CETR's
#: ports re-break such documents after every tag; ours, see docs/density.md)
CETR_MAX_LINE_TAGS = 5
#: the largest values a spec may set: the kernel (6 sigma + 1 lines), the look-ahead, and
#: k-means' clusters x iterations each multiply the work per line (ours)
CETR_MAX_SIGMA = 100.0
CETR_MAX_ALPHA = 1000
CETR_MAX_CLUSTERS = 10
CETR_MAX_ITERATIONS = 1000


def cetr_lines(
    stats: DomStats, max_line_tags: int = CETR_MAX_LINE_TAGS
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The page's lines, rebuilt from the DOM.

    A line break is a newline inside a text run; the tags before a run sit on the line
    where the run begins. Lines without text or tags are dropped. A line with more than
    ``max_line_tags`` tags (a minified page is one such line) is split at its text runs:
    each run with the tags before it makes a line. Returns per line its characters and its
    tags, and per piece of run text on a line: its run, its line and its characters.
    """
    texts = stats.run_text
    nruns = len(texts)
    breaks = np.fromiter(map(str.count, texts, repeat("\n")), dtype=np.intp, count=nruns)
    start_line = np.concatenate(([0], np.cumsum(breaks)))  # the line each run begins on
    last_line = int(start_line[-1])
    tags_before = stats.run_tags
    # pieces of text: a run without a line break is one piece on its start line; a run
    # with breaks has one piece per line it touches
    piece_run = np.flatnonzero((breaks == 0) & (stats.run_len > 0))
    piece_line = start_line[piece_run]
    piece_chars = stats.run_len[piece_run]
    piece_first = np.ones(piece_run.size, dtype=bool)  # the run's first piece?
    extra_run: list[int] = []
    extra_line: list[int] = []
    extra_chars: list[int] = []
    extra_first: list[bool] = []
    for r in np.flatnonzero((breaks > 0) & (stats.run_len > 0)).tolist():
        line = int(start_line[r])
        for k, part in enumerate(texts[r].split("\n")):
            if part and not part.isspace():
                extra_run.append(r)
                extra_line.append(line + k)
                extra_chars.append(len("".join(part.split())))
                extra_first.append(k == 0)
    if extra_run:
        piece_run = np.concatenate((piece_run, np.array(extra_run, dtype=np.intp)))
        piece_line = np.concatenate((piece_line, np.array(extra_line, dtype=np.intp)))
        piece_chars = np.concatenate((piece_chars, np.array(extra_chars, dtype=np.float64)))
        piece_first = np.concatenate((piece_first, np.array(extra_first, dtype=bool)))
    nlines = last_line + 1
    tags = np.bincount(start_line[:-1], weights=tags_before, minlength=nlines)
    tags[last_line] += stats.tags_after
    # sub-position inside a line: 0 for everything, except on over-full lines, where a
    # run's tags and first piece get the run's own slot (r + 1), the trailing tags the
    # last slot, and pieces continued from an earlier line stay in front (0)
    full = tags > max_line_tags
    slots = nruns + 2
    run_slot = np.where(full[start_line[:-1]], np.arange(nruns) + 1, 0)
    tag_key = start_line[:-1] * slots + run_slot
    piece_key = piece_line * slots + np.where(piece_first, run_slot[piece_run], 0)
    trail_key = last_line * slots + (slots - 1 if full[last_line] else 0)
    has_tags = tags_before > 0
    keys = np.concatenate((tag_key[has_tags], piece_key, [trail_key] if stats.tags_after else []))
    keys = keys.astype(np.int64)
    uniq, inverse = np.unique(keys, return_inverse=True)
    ntag = int(has_tags.sum())
    nline = uniq.size
    line_tags = np.bincount(inverse[:ntag], weights=tags_before[has_tags], minlength=nline)
    if stats.tags_after:
        line_tags[inverse[-1]] += stats.tags_after
    piece_ids = inverse[ntag : ntag + piece_run.size]
    line_chars = np.bincount(piece_ids, weights=piece_chars, minlength=nline)
    return line_chars, line_tags, piece_run, piece_ids.astype(np.intp), piece_chars


def gaussian_smooth(values: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian smoothing over neighbours up to ceil(3 sigma) away, normalised by the
    weights that fall inside the sequence (the ends are not pulled towards zero)."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    if n == 0 or sigma <= 0:
        return values.copy()
    radius = int(math.ceil(3 * sigma))
    offsets = np.arange(-radius, radius + 1)
    kernel = np.exp(-(offsets * offsets) / (2.0 * sigma * sigma))
    num = np.convolve(np.pad(values, radius), kernel, mode="valid")
    den = np.convolve(np.pad(np.ones(n), radius), kernel, mode="valid")
    return num / den


def cetr_features(
    ratios: np.ndarray, sigma: float = CETR_SIGMA, alpha: int = CETR_ALPHA
) -> np.ndarray:
    """Per line (TR', G'): the smoothed tag ratio, and the smoothed absolute difference
    between it and the mean of the next ``alpha`` lines' (the last line, with none after
    it, takes the mean of the last two)."""
    smooth = gaussian_smooth(ratios, sigma)
    n = smooth.size
    if n == 0:
        return np.zeros((0, 2))
    prefix = np.concatenate(([0.0], np.cumsum(smooth)))
    k = np.arange(n)
    hi = np.minimum(k + alpha, n - 1)  # the lines k+1 .. hi
    count = np.maximum(hi - k, 1)
    ahead = (prefix[hi + 1] - prefix[k + 1]) / count
    ahead[-1] = smooth[-2:].mean()
    return np.column_stack((smooth, gaussian_smooth(np.abs(ahead - smooth), sigma)))


def kmeans_pinned(
    points: np.ndarray,
    k: int = CETR_CLUSTERS,
    max_iter: int = CETR_MAX_ITER,
    tol: float = CETR_TOL,
) -> np.ndarray:
    """Deterministic k-means with centre 0 pinned at the origin; the cluster of each point.

    The free centres start evenly from the points' mean to their coordinate-wise maximum;
    ties in the assignment go to the lower cluster (the origin's first); a centre left
    without points stays where it is. Stops when no centre moves by ``tol`` or more.
    """
    n = points.shape[0]
    if n == 0 or k < 2:
        return np.zeros(n, dtype=np.intp)
    mean = points.mean(axis=0)
    top = points.max(axis=0)
    steps = np.linspace(0.0, 1.0, k - 1)
    centres = np.vstack([np.zeros(points.shape[1])] + [mean + s * (top - mean) for s in steps])
    return kmeans_iterations(np.ascontiguousarray(points, dtype=np.float64), centres, max_iter, tol)


def kmeans_iterations_python(
    points: np.ndarray, centres: np.ndarray, max_iter: int, tol: float
) -> np.ndarray:
    """Lloyd's iterations of :func:`kmeans_pinned` from the given centres (centre 0 stays
    put); the final assignment. ``_ccetr.pyx`` is the compiled twin (the same float
    operations in the same order); ``kmeans_iterations`` is whichever is available."""
    k = centres.shape[0]
    cols = [np.ascontiguousarray(points[:, j], dtype=np.float64) for j in range(points.shape[1])]

    def assign(centres: np.ndarray) -> np.ndarray:
        dist = sum((col[None, :] - centres[:, j, None]) ** 2 for j, col in enumerate(cols))
        return np.argmin(dist, axis=0)  # the first (lowest) cluster on ties

    for _ in range(max_iter):
        labels = assign(centres)
        counts = np.bincount(labels, minlength=k)
        new = centres.copy()
        filled = counts > 0
        filled[0] = False  # the origin's centre never moves
        for j, col in enumerate(cols):
            sums = np.bincount(labels, weights=col, minlength=k)
            new[filled, j] = sums[filled] / counts[filled]
        shift = float(np.abs(new - centres).max())
        centres = new
        if shift < tol:
            break
    return assign(centres)


kmeans_iterations = kmeans_iterations_python
#: whether the compiled k-means iterations (``_ccetr``) are in use
COMPILED = use_twin(globals(), "kmeans_iterations")


class CETRFilter(DensityFilter):
    """CETR (Weninger et al. 2010): labels as content the blocks whose text lies (by
    characters) on lines outside the origin's cluster."""

    name = "cetr"

    def __init__(
        self,
        sigma: float = CETR_SIGMA,
        alpha: int = CETR_ALPHA,
        clusters: int = CETR_CLUSTERS,
        max_line_tags: int = CETR_MAX_LINE_TAGS,
        max_iter: int = CETR_MAX_ITER,
        tol: float = CETR_TOL,
        skip_hidden: bool = True,
        combine: str = "set",
    ) -> None:
        # bounded so that a page's work stays linear in its lines (check_range)
        self.sigma = check_range("sigma", sigma, 0.0, CETR_MAX_SIGMA)
        self.alpha = check_range("alpha", alpha, 1, CETR_MAX_ALPHA)
        self.clusters = check_range("clusters", clusters, 1, CETR_MAX_CLUSTERS)
        self.max_line_tags = check_range("max_line_tags", max_line_tags, 0, math.inf)
        self.max_iter = check_range("max_iter", max_iter, 1, CETR_MAX_ITERATIONS)
        self.tol = check_range("tol", tol, 0.0, math.inf)
        self.skip_hidden = skip_hidden
        self.combine = check_combine(combine)

    def __call__(self, doc: Document) -> bool:
        stats = self.stats(doc)
        if stats is None:
            return False
        chars, tags, piece_run, piece_line, piece_chars = cetr_lines(stats, self.max_line_tags)
        on_content = np.zeros(stats.run_len.size)
        if chars.size:
            points = cetr_features(chars / np.maximum(tags, 1.0), self.sigma, self.alpha)
            content_line = kmeans_pinned(points, self.clusters, self.max_iter, self.tol) != 0
            on_content = np.bincount(
                piece_run,
                weights=np.where(content_line[piece_line], piece_chars, 0.0),
                minlength=stats.run_len.size,
            )
        # a run is content when most of its characters lie on content lines
        selected = (stats.run_len > 0) & (on_content * 2 >= stats.run_len)
        return label_runs(doc, stats, selected, self.combine)
