"""Hand analysis: decompositions, special shapes, waits and shanten."""
