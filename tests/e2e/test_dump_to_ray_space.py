"""All of Wikipedia, in small: a CirrusSearch dump in the real format → `corpus import-dump --top N` →
`spaces build --engine ray` on a local Ray cluster → the engine answers a seed's neighbours."""
import pytest

from aspectnav_cli import main
from tests.cirrus_dump_fixture import write_dump

pytestmark = pytest.mark.slow  # Ray starts; MiniLM encodes on its actors


def test_dump_import_top_then_ray_space_then_neighbours(ray_cluster, vital_corpus, tmp_path, capsys):
    dump = write_dump(tmp_path / "enwiki-20240501-cirrussearch-content.json.gz", vital_corpus.articles[:400])
    assert main(["corpus", "import-dump", str(dump.path), "--top", "150", "--name", "wiki", "--batch-size", "50"]) == 0
    imported = capsys.readouterr().out
    assert "Imported 150 articles into 'wiki'" in imported and "Skipped" in imported
    assert main(["spaces", "build", "--corpus", "wiki", "--engine", "ray", "--workers", "2"]) == 0
    assert "generic: generic, encoder minilm" in capsys.readouterr().out

    from explore.corpus.registry import open_corpus
    from explore.spaces import spaces_for

    corpus = open_corpus("wiki")
    space = spaces_for(corpus).open("generic", encode=False)  # the Ray-built space, stored and valid
    seed = max(corpus, key=lambda a: len(a.links))  # an article with links among the kept ones
    assert main(["neighbours", seed.title, "--corpus", "wiki", "-k", "5"]) == 0
    answered = capsys.readouterr().out
    rows, _ = space.nearest(space.embeddings_[corpus.position[seed.id]], 6)
    nearest = [corpus.articles[row].title for row in rows if corpus.articles[row].id != seed.id][:5]
    assert all(title in answered for title in nearest[:3])
