"""UMAP layouts (the Maps page's second projection) on a fixture corpus: shape, the same map for the same seed,
cached apart from t-SNE's."""
import numpy as np
import pytest

from explore.map_umap import UmapParams, umap_layout
from explore.maps import Projector, ProjectionParams, cache_path, project_sample, select_sample
from tests.fixture_corpora import make_corpus, make_embeddings


@pytest.fixture(scope="module")
def vectors():
    return make_embeddings(make_corpus()).astype(np.float32)


def test_umap_layout_has_a_point_per_row_and_is_the_same_for_the_same_seed(vectors):
    reports = []
    coords, method = umap_layout(vectors, UmapParams(), progress=lambda fraction, stage: reports.append(fraction))
    assert coords.shape == (len(vectors), 2) and method == "UMAP" and np.isfinite(coords).all()
    again, _ = umap_layout(vectors, UmapParams())
    assert np.array_equal(coords, again)  # one thread, fixed random state: reproducible
    other, _ = umap_layout(vectors, UmapParams(random_state=1))
    assert not np.allclose(coords, other)
    assert reports[0] == 0.0 and reports[-1] == 1.0 and any(0.0 < r < 1.0 for r in reports)  # epochs reported


def test_umap_maps_are_cached_under_their_own_key(isolated_home, vectors):
    sample = select_sample(len(vectors), len(vectors))
    umap, tsne = UmapParams(), ProjectionParams()
    assert cache_path("s", sample, umap) != cache_path("s", sample, tsne)
    assert cache_path("s", sample, umap) != cache_path("s", sample, UmapParams(n_neighbors=10))
    coords, method, cached = project_sample("s", vectors, sample, umap)
    assert method == "UMAP" and not cached and cache_path("s", sample, umap).exists()
    again, _, cached = project_sample("s", vectors, sample, umap)
    assert cached and np.array_equal(coords, again)
    assert not cache_path("s", sample, tsne).exists()


def test_the_projection_choice_is_parsed_once_and_round_trips():
    assert Projector.parse(" UMAP ") is Projector.UMAP and str(Projector.TSNE) == "tsne"
    assert Projector.parse(str(Projector.UMAP)) is Projector.UMAP
    assert isinstance(Projector.UMAP.default_params(), UmapParams) and Projector.of(UmapParams()) is Projector.UMAP
    assert Projector.of(ProjectionParams()) is Projector.TSNE
    with pytest.raises(ValueError, match="unknown projection 'pca'"):
        Projector.parse("pca")
