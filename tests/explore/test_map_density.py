"""Every article of a large corpus as a density image, and a box or lasso choosing from all of them by its shape."""
import base64
import io

import numpy as np
import pytest
from PIL import Image

from explore.map_density import density_image, padded_range, rows_in_box, rows_in_polygon


def _pixels(image) -> np.ndarray:
    data = base64.b64decode(image.data_uri.split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))


def test_every_point_is_drawn_in_its_label_colour_where_it_lies():
    coords = np.array([[0.0, 0.0]] * 50 + [[10.0, 10.0]] * 5, dtype=np.float32)
    codes = np.array([0] * 50 + [1] * 5)
    image = density_image(coords, codes, ["#ff0000", "#0000ff"], (0.0, 10.0), (0.0, 10.0), size=(11, 11))
    pixels = _pixels(image)
    assert image.points == 55
    # the image's first row is the top of the map (largest y)
    bottom_left, top_right = pixels[-1, 0], pixels[0, -1]
    assert bottom_left[0] > 200 and bottom_left[2] < 50 and bottom_left[3] > 0  # red where the 50 lie
    assert top_right[2] > 200 and top_right[0] < 50 and top_right[3] > 0  # blue where the 5 lie
    drawn_rows, drawn_columns = np.nonzero(pixels[..., 3])  # lone pixels grown by at most SPREAD_PX, nothing else
    near_corner = np.minimum(np.maximum(10 - drawn_rows, drawn_columns), np.maximum(drawn_rows, 10 - drawn_columns))
    assert near_corner.max() <= 2 and pixels[5, 5, 3] == 0


def test_a_lone_point_stays_visible_beside_a_crowd():
    coords = np.array([[0.0, 0.0]] * 10_000 + [[1.0, 1.0]], dtype=np.float32)
    pixels = _pixels(density_image(coords, np.zeros(len(coords), int), ["#000000"], (0.0, 1.0), (0.0, 1.0),
                                   size=(4, 4)))
    assert pixels[0, -1, 3] >= 150 and pixels[-1, 0, 3] > pixels[0, -1, 3]


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="one each"):
        density_image(np.zeros((3, 2)), np.zeros(2, int), ["#000000"])
    with pytest.raises(ValueError, match="colours"):
        density_image(np.zeros((3, 2)), np.array([0, 1, 2]), ["#000000"])
    with pytest.raises(ValueError, match="n × 2"):
        density_image(np.zeros((3, 3)), np.zeros(3, int), ["#000000"])
    with pytest.raises(ValueError, match="three vertices"):
        rows_in_polygon(np.zeros((3, 2)), [0, 1], [0, 1])
    with pytest.raises(ValueError, match="two x"):
        rows_in_box(np.zeros((3, 2)), [0], [0, 1])


def test_a_box_and_a_lasso_choose_every_point_inside_their_shape():
    grid = np.stack(np.meshgrid(np.arange(10.0), np.arange(10.0)), axis=-1).reshape(-1, 2)
    boxed = rows_in_box(grid, [6.5, 2.5], [1.5, 3.5])  # corners in either order
    assert sorted(map(tuple, grid[boxed])) == [(x, y) for x in (3.0, 4.0, 5.0, 6.0) for y in (2.0, 3.0)]
    # a triangle: x >= 0.5, y >= 0.5, x + y <= 4.5 → 1 ≤ x, y and x + y ≤ 4
    lassoed = rows_in_polygon(grid, [0.5, 4.0, 0.5], [0.5, 0.5, 4.0])
    assert sorted(map(tuple, grid[lassoed])) == sorted((x, y) for x in range(1, 4) for y in range(1, 4) if x + y <= 4)
    assert len(rows_in_polygon(grid, [20, 21, 20], [20, 20, 21])) == 0


def test_a_padded_range_holds_every_value_and_a_single_one_gets_a_width():
    low, high = padded_range(np.array([1.0, 3.0]))
    assert low < 1.0 and high > 3.0
    assert padded_range(np.array([2.0, 2.0])) == (1.5, 2.5)


def test_plotly_colours_are_read_as_hex():
    from explore.map_density import hex_colour

    assert hex_colour("rgb(127, 60, 141)") == "#7f3c8d" and hex_colour("#ABC") == "#aabbcc"
    with pytest.raises(ValueError, match="Cannot read"):
        hex_colour("teal")


def test_a_background_makes_the_image_opaque_where_no_point_lies():
    coords = np.array([[0.0, 0.0], [1.0, 1.0]])
    pixels = _pixels(density_image(coords, np.zeros(2, int), ["#000000"], (0.0, 1.0), (0.0, 1.0), size=(9, 9),
                                   background="white"))
    assert (pixels[..., 3] == 255).all() and tuple(pixels[4, 4, :3]) == (255, 255, 255)


ABSURD = (-1.79e308, 1.79e308)


def test_an_absurd_view_is_bounded_to_the_data_before_any_work():
    import warnings

    from explore.map_density import VIEW_MARGIN, bounded_view

    coords = np.array([[0.0, -2.0], [10.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or invalid-value warning on the way
        x_range, y_range = bounded_view(ABSURD, ABSURD, coords)
        assert x_range == (-10.0 * VIEW_MARGIN, 10.0 + 10.0 * VIEW_MARGIN)
        assert y_range == (-2.0 - 4.0 * VIEW_MARGIN, 2.0 + 4.0 * VIEW_MARGIN)
        assert bounded_view((2.0, 3.0), (-1.0, 1.0), coords) == ((2.0, 3.0), (-1.0, 1.0))  # a real zoom stays
        assert bounded_view((1e300, 1.79e308), (-1.0, 1.0), coords) is None  # nowhere near the data: the whole map
        narrow = bounded_view((5.0, 5.0 + 1e-12), (0.0, 1.0), coords)[0]  # finer than a pixel can place
        assert narrow[0] < 5.0 < narrow[1] and narrow[1] - narrow[0] > 1e-9


def test_a_density_image_of_an_absurd_range_draws_the_data_at_once_without_warnings():
    import time
    import warnings

    rng = np.random.default_rng(0)
    coords, codes = rng.normal(size=(100_000, 2)), rng.integers(0, 3, 100_000)
    colours = ["#ff0000", "#00ff00", "#0000ff"]
    density_image(coords, codes, colours)  # datashader compiled once
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        started = time.perf_counter()
        image = density_image(coords, codes, colours, ABSURD, ABSURD)
        assert time.perf_counter() - started < 1.0
    assert all(abs(value) < 100 for value in image.x_range + image.y_range)
    assert _pixels(image)[..., 3].any()  # the data is drawn, not lost in a range of 1e308
