from explore.encoders.fingerprint import SAMPLE_BYTES, WHOLE_FILE_LIMIT, directory_fingerprint


def _model_dir(root, weights: bytes):
    root.mkdir()
    (root / "config.json").write_text('{"hidden": 4}')
    (root / "model.safetensors").write_bytes(weights)
    (root / "README.md").write_text("docs do not matter")
    return root


def test_same_content_same_fingerprint_anywhere(tmp_path):
    weights = bytes(range(256)) * 100
    assert directory_fingerprint(_model_dir(tmp_path / "a", weights)) == \
        directory_fingerprint(_model_dir(tmp_path / "b", weights))


def test_config_change_and_readme_change(tmp_path):
    model = _model_dir(tmp_path / "m", b"w" * 1000)
    before = directory_fingerprint(model)
    (model / "README.md").write_text("edited")
    assert directory_fingerprint(model) == before
    (model / "config.json").write_text('{"hidden": 8}')
    assert directory_fingerprint(model) != before


def test_large_weights_are_sampled_yet_retraining_is_seen(tmp_path):
    size = WHOLE_FILE_LIMIT + 3 * SAMPLE_BYTES
    model = _model_dir(tmp_path / "m", b"\0" * size)
    before = directory_fingerprint(model)
    with (model / "model.safetensors").open("r+b") as handle:  # retraining changes the middle too
        handle.seek(size // 2 + 10)
        handle.write(b"\1")
    assert directory_fingerprint(model) != before
