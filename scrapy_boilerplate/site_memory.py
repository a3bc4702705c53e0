"""What a crawl has learnt of each site's template: blocks that earlier pages of the same
site left out are left out again.

A crawler reads many pages of a site, and the site's template (a sidebar's "About me", a
sponsor's box, the newsletter pitch under every story) repeats on each of them while a
story does not. The labeler decides every page alone, and on some pages keeps such a
block: where it reads like text, beside a short story. :class:`SiteMemory` remembers,
per site, which block texts the extractor kept and which it left out; a content block
of a later page whose text the site's earlier pages left out at least as often as they
kept it, at the same depth in the tree, is boilerplate there too. Keyed by the depth as
well as the text, so the lead of a story is not taken for the teaser that repeats it in
a section page's list, which sits elsewhere in its tree. Nothing is left out of a page
if that would leave it no content.

Bounded: at most ``max_sites`` sites (the least recently seen one forgotten first) and
``max_blocks`` block texts per site (the ones seen on one page only forgotten first: a
template's blocks recur, a story's paragraphs do not). Safe to share between threads.
Each pass over a page is linear in its blocks' text. The same pages in the same order
leave the same memory in every process (what is forgotten first follows the pages'
order, not the hashes of their texts).

Measured 2026-12-02 (``python -m benchmarks.site_repeats --unseen``, the pages of each
set read in its order, as a crawl would): docs/neural.md, "A crawl's memory of each
site".
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import islice
from typing import Any
from urllib.parse import urlsplit

from .document import Document, TextBlock

__all__ = ["MAX_BLOCKS", "MAX_SITES", "SiteMemory", "site_of_url"]

#: sites remembered at once by default
MAX_SITES = 256
#: block texts remembered per site by default
MAX_BLOCKS = 2048
#: spreads a depth over the bits of a text's hash (no tuple per block to allocate)
_DEPTH_MIX = 0x9E3779B97F4A7C15
#: the name a block decided by the memory records in ``decided_by`` (``trace=True``)
DECIDED_BY = "site_memory"


def site_of_url(url: str | None) -> str | None:
    """A page's site: the host of its URL without ``www.`` (of the archived page's own
    address for a web.archive.org copy); None without a host."""
    if not url:
        return None
    if "web.archive.org/web/" in url and url.count("/") >= 5:
        url = url.split("/", 5)[-1]
    try:
        host = urlsplit(url).hostname
    except ValueError:  # a malformed address (an unclosed IPv6 bracket)
        return None
    return host.removeprefix("www.") if host else None


def block_key(block: TextBlock) -> int:
    """A block's text with its depth in the tree (``tag_level``), as one hash: the same
    text at another depth (a story's lead repeated as a teaser in a section page's list)
    is another block. (The block's text is whitespace-normalised already; the tags of
    its ancestors, tried as the key, gave the same figures for three times the time.)"""
    return hash(block.text) ^ (block.tag_level * _DEPTH_MIX)


class _Site:
    """One site's counts: per block key, the pages that kept it and that left it out."""

    __slots__ = ("kept", "dropped")

    def __init__(self) -> None:
        self.kept: dict[int, int] = {}
        self.dropped: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.kept) + len(self.dropped)

    def forget_rare(self, max_blocks: int) -> None:
        """Down to half of ``max_blocks``: the keys seen on one page first, oldest first,
        then the oldest of the rest."""
        excess = len(self) - max_blocks // 2
        for counts in (self.kept, self.dropped):
            if excess <= 0:
                return
            rare = list(islice((k for k, n in counts.items() if n == 1), excess))
            for k in rare:
                del counts[k]
            excess -= len(rare)
        for counts in (self.kept, self.dropped):
            if excess <= 0:
                return
            oldest = list(islice(counts, excess))
            for k in oldest:
                del counts[k]
            excess -= len(oldest)


class SiteMemory:
    """The block texts the extractor kept and left out on the pages of each site so far,
    and the rule that leaves out of a page the content blocks its site's template holds
    (see the module's docstring). Give one to ``Extractor.extract(site_memory=...)`` for
    every page of a crawl; the Scrapy layer does (``BOILERPLATE_SITE_MEMORY``)."""

    def __init__(self, max_sites: int = MAX_SITES, max_blocks: int = MAX_BLOCKS) -> None:
        if max_sites < 1 or max_blocks < 2:
            raise ValueError("SiteMemory needs max_sites >= 1 and max_blocks >= 2")
        self.max_sites = max_sites
        self.max_blocks = max_blocks
        self._sites: OrderedDict[tuple[str, str], _Site] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sites)

    def clear(self) -> None:
        """Forget every site (a new crawl)."""
        with self._lock:
            self._sites.clear()

    def __getstate__(self) -> dict[str, Any]:  # what it has learnt stays in its process
        return {"max_sites": self.max_sites, "max_blocks": self.max_blocks}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["max_sites"], state["max_blocks"])  # type: ignore[misc]

    def apply(self, doc: Document, extractor: str = "") -> bool:
        """Record the page's decisions under its site (``doc.url``'s; ``extractor`` names
        the extractor, whose decisions are kept apart from another's:
        ``Extractor.memory_key``), then leave out the
        content blocks the site's earlier pages left out at least as often as they kept
        them. True if a block changed. A page without a site is left alone."""
        site = site_of_url(doc.url)
        if site is None or not doc.blocks:
            return False
        worded = [b for b in doc.blocks if b.num_words]
        keys = [block_key(b) for b in worded]
        template: list[TextBlock] = []
        # in the page's order, not a set's (whose order follows the hashes, random in each
        # process): what is forgotten first, and so the crawl's items, are then the same
        # in every run
        page_kept: dict[int, None] = {}
        page_dropped: dict[int, None] = {}
        with self._lock:
            memory = self._site((extractor, site))
            kept, dropped = memory.kept, memory.dropped
            # what the site's earlier pages did, not this page: a text twice on a page,
            # once left out and once kept, is the page's own business
            for block, key in zip(worded, keys, strict=True):
                if block.is_content:
                    page_kept[key] = None
                    times_dropped = dropped.get(key, 0)
                    if times_dropped and times_dropped >= kept.get(key, 0):
                        template.append(block)
                else:
                    page_dropped[key] = None
            # counted once a page: how many pages kept it, how many left it out
            for key in page_kept:
                kept[key] = kept.get(key, 0) + 1
            for key in page_dropped:
                if key not in page_kept:
                    dropped[key] = dropped.get(key, 0) + 1
            if len(memory) > self.max_blocks:
                memory.forget_rare(self.max_blocks)
        content_blocks = sum(1 for b in worded if b.is_content)
        if not template or len(template) == content_blocks:
            return False  # (nothing to leave out, or it would leave the page no content)
        for block in template:
            block.is_content = False
            if doc.trace:
                block.decided_by = DECIDED_BY
        return True

    def _site(self, name: tuple[str, str]) -> _Site:
        memory = self._sites.get(name)
        if memory is None:
            memory = self._sites[name] = _Site()
            if len(self._sites) > self.max_sites:
                self._sites.popitem(last=False)
        else:
            self._sites.move_to_end(name)
        return memory
