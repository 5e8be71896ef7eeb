import subprocess
import sys

import pytest

from explore.cli import main
from explore.corpus import store_corpus
from explore.spaces import spaces_for
from explore.spaces.registry import SHIPPED_SPACES_DIR
from tests.fixture_corpora import aspect_corpus


@pytest.fixture
def stored_tiny(minilm):
    corpus = aspect_corpus()
    store_corpus(corpus)
    spaces_for(corpus, progress=False).open("generic")
    return corpus


def test_neighbours_generic(stored_tiny, capsys):
    assert main(["neighbours", "Marie Curie", "--corpus", "tiny", "-k", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Neighbours of Marie Curie [curie]") and "generic:" in out
    assert "Pierre Curie" in out and "shares occupation: physicist" in out
    assert len([line for line in out.splitlines() if line[:4].strip().endswith(".")]) == 3


def test_neighbours_all_prints_columns_side_by_side(stored_tiny, capsys):
    assert main(["neighbours", "curie", "--corpus", "tiny", "--kind", "all", "-k", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "links" in lines[1] and "generic" in lines[1]
    assert "Pierre Curie" in lines[3] and "· occupation: physicist" in lines[4]


def test_free_text_and_blend(stored_tiny, capsys):
    assert main(["neighbours", "a French impressionist painter", "--text", "--corpus", "tiny", "-k", "2"]) == 0
    assert "Claude Monet" in capsys.readouterr().out
    assert main(["neighbours", "Paris", "--corpus", "tiny", "--blend", "generic:1", "-k", "2"]) == 0
    assert "blend:" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["neighbours", "Mercury"], "pick one by id: mercury-planet, mercury-god"),
    (["neighbours", "Marie Curry"], "Closest titles: Marie Curie"),
    (["neighbours", "  "], "Empty seed"),
    (["neighbours", "Paris", "-k", "0"], "k must be"),
    (["neighbours", "Paris", "--kind", "aspect:country"], "Spaces: generic (generic)"),
    (["neighbours", "Paris", "--blend", "country:1"], "unknown space 'country'"),
    (["neighbours", "Paris", "--kind", "blend:generic"], "Bad blend part 'generic'"),
    (["neighbours", "Marie Curry"], "in corpus 'tiny'"),
])
def test_bad_input_is_a_one_line_error(stored_tiny, capsys, argv, message):
    assert main(argv + ["--corpus", "tiny"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_spaces_list_and_build(stored_tiny, capsys, precision):
    """The build line names the backend and precision that computed the vectors. The automatic choice depends
    on the host (native CPU bf16, GPU), so the test asks for one; auto is tested in tests/explore/encoders/."""
    assert main(["spaces", "list", "--corpus", "tiny"]) == 0
    assert "home: generic, encoder minilm, 12x384, current" in capsys.readouterr().out
    assert main(["spaces", "build", "--corpus", "tiny", "--force", "--backend", "torch", "--precision", precision]) == 0
    assert f"generic: generic, encoder minilm (torch {precision}), 12 x 384" in capsys.readouterr().out


@pytest.mark.slow
def test_vital_cli_prints_all_kinds_from_the_shipped_assets_without_encoding():
    """Cold start: a fresh process, the corpus stored, spaces only in assets/ (projected, never encoded).
    How fast that is belongs to benchmarks/neighbours_bench.py, not to a test."""
    assert (SHIPPED_SPACES_DIR / "vital" / "generic" / "manifest.json").exists()
    argv = [sys.executable, "-m", "explore", "neighbours", "Marie Curie", "--kind", "all"]
    for _ in range(2):  # the first run stores the corpus and caches the index; the second reuses them
        out = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert "Pierre Curie" in out.stdout and "encode" not in out.stderr


def test_side_by_side_headings_wrap_instead_of_being_cut(monkeypatch, capsys):
    from explore.neighbours import Neighbour
    from explore.neighbours_cli import _print_side_by_side
    from explore.query import Kind, Query

    monkeypatch.setenv("COLUMNS", "60")
    names = ["union-country-occupation-aspectcse-fn", "union-country-occupation-aspectcse"]
    _print_side_by_side({Query(Kind.UNION, name): [Neighbour("a", "Alpha", 0.5)] for name in names})
    heading = capsys.readouterr().out.split("----")[0].splitlines()
    width = (60 - 4) // 2 - 2
    columns = ["".join(line[start:start + width].strip() for line in heading) for start in (4, 4 + width + 2)]
    assert columns == [f"union:{name}" for name in names]  # each full name reads off its column, nothing cut


def test_a_blend_can_weigh_the_seeds_links(stored_tiny, capsys):
    assert main(["neighbours", "Marie Curie", "--corpus", "tiny", "--kind", "blend:links:0.3,generic:0.7", "-k", "2"]) == 0
    out = capsys.readouterr().out
    assert "blend:links:0.3,generic:0.7" in out and "Pierre Curie" in out and "Radium" in out


def test_links_of_a_freshly_imported_corpus_encode_nothing(monkeypatch, capsys):
    """Links need no embeddings: asking for them must not start encoding a generic space (minutes on a big corpus)."""
    from explore.encoders.encoder import TransformerEncoder

    def refuse(*args, **kwargs):
        raise AssertionError("encoded a space to answer --kind links")

    monkeypatch.setattr(TransformerEncoder, "encode", refuse)
    store_corpus(aspect_corpus())
    assert main(["neighbours", "Marie Curie", "--corpus", "tiny", "--kind", "links"]) == 0
    out = capsys.readouterr().out
    assert "Pierre Curie" in out and "in the source's order" in out
    assert not (spaces_for(aspect_corpus(), progress=False).home / "generic").exists()


def test_links_are_ranked_by_a_generic_space_once_it_is_built(stored_tiny, capsys):
    assert main(["neighbours", "Marie Curie", "--corpus", "tiny", "--kind", "links"]) == 0
    assert "ordered by similarity to the seed" in capsys.readouterr().out


def test_side_by_side_shared_labels_wrap_instead_of_being_cut(monkeypatch, capsys):
    from explore.neighbours import Neighbour
    from explore.neighbours_cli import _print_side_by_side
    from explore.query import Kind, Query

    monkeypatch.setenv("COLUMNS", "100")
    shared = {"country": ["France", "Poland"], "occupation": ["physicist", "chemist"], "century": ["20th century"]}
    columns = {Query(kind): [Neighbour("p", "Pierre Curie", 0.9, shared)] for kind in (Kind.GENERIC, Kind.UNION)}
    _print_side_by_side(columns)
    out = capsys.readouterr().out
    assert "…" not in out
    words = " ".join(line[4:4 + 46] for line in out.splitlines()[3:])  # the first column, over its lines
    assert all(label in words for label in ("France, Poland", "physicist, chemist", "20th century"))


def test_a_reader_that_stops_reading_ends_the_command_quietly():
    import subprocess
    import sys

    code = ("import argparse, sys\n"
            "from explore.cli import run_command\n"
            "def flood(args):\n"
            "    for n in range(200000): print('line', n)\n"
            "sys.exit(run_command(argparse.Namespace(func=flood, command='neighbours')))\n")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.readline()
    process.stdout.close()  # `| head -1`
    assert process.wait(timeout=60) == 141 and process.stderr.read() == b""


def test_messages_name_the_real_default_data_home():
    import errno
    import pathlib

    from platformdirs import user_cache_dir

    from explore.errors import storage_error
    from explore.settings import data_home_words

    error = str(storage_error(OSError(errno.EIO, "Input/output error"), "run 'neighbours'"))
    assert data_home_words() in error and "~/.aspectnav" not in error
    default = str(pathlib.Path(user_cache_dir("aspectnav"))).replace(str(pathlib.Path.home()), "~", 1)
    assert data_home_words().endswith(f"by default {default})")  # ~/.cache/aspectnav on Linux


def test_more_columns_than_fit_are_printed_in_blocks_within_the_terminal(monkeypatch, capsys):
    from explore.neighbours import Neighbour
    from explore.neighbours_cli import _print_side_by_side
    from explore.query import Kind, Query

    monkeypatch.setenv("COLUMNS", "80")
    shared = {"country": ["France", "Poland"], "occupation": ["physicist", "chemist"]}
    kinds = (Kind.LINKS, Kind.GENERIC, Kind.UNION, Kind.INTERSECTION)
    _print_side_by_side({Query(kind): [Neighbour("p", "Pierre Curie", 0.9, shared)] for kind in kinds})
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80  # nothing the terminal would fold
    assert all(str(Query(kind)) in out for kind in kinds) and "…" not in out
