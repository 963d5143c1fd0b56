"""A self-played match staged as a camera over the table would see it, with the truth.

The director (:mod:`.director`) plays a match and writes it as *moments* (a
shot of the table held for a while: checkers, dice, cube, hands) and button
presses, planting faults with their labels; :mod:`.table` is the fixed set
(board, camera, light, the players' arms), :mod:`.throws` lands and tumbles
dice, :mod:`.mistakes` makes the illegal plays players make, and
:mod:`.timeline` holds the moments and the truth.  ``bgref demo`` films it
live; ``bench/streams`` films it for the referee's benchmarks and tests.
"""
