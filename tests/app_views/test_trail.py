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
