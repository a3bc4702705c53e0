"""Extraction in worker processes, for a crawl (the Scrapy layer's runner) and for
archives (``scrapy-boilerplate extract --workers N``).

* ``process_pool``: worker processes driven by an asyncio event loop;
* ``worker``: what a worker runs (extract one page, return plain data).

Imports no Scrapy: worker processes load only the engine, and start quickly.
"""
