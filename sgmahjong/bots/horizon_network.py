"""The weights of :mod:`.horizon`'s network value: a placeholder until ``make train-horizon`` writes them."""

Layer = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]

MEAN: tuple[float, ...] = (0.0,) * 53
SCALE: tuple[float, ...] = (1.0,) * 53
HIDDEN: tuple[Layer, ...] = ((((0.0,) * 53,) * 64, (0.0,) * 64), (((0.0,) * 64,) * 64, (0.0,) * 64))
OUT: tuple[float, ...] = (0.0,) * 64
OUT_BIAS = 0.0
