"""Relevant first (explore/relevant_first.py): a labelled column or a mix ranks the seed's related articles (its
generic nearest and its links), label-sharers first, generic similarity beside the column's space."""
import numpy as np

from explore.corpus.model import Article
from explore.query import Kind
from explore.relevant_first import RelevantFirst, Serving, relevant_pool, shared_share


def test_a_labelled_column_gives_its_kinds_share_to_generic_and_a_mix_keeps_its_own_weights():
    policy = RelevantFirst({Kind.ASPECT: Serving(50, 0.6), Kind.BLEND: Serving(30)})
    assert policy.served_mix(Kind.ASPECT, {"country": 1.0}, "generic") == {"country": 0.4, "generic": 0.6}
    assert policy.served_mix(Kind.BLEND, {"country": 0.5, "generic": 0.5}, "generic") == {"country": 0.5,
                                                                                         "generic": 0.5}
    assert policy.serves(Kind.ASPECT) and not policy.serves(Kind.GENERIC) and not policy.serves(Kind.SPACE)


def test_the_pool_is_the_generic_neighbours_and_the_links_without_the_seed():
    assert list(relevant_pool(np.array([7, 3, 5]), [9, 3], seed_row=5)) == [3, 7, 9]


def test_shared_share_counts_the_aspects_whose_label_is_shared_inferred_ones_too():
    seed = Article("s", "Seed", "", aspects={"country": ("France",), "occupation": ("painter",)})
    both = Article("a", "A", "", aspects={"country": ("France",), "occupation": ("painter",)})
    inferred = Article("b", "B", "", aspects={"occupation": ("writer",)}, inferred={"country": ("France",)})
    none = Article("c", "C", "")
    assert list(shared_share(seed, [both, inferred, none], ("country", "occupation"))) == [1.0, 0.5, 0.0]
    assert list(shared_share(seed, [both], ())) == [0.0]
