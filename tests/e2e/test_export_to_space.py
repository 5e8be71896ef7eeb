"""What most users have, end to end: a MediaWiki XML export (`pages-articles.xml.bz2`, the real schema) →
`corpus import-dump` → `spaces build` → the engine answers a seed's neighbours, and the links row has links."""
import pytest

from aspectnav_cli import main
from tests.mediawiki_dump_fixture import write_export

pytestmark = pytest.mark.slow  # MiniLM encodes the corpus


def test_export_import_then_space_then_neighbours(vital_corpus, tmp_path, capsys):
    export = write_export(tmp_path / "enwiki-20240501-pages-articles.xml.bz2", vital_corpus.articles[:150])
    assert main(["corpus", "import-dump", str(export.path), "--name", "wiki", "--batch-size", "50"]) == 0
    imported = capsys.readouterr().out
    assert "Imported 150 articles into 'wiki'" in imported and "Skipped 12 records" in imported
    assert main(["spaces", "build", "--corpus", "wiki"]) == 0
    assert "generic: generic, encoder minilm" in capsys.readouterr().out

    from explore.corpus.registry import open_corpus
    from explore.spaces import spaces_for

    corpus = open_corpus("wiki")
    space = spaces_for(corpus).open("generic", encode=False)
    seed = max(corpus, key=lambda a: len(a.links))
    assert seed.links  # links between the exported articles survived the import
    assert main(["neighbours", seed.title, "--corpus", "wiki", "-k", "5"]) == 0
    answered = capsys.readouterr().out
    rows, _ = space.nearest(space.embeddings_[corpus.position[seed.id]], 6)
    nearest = [corpus.articles[row].title for row in rows if corpus.articles[row].id != seed.id][:5]
    assert all(title in answered for title in nearest[:3])
