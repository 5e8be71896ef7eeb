from app_views.trail import Trail


def test_visit_back_and_jump():
    trail = Trail()
    for seed in ["a", "b", "b", "c", "d"]:
        trail.visit(seed)
    assert trail.seeds == ["a", "b", "c", "d"]
    assert trail.back() == "c" and trail.current == "c"
    assert trail.jump(0) == "a" and trail.seeds == ["a"]
    assert trail.back() is None


def test_trail_is_bounded():
    trail = Trail(limit=3)
    for seed in "abcde":
        trail.visit(seed)
    assert trail.seeds == ["c", "d", "e"]
