"""A tiny training run (a few pages, a few steps), ONNX export, ONNX == torch."""

import json

import numpy as np
import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.training.cli import resolve_sets

PARAGRAPHS = [
    "The council approved the budget on Tuesday after a long debate about schools and roads.",
    "Libraries will open longer on weekends, the mayor said in a statement to the press.",
    "Repairs to the old bridge over the river start in the spring of next year, she added.",
    "Critics said the plan was too small for a town of its size and asked for a new vote.",
]


def _page(i):
    nav = "".join(f"<li><a href='/{n}'>{n} {i}</a></li>" for n in ("Home", "News", "Sport"))
    body = "".join(f"<p>{p} ({i})</p>" for p in PARAGRAPHS[: 2 + i % 3])
    html = (
        f"<html><body><ul>{nav}</ul><div class='story'><h1>Story {i}</h1>{body}</div>"
        f"<div class='footer'><p>Copyright 2024 Paper {i}, all rights reserved</p><a href='/t'>Terms</a></div>"
        "</body></html>"
    )
    clean = f"Story {i}\n\n" + "\n\n".join(f"{p} ({i})" for p in PARAGRAPHS[: 2 + i % 3])
    return html, clean


@pytest.fixture
def tiny_set(tmp_path):
    folder = tmp_path / "tiny-set"
    (folder / "pages").mkdir(parents=True)
    with open(folder / "truth.jsonl", "w") as fh:
        for i in range(6):
            html, clean = _page(i)
            (folder / "pages" / f"{i}.html").write_text(html)
            fh.write(
                json.dumps({"id": str(i), "main_text": clean, "page_file": f"pages/{i}.html"})
                + "\n"
            )
    return folder


def test_only_allowed_sets_train_the_shipped_model(tmp_path, tiny_set):
    with pytest.raises(SystemExit, match="may not train"):
        resolve_sets([str(tiny_set)], allow_any=False)
    assert resolve_sets([str(tiny_set)], allow_any=True) == [tiny_set]
    # a folder of sets stands for its allowed sets only
    parent = tmp_path / "data"
    (parent / "cleaneval-train").mkdir(parents=True)
    (parent / "cleaneval-train" / "truth.jsonl").write_text("")
    (parent / "wcxb-dev").mkdir()
    (parent / "wcxb-dev" / "truth.jsonl").write_text("")
    assert resolve_sets([str(parent)], allow_any=False) == [parent / "wcxb-dev"]


def test_the_corpus_can_keep_only_some_page_types(tmp_path, tiny_set):
    from scrapy_boilerplate.training.dataset import build_corpus

    # pages 0-2 are articles, 3-4 forums, 5 has no type (kept whatever the filter)
    truth = tiny_set / "truth.jsonl"
    rows = [json.loads(line) for line in truth.read_text().splitlines()]
    for row in rows:
        i = int(row["id"])
        if i < 5:
            row["page_type"] = "article" if i < 3 else "forum"
    truth.write_text("".join(json.dumps(row) + "\n" for row in rows))
    everything = build_corpus([tiny_set], cache=tmp_path / "cache")
    articles = build_corpus([tiny_set], cache=tmp_path / "cache", page_types=["article"])
    assert everything.page_ids == ["0", "1", "2", "3", "4", "5"]
    assert articles.page_ids == ["0", "1", "2", "5"]
    assert len(list((tmp_path / "cache").iterdir())) == 2  # cached apart


def test_a_cached_corpus_is_keyed_by_every_source_file_of_the_package(tmp_path):
    # a change to the collapsed DOM, the segmenter or the columns changes the rows: any
    # code file of the package counts, in any folder; documents and model files do not
    from scrapy_boilerplate.training.dataset import PACKAGE_DIR, code_version

    package = tmp_path / "package"
    (package / "neural" / "models").mkdir(parents=True)
    (package / "parse.py").write_text("SEGMENT = 1\n")
    (package / "neural" / "_cstructure.pyx").write_text("cdef int x = 1\n")
    first = code_version(package)
    (package / "neural" / "models" / "boosted.onnx").write_bytes(b"weights")
    (package / "neural" / "models" / "MODEL_CARD.md").write_text("figures")
    assert code_version(package) == first
    (package / "neural" / "_cstructure.pyx").write_text("cdef int x = 2\n")
    changed = code_version(package)
    assert changed != first
    (package / "neural" / "_cnodes.pxd").write_text("cdef int y\n")
    assert code_version(package) != changed
    assert code_version() == code_version(PACKAGE_DIR) and len(code_version()) == 12


def test_tiny_training_run_exports_matching_onnx(tmp_path, tiny_set):
    torch = pytest.importorskip("torch", reason="torch is not installed (extra: train)")
    pytest.importorskip("onnx", reason="onnx is not installed (extra: train)")
    ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    out = tmp_path / "model"
    code = main(
        [
            "train",
            str(tiny_set),
            "--out",
            str(out),
            "--allow-any-set",
            "--steps",
            "30",
            "--eval-every",
            "10",
            "--batch",
            "8",
            "--threads",
            "1",
            "--seed",
            "3",
        ]
    )
    assert code == 0
    meta = json.loads((out / "web2text.json").read_text())
    from scrapy_boilerplate.neural.features import feature_names

    assert meta["extended"] is True  # the default: Web2Text's columns plus ours
    names_b, names_e = feature_names(True)
    assert meta["block_features"] == list(names_b) and meta["edge_features"] == list(names_e)
    assert meta["block_features"][:128] == list(feature_names(False)[0])
    assert meta["lambda"] >= 0 and meta["opset"] == 17

    # ONNX outputs equal the torch outputs on sample inputs
    from scrapy_boilerplate.training.train import (
        KERNELS,
        PAIRWISE_FILTERS,
        UNARY_FILTERS,
        _make_net,
    )

    rng = np.random.default_rng(0)
    for name, width, filters in (("unary", 128, UNARY_FILTERS), ("pairwise", 25, PAIRWISE_FILTERS)):
        net = _make_net(width, filters, KERNELS, 0.8)
        net.eval()
        path = tmp_path / f"{name}.onnx"
        from scrapy_boilerplate.training.train import export_legacy

        export_legacy(net, torch.zeros(1, 5, width), path)
        sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        for length in (1, 2, 9, 57):
            x = rng.normal(size=(1, length, width)).astype(np.float32)
            want = net(torch.from_numpy(x)).detach().numpy()
            got = sess.run(None, {"features": x})[0]
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, atol=1e-5, rtol=0)
        # the exported training result too
        sess = ort.InferenceSession(
            str(out / f"web2text_{name}.onnx"), providers=["CPUExecutionProvider"]
        )
        full = len(names_b) if name == "unary" else len(names_e)
        x = rng.normal(size=(1, 13, full)).astype(np.float32)
        assert np.isfinite(sess.run(None, {"features": x})[0]).all()

    # the trained model labels pages through the filter
    from scrapy_boilerplate.extraction import Extractor
    from scrapy_boilerplate.spec import build_chain

    ex = Extractor(build_chain([{"web2text": {"model_dir": str(out)}}]), "tiny")
    html, _ = _page(1)
    result = ex.extract(html)
    assert isinstance(result.text, str)


def test_train_without_torch_says_how_to_install(monkeypatch, tiny_set, tmp_path, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)
    code = main(["train", str(tiny_set), "--out", str(tmp_path / "m"), "--allow-any-set"])
    assert code == 2
    assert "'scrapy-boilerplate-removal[train]'" in capsys.readouterr().err
