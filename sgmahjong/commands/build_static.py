"""``sgmahjong build-static``: build the static files' hashed, compressed copies (docs/delivery.md)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", type=Path, default=None,
                        help="the static folder (default $SGMAHJONG_STATIC_DIR, else the package's)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the build folder (default $SGMAHJONG_STATIC_BUILD_DIR, else build/static in a"
                             " checkout, else ~/.cache/sgmahjong/static)")
    parser.add_argument("--quiet", action="store_true", help="print nothing")


def run(args: argparse.Namespace) -> int:
    from ..server.http.static_http import make_assets
    from ..server.settings import ServerSettings

    settings = ServerSettings.from_env()
    if args.source is not None:
        settings = settings.replace(static_dir=str(args.source))
    if args.out is not None:
        settings = settings.replace(static_build_dir=str(args.out))
    assets = make_assets(settings)
    build = assets.refresh()
    if not args.quiet:
        files = build.index["files"]
        print(f"release {build.release}: {len(files)} URLs in {build.folder}")
    return 0
