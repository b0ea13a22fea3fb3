"""The `agentty-plugin` command: `new` writes a plugin folder to start from; `check` validates plugin folders;
`test` runs a plugin's tests without pytest;
`dev` runs them in a browser host; `bundle`, `install`, `uninstall`, `export` and `link` distribute them
(see agentty_plugin.distribution)."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from .checks import inspect_plugin
from .distribution import cli as distribution_cli


def _check(folders: List[str]) -> int:
    if not folders:
        sys.stderr.write("no plugin folders to check\n")
        return 0
    failed = 0
    for folder in folders:
        result = inspect_plugin(folder)
        notes = "".join(f"    warning: {w}\n" for w in result.warnings)
        if result.problems:
            failed += 1
            sys.stderr.write(f"✗ {result.plugin_id}\n" + "".join(f"    {p}\n" for p in result.problems) + notes)
        else:
            sys.stderr.write(f"✓ {result.plugin_id}\n" + notes)
    return 1 if failed else 0


def _new(plugin_id: str, dest: str) -> int:
    from .scaffold import ScaffoldError, new_plugin

    try:
        folder = new_plugin(plugin_id, dest)
    except (ScaffoldError, OSError) as error:
        sys.stderr.write(f"✗ {error}\n")
        return 1
    package = plugin_id.replace("-", "_")
    sys.stdout.write(
        f"✓ {plugin_id}: wrote {folder} (agentty-plugin.json, main.py, {package}/, tests/, README.md; "
        f"the runtime in _vendor/)\n"
        f"  Test it:    cd {folder} && python3 tests/run.py   (or python3 -m pytest)\n"
        f"  Install it: copy the folder to ~/.agentty/plugins/{plugin_id}/, then Plugins → Refresh in Agentty\n"
        f"  In the agentty-plugins checkout: --dest plugins, then make link PLUGIN={plugin_id} or make bundle\n"
        f"  Read next:  {folder}/README.md, then docs/writing-a-plugin.md in agentty-plugins\n")
    return 0


def _test(paths: List[str]) -> int:
    from .testrun import run

    return run(paths or ["tests"])


def _dev(arguments: List[str]) -> int:
    # Imported here, not at the top: the runtime stays standard-library only and the dev host needs aiohttp.
    try:
        from agentty_devhost.cli import main as dev_main
    except ImportError as error:
        sys.stderr.write(f"the dev host is not installed ({error}); "
                         "install it with: pip install 'agentty-plugin[devhost]'\n")
        return 2
    return dev_main(arguments)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="agentty-plugin", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="write a small working plugin folder <dest>/<id>/ to start from")
    new.add_argument("id", help="the plugin id, kebab-case (e.g. word-count); also the folder's name")
    new.add_argument("--dest", default=".", help="the folder to create it in (default: the current folder)")
    check = commands.add_parser("check", help="validate plugin folders (manifest, command handlers, main.py)")
    check.add_argument("folders", nargs="*")
    test = commands.add_parser("test", help="run test files or folders without pytest (what tests/run.py runs)")
    test.add_argument("paths", nargs="*", help="test files or folders (default: tests)")
    # The dev host parses its own options (`agentty-plugin dev --help`), so everything after `dev` goes to it.
    commands.add_parser("dev", help="run plugin folders in a browser as Agentty would (needs aiohttp)", add_help=False)
    distribution_cli.add_parsers(commands)  # bundle, install, uninstall, export, link
    args, rest = parser.parse_known_args(argv)
    if args.command == "dev":
        return _dev(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "new":
        return _new(args.id, args.dest)
    if args.command == "check":
        return _check(args.folders)
    if args.command == "test":
        return _test(args.paths)
    if args.command in distribution_cli.COMMANDS:
        return distribution_cli.run(args)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
