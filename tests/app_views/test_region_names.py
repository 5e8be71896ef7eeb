"""Region names on a map: inside what it shows, apart from each other and from the seed's label."""


def test_region_names_stay_inside_the_map_and_never_cover_each_other():
    import random

    from app_views.region_names import CHAR_PX, LINE_PX, PLOT_PX, placed_regions
    from explore.map_regions import Region

    def region(x, y, name, size=10):
        return Region(x, y, tuple(name.split(" · ")), tuple(range(size)))

    def boxes(placed):  # on a map of 0..100 both ways
        half_h = LINE_PX * 100 / PLOT_PX[1] / 2
        return [((x - (half_w := (CHAR_PX * len(r.name) + 8) * 100 / PLOT_PX[0] / 2), x + half_w),
                 (y - half_h, y + half_h)) for r, x, y in placed]

    def overlap(a, b):
        return all(a[axis][0] < b[axis][1] - 1e-9 and b[axis][0] < a[axis][1] - 1e-9 for axis in (0, 1))

    crowded = [region(50, 50, "Mathematics · Physical sciences", 30), region(52, 50, "Sciences · Technology", 20),
               region(99, 10, "Geography · History", 5), region(150, 50, "Far away")]
    placed = placed_regions(crowded, (0.0, 100.0), (0.0, 100.0))
    assert [r.name for r, _, _ in placed] == ["Mathematics · Physical sciences", "Sciences · Technology",
                                              "Geography · History"]  # the bigger first; off the map: no name
    rng = random.Random(3)
    many = [region(rng.uniform(0, 100), rng.uniform(0, 100), "Word · Other word", rng.randint(1, 50))
            for _ in range(30)]
    for placement in (placed, placed_regions(many, (0.0, 100.0), (0.0, 100.0))):
        found = boxes(placement)
        assert all(0 <= lo and hi <= 100 for box in found for lo, hi in box)  # never cut at an edge
        assert not any(overlap(a, b) for n, a in enumerate(found) for b in found[n + 1:])


def test_a_maps_plot_width_follows_its_column():
    from app_views.region_names import PLOT_PX, plot_width

    assert plot_width([4, 4], 0) == PLOT_PX[0]  # two maps side by side (measured: 537 px)
    assert abs(plot_width([4, 4, 3], 1) - 380) <= 2  # beside the seed's neighbour list (measured: 380 px)


def test_a_region_name_keeps_off_the_seeds_label():
    from app_views.region_names import placed_regions, pointer_boxes
    from explore.map_regions import Region

    seed_label = dict(x=50.0, y=50.0, ax=60, ay=-50, text="★ Marie Curie")  # up and to the right of the star
    avoid = pointer_boxes(seed_label, (0.0, 100.0), (0.0, 100.0))
    label_box = avoid[0]
    centre = ((label_box[0] + label_box[1]) / 2, (label_box[2] + label_box[3]) / 2)
    region = Region(centre[0], centre[1], ("United Kingdom", "People"), tuple(range(9)))
    for kept, x, y in placed_regions([region], (0.0, 100.0), (0.0, 100.0), avoid=avoid):
        assert abs(y - centre[1]) > (label_box[3] - label_box[2]) * 0.9  # moved a line off the label
