"""Every scoring pattern of RULES.md §4, one small function each, grouped by family:

* :mod:`.shapes` — sequence hand (平胡), lesser sequence hand, triplets hand, hidden treasure,
  eighteen arhats, thirteen wonders, nine gates
* :mod:`.flushes` — half flush, full flush, full flush with triplets / sequence hand, pure green
* :mod:`.terminals` — mixed terminals, pure terminals
* :mod:`.honours` — dragon and wind pongs, scholars, blessings, all honours
* :mod:`.bonus` — animals, seat flowers, flower sets, eight flowers
* :mod:`.circumstances` — heavenly/earthly/humanly hands, fully concealed, and the additional points
  (replacement wins, kong on kong, robbing the kong, last tile)

Importing this package fills :data:`sgmahjong.scoring.registry.PATTERNS` in that order (the order in
which a score lists its patterns).
"""

from ..registry import sort_registry
from . import bonus, circumstances, flushes, honours, shapes, terminals

sort_registry()

__all__ = ["bonus", "circumstances", "flushes", "honours", "shapes", "terminals"]
