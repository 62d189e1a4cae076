"""Subcommands of the ``sgmahjong`` CLI: each module has ``add_arguments(parser)`` and ``run(args)``."""
