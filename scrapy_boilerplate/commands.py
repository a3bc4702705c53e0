"""``scrapy boilerplate URL_OR_FILE...``: print the main text of pages.

Files (``.html``, ``.html.gz``, directories of them, ``-`` for standard input) are read
locally; URLs are fetched through Scrapy, with the project's settings when run inside a
project (middlewares, robots.txt, user agent, ``BOILERPLATE_*`` including per-domain
extractors), and extracted by the downloader middleware.

Registered as a Scrapy command through the ``scrapy.commands`` entry point::

    scrapy boilerplate https://example.com/article.html
    scrapy boilerplate --extractor default --format json page.html other.html.gz
    scrapy boilerplate --format annotated https://example.com/article.html > page.html
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import scrapy
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.utils.datatypes import SequenceExclude
from w3lib.url import is_url

from ._scrapy.compat import setdefault_in_component_priority_dict
from ._scrapy.results import error_result, is_skipped
from .middlewares import DOWNLOADER_MIDDLEWARE_ORDER, BoilerplateDownloaderMiddleware
from .parallel.worker import extract_to_dict
from .settings import META_KEY, RESULT_KEY, BoilerplateSettingError, load_config

if TYPE_CHECKING:
    import argparse

__all__ = ["BoilerplateCommand"]


class BoilerplateCommand(ScrapyCommand):
    requires_project = False
    default_settings = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options] <url|file> ..."

    def short_desc(self) -> str:
        return "Print the main content of pages (boilerplate removed)"

    def long_desc(self) -> str:
        # no colons: Scrapy's help formatter takes a line that ends in one for a heading
        return (
            "Print the main text of web pages. URLs are fetched through Scrapy (with the "
            "project's settings, if any); files (.html, .html.gz, directories, - for "
            "stdin) are read locally. With --format json, one JSON object per input and "
            "line (text, title, extractor, reason, timings). With --format annotated, the "
            "whole page as an HTML document, each block marked content or boilerplate "
            "with the filter that decided it (the extractor the project's settings give "
            "its domain)."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--extractor",
            "-e",
            dest="extractor",
            default=None,
            help="an extractor name, or a chain spec as a JSON list, for instance default "
            """or '["article", "myproject.filters.DropBylines"]' (by default """
            "BOILERPLATE_EXTRACTOR, else article)",
        )
        parser.add_argument(
            "--format",
            dest="format",
            choices=("text", "json", "annotated"),
            default="text",
            help="text (the default), json (one object per input and line) or annotated "
            "(the page as HTML, each block marked)",
        )

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)
        assert self.settings is not None
        self.settings.set("BOILERPLATE_ENABLED", True, priority="cmdline")
        if opts.extractor:
            self.settings.set("BOILERPLATE_EXTRACTOR", opts.extractor, priority="cmdline")
        setdefault_in_component_priority_dict(
            self.settings,
            "DOWNLOADER_MIDDLEWARES",
            BoilerplateDownloaderMiddleware,
            DOWNLOADER_MIDDLEWARE_ORDER,
        )

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("name at least one URL or file")
        assert self.settings is not None
        try:
            config = load_config(self.settings)
        except BoilerplateSettingError as exc:
            print(f"scrapy boilerplate: {exc}", file=sys.stderr)
            self.exitcode = 2
            return
        # per argument, the (name, result) of each page it stands for: one for a URL or a
        # file, one per HTML file for a directory
        results: dict[int, list[tuple[str, dict[str, Any]]]] = {}
        urls: dict[int, str] = {}
        for index, arg in enumerate(args):
            if is_url(arg):
                urls[index] = arg
                continue
            results[index] = self._extract_files(arg, config, opts.format == "annotated")
        if urls:
            self._fetch(urls, results, annotated=opts.format == "annotated")
        pages = [page for index in sorted(results) for page in results[index]]
        for name, result in pages:
            if result["reason"] == "error" or is_skipped(result):
                self.exitcode = 1
            self._print(name, result, opts.format, many=len(pages) > 1)

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def _extract_files(
        path: str, config: Any, annotated: bool = False
    ) -> list[tuple[str, dict[str, Any]]]:
        from .cli import iter_inputs

        try:
            inputs = list(iter_inputs([path]))
        except OSError as exc:
            return [(path, error_result(exc, None, None))]
        if not inputs:
            return [
                (path, error_result(FileNotFoundError(f"no HTML files under {path}"), None, None))
            ]
        pages = []
        for name, data in inputs:
            try:
                if annotated:  # one extraction gives the result and the view
                    extraction = config.extractor.extract(data, trace=True)
                    result = {**extraction.to_dict(), "annotated": extraction.annotated()}
                else:
                    result = extract_to_dict(config.extractor, data, None)
            except Exception as exc:
                result = error_result(exc, None, config.extractor.name)
            pages.append((name, result))
        return pages

    def _fetch(
        self,
        urls: dict[int, str],
        results: dict[int, list[tuple[str, dict[str, Any]]]],
        annotated: bool = False,
    ) -> None:
        assert self.crawler_process is not None
        sink: dict[int, dict[str, Any]] = {}
        self.crawler_process.crawl(_FetchSpider, urls=urls, sink=sink, annotated=annotated)
        self.crawler_process.start()
        for index, url in urls.items():
            result = sink.get(index)
            if result is None:
                result = error_result(RuntimeError("not fetched (see the log)"), url, None)
            results[index] = [(url, result)]

    @staticmethod
    def _print(name: str, result: dict[str, Any], fmt: str, many: bool) -> None:
        if fmt == "json":
            sys.stdout.write(json.dumps({"source": name, **result}, ensure_ascii=False) + "\n")
            return
        if many:
            sys.stdout.write(f"==> {name} <==\n")
        if result["reason"] == "error":
            print(f"scrapy boilerplate: {name}: {result['error']}", file=sys.stderr)
            if fmt == "annotated":
                return
        elif is_skipped(result):
            why = result["reason"]
            if why == "status" and result.get("status"):
                why = f"status {result['status']}"
            print(f"scrapy boilerplate: {name}: not extracted ({why})", file=sys.stderr)
        elif not result["text"]:
            print(f"scrapy boilerplate: {name}: no main text ({result['reason']})", file=sys.stderr)
        if fmt == "annotated":
            sys.stdout.write(result.get("annotated", ""))
        else:
            sys.stdout.write(result["text"] + "\n")
        if many:
            sys.stdout.write("\n")
        sys.stdout.flush()


class _FetchSpider(scrapy.Spider):
    """Fetches the command's URLs; the downloader middleware extracts them."""

    name = "boilerplate_command"

    def __init__(
        self,
        urls: dict[int, str],
        sink: dict[int, dict[str, Any]],
        annotated: bool = False,
        **kwargs: Any,
    ):
        super().__init__(**kwargs)
        self.urls = urls
        self.sink = sink
        # --format annotated: the middleware makes the view with the text, in one
        # extraction by the extractor the settings give the URL's domain
        self.overrides = {META_KEY: {"annotated": True}} if annotated else {}

    async def start(self) -> Any:
        for request in self._requests():
            yield request

    def start_requests(self) -> Any:  # Scrapy < 2.13
        yield from self._requests()

    def _requests(self) -> Any:
        for index, url in self.urls.items():
            yield scrapy.Request(
                url,
                callback=self.parse,
                errback=self.failed,
                dont_filter=True,
                cb_kwargs={"index": index},
                # every status reaches the callback, except redirects (followed)
                meta={
                    "handle_httpstatus_list": SequenceExclude(range(300, 400)),
                    **self.overrides,
                },
            )

    def parse(self, response: Any, index: int) -> None:
        result = response.meta.get(RESULT_KEY)
        if not isinstance(result, dict):
            result = error_result(RuntimeError("the page was not extracted"), response.url, None)
        elif result["reason"] == "status":  # the command says which
            result = {**result, "status": response.status}
        self.sink[index] = result

    def failed(self, failure: Any) -> None:
        request = failure.request
        index = request.cb_kwargs["index"]
        self.sink[index] = error_result(failure.value, request.url, None)
