"""The weights of :mod:`.advantage`'s model, written by ``make train-advantage``
(960 hands of four strong, seed 1, 16 deals a turn).
"""

WEIGHTS = (
    -2.1035890999083575,  # bias
    -0.1830756872428498,  # score_gap
    2.0722729814896463,  # value_ratio
    -4.634872640669042,  # value_gap
    2.4740785289413516,  # dist_gap
    -0.8292157521948926,  # dist_worse
    -1.9774781267321189,  # units_gap
    -0.07863816837114757,  # risk_gap
    0.10028174501616023,  # risk_base
    -0.028747308497940834,  # honour_c
    -0.3652049569761808,  # valued_c
    0.09148720128955139,  # terminal_c
    -0.11641701746431617,  # honour_b
    0.13156115228035034,  # valued_b
    -0.030160241044830997,  # terminal_b
    -1.1704159912957368,  # seen_c
    0.49998064529084346,  # seen_b
    -0.08691012267844712,  # wall
    -0.020005599322812137,  # late
    0.39177678128544524,  # my_dist
    -0.06617778138144548,  # threats
    -1.072327694582416,  # waiting_b
    1.3034318162490723,  # waiting_c
    -0.24118215314998925,  # risk_gap_late
    0.3321575862041432,  # dist_gap_late
    -0.6634360775563707,  # value_gap_late
    -0.05649411564723193,  # risk_gap_threats
    0.009151378057072033,  # value_gap_far
)
