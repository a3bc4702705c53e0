"""Training the whole-page context labeler: a tiny run through the command line, ONNX equal
to torch, the same files from the same seed, and the trained model in a chain."""

import json

import numpy as np
import pytest

from scrapy_boilerplate.cli import main

from .test_train import _page, tiny_set  # noqa: F401 - the fixture is used by name

torch = pytest.importorskip("torch", reason="torch is not installed (extra: train)")
pytest.importorskip("onnx", reason="onnx is not installed (extra: train)")
ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")


def _train(tiny_set, out, seed="3"):  # noqa: F811 - the fixture's value
    return main(
        [
            "train",
            str(tiny_set),
            "--model",
            "context",
            "--out",
            str(out),
            "--allow-any-set",
            "--members",
            "2",
            "--epochs",
            "2",
            "--threads",
            "1",
            "--seed",
            seed,
        ]
    )


def test_tiny_context_run_exports_the_ensemble(tmp_path, tiny_set):  # noqa: F811
    out = tmp_path / "model"
    assert _train(tiny_set, out) == 0
    meta = json.loads((out / "context.json").read_text())
    from scrapy_boilerplate.neural.columns import feature_names

    names_b, names_e = feature_names(True)
    assert meta["model"] == "context" and meta["opset"] == 17
    assert meta["block_features"] == list(names_b) and meta["edge_features"] == list(names_e)
    assert 0.3 <= meta["threshold"] <= 0.7
    assert meta["architecture"]["members"] == 2
    assert meta["training"]["config"]["seed"] == 3

    # the exported file gives probabilities for pages of any length, one block included
    session = ort.InferenceSession(str(out / "context.onnx"), providers=["CPUExecutionProvider"])
    width = len(names_b) + 2 * len(names_e)
    rng = np.random.default_rng(0)
    for length in (1, 2, 40):
        x = rng.normal(size=(1, length, width)).astype(np.float32)
        probs = session.run(None, {"features": x})[0]
        assert probs.shape == (1, length)
        assert ((probs >= 0) & (probs <= 1)).all()

    # and the trained model labels pages through the filter
    from scrapy_boilerplate import Extractor, build_chain

    ex = Extractor(build_chain([{"context": {"model_dir": str(out)}}]), "tiny")
    html, _ = _page(1)
    assert isinstance(ex.extract(html).text, str)


def test_the_onnx_ensemble_equals_the_torch_members():
    from scrapy_boilerplate.training.context import ensemble, make_context_net, predict_probs

    torch.manual_seed(0)
    nets = [make_context_net(20, 8, 6, 0.0, conv) for conv in (0, 3)]
    mean = ensemble(nets)
    rng = np.random.default_rng(1)
    import io
    import warnings

    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            mean,
            (torch.zeros(1, 5, 20),),
            buffer,
            input_names=["features"],
            output_names=["p"],
            dynamic_axes={"features": {1: "n"}, "p": {1: "n"}},
            opset_version=17,
            dynamo=False,
        )
    session = ort.InferenceSession(buffer.getvalue(), providers=["CPUExecutionProvider"])
    for length in (1, 3, 77):
        x = rng.normal(size=(length, 20)).astype(np.float32)
        want = predict_probs(nets, [x])[0]
        got = session.run(None, {"features": x[None]})[0][0]
        np.testing.assert_allclose(got, want, atol=1e-5, rtol=0)


def test_a_padded_batch_gives_each_page_what_it_gets_alone():
    """Training runs pages in padded batches; a page's outputs must not depend on the
    padding (the exported model sees one page at a time)."""
    from scrapy_boilerplate.training.context import make_context_net

    torch.manual_seed(0)
    net = make_context_net(10, 8, 6, 0.0, conv=3).eval()
    rng = np.random.default_rng(2)
    short, long = (rng.normal(size=(n, 10)).astype(np.float32) for n in (4, 9))
    batch = np.zeros((2, 9, 10), np.float32)
    batch[0, :4], batch[1] = short, long
    with torch.no_grad():
        together = net(torch.from_numpy(batch), torch.tensor([4, 9])).numpy()
        alone = net(torch.from_numpy(short)[None]).numpy()[0]
    np.testing.assert_allclose(together[0, :4], alone, atol=1e-5)


def test_the_same_seed_gives_the_same_model_files(tmp_path, tiny_set):  # noqa: F811
    assert _train(tiny_set, tmp_path / "a") == 0
    assert _train(tiny_set, tmp_path / "b") == 0
    assert (tmp_path / "a" / "context.onnx").read_bytes() == (
        tmp_path / "b" / "context.onnx"
    ).read_bytes()
    a = json.loads((tmp_path / "a" / "context.json").read_text())
    b = json.loads((tmp_path / "b" / "context.json").read_text())
    a["training"].pop("seconds"), b["training"].pop("seconds")
    assert a == b


def test_pages_are_grouped_by_site_across_sets():
    from scrapy_boilerplate.training.dataset import site_of

    assert site_of("a", "1", "https://www.example.com/news/1.html") == "example.com"
    assert site_of("b", "7", "http://example.com:8080/x") == "example.com"  # across sets
    # an archived copy counts as the site it copies
    archived = "https://web.archive.org/web/20200101000000/https://www.paper.de/politik/a.html"
    assert site_of("a", "2", archived) == "paper.de"
    # no URL: the page is its own group, within its set
    assert site_of("a", "3", None) == "a:3" != site_of("b", "3", "")
