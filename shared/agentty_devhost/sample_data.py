"""The demo's sample data, made once in `.demo/`: notes, a git repository mid-merge, a recorded agent session,
and a small library with a release checklist — plus the simulated window that points the plugins at them."""

from __future__ import annotations

import datetime
import json
import os
import re
import shutil
import subprocess
import textwrap
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from agentty_plugin.world import PaneSpec, WorkspaceSpec, World

# Bump when the generated data changes shape, so an old `.demo/` is rebuilt instead of half-used.
SAMPLE_VERSION = "4"
STAMP_NAME = ".sample-data-version"
# Fixed identity and dates: the sample repositories look the same on every machine and never read
# the user's git configuration (their name, signing keys or hooks must not leak into the demo).
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Demo Author", "GIT_AUTHOR_EMAIL": "demo@example.invalid",
    "GIT_COMMITTER_NAME": "Demo Author", "GIT_COMMITTER_EMAIL": "demo@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
}


@dataclass(frozen=True)
class SampleData:
    root: str

    @property
    def notes(self) -> str:
        return os.path.join(self.root, "notes")

    @property
    def shop_app(self) -> str:
        return os.path.join(self.root, "shop-app")

    @property
    def release_repo(self) -> str:
        return os.path.join(self.root, "tiny-lib")

    @property
    def session_file(self) -> str:
        return os.path.join(self.root, "session.json")

    @property
    def plugin_data(self) -> str:
        return os.path.join(self.root, "plugin-data")


# --------------------------------------------------------------------------- notes

def _note(title: str, body: str, tags: Sequence[str] = (), extra: str = "", date: str = "") -> str:
    tag_text = ", ".join(tags)
    header = f"---\ntitle: {title}\n" + (f"tags: [{tag_text}]\n" if tags else "") + (f"date: {date}\n" if date else "")
    return header + extra + "---\n\n" + textwrap.dedent(body).strip() + "\n"


def _notes(shop_app: str) -> Dict[str, str]:
    return {
        "projects/shop-app-architecture.md": _note("Shop app architecture", """
            # Shop app architecture

            The shop app is a small Python service: `cart.py` keeps the basket, `prices.py` computes
            totals and discounts, `checkout.py` talks to the payment provider.

            ## Decisions
            - Prices are integers in cents; never floats.
            - Discounts are applied before tax, rounded half to even.
            - The payment provider is called only from `checkout.py`.

            ## Open questions
            - Should coupons stack with seasonal discounts?
            """, tags=("architecture", "shop-app"), extra=f"cwd: {shop_app}\n", date="2026-11-02"),
        "projects/discount-rules.md": _note("Discount rules", """
            Seasonal discount: 10% on everything in December.
            Coupon codes: one per order, checked against the `coupons` table.
            Bulk discount: 5% when the cart holds 10 items or more.

            Edge case: a coupon and the bulk discount together must never make a price negative.
            """, tags=("shop-app", "pricing"), date="2026-11-20"),
        "meetings/2026-11-24-weekly.md": _note("Weekly sync — 24 November", """
            Attendees: Ana, Ben, Chloé

            - Release of tiny-lib 1.3.0 planned for Friday; Ben owns the checklist.
            - The discount branch conflicts with the price refactor; Ana resolves it.
            - Action: write down the meeting notes template.
            """, tags=("meeting",), date="2026-11-24"),
        "meetings/retro-october.md": _note("Retrospective — October", """
            What went well: the release checklist caught a missing changelog entry.
            What to improve: flaky payment tests; run them with a fake provider.
            """, tags=("meeting", "retro"), date="2026-10-31"),
        "how-to/release-a-library.md": _note("How to release a library", """
            1. Make sure the working tree is clean and you are on `main`.
            2. Bump the version in `pyproject.toml` and add a CHANGELOG entry.
            3. Run the tests, build, tag `vX.Y.Z`, push the tag.
            4. Announce the release.
            """, tags=("release", "how-to"), date="2026-09-12"),
        "how-to/git-merge-conflicts.md": _note("Resolving merge conflicts", """
            `git status` lists conflicted files as "both modified". Open each one, keep the right side
            of every `<<<<<<<` block, then `git add` the file and `git commit`.
            Ask the agent to explain both sides before choosing.
            """, tags=("git", "how-to"), date="2026-08-05"),
        "ideas.md": textwrap.dedent("""\
            # Ideas

            - A dark mode for the shop's admin page.
            - Search in notes by tag, e.g. tag:pricing.
            - Keyboard shortcuts for the checkout form.
            """),
        "ja/週次ミーティング.md": _note("週次ミーティング 11月24日", """
            参加者: 佐藤、鈴木、田中

            - tiny-lib 1.3.0 のリリースは金曜日の予定。チェックリストは鈴木さんが担当。
            - 割引ブランチが価格計算のリファクタリングと衝突している。佐藤さんが解消する。
            - 次回までに議事録のテンプレートを作る。
            """, tags=("会議",), date="2026-11-24"),
        "ja/決済フローの設計.md": _note("決済フローの設計", """
            # 決済フローの設計

            カートの合計金額は整数（円）で扱う。割引は税の前に適用する。
            決済プロバイダーへの呼び出しは `checkout.py` だけに置く。

            未解決: クーポンと季節割引を併用できるか。
            """, tags=("設計", "shop-app"), date="2026-11-05"),
        "ja/東京出張メモ.md": _note("東京出張メモ", """
            新幹線は 8:00 発。ホテルは品川駅の近く。
            打ち合わせでは新しい割引ルールとリリース手順を説明する。
            """, tags=("出張",), date="2026-10-18"),
    }


def _write_files(root: str, files: Dict[str, str]) -> None:
    for relative, text in files.items():
        path = os.path.join(root, *relative.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)


# --------------------------------------------------------------------------- git repositories

def _git(repo: str, *args: str, check: bool = True, when: str = "2026-11-20T10:00:00") -> None:
    env = dict(os.environ)
    env.update(GIT_ENV)
    env.update({"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when})
    result = subprocess.run(["git", "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", *args],
                            cwd=repo, env=env, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {repo}: {result.stderr.strip()}")


def _commit(repo: str, files: Dict[str, str], message: str, when: str) -> None:
    _write_files(repo, files)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message, when=when)


def _make_shop_app(repo: str) -> None:
    """A repository in the middle of a merge: one conflicted, one staged, one changed and two untracked files."""
    os.makedirs(repo)
    _git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    _commit(repo, {
        "README.md": "# shop-app\n\nA tiny shop: cart, prices, checkout.\n",
        "src/cart.py": ('def add(cart, sku, quantity=1):\n'
                        '    cart[sku] = cart.get(sku, 0) + quantity\n    return cart\n'),
        "src/prices.py": 'def total(cart, prices):\n    return sum(prices[sku] * n for sku, n in cart.items())\n',
        "src/checkout.py": 'def pay(amount_cents, provider):\n    return provider.charge(amount_cents)\n',
        "tests/test_cart.py": 'from src.cart import add\n\n\ndef test_add():\n    assert add({}, "a") == {"a": 1}\n',
    }, "Start the shop app", "2026-11-01T09:00:00")
    _git(repo, "checkout", "-q", "-b", "feature/discounts")
    _commit(repo, {"src/prices.py": (
        "def total(cart, prices, discount_percent=0):\n"
        "    gross = sum(prices[sku] * n for sku, n in cart.items())\n"
        "    return gross - gross * discount_percent // 100\n")}, "Add percentage discounts", "2026-11-18T15:00:00")
    _git(repo, "checkout", "-q", "main")
    _commit(repo, {"src/prices.py": (
        "def total(cart, prices):\n"
        "    \"\"\"Total in cents; prices are integers.\"\"\"\n"
        "    return sum(int(prices[sku]) * int(n) for sku, n in cart.items())\n")}, "Keep prices in integer cents",
        "2026-11-19T11:00:00")
    _git(repo, "merge", "--no-edit", "feature/discounts", check=False, when="2026-11-20T10:00:00")
    _write_files(repo, {"README.md": "# shop-app\n\nA tiny shop: cart, prices, discounts, checkout.\n"})
    _git(repo, "add", "README.md")
    _write_files(repo, {
        "src/cart.py": ('def add(cart, sku, quantity=1):\n    if quantity < 1:\n        raise ValueError("quantity")\n'
                        '    cart[sku] = cart.get(sku, 0) + quantity\n    return cart\n'),
        "docs/discounts.md": "# Discounts\n\nSeasonal, coupon and bulk discounts.\n",
        "scratch.txt": "try: coupon + bulk on a 12-item cart\n",
    })


def _make_release_repo(repo: str) -> None:
    """A small library released once (v1.2.0), with commits since and a checklist for the next release."""
    os.makedirs(repo)
    _git(repo, "-c", "init.defaultBranch=main", "init", "-q")
    _commit(repo, {
        "pyproject.toml": '[project]\nname = "tiny-lib"\nversion = "1.2.0"\n',
        "tiny_lib/__init__.py": '"""tiny-lib: small helpers."""\n\n\ndef greet(name):\n    return f"Hello, {name}!"\n',
        "tests/test_greet.py": (
            "import unittest\n\nfrom tiny_lib import greet\n\n\nclass GreetTest(unittest.TestCase):\n"
            "    def test_greet(self):\n        self.assertEqual(greet(\"Ana\"), \"Hello, Ana!\")\n"),
        "tests/__init__.py": "",
        "CHANGELOG.md": "# Changelog\n\n## 1.2.0\n- First public release.\n",
    }, "Release 1.2.0", "2026-10-01T10:00:00")
    _git(repo, "tag", "v1.2.0")
    _commit(repo, {"tiny_lib/__init__.py": (
        '"""tiny-lib: small helpers."""\n\n\ndef greet(name, punctuation="!"):\n'
        '    return f"Hello, {name}{punctuation}"\n')}, "Let greet take the punctuation", "2026-11-10T10:00:00")
    _commit(repo, {
        "pyproject.toml": '[project]\nname = "tiny-lib"\nversion = "1.3.0"\n',
        "CHANGELOG.md": ("# Changelog\n\n## 1.3.0\n- greet() takes the punctuation.\n\n"
                         "## 1.2.0\n- First public release.\n"),
        "RELEASE_CHECKLIST.md": textwrap.dedent("""\
            # Release checklist
            Tag format: `v{version}`
            Release branch: `main`

            - [ ] Working tree is clean: `release-check clean-tree`
            - [ ] On the release branch: `release-check on-branch`
            - [ ] Tests pass: `python3 -m unittest -q`
            - [ ] Changelog mentions {version}
            - [ ] Write the release notes: `Draft release notes for {version} from the changelog.` #agent
            - [ ] Push the tag: `git push origin {tag}` #terminal #irreversible
            - [ ] Announce the release in the team chat
            """),
    }, "Prepare 1.3.0", "2026-11-25T10:00:00")


# --------------------------------------------------------------------------- the recorded session

def _session(shop_app: str) -> Dict[str, object]:
    turns: List[Tuple[str, str]] = [
        ("user", "Add percentage discounts to the shop app. Prices must stay integer cents."),
        ("assistant", "I'll look at the pricing code first.\n\nI read `src/prices.py` and `src/cart.py`. "
                      "`total()` multiplies prices by quantities; there is no discount yet."),
        ("user", "Use a discount_percent argument, default 0."),
        ("assistant", "Done. I changed `src/prices.py`:\n\n```python\ndef total(cart, prices, discount_percent=0):\n"
                      "    gross = sum(prices[sku] * n for sku, n in cart.items())\n"
                      "    return gross - gross * discount_percent // 100\n```\n\n"
                      "Decision: the discount is rounded down with integer division, so prices never become floats."),
        ("user", "Run the tests."),
        ("assistant", "I ran `python3 -m pytest -q`: 1 passed. There is no test for discounts yet."),
        ("user", "Merge feature/discounts into main."),
        ("assistant", "I ran `git merge feature/discounts`. Error: CONFLICT (content): Merge conflict in "
                      "src/prices.py. main changed `total()` to cast prices with int(); "
                      "the branch added the discount."),
        ("user", "Keep both changes. Also validate the quantity in cart.add."),
        ("assistant", "I updated `src/cart.py` so `add()` raises ValueError for a quantity below 1. "
                      "The conflict in `src/prices.py` is still open: both sides must be combined by hand.\n\n"
                      "Next steps:\n- Resolve the conflict in src/prices.py\n- Add a test for discounts\n"
                      "- Document the discount rules in docs/discounts.md"),
        ("user", "Should coupons stack with the seasonal discount?"),
        ("assistant", "That is a product decision — the notes say it is still open. I suggest not stacking "
                      "them until the team decides."),
    ]
    return {
        "sessionId": "5f1c2a7e-demo-4b8e-9d3a-shopapp00001",
        "title": "Discounts for the shop app",
        "cwd": shop_app,
        "turns": [{"role": role, "text": text} for role, text in turns],
    }


# --------------------------------------------------------------------------- putting it together

def ensure_sample_data(root: str) -> SampleData:
    """Make the sample data in `root` unless it is already there (at this version); returns its paths."""
    data = SampleData(os.path.abspath(root))
    stamp = os.path.join(data.root, STAMP_NAME)
    try:
        with open(stamp, encoding="utf-8") as handle:
            if handle.read().strip() == SAMPLE_VERSION:
                seed_plugin_settings(data)
                return data
    except OSError:
        pass
    if shutil.which("git") is None:
        raise RuntimeError("the sample data needs git (e.g. apt-get install git)")
    # Only our own generated folders are replaced; the plugins' data folders (their settings) stay.
    for folder in (data.notes, data.shop_app, data.release_repo):
        if os.path.isdir(folder):
            shutil.rmtree(folder)
    os.makedirs(data.root, exist_ok=True)
    _write_files(data.notes, _notes(data.shop_app))
    _date_notes(data.notes)
    _make_shop_app(data.shop_app)
    _make_release_repo(data.release_repo)
    with open(data.session_file, "w", encoding="utf-8") as handle:
        json.dump(_session(data.shop_app), handle, ensure_ascii=False, indent=2)
    seed_plugin_settings(data)
    with open(stamp, "w", encoding="utf-8") as handle:
        handle.write(SAMPLE_VERSION + "\n")
    return data


def _date_notes(notes: str) -> None:
    """Give each note the modification time of its front-matter date, so "recent notes" has an order."""
    for base, _dirs, files in os.walk(notes):
        for name in files:
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as handle:
                match = re.search(r"^date: (\d{4}-\d{2}-\d{2})$", handle.read(), re.M)
            if match:
                stamp = datetime.datetime.strptime(match.group(1), "%Y-%m-%d").timestamp() + 9 * 3600
                os.utime(path, (stamp, stamp))


def seed_plugin_settings(data: SampleData) -> None:
    """Point the plugins at the sample data through their own settings files (what their panels would save).

    notes-search searches the sample notes; session-summarizer saves summaries next to them, so a saved
    summary shows up in notes-search and nothing is written outside `.demo/`. An existing file is kept:
    the user may have changed the settings in the panel since.
    """
    wanted = {
        "notes-search": {"roots": [data.notes]},
        "session-summarizer": {"notes_folder": os.path.join(data.notes, "agentty-sessions")},
    }
    for plugin_id, settings in wanted.items():
        folder = os.path.join(data.plugin_data, plugin_id)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = os.path.join(folder, "settings.json")
        if not os.path.exists(path):
            with open(path, "w", encoding="utf-8") as handle:
                json.dump(settings, handle, indent=2)


def demo_world(data: SampleData, language: str = "en") -> World:
    """Two workspaces: the shop app (Claude with the recorded session, a shell) and tiny-lib (Codex, a shell)."""
    with open(data.session_file, encoding="utf-8") as handle:
        session = json.load(handle)
    return World(
        workspaces=[
            WorkspaceSpec(id=1, name="shop-app", cwd=data.shop_app, panes=[
                PaneSpec(id=11, kind="claude", status="idle", cwd=data.shop_app, title="Claude Code", session=session),
                PaneSpec(id=12, kind="shell", status="shell", cwd=data.shop_app, title="zsh", tool="zsh"),
            ]),
            WorkspaceSpec(id=2, name="tiny-lib", cwd=data.release_repo, active=False, panes=[
                PaneSpec(id=21, kind="codex", status="idle", cwd=data.release_repo, title="Codex", session={
                    "sessionId": "codex-demo-2", "title": "Release 1.3.0", "turns": [
                        {"role": "user", "text": "Get tiny-lib ready for the 1.3.0 release."},
                        {"role": "assistant", "text": "The version is bumped in pyproject.toml and CHANGELOG.md."},
                    ]}),
                PaneSpec(id=22, kind="shell", status="shell", cwd=data.release_repo, title="zsh", tool="zsh"),
            ]),
        ],
        focused_pane=11,
        language=language,
    )


# Which pane the page focuses when a plugin is picked, so each demo plugin looks at the data made for it.
DEMO_FOCUS: Dict[str, int] = {"notes-search": 11, "git-status": 11, "session-summarizer": 11, "release-checklist": 21}


def demo_focus(plugin_ids: Sequence[str]) -> Dict[str, int]:
    return {plugin_id: DEMO_FOCUS[plugin_id] for plugin_id in plugin_ids if plugin_id in DEMO_FOCUS}


def describe(data: SampleData) -> str:
    return f"sample data in {data.root} (notes, shop-app mid-merge, tiny-lib with a release checklist, a session)"


def main(argv: Optional[Sequence[str]] = None) -> int:
    import sys

    root = (list(argv) if argv is not None else sys.argv[1:] or [".demo"])[0]
    print(describe(ensure_sample_data(root)))  # noqa: T201 - a command-line helper
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
