"""Web2Text's feature columns (``neural/columns.py``): names and binary masks."""

from scrapy_boilerplate.neural.columns import (
    BINARY_BLOCK,
    BINARY_EDGE,
    BLOCK_FEATURES,
    EDGE_FEATURES,
)


def test_names():
    assert len(BLOCK_FEATURES) == 128 and len(set(BLOCK_FEATURES)) == 128
    assert len(EDGE_FEATURES) == 25
    assert BINARY_BLOCK.shape == (128,) and BINARY_EDGE.shape == (25,)
    assert BLOCK_FEATURES.count("p_tag_ul") == 1  # the duplicated ul column is fixed
