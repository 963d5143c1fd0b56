"""``bench/vision_accuracy.py --learn-colours``: each scene is also read as the live stream
reads it, with the colours a ``BoardReader(stream=True)`` learns from the scene's start
(rendered in the scene's style, camera and light)."""

from bench.vision_accuracy import run_render


def test_a_red_board_of_one_colour_is_right_only_with_the_colours_learned() -> None:
    """Tune seed 31, scene 5: a red-black set's red side alone on the field (no tray in
    view); read alone its red is taken for dark, with the model learned from the start it
    is light."""
    board, checkers, alone, learned, has_model = run_render(31_000_005, 1.0, learn=True)
    assert (board, checkers) == ("green-felt", "red-black")
    assert has_model and learned is not None
    assert (alone.boards, alone.boards_right) == (1, 0)
    assert (learned.boards, learned.boards_right) == (1, 1)


def test_without_the_flag_only_the_lone_read_is_made() -> None:
    board, checkers, alone, learned, has_model = run_render(21_000_015, 1.0)
    assert learned is None and not has_model
    assert (board, checkers) == ("maple-walnut", "white-black")
    assert alone.boards == 1
