"""WARC bytes for the archive tests, built from a few small news pages."""

from __future__ import annotations

import gzip
import os
import time

from scrapy_boilerplate import Filter
from scrapy_boilerplate.archives.writing import StoredResponse, record_bytes
from scrapy_boilerplate.extraction import Extractor
from scrapy_boilerplate.filters.base import Chain
from scrapy_boilerplate.spec import build_chain

from ..scrapy.helpers import article_page

TOPICS = ("the harbour", "the bridge", "the library", "the market", "the tram line")

#: a response that is not HTML
IMAGE = StoredResponse(
    "http://news.example/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(200), "image/png"
)


def news(i: int, **fields) -> StoredResponse:
    """News page number ``i``, at http://news.example/``i``."""
    body = article_page(TOPICS[i % len(TOPICS)]).encode()
    return StoredResponse(f"http://news.example/{i}", fields.pop("body", body), **fields)


def gzip_members(responses: list[StoredResponse]) -> list[bytes]:
    """Each response as one gzip member of a WARC.gz, in order."""
    return [gzip.compress(record_bytes(r)) for r in responses]


def plain_records(responses: list[StoredResponse]) -> list[bytes]:
    """Each response as one uncompressed WARC record, in order."""
    return [record_bytes(r) for r in responses]


class MisbehaveOn(Filter):
    """A filter that misbehaves on pages whose text holds ``word``: it raises, sleeps
    (without looking at the time budget) or ends its process."""

    name = "misbehave_on"

    def __init__(self, word: str, how: str = "raise") -> None:
        self.word = word
        self.how = how

    def __call__(self, doc) -> bool:
        if any(self.word in block.text for block in doc.blocks):
            if self.how == "raise":
                raise ValueError(f"cannot stand {self.word}")
            if self.how == "sleep":
                time.sleep(30)
            if self.how == "exit":
                os._exit(9)
        return False


def misbehaving_extractor(word: str, how: str) -> Extractor:
    """``article`` after a filter that misbehaves on pages mentioning ``word``."""
    return Extractor(Chain([MisbehaveOn(word, how), build_chain("article")]), name="misbehaving")
