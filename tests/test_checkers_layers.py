"""Stacks of three layers whose phases lie close, and layers with a gap."""

from dataclasses import replace

from vision.checkers.stacks import StackConfig, StackFrame, read_stack


def _frame() -> StackFrame:
    """20-pixel checkers touching, rows starting right at the rail."""
    return StackFrame(spacing=40.0, radius=20.0, offset=(0.0, 0.0))


def _distances(slots: list[float]) -> list[float]:
    return [_frame().distance(s, top=False) for s in slots]


def test_a_third_layer_close_in_phase_to_the_second_is_counted() -> None:
    """Five in the row, four on it shifted 0.17 (perspective), three on those shifted
    twice as far: seen from above, the third layer's three from the rail, the second's
    last, the row's last.  The phases (0.33 and 0.17) lie closer than ``layer_gap``."""
    seen = [0.31, 1.35, 2.34, 3.17, 4.0]
    config = StackConfig()
    assert read_stack(_distances(seen), False, _frame(), config).count == 12
    assert read_stack(_distances(seen), False, _frame(),
                      replace(config, third_gap=0.0)).count == 9


def test_one_layer_with_spread_phases_stays_one_layer() -> None:
    """A second layer of four at phases 0.2-0.28 (sloppy placement), then the row's last:
    no run from the rail stands out twice as far, so nine."""
    assert read_stack(_distances([0.27, 1.2, 2.24, 3.22, 4.0]), False, _frame(),
                      StackConfig()).count == 9


def test_a_row_checker_far_out_taken_for_a_higher_one_is_no_third_layer() -> None:
    """A layer checker at the rail (0.26) and a row checker 0.15 off its slot three slots
    out: the two are no layers one on the other (a gap of three slots between them).  The
    row checker under the one at the rail is partly covered."""
    stack = read_stack(_distances([0.0, 0.26, 1.08, 2.03, 3.15, 4.03]), False, _frame(),
                       StackConfig(), [0.4, 0.0, 0.14, 0.0, 0.11, 0.0])
    assert stack.count == 7
    no_gap_test = replace(StackConfig(), third_step=10.0)
    assert read_stack(_distances([0.0, 0.26, 1.08, 2.03, 3.15, 4.03]), False, _frame(),
                      no_gap_test, [0.4, 0.0, 0.14, 0.0, 0.11, 0.0]).count == 10


def test_a_layer_with_a_gap_may_hold_the_checker_missing_there() -> None:
    """A second layer seen at slots 0, 1 and 3 (the one at 2 taken for the row checker it
    covers, partly covered by the next): the image counts eight, the layer filled from
    the rail nine is offered for the totals (and taken when the top layer counts by its
    extent)."""
    seen = [0.15, 1.15, 2.04, 3.17, 4.0]
    covered = [0.0, 0.0, 0.11, 0.0, 0.0]
    config = StackConfig()
    stack = read_stack(_distances(seen), False, _frame(), config, covered)
    assert stack.count == 8
    assert (9, config.gap_plausible) in stack.alternatives
    assert read_stack(_distances(seen), False, _frame(), replace(config, top_extent=True),
                      covered).count == 9
    plain = read_stack(_distances(seen), False, _frame(), replace(config, gap_plausible=0.0),
                       covered)
    assert all(count != 9 for count, _ in plain.alternatives)


def test_a_tiny_shift_layer_is_offered_only_with_its_checkers_beyond_their_slots() -> None:
    """Five seen at -0.05, 1.04, 1.95, 3.02, 4.0 (maybe two on a second layer shifted 0.1
    that perspective and the hand put at -0.05 and 0.04, maybe a row of five): the image
    counts five; seven is offered for the totals only with ``doubt_floor`` lowered (the
    default asks the run's checkers to lie beyond their slots)."""
    seen = [-0.05, 1.04, 1.95, 3.02, 4.0]
    config = StackConfig()
    stack = read_stack(_distances(seen), False, _frame(), config)
    assert stack.count == 5
    assert 7 not in [count for count, _ in stack.alternatives]
    low = read_stack(_distances(seen), False, _frame(), replace(config, doubt_floor=-0.5))
    assert 7 in [count for count, _ in low.alternatives]
    shifted = read_stack(_distances([0.06, 1.04, 1.99, 3.02, 4.0]), False, _frame(), config)
    assert 7 in [count for count, _ in shifted.alternatives]


def test_a_third_layer_too_close_to_tell_is_offered() -> None:
    """Row of five, a second layer of four shifted 0.13 and a third of two on it: seen
    from above, the third's two at phases 0.18 and 0.22, the second's last two at 0.14
    and 0.11, the row's last.  The third stands out by less than ``third_gap``: nine
    counted, eleven (the third layer) offered for the totals."""
    seen = [0.18, 1.22, 2.14, 3.11, 4.0]
    config = StackConfig()
    stack = read_stack(_distances(seen), False, _frame(), config)
    assert stack.count == 9
    assert (11, config.third_plausible) in stack.alternatives
    none = read_stack(_distances(seen), False, _frame(), replace(config, third_doubt=0.0))
    assert 11 not in [count for count, _ in none.alternatives]


def test_a_third_layer_on_whole_slots_runs_without_a_gap() -> None:
    """Twelve: a row of five, four on it shifted half a slot, three on those on whole
    slots 1-3 (perspective pulls them a little towards the rail).  Seen from above: the
    row's first and the second layer's first and last, partly covered; the third's three
    and the row's last on top.  The third's middle checker has no covered one beside it,
    yet lies between two of its layer: twelve, not eleven."""
    seen = [0.05, 0.45, 0.9, 1.9, 2.95, 3.46, 3.96]
    covered = [0.36, 0.34, 0.0, 0.0, 0.0, 0.31, 0.33]
    config = StackConfig()
    assert read_stack(_distances(seen), False, _frame(), config, covered).count == 12
    assert read_stack(_distances(seen), False, _frame(), replace(config, top_run=False),
                      covered).count == 11


def test_a_circle_overlapping_a_short_stacks_last_checker_is_no_checker() -> None:
    """A lone checker at the rail and a circle 0.57 slots out, overlapping it: no layer
    lies on a row of one, so the circle is a phantom (a rim in a grained point's base) and
    the stack holds one.  Off (``short_overlap`` 0) it read two; two checkers a whole slot
    apart and a row of four with a layer checker on it are unchanged."""
    config = StackConfig()
    assert read_stack(_distances([0.04, 0.57]), False, _frame(), config).count == 1
    assert read_stack(_distances([0.04, 0.57]), False, _frame(),
                      replace(config, short_overlap=0.0)).count == 2
    assert read_stack(_distances([0.02, 1.03]), False, _frame(), config).count == 2
    assert read_stack(_distances([0.0, 0.5, 1.0, 2.0, 3.0]), False, _frame(),
                      config).count == 5


def test_a_row_checker_just_past_the_phase_with_row_checkers_before_it_is_in_the_row() -> None:
    """A row of six spaced generously, its fourth checker jittered 0.14 out (pipeline
    tune seed 22, scene 257): alone that phase says a higher checker, and a layer starts
    at the rail, so the three before it were taken for its layer (six read as ten).  But
    they sit on their slots, not 0.14 out as a layer's would: the fourth is a row
    checker.  A layer whose checkers all stand out stays a layer."""
    config = StackConfig()
    row = _distances([0.01, 1.036, 2.033, 3.171, 4.149, 5.116])
    assert read_stack(row, True, _frame(), config).count == 6
    assert read_stack(row, True, _frame(), replace(config, rail_row=0.0)).count == 10
    layer = _distances([0.15, 1.16, 2.15, 3.0, 4.02, 5.0])
    assert read_stack(layer, True, _frame(), config).count == 9


def test_a_row_slot_beyond_the_reach_of_the_layer_seen_is_under_a_missed_one() -> None:
    """A layer a half shift out at 0.43 and 1.47 over a row of five whose slots 1-3 show
    nothing (checker bench tune seed 51, scene 63): the layer seen covers slots 0-2, so
    slot 3 lies under a third checker of it, missed (eight, not seven).  With slot 3 in
    view the layer ends where it is seen."""
    config = StackConfig()
    covered = [0.3, 0.0, 0.0, 0.0]
    missed = _distances([0.02, 0.43, 1.47, 4.0])
    assert read_stack(missed, True, _frame(), config, covered).count == 8
    assert read_stack(missed, True, _frame(), replace(config, hidden_reach=False),
                      covered).count == 7
    seen = _distances([0.02, 0.43, 1.47, 3.0, 4.0])
    assert read_stack(seen, True, _frame(), config, [*covered, 0.0]).count == 7


def test_a_row_checker_just_off_an_empty_slot_beside_a_half_shift_layer_is_the_rows() -> None:
    """A row of five with a layer checker half a shift out (0.47) and the row's second
    checker set 0.14 past its slot, where no other checker lies (the slots of checker
    bench tune seed 61, scene 191): that checker is the row's (six), not a second layer
    under a third (eight).  Off (``slot_row``), eight."""
    slots = [0.057, 0.474, 1.136, 1.99, 2.961, 3.991]
    covered = [0.3, 0.0, 0.2, 0.0, 0.0, 0.0]  # the layer checker lies on the first two
    assert read_stack(_distances(slots), False, _frame(), StackConfig(), covered).count == 6
    off = StackConfig(slot_row=False)
    assert read_stack(_distances(slots), False, _frame(), off, covered).count == 8
