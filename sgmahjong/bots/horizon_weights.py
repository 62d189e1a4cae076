"""The weights of :mod:`.horizon`'s model, written by ``make train-horizon``
(1500 hands of four strong, seed 1, 20 quick playouts from each).
"""

WEIGHTS = (
    5.74737362917743,  # bias
    -2.4728543077433924,  # wall
    15.61124359098214,  # dist0
    -10.323667346201207,  # dist_wall0
    0.6594361465322842,  # dist1
    3.0388639035092826,  # dist_wall1
    -2.541478658085271,  # dist2
    2.5878579283857315,  # dist_wall2
    -4.107685217142091,  # dist3
    1.790693610706543,  # dist_wall3
    -4.523574628138842,  # dist4
    0.5608490499803042,  # dist_wall4
    -5.097941226510457,  # dist5
    -0.12745146436462482,  # dist_wall5
    -3.357362928645771,  # ready
    1.3611222658082482,  # ready_wall
    0.2768603277802479,  # tai
    2.561387824427288,  # tai_ready
    4.562669295846096,  # tai_wall
    -0.4188537786667792,  # sets
    -0.0667374067599776,  # dealer
    -0.8449821444320518,  # others_ready0
    -3.3831693668413623,  # others_ready_wall0
    -0.12188993402878404,  # others_ready1
    -1.0453415688195773,  # others_ready_wall1
    0.31390122548886096,  # others_ready2
    -0.028774921751040964,  # others_ready_wall2
    0.6529708653560687,  # others_ready3
    1.9844315354242201,  # others_ready_wall3
    -3.648768822241883,  # others_nearest0
    -0.04691594306261794,  # others_nearest1
    1.0739181784941327,  # others_nearest2
    2.621766589425076,  # others_nearest3
    -1.0502115389374969,  # others_tai
    -0.3732143146432118,  # others_ready_tai
    -1.4131217065881325,  # others_ready_tai_wall
    0.06923546552802237,  # to_move
)
