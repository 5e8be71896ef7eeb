"""Issue #14: the Maps settings (125 + 250 iterations, exact kNN) keep trustworthiness@10 within 0.01 of the
settings they replaced (250 + 500, Annoy) on the real vital spaces, at the page's 2,000-article sample."""
from __future__ import annotations

import numpy as np
import pytest

from explore.maps import DEFAULT_SAMPLE, LEGACY_PARAMS, ProjectionParams, select_sample, tsne

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def vital_spaces(vital_corpus, tmp_path_factory):
    from explore.spaces.registry import SpaceRegistry

    # the shipped heads derive their embeddings into this home, not the user's
    return SpaceRegistry(vital_corpus, home=tmp_path_factory.mktemp("quality-home"), progress=False)


@pytest.mark.parametrize("name", ["generic", "country", "union"])
def test_the_maps_settings_are_as_trustworthy_as_the_old_ones(vital_spaces, name):
    from sklearn.manifold import trustworthiness

    vectors = vital_spaces.open(name).embeddings_
    rows = select_sample(len(vectors), DEFAULT_SAMPLE, random_state=0).base
    sample = np.asarray(vectors[rows], dtype=np.float32)
    scores = {}
    for label, params in (("now", ProjectionParams()), ("before", LEGACY_PARAMS)):
        coords, method = tsne(sample, params, n_jobs=1)
        assert method == "openTSNE"
        scores[label] = trustworthiness(sample, coords, n_neighbors=10, metric="cosine")
    assert scores["now"] >= scores["before"] - 0.01, scores
