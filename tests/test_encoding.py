"""Bytes to text: declared encodings first, and only codecs that decode documents."""

import pytest

from scrapy_boilerplate.encoding import decode_html, is_document_encoding


@pytest.mark.parametrize("name", ["utf-8", "UTF8", "latin-1", "cp1251", "gbk", "shift_jis"])
def test_text_encodings_decode_documents(name):
    assert is_document_encoding(name)


@pytest.mark.parametrize(
    "name", ["rot13", "base64", "hex", "zlib", "uu", "bz2", "quopri", "idna", "punycode", "nope"]
)
def test_other_codecs_do_not(name):
    assert not is_document_encoding(name)


def test_a_declaration_of_a_codec_that_cannot_decode_counts_as_none():
    body = '<meta charset="base64"><p>caf\u00e9</p>'.encode()
    assert decode_html(body) == (body.decode(), "utf-8")
    latin = '<meta charset="rot13"><p>caf\u00e9</p>'.encode("latin-1")
    assert decode_html(latin) == (latin.decode("cp1252"), "cp1252")


def test_a_byte_order_mark_still_wins_over_a_useless_declaration():
    body = "\ufeff<meta charset=zlib><p>x</p>".encode("utf-16-le")
    text, used = decode_html(body)
    assert text == "<meta charset=zlib><p>x</p>" and used.startswith("utf-16")


def test_a_given_encoding_that_cannot_decode_falls_back_to_the_page():
    body = '<meta charset="utf-8"><p>caf\u00e9</p>'.encode()
    assert decode_html(body, encoding="hex") == (body.decode(), "utf-8")
