"""Static token vectors distilled from the sentence encoder (the ``lm_fast`` labeler's
text vectors), as model2vec does.

Each vocabulary token was encoded once, alone, by the encoder of
:mod:`~scrapy_boilerplate.neural.lm_encoder` (its mean-pooled output for ``[CLS] token
[SEP]``); the vectors were then refined so that the mean over a training text's tokens
comes near the encoder's vector of the whole text (a ridge regression, as model2vec's
tokenlearn); the table was reduced by PCA, each row scaled by a frequency weight (SIF:
``a / (a + p(token))``, p from the training pages' block texts) and stored as int8 with a
scale per row. A text's vector is the mean of its tokens' rows: a table lookup per token
instead of a transformer pass per block. Made by :func:`scrapy_boilerplate.training.lm.
distill_static_table`; the model card says how.

The classifier on top is linear, so what it reads of a text's vector is the mean of its
tokens' scores (each row times the classifier's weights): the shipped model is those
250,002 scores (:data:`SCORES_FILE`, read by :class:`TokenScores`), not the table, which
training makes and uses (:class:`StaticEncoder`) and which the scores are computed from,
exactly. The tokenizer is the encoder's (:mod:`~scrapy_boilerplate.neural.lm_tokenizer`),
built from the weights package's vocabulary.

Needs numpy, ``sentencepiece`` and the weights package (the ``[lm]`` extra).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable
from itertools import chain
from pathlib import Path

import numpy as np

from ..errors import ModelUnavailableError
from .lm_encoder import MAX_TOKENS, encoder_tokenizer
from .lm_tokenizer import SPACE_LIKE, PieceTokenizer, normalise

__all__ = [
    "SCORES_FILE",
    "StaticEncoder",
    "TABLE_FILE",
    "TokenScores",
    "quantise",
    "save_table",
    "token_scores",
]

TABLE_FILE = "lm_fast_table.npz"
SCORES_FILE = "lm_fast_scores.npy"
#: distinct words whose token ids a memo generation keeps (a process keeps two)
MEMO_WORDS = 100_000


def quantise(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A float table as int8 rows and a float32 scale per row (row ~ int8 row * scale)."""
    scale = np.abs(table).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(table / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale.astype(np.float32)


def save_table(path: str | os.PathLike[str], table: np.ndarray) -> None:
    """Store a float table as int8 rows with a float32 scale per row."""
    q, scale = quantise(table)
    np.savez_compressed(path, table=q, scale=scale)


def token_scores(table: np.ndarray, scale: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each token's (quantised) row times ``weights`` (float64, one per token): a linear
    classifier's product with a text's vector is the mean of its tokens' scores."""
    scores = np.zeros(len(table), np.float64)
    for start in range(0, len(table), 4096):  # bounded memory: no float table
        rows = table[start : start + 4096].astype(np.float32)
        scores[start : start + 4096] = (rows @ weights) * scale[start : start + 4096]
    return scores


def _required(*files: Path) -> None:
    for f in files:
        if not f.is_file():
            raise ModelUnavailableError(f"lm_fast model file missing: {f}")


#: what the encoder's normaliser drops or makes a space, and what str.split splits at,
#: beyond the ASCII spaces and NFKC's changes: every C0 and C1 control but those spaces
#: (a superset of the dropped ones; U+0085 is one str.split splits at), and SPACE_LIKE
_NOT_PLAIN = re.compile(f"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f{SPACE_LIKE}]")
_ASCII_SPACES = " \t\n\r\x0c"


class _TokenMeans:
    """A text's token ids (the encoder's tokenizer, word by word, with a memo) and means
    of per-token values over them (``vocab_size`` values, one per token id, read from
    ``source``)."""

    def __init__(self, vocab_size: int, max_tokens: int, source: Path) -> None:
        self.max_tokens = max_tokens
        self.tokenizer: PieceTokenizer = encoder_tokenizer()
        if vocab_size != self.tokenizer.vocab_size:
            raise ModelUnavailableError(
                f"{source}: {vocab_size} token values for the encoder's vocabulary of "
                f"{self.tokenizer.vocab_size} (trained on another encoder?)"
            )
        # token ids packed in the smallest unsigned type that holds the vocabulary
        self.id_dtype = np.dtype(np.uint16 if vocab_size <= 1 << 16 else np.uint32)
        self.word_ids: dict[str, bytes] = {}  # the memo's current generation
        self.previous_word_ids: dict[str, bytes] = {}

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """Each text's token ids without [CLS] and [SEP], at most ``max_tokens - 2``: what
        the tokenizer gives for the whole text (see :meth:`_text_ids`)."""
        return [np.frombuffer(ids, self.id_dtype).tolist() for ids in self._text_ids(texts)]

    def _text_ids(self, texts: list[str]) -> list[bytes]:
        """Each text's token ids as packed unsigned integers (``id_dtype``). No piece of
        the encoder's vocabulary holds a space inside it, so a text's pieces are its
        words' pieces (:meth:`_words`) in a row (in the same order, but where two splits
        of a word score the same), cut at ``max_tokens - 2``; a word is tokenised once
        while it stays in the memo. A word gives at least one token, so a text's words
        past the first ``max_tokens - 2`` are never looked up or tokenised (a block of a
        million words is split into words, and no more)."""
        keep = self.max_tokens - 2
        words = [self._words(t)[:keep] for t in texts]
        ids_of = self._word_memo(words).__getitem__
        cut = keep * self.id_dtype.itemsize
        return [b"".join(map(ids_of, ws))[:cut] for ws in words]

    def _words(self, text: str) -> list[str]:
        """A text's words as the tokenizer splits it: at the spaces of its normalised
        form (control characters gone, zero-width and other space-like characters made
        spaces, NFKC, runs of spaces made one); a space that ends the text is a token of
        its own there, so here a word of its own."""
        if not _NOT_PLAIN.search(text) and unicodedata.is_normalized("NFKC", text):
            # most texts: NFKC leaves them as they are and their only space-like
            # characters are what str.split splits at, so the normaliser would only
            # make those spaces (half the normaliser's time on a sentence)
            words = text.split()
            if text and text[-1] in _ASCII_SPACES:
                words.append(" ")
            return words
        normal = normalise(text)
        words = [w for w in normal.split(" ") if w]
        if normal.endswith(" "):
            words.append(" ")
        return words

    def _word_memo(self, words: list[list[str]]) -> dict[str, bytes]:
        """A memo generation that holds the token ids of every given word.

        Two generations of at most ``MEMO_WORDS`` words: when the current one is full, it
        becomes the previous one and a new one starts; words met again move over from
        the previous generation, so the words a crawl keeps meeting (its language's
        common words, a site's menus) stay, and the memory stays bounded."""
        current = self.word_ids
        distinct = set(chain.from_iterable(words))
        missing = distinct.difference(current)
        if not missing:
            return current
        if len(current) + len(missing) > MEMO_WORDS:
            # new dicts, never cleared: another thread may be reading the old ones
            self.previous_word_ids, current = current, {}
            self.word_ids = current
            missing = distinct
        previous = self.previous_word_ids
        found = {w: previous[w] for w in missing if w in previous}
        unseen = [w for w in missing if w not in found]
        if unseen:
            encoded = self.tokenizer.normalised_ids(unseen)
            packed = (np.array(ids, self.id_dtype).tobytes() for ids in encoded)
            found.update(zip(unseen, packed, strict=True))
        current.update(found)
        return current

    def _token_means(
        self, texts: list[str], lookup: Callable[[np.ndarray], np.ndarray]
    ) -> np.ndarray:
        """Per text, the mean over its tokens of ``lookup(token ids)``'s rows (zeros for
        a text without tokens)."""
        ids = self._text_ids(texts)
        lengths = np.fromiter(map(len, ids), np.int64, len(ids)) // self.id_dtype.itemsize
        flat = np.frombuffer(b"".join(ids), self.id_dtype).astype(np.intp)
        values = lookup(flat)
        out = np.zeros((len(texts), *values.shape[1:]), values.dtype)
        nonzero = lengths > 0
        if len(flat):
            starts = (np.cumsum(lengths) - lengths)[nonzero]
            counts = lengths[nonzero].reshape(-1, *[1] * (values.ndim - 1))
            out[nonzero] = np.add.reduceat(values, starts, axis=0) / counts
        return out


class StaticEncoder(_TokenMeans):
    """Texts to vectors by a mean of quantised token rows (a model directory with
    :data:`TABLE_FILE`: what training makes; the shipped model keeps only the scores)."""

    def __init__(self, model_dir: str | os.PathLike[str], max_tokens: int = MAX_TOKENS) -> None:
        model_dir = Path(model_dir)
        table_path = model_dir / TABLE_FILE
        _required(table_path)
        try:
            with np.load(table_path) as data:
                # kept int8 (a quarter of the memory); rows are scaled when looked up
                self.table = np.ascontiguousarray(data["table"], dtype=np.int8)
                self.scale = np.asarray(data["scale"], dtype=np.float32)
        except (OSError, ValueError, KeyError) as exc:
            raise ModelUnavailableError(f"cannot read {table_path}: {exc}") from exc
        self.width = self.table.shape[1]
        super().__init__(len(self.table), max_tokens, table_path)

    def encode(self, texts: list[str]) -> np.ndarray:
        """Each text's vector (len(texts) x width, float32): the mean of its tokens' rows,
        [CLS] and [SEP] left out; a text without tokens gets zeros."""
        return self._token_means(
            texts, lambda flat: self.table[flat].astype(np.float32) * self.scale[flat, None]
        )


class TokenScores(_TokenMeans):
    """Texts to their mean token score under a linear classifier (a model directory with
    :data:`SCORES_FILE`, one float64 per vocabulary token: :func:`token_scores` of the
    table and the classifier's text weights)."""

    def __init__(self, model_dir: str | os.PathLike[str], max_tokens: int = MAX_TOKENS) -> None:
        model_dir = Path(model_dir)
        scores_path = model_dir / SCORES_FILE
        _required(scores_path)
        try:
            self.scores = np.load(scores_path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ModelUnavailableError(f"cannot read {scores_path}: {exc}") from exc
        if self.scores.ndim != 1 or self.scores.dtype != np.float64:
            raise ModelUnavailableError(
                f"{scores_path}: not one float64 score per token ({self.scores.dtype}, "
                f"shape {self.scores.shape})"
            )
        super().__init__(len(self.scores), max_tokens, scores_path)

    def mean_scores(self, texts: list[str]) -> np.ndarray:
        """Each text's mean token score (0 for a text without tokens): what the table's
        ``encode(texts) @ weights`` gives, without a table."""
        return self._token_means(texts, self.scores.__getitem__)
