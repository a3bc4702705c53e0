"""Web2Text (Vogels, Ganea & Eickhoff, ECIR 2018): block and edge features, ONNX
inference and Viterbi decoding.

Importing this package is cheap: numpy only. onnxruntime is imported when a
:class:`~scrapy_boilerplate.neural.filter.Web2TextLabeler` first labels a page.
"""

from __future__ import annotations

from .columns import BLOCK_FEATURES, EDGE_FEATURES
from .features import page_features
from .viterbi import viterbi

__all__ = ["BLOCK_FEATURES", "EDGE_FEATURES", "page_features", "viterbi"]
