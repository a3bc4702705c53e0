"""The ``scrapy-boilerplate`` command: ``extract``, ``evaluate`` (and later ``train``).

    scrapy-boilerplate extract [--extractor NAME] [--format text|markdown|html|json|jsonl] PATH...
    scrapy-boilerplate evaluate DATASET... [--extractor a,b] [--compare trafilatura,...]

PATH may be a file (``.html`` or ``.html.gz``), a directory (searched for HTML files),
``-`` for standard input, or an archive: a WARC file (``.warc``, ``.warc.gz``; the
``[warc]`` extra) or a Scrapy HTTP cache directory. Archives are streamed, one result per
HTML response record, with ``--workers`` processes.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .archives.sources import is_archive
from .encoding import read_page_bytes
from .errors import BoilerplateError
from .extraction import FORMATS, Extractor, get_extractor
from .registry import DEFAULT_EXTRACTOR, EXTRACTORS
from .site_memory import MAX_SITES
from .spec import decode_spec

__all__ = ["main", "iter_inputs", "iter_input_names"]

HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".html.gz", ".htm.gz", ".xhtml.gz")


def iter_inputs(paths: Sequence[str]) -> Iterator[tuple[str, bytes]]:
    """Yield ``(name, raw bytes)`` for each file, each HTML file under a directory (sorted),
    and standard input for ``-``. Gzip files are decompressed."""
    for name in iter_input_names(paths):
        yield name, _read_input(name)


def iter_input_names(paths: Sequence[str]) -> Iterator[str]:
    """The inputs :func:`iter_inputs` reads, by name, without reading them: each file,
    each HTML file under a directory (sorted), and ``-`` for standard input."""
    for path in paths:
        p = Path(path)
        if path != "-" and p.is_dir():
            for sub in sorted(p.rglob("*")):
                if sub.is_file() and sub.name.lower().endswith(HTML_SUFFIXES):
                    yield str(sub)
        else:
            yield path if path == "-" else str(p)


def _read_input(name: str) -> bytes:
    return sys.stdin.buffer.read() if name == "-" else read_page_bytes(name)


def _extract_command(args: argparse.Namespace) -> int:
    try:
        extractor = get_extractor(decode_spec(args.extractor), cjk=not args.no_cjk)
        if args.metadata:
            from .metadata import require_metadata

            require_metadata()
    except BoilerplateError as exc:  # a bad spec, a model that cannot load, no extra
        print(f"scrapy-boilerplate: {exc}", file=sys.stderr)
        return 2
    archives = [path for path in args.paths if path != "-" and is_archive(path)]
    files = [path for path in args.paths if path not in archives]
    if archives and args.format == "annotated":
        print("scrapy-boilerplate: --format annotated reads HTML files only", file=sys.stderr)
        return 2
    status = _extract_files(files, extractor, args) if files else 0
    if archives:  # a file skipped above does not cost the archives their pages
        status = max(status, _extract_archives(archives, extractor, args))
    return status


def _extract_archives(paths: list[str], extractor: Extractor, args: argparse.Namespace) -> int:
    from .archives.command import extract_archives
    from .archives.warc import ArchiveReaderUnavailable

    try:
        extract_archives(
            paths,
            extractor,
            output_format=args.format,
            workers=args.workers,
            timeout=args.timeout,
            progress=args.progress,
            metadata=_wants_metadata(args),
            comments=args.comments,
            site_memory=args.site_memory,
        )
    except ArchiveReaderUnavailable as exc:
        print(f"scrapy-boilerplate: {exc}", file=sys.stderr)
        return 2
    return 0


def _extract_files(paths: list[str], extractor: Extractor, args: argparse.Namespace) -> int:
    # one page in memory at a time (a folder of a million pages is not read first); the
    # first two names tell one page from many (headers, a JSON list). An input that
    # cannot be read, or whose extraction fails, is reported on stderr and skipped: the
    # others are still extracted, and the status is 1 at the end.
    names = iter_input_names(paths)
    docs: list[dict[str, Any]] = []  # --format json: each page's dict, not its parse tree
    out = sys.stdout
    failed = 0
    ahead = list(itertools.islice(names, 2))
    many = len(ahead) > 1
    formats = (args.format,) if args.format in FORMATS else ()
    metadata = _wants_metadata(args)
    for name in itertools.chain(ahead, names):
        try:
            data = _read_input(name)
        except OSError as exc:  # unreadable, or not the gzip its name says
            print(f"scrapy-boilerplate: {name}: cannot be read: {exc}", file=sys.stderr)
            failed += 1
            continue
        try:
            if args.format == "annotated":
                if many:
                    out.write(f"==> {name} <==\n")
                out.write(extractor.annotate(data, encoding=args.encoding, timeout=args.timeout))
                continue
            result = extractor.extract(
                data,
                url=None,
                encoding=args.encoding,
                trace=args.format == "json",
                timeout=args.timeout,
                formats=formats,
                metadata=metadata,
                comments=args.comments,
            )
        except Exception as exc:  # noqa: BLE001 - a bug on one page costs that page only
            print(
                f"scrapy-boilerplate: {name}: extraction failed: {type(exc).__name__}: {exc}",
                file=sys.stderr,
            )
            failed += 1
            continue
        if args.format in ("text", *FORMATS):
            if many:
                out.write(f"==> {name} <==\n")
            if not result.text:
                print(
                    f"scrapy-boilerplate: {name}: no main text ({result.reason})", file=sys.stderr
                )
            out.write(getattr(result, args.format) + "\n")
            if many:
                out.write("\n")
        elif args.format == "jsonl":
            out.write(json.dumps({"path": name, **result.to_dict()}, ensure_ascii=False) + "\n")
        else:
            docs.append({"path": name, **result.to_dict(blocks=True)})
    if args.format == "json":
        json.dump(docs if many else docs[0] if docs else [], out, ensure_ascii=False, indent=2)
        out.write("\n")
    if failed:
        print(f"scrapy-boilerplate: {failed} input(s) skipped", file=sys.stderr)
    return 1 if failed else 0


def _wants_metadata(args: argparse.Namespace) -> bool:
    # on by default where there is a place for it (the JSON formats) and the [article]
    # extra is installed; asked for without it, the extraction says what to install
    from .metadata import metadata_available

    if args.metadata is None:
        return args.format in ("json", "jsonl") and metadata_available()
    return bool(args.metadata)


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def _count(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def _seconds(value: str) -> float | None:
    number = float(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 (none) or more")
    return number or None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``scrapy-boilerplate`` (subcommands register here)."""
    parser = argparse.ArgumentParser(
        prog="scrapy-boilerplate",
        description="Extract the main content of web pages (boilerplate removal).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser(
        "extract",
        help="print the main text of HTML files and archives",
        description="Print the main content of HTML files, directories or stdin (-), and of "
        "archives: WARC files (.warc, .warc.gz) and Scrapy HTTP cache directories, one "
        "result per HTML response.",
    )
    ex.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="file, directory, - for stdin, WARC file or HTTP cache directory",
    )
    ex.add_argument(
        "--extractor",
        "-e",
        default=DEFAULT_EXTRACTOR,
        help=f"extractor name, or a chain spec as a JSON list (default: {DEFAULT_EXTRACTOR}; "
        "known: "
        f"{', '.join(EXTRACTORS)})",
    )
    ex.add_argument(
        "--format",
        "-f",
        choices=("text", "markdown", "html", "json", "jsonl", "annotated"),
        default="text",
        help="output: plain text, Markdown or a clean HTML fragment per page, or JSON; "
        "annotated: the whole page as an HTML document with each block marked content or "
        "boilerplate, and the filter that decided it (default: text)",
    )
    ex.add_argument("--encoding", default=None, help="decode input with this encoding")
    ex.add_argument(
        "--workers",
        "-w",
        type=_positive_int,
        default=1,
        help="archives: extract in this many worker processes (default: 1, this process)",
    )
    ex.add_argument(
        "--timeout",
        type=_seconds,
        default=10.0,
        help="time budget per page in seconds; 0 for none (default: 10)",
    )
    ex.add_argument(
        "--metadata",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="read the article's metadata (headline, authors, dates, ...) into the JSON "
        "formats' 'metadata' object (default: on for json and jsonl when the [article] "
        "extra is installed)",
    )
    ex.add_argument(
        "--comments",
        action="store_true",
        help="add the readers' comments of each page (its comment threads, as text) to the "
        "JSON formats' 'comments' key",
    )
    ex.add_argument(
        "--site-memory",
        type=_count,
        default=MAX_SITES,
        metavar="SITES",
        help="archives: remember each site's template, as a crawl does "
        "(BOILERPLATE_SITE_MEMORY), over this many sites at once "
        f"(default: {MAX_SITES}; 0: each page alone)",
    )
    ex.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="archives: a progress bar on stderr (default: on a terminal, with tqdm)",
    )
    ex.add_argument(
        "--no-cjk",
        action="store_true",
        help="count CJK/Thai text as the Java boilerpipe does (whole runs as one word)",
    )
    ex.set_defaults(func=_extract_command)
    for register in _subcommand_plugins():
        register(sub)
    return parser


def _subcommand_plugins() -> list:
    """Further subcommands (evaluate, train) from modules that may need optional extras."""
    plugins = []
    for module_name in _PLUGIN_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            # an absent plugin (or its package) is skipped; a missing import inside a
            # plugin is a bug and is raised
            if exc.name is None or not (module_name + ".").startswith(exc.name + "."):
                raise
            continue
        plugins.append(module.register)
    return plugins


#: modules adding subcommands through a ``register(subparsers)`` function
_PLUGIN_MODULES: tuple[str, ...] = (
    "scrapy_boilerplate.evaluation.cli",
    "scrapy_boilerplate.training.cli",
)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``scrapy-boilerplate`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # e.g. piped into `head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
