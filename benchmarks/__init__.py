"""Benchmarks and the experiments behind the docs' figures (``python -m benchmarks.<name>``)."""

from scrapy_boilerplate.training import dataset as _dataset

# The experiments patch the feature code in memory (columns, copies, stopwords) before a
# corpus is built, and its workers must see the patches: forked, as each experiment is a
# fresh process of its own.
_dataset.CORPUS_START_METHOD = "fork"
