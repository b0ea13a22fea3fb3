"""The `agentty-plugin` command: `check` validates plugin folders; `dev` runs them in a browser host."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from .checks import check_plugin


def _check(folders: List[str]) -> int:
    if not folders:
        sys.stderr.write("no plugin folders to check\n")
        return 0
    failed = 0
    for folder in folders:
        plugin_id, problems = check_plugin(folder)
        if problems:
            failed += 1
            sys.stderr.write(f"✗ {plugin_id}\n" + "".join(f"    {p}\n" for p in problems))
        else:
            sys.stderr.write(f"✓ {plugin_id}\n")
    return 1 if failed else 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="agentty-plugin", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="validate plugin folders (manifest, command handlers, main.py)")
    check.add_argument("folders", nargs="*")
    args = parser.parse_args(argv)
    if args.command == "check":
        return _check(args.folders)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
