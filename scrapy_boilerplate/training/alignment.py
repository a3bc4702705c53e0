"""Automatic block labelling: align a page with its clean reference text (algorithms.md 2.6).

The aligned string has the source's length: every source character the clean text
matched is kept, every other one is replaced by :data:`GAP` (``□``). The steps:

1. **Anchors** (k = 10): a 10-character window of the clean text is an anchor if it occurs
   exactly once in the source, and its whitespace-stripped form exactly once in the
   whitespace-stripped source. An anchor is extended to the right, then to the left (never
   past the previous match), while the characters are equal ignoring case or both
   whitespace. One greedy left-to-right pass: an anchor found at or before the previous
   match's start drops that match; one that overlaps it is skipped.
2. **Dynamic programming** on each gap between anchors: match (+3 identical letter or
   digit, +1 other case-insensitive equal, 0 two different whitespace characters), skip a
   clean character (-6, 0 for whitespace), skip source characters (-2 to open a run, 0 to
   extend it). Skipping source wins ties against skipping clean text; a match must be
   strictly better than both.
3. **The 2/3 rule**: a block is content iff more than 2/3 of its characters are kept.

Our blocks carry no offsets into the HTML source, so the *source* aligned here is the
page's block texts joined by newlines (see :func:`label_blocks`): that is the masked
source of the reference code (tags, scripts, styles and comments removed) with entities
already decoded. :func:`mask_html` implements the reference's masking of raw HTML for
callers that align against the HTML itself.

Pure Python and numpy (the DP is vectorised per clean character).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "GAP",
    "Alignment",
    "align",
    "mask_html",
    "label_blocks",
    "label_blocks_from_snippets",
    "block_source",
]

GAP = "\u25a1"  # □
ANCHOR_K = 10  # algorithms.md 2.6: 10-character anchors
SCORE_IDENTICAL = 3  # identical letter or digit
SCORE_EQUAL = 1  # other case-insensitive equal (punctuation, same whitespace, case)
SCORE_WHITESPACE = 0  # two different whitespace characters
SKIP_CLEAN = -6  # skipping a clean character (0 for whitespace)
SKIP_SOURCE_OPEN = -2  # opening a run of skipped source characters (code: -2, comment: -1)
#: Our deviation: inside a DP gap, runs of fewer kept non-space characters than this are
#: dropped. With the scores above an isolated match nets +1 (+3, -2 for the gap around it)
#: while skipping a clean character costs -6, so reference text that is not on the page
#: gets smeared over unrelated source characters one letter at a time (and can make a
#: navigation block pass the 2/3 rule). Real matches come in runs.
MIN_MATCH_RUN = 4
_ISOLATED_RE = re.compile(f"[^{GAP}]+")
#: DP cells above which a gap is left unaligned (memory bound: ~3 bytes per cell)
MAX_DP_CELLS = 30_000_000

_NEG = -(10**9)


@dataclass
class Alignment:
    """The aligned string and how much of the clean text it used."""

    aligned: str
    #: clean non-whitespace characters matched to a source character
    matched_clean: int
    #: clean non-whitespace characters in all
    total_clean: int
    #: gaps too large for the DP (left unaligned)
    skipped_gaps: int = 0

    @property
    def recovered(self) -> float:
        return self.matched_clean / self.total_clean if self.total_clean else 1.0


_MASK_RE = re.compile(
    r"<head\b.*?</head\s*>|<script\b.*?</script\s*>|<style\b.*?</style\s*>|<!--.*?-->"
    r"|&[a-z]+;|<[^>]*>",
    re.IGNORECASE | re.DOTALL,
)


def mask_html(source: str) -> str:
    """Replace head, script, style, comments, named entities and tags by □ runs of the
    same length (algorithms.md 2.6 step 1)."""
    return _MASK_RE.sub(lambda m: GAP * (m.end() - m.start()), source)


def _strip(text: str) -> tuple[str, list[int]]:
    """``text`` without whitespace and □, and for each kept character its position."""
    keep = [i for i, ch in enumerate(text) if not (ch.isspace() or ch == GAP)]
    return "".join(text[i] for i in keep), keep


def _eq(a: str, b: str) -> bool:
    return a == b or a.lower() == b.lower() or (a.isspace() and b.isspace())


def _anchors(source: str, clean: str) -> list[tuple[int, int, int, int]]:
    """The greedy pass: matches (clean_start, clean_end, src_start, src_end), in order."""
    k = ANCHOR_K
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for i in range(len(source) - k + 1):
        s = source[i : i + k]
        if GAP in s:
            continue
        c = counts.get(s, 0)
        counts[s] = c + 1
        if not c:
            first[s] = i
    stripped_source, _ = _strip(source)
    stripped_counts: dict[str, int] = {}
    matches: list[tuple[int, int, int, int]] = []
    i = 0
    n = len(clean)
    while i + k <= n:
        s = clean[i : i + k]
        if counts.get(s) != 1:
            i += 1
            continue
        st = "".join(ch for ch in s if not ch.isspace())
        if not st:
            i += 1
            continue
        sc = stripped_counts.get(st)
        if sc is None:
            sc = stripped_source.count(st) if len(st) > 1 else 2
            stripped_counts[st] = sc
        if sc != 1:
            i += 1
            continue
        p = first[s]
        ce, pe = i + k, p + k
        while ce < n and pe < len(source) and _eq(clean[ce], source[pe]):
            ce += 1
            pe += 1
        cs, ps = i, p
        prev_ce = matches[-1][1] if matches else 0
        prev_pe = matches[-1][3] if matches else 0
        while cs > prev_ce and ps > prev_pe and _eq(clean[cs - 1], source[ps - 1]):
            cs -= 1
            ps -= 1
        if matches and ps <= matches[-1][2]:
            matches.pop()  # out of order: drop the previous match (its gap merges)
            i += 1
            continue
        if matches and ps < matches[-1][3]:
            i += 1  # overlaps the previous match
            continue
        matches.append((cs, ce, ps, pe))
        i = ce
    return matches


def _codes(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(
        np.int64
    )


def _lower_codes(text: str) -> np.ndarray:
    return np.array([ord(ch.lower()[0]) for ch in text], dtype=np.int64)


def _dp(clean: str, source: str) -> tuple[str, int]:
    """Align a gap; return the aligned source part and the matched clean non-space chars."""
    n, m = len(clean), len(source)
    if m == 0:
        return "", 0
    if n == 0 or not clean.strip():
        return GAP * m, 0
    src = _codes(source)
    src_low = _lower_codes(source)
    src_space = np.array([ch.isspace() for ch in source], dtype=bool)
    src_alnum = np.array([ch.isalnum() for ch in source], dtype=bool)
    # rows: clean characters consumed; columns: source characters consumed
    choice = np.zeros((n + 1, m + 1), dtype=np.int8)  # 0 match, 1 skip clean, 2 skip source
    ngchoice = np.zeros((n + 1, m + 1), dtype=bool)  # in the non-gap state: True = match
    extend = np.zeros((n + 1, m + 1), dtype=bool)  # skip-source run extended (vs opened)
    best = np.full(m + 1, _NEG, dtype=np.int64)
    ng = np.full(m + 1, _NEG, dtype=np.int64)
    ng[0] = 0
    # row 0: only source skips
    gap = np.full(m + 1, _NEG, dtype=np.int64)
    gap[1:] = SKIP_SOURCE_OPEN
    extend[0, 2:] = True
    best = np.maximum(ng, gap)
    choice[0, 1:] = 2
    for i in range(1, n + 1):
        c = clean[i - 1]
        cc = ord(c)
        cl = ord(c.lower()[0])
        c_space = c.isspace()
        # match scores against every source character
        score = np.full(m, _NEG, dtype=np.int64)
        eq = src_low == cl
        if c_space:
            score[src_space] = SCORE_WHITESPACE
        score[eq] = SCORE_EQUAL
        if c.isalnum():
            score[(src == cc) & src_alnum] = SCORE_IDENTICAL
        match = np.full(m + 1, _NEG, dtype=np.int64)
        match[1:] = np.where(score > _NEG, best[:-1] + score, _NEG)
        skipc = best + (0 if c_space else SKIP_CLEAN)
        skipc = np.maximum(skipc, _NEG)
        ng = np.maximum(match, skipc)
        ngchoice[i] = match > skipc
        # gap[j] = max(gap[j-1], ng[j-1] + open): a running maximum
        opened = np.full(m + 1, _NEG, dtype=np.int64)
        opened[1:] = ng[:-1] + SKIP_SOURCE_OPEN
        gap = np.maximum.accumulate(opened)
        # extended at j when the run through j-1 was at least as good as opening at j
        extend[i, 2:] = gap[1:-1] >= opened[2:]
        # the cell's decision: match must beat both; skip-source wins ties with skip-clean
        ch = np.where(gap >= skipc, 2, 1).astype(np.int8)
        ch[(match > gap) & (match > skipc)] = 0
        choice[i] = ch
        best = np.maximum(ng, gap)
    # traceback
    out: list[str] = []
    matched = 0
    i, j = n, m
    state = int(choice[i, j])
    while i > 0 or j > 0:
        if j == 0:
            i -= 1
            state = int(choice[i, j]) if i > 0 else 1
            continue
        if i == 0:
            out.append(GAP)
            j -= 1
            continue
        if state == 2:
            out.append(GAP)
            ext = extend[i, j]
            j -= 1
            if ext and j > 0:
                state = 2
            else:
                state = 0 if ngchoice[i, j] else 1
        elif state == 0:
            out.append(source[j - 1])
            if not clean[i - 1].isspace():
                matched += 1
            i -= 1
            j -= 1
            state = int(choice[i, j])
        else:
            i -= 1
            state = int(choice[i, j])
    aligned = "".join(reversed(out))
    if MIN_MATCH_RUN > 1:
        aligned = _ISOLATED_RE.sub(_drop_short_run, aligned)
        matched = sum(1 for ch in aligned if ch != GAP and not ch.isspace())
    return aligned, matched


def _drop_short_run(m: re.Match[str]) -> str:
    run = m.group(0)
    if sum(1 for ch in run if not ch.isspace()) >= MIN_MATCH_RUN:
        return run
    return GAP * len(run)


def align(source: str, clean: str) -> Alignment:
    """Align ``source`` (text or masked HTML) with the clean reference ``clean``."""
    total = sum(1 for ch in clean if not ch.isspace())
    if not source:
        return Alignment("", 0, total)
    matches = _anchors(source, clean)
    parts: list[str] = []
    matched = 0
    skipped = 0
    prev_c = prev_s = 0
    for cs, ce, ps, pe in matches + [(len(clean), len(clean), len(source), len(source))]:
        gap_c, gap_s = clean[prev_c:cs], source[prev_s:ps]
        if gap_s:
            if len(gap_c) * len(gap_s) > MAX_DP_CELLS:
                parts.append(GAP * len(gap_s))
                skipped += 1
            else:
                part, got = _dp(gap_c, gap_s)
                parts.append(part)
                matched += got
        if pe > ps:
            parts.append(source[ps:pe])
            matched += sum(1 for ch in clean[cs:ce] if not ch.isspace())
        prev_c, prev_s = ce, pe
    aligned = "".join(parts)
    if GAP in source:  # masked characters are never kept
        aligned = "".join(GAP if s == GAP else a for a, s in zip(aligned, source, strict=False))
    return Alignment(aligned, matched, total, skipped)


def block_source(texts: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """The block texts joined by newlines, and each block's [start, end) in it."""
    spans: list[tuple[int, int]] = []
    pos = 0
    for t in texts:
        spans.append((pos, pos + len(t)))
        pos += len(t) + 1
    return "\n".join(texts), spans


def _two_thirds(
    aligned: str, spans: Sequence[tuple[int, int]], source: str | None = None
) -> list[int]:
    """1 for each block more than 2/3 of whose characters the alignment kept, else 0.

    With ``source`` (the aligned text), whitespace counts on neither side: a block whose
    markup leaves long runs of spaces in its text (hundreds per paragraph on some pages)
    is judged by its words, not failed by spaces no reference keeps."""
    length = max((end for _, end in spans), default=0)
    # past the end of the alignment nothing is kept
    marks = np.array(list(aligned[:length].ljust(length, GAP)), dtype="U1")
    counted = np.ones(length, dtype=bool)
    if source is not None and length:
        counted = ~np.char.isspace(np.array(list(source[:length]), dtype="U1"))
    counted_before = np.concatenate(([0], np.cumsum(counted)))
    kept_before = np.concatenate(([0], np.cumsum(counted & (marks != GAP))))
    labels = []
    for start, end in spans:
        n_chars = max(int(counted_before[end] - counted_before[start]), 1)
        n_kept = int(kept_before[end] - kept_before[start])
        # the 2/3 rule, exact (the reference's 2*n/3 is an integer division)
        labels.append(1 if 3 * n_kept > 2 * n_chars else 0)
    return labels


def label_blocks(
    blocks: Sequence[Any], clean: str, count_whitespace: bool = True
) -> tuple[list[int], Alignment]:
    """Label each block 1 (content) or 0 by aligning the blocks' texts with ``clean``.

    ``count_whitespace=False``: the 2/3 rule counts the characters that are not
    whitespace (the reference's rule counts every character; ``boosted`` trains on the
    other, docs/neural.md)."""
    texts = [b.text if hasattr(b, "text") else str(b) for b in blocks]
    source, spans = block_source(texts)
    result = align(source, clean or "")
    return _two_thirds(result.aligned, spans, None if count_whitespace else source), result


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def label_blocks_from_snippets(
    blocks: Sequence[Any],
    with_snippets: Sequence[str] | None,
    without_snippets: Sequence[str] | None,
) -> list[int]:
    """Labels from must / must-not snippets: 1 for a block holding a ``with`` snippet, 0 for
    one holding a ``without`` snippet, -1 (unknown) for the rest."""
    texts = [_norm(b.text if hasattr(b, "text") else str(b)) for b in blocks]
    labels = [-1] * len(texts)
    for snippets, value in ((without_snippets, 0), (with_snippets, 1)):
        for snippet in snippets or ():
            s = _norm(snippet)
            if len(s) < 8:
                continue
            hits = [i for i, t in enumerate(texts) if s in t]
            if len(hits) == 1:  # ambiguous snippets label nothing
                labels[hits[0]] = value
    return labels
