"""The Scrapy layer's private parts, behind the public components users name in their
settings (``addon``, ``middlewares``, ``pipelines``, ``commands``, ``settings``).

* ``runner``: where extractions run (worker threads, or the worker processes of
  ``scrapy_boilerplate.parallel``) and the crawl's one runner;
* ``results``: the result kept in ``meta``, the stats it counts, the item fields it gives;
* ``items``: putting fields on items of any kind; ``log``: once-per-kind logging;
* ``overrides``: what a request's ``meta`` may override, and the extractors built for it;
* ``slots``: a response waiting for its extraction lends its ``CONCURRENT_REQUESTS`` slot;
* ``compat``: what older Scrapy versions lack.

This file imports nothing.
"""
