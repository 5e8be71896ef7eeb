import pytest

from explore.encoders import EncoderSpec, save_head
from explore.errors import AspectNavError


def test_package_names_parse_case_insensitively():
    assert EncoderSpec.parse("MiniLM") == EncoderSpec("package", "minilm")
    assert str(EncoderSpec.parse("mpnet")) == "mpnet"


def test_directory_spec_with_or_without_prefix(tmp_path):
    spec = EncoderSpec.parse(f"dir:{tmp_path}")
    assert spec.kind == "directory" and spec.path == tmp_path.resolve()
    assert EncoderSpec.parse(str(tmp_path)) == spec
    assert str(spec) == f"dir:{tmp_path.resolve()}"


def test_head_directory_is_recognised_and_relative_paths_resolve_against_base(tmp_path):
    import numpy as np

    save_head(tmp_path / "head", [np.eye(4)], [None], ["identity"], base_encoder="minilm")
    spec = EncoderSpec.parse("head", base_dir=tmp_path)
    assert spec.kind == "head" and spec.path == (tmp_path / "head").resolve()


@pytest.mark.parametrize("bad", ["", "   ", "no-such-model", "dir:/no/such/dir"])
def test_bad_specs_say_what_is_accepted(bad):
    with pytest.raises(AspectNavError, match="minilm"):
        EncoderSpec.parse(bad)
