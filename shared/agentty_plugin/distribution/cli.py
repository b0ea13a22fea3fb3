"""The `bundle`, `install`, `uninstall`, `export` and `link` subcommands of `agentty-plugin` (and of the Makefile)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, List

from .bundle import BundleResult, bundle_plugin, plugin_folders, remove_development_vendor, vendor_for_development
from .export import export
from .install import REFRESH_HINT, agentty_home, install, link, uninstall, unlink
from .wheels import BundleError

COMMANDS = ("bundle", "install", "uninstall", "export", "link")


def add_parsers(commands: Any) -> None:
    """Register the subcommands on the `agentty-plugin` parser's subparsers object."""
    bundle = commands.add_parser("bundle", help="build dist/<id>/ and dist/<id>-<version>.zip for plugins")
    bundle.add_argument("plugins", nargs="*", help="plugin ids (default: every plugin in --plugins-dir)")
    bundle.add_argument("--plugins-dir", default="plugins")
    bundle.add_argument("--dist", default="dist", help="output folder (default: dist)")
    bundle.add_argument("--cache", help="wheel cache (default: <dist>/.wheels)")
    bundle.add_argument("--no-zip", action="store_true")
    bundle.add_argument("--no-vermin", action="store_true", help="skip the vermin minimum-version check")
    bundle.add_argument("--pip-arg", action="append", default=[], help="extra argument for `pip download`")

    inst = commands.add_parser("install", help="copy bundles into ${AGENTTY_HOME:-~/.agentty}/plugins/<id>/")
    inst.add_argument("plugins", nargs="*", help="bundle folders or plugin ids in --dist (default: every bundle)")
    inst.add_argument("--dist", default="dist")
    inst.add_argument("--home", help="Agentty's folder (default: $AGENTTY_HOME or ~/.agentty)")

    rm = commands.add_parser("uninstall", help="remove installed plugins as Agentty's Uninstall does")
    rm.add_argument("plugins", nargs="+", help="plugin ids")
    rm.add_argument("--home")
    rm.add_argument("--keep-data", action="store_true", help="keep plugin-data/<id>/ (Agentty deletes it)")

    exp = commands.add_parser("export", help="write or update a git repository whose root is a bundle")
    exp.add_argument("plugin", help="plugin id (bundled in --dist) or a bundle folder")
    exp.add_argument("dest", help="the repository folder (created if missing)")
    exp.add_argument("--dist", default="dist")

    dev = commands.add_parser("link", help="link checkout plugin folders into Agentty for edit-and-restart work")
    dev.add_argument("plugins", nargs="+", help="plugin ids")
    dev.add_argument("--plugins-dir", default="plugins")
    dev.add_argument("--home")
    dev.add_argument("--cache", default=os.path.join("dist", ".wheels"))
    dev.add_argument("--remove", action="store_true", help="remove the links instead (folders stay)")


def _out(text: str) -> None:
    """Command output goes to stdout (this is a command line tool, not a plugin)."""
    sys.stdout.write(text + "\n")


def _size(n: int) -> str:
    return f"{n / 1024:.0f} KiB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MiB"


def _bundle(args: argparse.Namespace) -> int:
    folders: List[str] = []
    for plugin_id in args.plugins or [None]:
        folders += plugin_folders(args.plugins_dir, plugin_id)
    if not folders:
        raise BundleError(f"no plugins with an agentty-plugin.json under {args.plugins_dir}")
    results: List[BundleResult] = []
    for folder in folders:
        results.append(bundle_plugin(folder, args.dist, cache_dir=args.cache, make_zip=not args.no_zip,
                                     vermin=not args.no_vermin, pip_args=args.pip_arg))
        result = results[-1]
        zipped = f", {_size(os.path.getsize(result.zip_path))} zipped" if result.zip_path else ""
        _out(f"✓ {result.plugin_id} {result.version}: {result.folder} ({_size(result.size)}{zipped}, "
              f"{result.seconds:.1f} s)")
        _out(f"    runtime: {', '.join(result.runtime_modules)}")
        _out(f"    packages: {', '.join(result.packages) or 'none'}")
        if result.left_out:
            _out(f"    left out (main.py never imports them): {', '.join(result.left_out)}")
        for warning in result.warnings:
            _out(f"    warning: {warning}")
    _out("Install one: make install PLUGIN=<id>  (or copy dist/<id>/ to ~/.agentty/plugins/<id>/), then "
          "Plugins → Refresh in Agentty.")
    return 0


def _install(args: argparse.Namespace) -> int:
    targets = args.plugins or [name for name in sorted(os.listdir(args.dist))
                               if os.path.isfile(os.path.join(args.dist, name, "agentty-plugin.json"))]
    if not targets:
        raise BundleError(f"nothing to install in {args.dist}; run `make bundle` first")
    for target in targets:
        is_folder = os.path.isfile(os.path.join(target, "agentty-plugin.json"))
        folder = target if is_folder else os.path.join(args.dist, target)
        result = install(folder, args.home)
        what = f"replaced {result.replaced}" if result.replaced else "new"
        _out(f"✓ {result.plugin_id} {result.version} → {result.folder} ({what})")
        _out(f"    its data folder {result.data_dir} is left as it was")
    _out(REFRESH_HINT)
    return 0


def _uninstall(args: argparse.Namespace) -> int:
    for plugin_id in args.plugins:
        result = uninstall(plugin_id, args.home, keep_data=args.keep_data)
        note = " (development link removed; its folder is untouched)" if result.unlinked else ""
        _out(f"✓ {plugin_id} uninstalled{note}" + "".join(f"\n    removed {path}" for path in result.removed))
    _out(REFRESH_HINT)
    return 0


def _export(args: argparse.Namespace) -> int:
    folder = args.plugin if os.path.isdir(args.plugin) else os.path.join(args.dist, args.plugin)
    if not os.path.isdir(folder):
        raise BundleError(f"no bundle at {folder}; run `make bundle PLUGIN={args.plugin}` first")
    result = export(folder, args.dest)
    state = "committed" if result.created else "already up to date at"
    _out(f"✓ {result.plugin_id} {result.version} {state} {result.commit[:12]} in {result.repository}")
    _out(f"  Push it (git -C {result.repository} push <https-remote> main --tags), then in Agentty use "
          f"Plugins → Install from Git with the https:// address.")
    return 0


def _link(args: argparse.Namespace) -> int:
    for plugin_id in args.plugins:
        folder = plugin_folders(args.plugins_dir, plugin_id)[0]
        if args.remove:
            removed = unlink(plugin_id, args.home)
            cleaned = remove_development_vendor(folder)
            _out((f"✓ {plugin_id} unlinked" if removed else f"- {plugin_id} was not linked")
                 + (f"; removed {os.path.join(folder, '_vendor')}" if cleaned else ""))
            continue
        packages = vendor_for_development(folder, args.cache)
        link(folder, args.home)
        extra = f" with {', '.join(packages)} in {os.path.join(folder, '_vendor')}" if packages else ""
        _out(f"✓ {plugin_id} linked from {os.path.abspath(folder)}{extra}")
    if args.remove:
        _out("In Agentty press Plugins → Refresh.")
        return 0
    where = os.path.join(agentty_home(args.home), "plugins", "state.json")
    _out(f"Recorded in {where}. In Agentty press Plugins → Refresh; after editing code press Restart on the "
          f"plugin's card. Remove the link with: make link PLUGIN=<id> REMOVE=1")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run one of COMMANDS; a BundleError becomes a clear message and exit status 1."""
    handlers = {"bundle": _bundle, "install": _install, "uninstall": _uninstall, "export": _export, "link": _link}
    try:
        return handlers[args.command](args)
    except BundleError as error:
        sys.stderr.write(f"✗ {error}\n")
        return 1
    except OSError as error:  # a file in use (a running plugin on Windows), a full disk, no permission
        sys.stderr.write(f"✗ {error}\n  If Agentty is running the plugin, stop it on its card and try again.\n")
        return 1
