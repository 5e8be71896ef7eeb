from app_views.trail import Trail


def walked(*seeds, limit=12) -> Trail:
    trail = Trail(limit=limit)
    for seed in seeds:
        trail.visit(seed)
    return trail


def test_visit_back_and_forward_like_a_browser():
    trail = walked("a", "b", "b", "c", "d")
    assert trail.seeds == ["a", "b", "c", "d"] and trail.current == "d"
    assert trail.back() == "c" and trail.current == "c" and trail.forward_part == ["d"]
    assert trail.forward() == "d" and trail.forward() is None and trail.current == "d"


def test_jumping_back_keeps_the_rest_of_the_trail():
    trail = walked("a", "b", "c", "d")
    assert trail.jump(0) == "a" and trail.seeds == ["a", "b", "c", "d"] and trail.forward_part == ["b", "c", "d"]
    assert trail.back() is None and trail.current == "a"
    assert trail.jump(3) == "d" and trail.forward_part == []


def test_a_new_seed_from_an_earlier_place_drops_the_forward_part():
    trail = walked("a", "b", "c", "d")
    trail.jump(1)
    trail.visit("x")
    assert trail.seeds == ["a", "b", "x"] and trail.current == "x" and trail.forward_part == []


def test_visiting_the_next_seed_moves_forward_and_keeps_the_rest():
    trail = walked("a", "b", "c")
    trail.jump(0)
    trail.visit("b")
    assert trail.seeds == ["a", "b", "c"] and trail.current == "b"


def test_trail_is_bounded():
    trail = walked(*"abcde", limit=3)
    assert trail.seeds == ["c", "d", "e"] and trail.current == "e"


def test_an_empty_trail():
    trail = Trail()
    assert trail.current is None and trail.back() is None and trail.forward() is None and trail.forward_part == []


def test_a_seed_the_url_brings_moves_along_the_trail_like_the_browsers_back_and_forward():
    trail = walked("Marie Curie", "Pierre Curie", "Henri Becquerel")
    trail.arrive("Pierre Curie")  # the browser's Back
    assert (trail.seeds, trail.current) == (["Marie Curie", "Pierre Curie", "Henri Becquerel"], "Pierre Curie")
    trail.arrive("Marie Curie")  # Back again
    assert trail.current == "Marie Curie" and trail.forward_part == ["Pierre Curie", "Henri Becquerel"]
    trail.arrive("Pierre Curie")  # the browser's Forward
    assert (trail.seeds, trail.position) == (["Marie Curie", "Pierre Curie", "Henri Becquerel"], 1)
    trail.arrive("Henri Becquerel")
    assert trail.position == 2 and not trail.forward_part


def test_a_url_seed_on_the_trail_twice_goes_to_the_nearest_crumb_and_a_new_one_is_visited():
    trail = walked("a", "b", "a", "c", "d")
    trail.arrive("a")  # two crumbs say "a": the nearer one, index 2
    assert trail.position == 2 and trail.forward_part == ["c", "d"]
    trail.arrive("e")  # not on the trail: a new seed from here drops the forward part
    assert trail.seeds == ["a", "b", "a", "e"] and trail.current == "e"
