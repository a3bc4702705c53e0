#!/usr/bin/env python
"""Crawl speed with scrapy-boilerplate enabled vs the same crawl without it.

    python -m benchmarks.crawl_speed                 # 1,000 pages, 3 rounds, medians
    python -m benchmarks.crawl_speed --pages 200 --repeat 1 --variants without,with,inline

Real pages from the project's datasets (``mozilla-readability`` real pages, then
``wcxb-dev``; see /work/shared/data or ``--data``) are served by a threaded HTTP server in
a separate process on 127.0.0.1 (a free port), gzip-compressed as most sites send them.
Each crawl runs in a fresh process (a Twisted reactor cannot be restarted); the variants
alternate within each round, so that drifts of the machine hit all of them alike.

Variants: ``without`` (the plugin off), ``with`` (add-on, the default extractor or
``--extractor``,
``BOILERPLATE_WORKERS`` threads, default 4), ``inline`` (add-on, ``BOILERPLATE_WORKERS=0``:
extraction on the reactor thread), ``process`` (add-on, ``BOILERPLATE_EXECUTOR="process"``
with ``--workers`` processes, default one per core but one). A variant ending in
``:N`` runs with ``N`` workers whatever ``--workers`` says (``process:2``, ``with:8``:
worker counts compared in one run). A variant ending in
``+hostile`` (``with+hostile``, ``process+hostile``) crawls the same pages but one, in the
middle, replaced by a hostile page: 1 MB of stray ``</p `` without ``>`` (quadratic for
the extraction once: 10 s for 256 KB, with the GIL held); one ending in ``+alone``
(``process+alone``) reads each page alone, without the crawl's memory of each site's
template (``BOILERPLATE_SITE_MEMORY = 0``); one ending in ``+held`` (``process+held``)
keeps each response's ``CONCURRENT_REQUESTS`` slot while it waits for its extraction
(``BOILERPLATE_WAITING_RESPONSES = 0``, as before 2026-12-04). A variant with ``@NAME``
before any suffix (``process@article``, ``with:2@web2text+alone``) extracts with the named extractor
instead of ``--extractor``, and is reported beside the same variant without it, round by
round: the default's crawl against ``article``'s (the default before 0.2) in one run.
A variant starting with ``then/`` (``then/process@article``) runs the same crawl with the
package of another checkout, ``--then DIR`` (a ``git worktree`` of an earlier commit, its
extensions built in place), and is reported beside the variant without ``then/`` and
without its ``@NAME``: today's crawl against the one of an earlier release, in one run.
With ``--real-urls`` each page is crawled under the host of its own URL (its record's
``url``; a page without one gets a host of its own), the page server answering as the
crawl's HTTP proxy: as many sites as the pages come from, for Scrapy's per-domain slots
and the plugin's memory of each site (without it every page is on 127.0.0.1, one site).
``--per-domain N`` holds ``CONCURRENT_REQUESTS_PER_DOMAIN`` at N while ``--concurrency``
raises the global limit (a response waiting in a downloader middleware holds a global
slot but no longer a per-domain one; one waiting for its extraction lends that slot to
the next download, up to ``BOILERPLATE_WAITING_RESPONSES`` of them, unless ``+held``).
pages/s is items / Scrapy's
``elapsed_time_seconds``.
The single-threaded extraction time of the same pages (no Scrapy) is printed too: it bounds
what the crawl with extraction can reach on one core.

Not a test: nothing is asserted. Results go to stdout (and ``--json FILE``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = Path(os.environ.get("BOILERPLATE_DATA", REPO.parent / "shared" / "data"))
SETS = ("mozilla-readability", "wcxb-dev")
THEN = "then/"  # a variant run with the package of the --then checkout


# -- pages and the server ---------------------------------------------------------------------
def page_files(data: Path, count: int, sets: tuple[str, ...] = SETS) -> list[Path]:
    """``count`` real pages from ``sets`` in turn (by default Readability's non-unit-test
    pages, then wcxb-dev), in id order."""
    return [path for path, _ in page_records(data, count, sets)]


def page_records(
    data: Path, count: int, sets: tuple[str, ...] = SETS
) -> list[tuple[Path, str | None]]:
    """The pages of :func:`page_files`, each with the host of the URL its record names
    (None where it names none)."""
    records: list[tuple[Path, str | None]] = []
    for name in sets:
        truth = data / name / "truth.jsonl"
        if not truth.is_file():
            continue
        with truth.open(encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                if row.get("unit_test"):
                    continue
                host = urlsplit(row.get("url") or "").hostname
                records.append((data / name / row["page_file"], host))
                if len(records) == count:
                    return records
    if len(records) < count:
        raise SystemExit(f"only {len(records)} pages found under {data}; need {count}")
    return records


def crawl_urls(base: str, hosts: list[str | None] | None, pages: int) -> list[str]:
    """The URLs of a crawl of ``pages`` pages (and the hostile page after them): on the
    page server itself, or (``hosts``, one per page) each page under the host of its own
    URL, fetched through the page server as an HTTP proxy, so that the crawl sees as
    many sites as the pages come from (Scrapy's per-domain slots, the site memory). A
    page without a URL gets a host of its own."""
    if hosts is None:
        return [f"{base}/p/{i}.html" for i in range(pages + 1)]
    named = [*hosts[:pages], "hostile.test"]
    return [f"http://{host or f'page-{i}.unknown.test'}/p/{i}.html" for i, host in enumerate(named)]


#: the page the "+hostile" variants put among the others (served after the real pages)
HOSTILE_PAGE = ("<html><body><p>x</p>" + "</p " * 262_144).encode()


def _serve(files: list[str], gzip_pages: bool, port_queue: multiprocessing.Queue) -> None:
    bodies: list[bytes] = []
    for name in files:
        raw = Path(name).read_bytes()
        if name.endswith(".gz"):
            raw = gzip.decompress(raw)
        bodies.append(gzip.compress(raw, 6) if gzip_pages else raw)
    bodies.append(gzip.compress(HOSTILE_PAGE, 6) if gzip_pages else HOSTILE_PAGE)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802
            try:  # "/p/3.html", or "http://host/p/3.html" from a crawl using it as a proxy
                body = bodies[int(self.path.strip("/").split(".")[-2].split("/")[-1])]
            except (ValueError, IndexError):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            if gzip_pages:
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.request_queue_size = 128
    port_queue.put(httpd.server_address[1])
    httpd.serve_forever()


# -- one crawl (in its own process) --------------------------------------------------------------
def run_crawl(
    base: str,
    pages: int,
    variant: str,
    workers: int | None,
    extractor: str,
    concurrency: int,
    per_domain: int,
    hosts: list[str | None] | None = None,
) -> dict:
    import scrapy
    from scrapy.crawler import CrawlerProcess

    *urls, hostile_url = crawl_urls(base, hosts, pages)
    if hosts is not None:  # the page server as every http:// URL's proxy (Scrapy's
        os.environ["http_proxy"] = base  # HttpProxyMiddleware reads it at its start)
        os.environ.pop("no_proxy", None)
    variant, workers, extractor, suffix = variant_parts(variant, workers, extractor)
    hostile, alone, held = suffix == "hostile", suffix == "alone", suffix == "held"
    if hostile:  # the page in the middle replaced by the hostile one, served last
        urls[pages // 2] = hostile_url
    extraction_ms: list[float] = []
    marks: list[float] = []  # when each item was scraped

    class BenchSpider(scrapy.Spider):
        name = "bench"
        start_urls = urls

        def parse(self, response):
            marks.append(time.perf_counter())
            result = response.meta.get("boilerplate_result")
            if isinstance(result, dict) and result.get("timings", {}).get("total_ms"):
                extraction_ms.append(result["timings"]["total_ms"])
            yield {
                "url": response.url,
                "chars": len(result["text"]) if isinstance(result, dict) else None,
            }

    settings = {
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "RETRY_ENABLED": False,
        "COOKIES_ENABLED": False,
        "CONCURRENT_REQUESTS": concurrency,
        "CONCURRENT_REQUESTS_PER_DOMAIN": per_domain,
    }
    if variant != "without":
        settings.update(
            {
                "ADDONS": {"scrapy_boilerplate.addon.BoilerplateAddon": 0},
                "BOILERPLATE_EXTRACTOR": extractor,
            }
        )
        if variant == "inline":
            settings["BOILERPLATE_WORKERS"] = 0
        elif workers is not None:
            settings["BOILERPLATE_WORKERS"] = workers
        if variant == "process":
            settings["BOILERPLATE_EXECUTOR"] = "process"
        if alone:  # each page read alone: no memory of the site's template
            settings["BOILERPLATE_SITE_MEMORY"] = 0
        if held:  # a response keeps its CONCURRENT_REQUESTS slot while it is extracted
            settings["BOILERPLATE_WAITING_RESPONSES"] = 0
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(BenchSpider)
    process.crawl(crawler)
    opened_at: list[float] = []

    def spider_opened(spider: scrapy.Spider) -> None:
        opened_at.append(time.perf_counter())

    crawler.signals.connect(spider_opened, signal=scrapy.signals.spider_opened)
    before = resource.getrusage(resource.RUSAGE_SELF)
    machine_before = _machine_cpu_seconds()
    process.start()
    after = resource.getrusage(resource.RUSAGE_SELF)
    machine_after = _machine_cpu_seconds()
    stats = crawler.stats.get_stats()
    items = stats.get("item_scraped_count", 0)
    elapsed = stats["elapsed_time_seconds"]
    return {
        "variant": variant,
        "items": items,
        "seconds": round(elapsed, 3),
        "pages_per_s": round(items / elapsed, 1),
        "extracted": stats.get("boilerplate/extracted_count", 0),
        "empty": stats.get("boilerplate/empty_count", 0),
        "max_ms": stats.get("boilerplate/max_ms"),
        # the most responses that waited for their extraction without holding a slot
        "lent_slots_max": stats.get("boilerplate/lent_slots_max"),
        # from the spider's opening to its first item: what starting the crawl costs
        "first_item_s": round(marks[0] - opened_at[0], 3) if marks and opened_at else None,
        # first to last item: the crawl's pace once it runs, and its process's CPU per page
        "steady_pages_per_s": _per_second(marks),
        # wall time of extract_to_dict where it ran (decoding included), mean per page
        "extraction_ms": round(statistics.fmean(extraction_ms), 2) if extraction_ms else None,
        # CPU per page: the crawl's own process; the whole machine (the crawl, its worker
        # processes, the page server and anything else running)
        "cpu_ms_main": round(
            (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            * 1000
            / max(items, 1),
            2,
        ),
        "cpu_ms_machine": round((machine_after - machine_before) * 1000 / max(items, 1), 2),
    }


def variant_parts(
    variant: str, workers: int | None, extractor: str
) -> tuple[str, int | None, str, str]:
    """A variant's name, ``BOILERPLATE_WORKERS``, extractor and suffix:
    ``process:2@article+alone`` is ``process`` with two workers, ``article`` instead of
    ``extractor`` (``--extractor``), each page read alone. A leading ``then/`` (which
    checkout runs the crawl) is not part of the name."""
    head, _, suffix = variant.removeprefix(THEN).partition("+")
    head, _, named = head.partition("@")
    name, count = variant_workers(head, workers)
    return name, count, named or extractor, suffix


def without_named_extractor(variant: str) -> str | None:
    """The variant that a variant naming its extractor is compared with (the same
    without ``@NAME``); None for a variant that names none."""
    head, _, suffix = variant.partition("+")
    if "@" not in head:
        return None
    return head.partition("@")[0] + (f"+{suffix}" if suffix else "")


def earlier_checkout_base(variant: str) -> str | None:
    """The variant that a ``then/`` variant (the crawl with an earlier checkout's
    package) is compared with: the same without ``then/`` and without ``@NAME``
    (``then/process@article`` beside today's ``process``, the default extractor); None
    for a variant of this checkout."""
    if not variant.startswith(THEN):
        return None
    today = variant.removeprefix(THEN)
    return without_named_extractor(today) or today


def crawl_launch(variant: str, then: Path | None) -> tuple[list[str], Path, dict[str, str]]:
    """How one crawl's process starts: its command (without the crawl's arguments), its
    working directory and environment. A ``then/`` variant runs this script by its path
    in the ``then`` checkout, that checkout first on ``PYTHONPATH``, so that the package
    it imports is the earlier one, not this checkout's (nor its editable install)."""
    env = dict(os.environ)
    if not variant.startswith(THEN):
        return [sys.executable, "-m", "benchmarks.crawl_speed"], REPO, env
    if then is None:
        raise SystemExit("a then/ variant needs --then DIR (a checkout of an earlier commit)")
    then = then.resolve()
    env["PYTHONPATH"] = os.pathsep.join([str(then), *filter(None, [env.get("PYTHONPATH")])])
    return [sys.executable, str(Path(__file__).resolve())], then, env


def variant_workers(variant: str, workers: int | None) -> tuple[str, int | None]:
    """A variant's name and its ``BOILERPLATE_WORKERS``: ``process:2`` is ``process``
    with two workers (so one run compares worker counts side by side); a variant
    without a count takes ``workers`` (``--workers``, None: the plugin's default)."""
    name, sep, count = variant.partition(":")
    if not sep:
        return variant, workers
    if not count.isdigit():
        raise SystemExit(f"a variant's worker count is a number: {variant!r}")
    return name, int(count)


def round_ratios(runs: dict[str, list[dict]], variant: str, base: str) -> list[float]:
    """Per round, ``variant``'s pages/s over ``base``'s in the same round (the machine's
    drifts between rounds cancel out)."""
    return [
        v["pages_per_s"] / b["pages_per_s"] for v, b in zip(runs[variant], runs[base], strict=True)
    ]


def _per_second(marks: list[float]) -> float | None:
    if len(marks) < 2 or marks[-1] <= marks[0]:
        return None
    return round((len(marks) - 1) / (marks[-1] - marks[0]), 1)


def _machine_cpu_seconds() -> float:
    """Busy CPU seconds of the whole machine so far (Linux /proc/stat; 0 elsewhere)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _process_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far (Linux; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def offline_ms(files: list[Path], extractor: str, sample: int = 200) -> dict:
    """Single-threaded extraction time of the pages (decoded str in, as in the crawl)."""
    from scrapy_boilerplate import get_extractor

    ex = get_extractor(extractor)
    times = []
    step = max(1, len(files) // sample)  # spread over every set the crawl serves
    for path in files[::step][:sample]:
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8", "replace")
        start = time.perf_counter()
        ex.extract(text)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "pages": len(times),
        "median_ms": round(statistics.median(times), 1),
        "mean_ms": round(statistics.fmean(times), 1),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--variants", default="without,with")
    parser.add_argument(
        "--workers",
        type=int,
        help="BOILERPLATE_WORKERS of 'with' and 'process' (default: the plugin's own, 4 "
        "threads or one process per core but one)",
    )
    parser.add_argument("--extractor", help="the extractor (default: the package's default)")
    parser.add_argument(
        "--then",
        type=Path,
        help="a checkout of an earlier commit (extensions built in place) for the then/ variants",
    )
    parser.add_argument("--concurrency", type=int, default=16, help="CONCURRENT_REQUESTS")
    parser.add_argument(
        "--per-domain",
        type=int,
        default=None,
        help="CONCURRENT_REQUESTS_PER_DOMAIN (default: --concurrency); below it, the extra "
        "global slots are what pages waiting in downloader middlewares may take",
    )
    parser.add_argument("--no-gzip", action="store_true", help="serve pages uncompressed")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--sets", default=",".join(SETS), help="datasets the pages come from, in turn"
    )
    parser.add_argument(
        "--real-urls",
        action="store_true",
        help="crawl each page under the host of its own URL, through the page server as a "
        "proxy (as many sites as the pages come from), not all on 127.0.0.1",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--_crawl", nargs=2, metavar=("BASE", "VARIANT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.per_domain = args.per_domain or args.concurrency

    if args._crawl:  # child process: one crawl, result as JSON on stdout
        base, variant = args._crawl
        hosts = (
            [host for _, host in page_records(args.data, args.pages, tuple(args.sets.split(",")))]
            if args.real_urls
            else None
        )
        result = run_crawl(
            base,
            args.pages,
            variant,
            args.workers,
            args.extractor,
            args.concurrency,
            args.per_domain,
            hosts,
        )
        print("RESULT " + json.dumps(result))
        return 0

    if args.extractor is None:
        from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

        args.extractor = DEFAULT_EXTRACTOR
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for variant in variants:  # a then/ variant without --then stops before any crawl
        crawl_launch(variant, args.then)
    files = page_files(args.data, args.pages, tuple(args.sets.split(",")))
    queue: multiprocessing.Queue = multiprocessing.Queue()
    server = multiprocessing.Process(
        target=_serve, args=([str(f) for f in files], not args.no_gzip, queue), daemon=True
    )
    server.start()
    base = f"http://127.0.0.1:{queue.get(timeout=120)}"
    print(
        f"{len(files)} pages served at {base} (gzip: {not args.no_gzip}); "
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}"
    )
    try:
        import scrapy

        print(
            f"Scrapy {scrapy.__version__}; extractor {args.extractor!r}; "
            f"CONCURRENT_REQUESTS {args.concurrency} (per domain {args.per_domain}); "
            f"workers {args.workers or 'default'}"
        )
        runs: dict[str, list[dict]] = {v: [] for v in variants}
        for round_no in range(1, args.repeat + 1):
            for variant in variants:
                cmd, cwd, env = crawl_launch(variant, args.then)
                cmd += [
                    "--_crawl",
                    base,
                    variant,
                    "--pages",
                    str(args.pages),
                    *(["--workers", str(args.workers)] if args.workers is not None else []),
                    "--extractor",
                    args.extractor,
                    "--concurrency",
                    str(args.concurrency),
                    "--per-domain",
                    str(args.per_domain),
                    "--data",
                    str(args.data),
                    "--sets",
                    args.sets,
                    *(["--real-urls"] if args.real_urls else []),
                ]
                server_before = _process_cpu_seconds(server.pid)
                done = subprocess.run(
                    cmd, capture_output=True, text=True, timeout=3600, cwd=cwd, env=env
                )
                server_cpu = _process_cpu_seconds(server.pid) - server_before
                line = next(
                    (ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")), None
                )
                if line is None:
                    print(done.stdout, done.stderr, file=sys.stderr)
                    raise SystemExit(f"crawl {variant!r} failed")
                result = json.loads(line[len("RESULT ") :])
                # the page server stands in for remote sites, but here it shares the cores
                result["cpu_ms_server"] = round(server_cpu * 1000 / max(result["items"], 1), 2)
                runs[variant].append(result)
                print(
                    f"round {round_no} {variant:8s} {result['items']:5d} items "
                    f"{result['seconds']:7.2f} s {result['pages_per_s']:7.1f} pages/s  "
                    f"CPU ms/page: crawl process {result['cpu_ms_main']:.2f}, "
                    f"page server {result['cpu_ms_server']:.2f}, "
                    f"machine {result['cpu_ms_machine']:.2f}; first item after "
                    f"{result['first_item_s']} s, then {result['steady_pages_per_s']} pages/s"
                    + (
                        f"; extraction {result['extraction_ms']:.2f} ms/page"
                        if result.get("extraction_ms")
                        else ""
                    )
                )
    finally:
        server.terminate()

    summary = {v: statistics.median(r["pages_per_s"] for r in runs[v]) for v in variants}
    print("\nmedian pages/s over", args.repeat, "rounds:")
    for variant, value in summary.items():
        print(f"  {variant:8s} {value:7.1f}")
    paired: dict[str, float] = {}
    if "without" in summary:
        for variant, value in summary.items():
            if variant == "without":
                continue
            # each round's ratio to the 'without' crawl run just before it: the machine's
            # drifts between rounds cancel out
            ratios = round_ratios(runs, variant, "without")
            paired[variant] = statistics.median(ratios)
            print(
                f"  {variant} / without = {value / summary['without']:.0%} (ratio of medians); "
                f"median of the rounds' ratios {paired[variant]:.0%} "
                f"(rounds: {', '.join(f'{x:.0%}' for x in ratios)})"
            )
    # a hostile page among the others, the pages read alone, another extractor: each
    # crawl's pace beside the same crawl without that, round by round
    to_base: dict[str, float] = {}
    for variant in summary:
        base_variant, _, suffix = variant.partition("+")
        bases = (
            (earlier_checkout_base(variant),)
            if variant.startswith(THEN)
            else (base_variant if suffix else None, without_named_extractor(variant))
        )
        for base in bases:
            if base in runs:
                ratios = round_ratios(runs, variant, base)
                to_base[f"{variant} / {base}"] = statistics.median(ratios)
                print(
                    f"  {variant} / {base} = median of the rounds' ratios "
                    f"{statistics.median(ratios):.0%} "
                    f"(rounds: {', '.join(f'{x:.0%}' for x in ratios)})"
                )
    offline = offline_ms(files, args.extractor)
    print(
        f"\nextraction alone ({args.extractor!r}, one thread, no Scrapy, "
        f"{offline['pages']} of the pages): median {offline['median_ms']} ms, mean "
        f"{offline['mean_ms']} ms, p95 {offline['p95_ms']} ms per page "
        f"-> at most ~{1000 / offline['mean_ms']:.0f} pages/s on one core"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "runs": runs,
                    "median_pages_per_s": summary,
                    "median_round_ratio_to_without": paired,
                    "median_round_ratio_to_base": to_base,
                    "offline": offline,
                    "args": {k: str(v) for k, v in vars(args).items()},
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
