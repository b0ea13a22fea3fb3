"""Ecosystems beyond npm/PyPI/Cargo/Go (RubyGems, Packagist, SwiftPM, Hex, Hackage, pub, NuGet), and changelogs
a project stopped keeping: each on a real git repository with a tag, a bump commit and a local origin."""
from __future__ import annotations

from release_checklist import StepKind
from release_checklist.text import TEXT
from release_checklist.view_release import version_line
from tagged_repos import released_session


def _open(make_repo, with_remote, data_dir, files, bumped=None, tags=("v1.0.0",)):
    return released_session(make_repo, with_remote, data_dir, files, bumped, tag=tags[-1], earlier=tags[:-1])


def _after_push(session):
    push = next(index for index, step in enumerate(session.steps)
                if step.kind == StepKind.TERMINAL and (step.command or "").startswith("git push"))
    return session.steps[push + 1:]


def _commands(session):
    return [session.command_of(step) or "" for step in _after_push(session)]


GEMSPEC = 'Gem::Specification.new do |s|\n  s.name = "lib"\n  s.version = Lib::VERSION\nend\n'
RAKE_RELEASE = """name: Release
on:
  push:
    tags:
      - v*
jobs:
  release:
    steps:
      - uses: rubygems/configure-rubygems-credentials@v1.0.0
      - run: bundle exec rake release
"""
DART_PUBLISH = """on:
  push:
    tags: [ 'v[0-9]+.[0-9]+.[0-9]+*' ]
jobs:
  publish:
    uses: dart-lang/ecosystem/.github/workflows/publish.yaml@main
"""


def test_a_ruby_gem_is_built_and_pushed_to_rubygems(make_repo, with_remote, data_dir):
    version_rb = 'module Lib\n  VERSION = "{}"\nend\n'
    session = _open(make_repo, with_remote, data_dir, {"lib.gemspec": GEMSPEC, "Gemfile": "gemspec\n",
                                                       "lib/lib/version.rb": version_rb.format("1.0.0")},
                    bumped={"lib/lib/version.rb": version_rb.format("1.0.1")})
    assert (session.version, session.project.version_file) == ("1.0.1", "lib/lib/version.rb")
    assert session.publishing.kind == "command"
    assert _commands(session) == ["gem build lib.gemspec && gem push lib-1.0.1.gem"]


def test_a_gem_released_by_rake_release_on_a_tag_push_is_ci(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"lib.gemspec": GEMSPEC,
                                                       ".github/workflows/release.yml": RAKE_RELEASE})
    assert (session.publishing.kind, session.publishing.workflows) == ("ci-tag", (".github/workflows/release.yml",))


def test_packagist_and_swiftpm_serve_the_pushed_tag_and_the_panel_says_so(make_repo, with_remote, data_dir):
    php = _open(make_repo, with_remote, data_dir, {"composer.json": '{"name": "acme/lib", "type": "library"}\n'})
    assert (php.publishing.kind, php.publishing.registry) == ("go", "Packagist")
    after = _after_push(php)
    assert [step.kind for step in after] == [StepKind.MANUAL]
    assert "Packagist" in php.title_of(after[0]) and "v1.0.1" in php.command_of(after[0])
    swift = _open(make_repo, with_remote, data_dir + "2", {"Package.swift": "// swift-tools-version:5.9\n",
                                                           "Sources/Lib/Lib.swift": "public let x = 1\n"})
    assert (swift.publishing.kind, swift.publishing.registry) == ("go", "Swift Package Manager")
    # A C++ library whose Package.swift only wraps its headers for Swift users is not a Swift package.
    wrapper = _open(make_repo, with_remote, data_dir + "4", {"Package.swift": "// swift-tools-version:5.9\n",
                                                             "CMakeLists.txt": "project(lib VERSION 1.0.0)\n"})
    assert wrapper.publishing.kind == "manual"
    for language in ("en", "ja", "ko", "zh"):
        assert "Packagist" in TEXT.for_language(language)("confirm_registry", tag="v1.0.1", registry="Packagist")
    # An application's composer.json (type project) is not published anywhere.
    app = _open(make_repo, with_remote, data_dir + "3", {"composer.json": '{"name": "acme/app", "type": "project"}\n'})
    assert app.publishing.kind == "manual"


def test_hex_hackage_pub_and_nuget_versions_and_publish_commands(make_repo, with_remote, data_dir):
    mix = 'defmodule Lib.MixProject do\n  @version "{}"\n  def project, do: [app: :lib, version: @version]\nend\n'
    hex_package = _open(make_repo, with_remote, data_dir, {"mix.exs": mix.format("1.0.0")},
                        bumped={"mix.exs": mix.format("1.0.1")})
    assert (hex_package.version, hex_package.project.version_file) == ("1.0.1", "mix.exs")
    assert _commands(hex_package) == ["mix hex.publish"]

    cabal = "cabal-version: 2.2\nname:               lib\nversion:            {}\n"
    hackage = _open(make_repo, with_remote, data_dir + "2", {"lib.cabal": cabal.format("2.3.1.0")},
                    bumped={"lib.cabal": cabal.format("2.3.2.0")}, tags=("v2.3.1.0",))
    assert (hackage.version, hackage.project.version_file) == ("2.3.2.0", "lib.cabal")
    assert any("cabal upload" in command for command in _commands(hackage))

    pubspec = "name: lib\nversion: {}\nenvironment:\n  sdk: ^3.0.0\n"
    pub = _open(make_repo, with_remote, data_dir + "3", {"pubspec.yaml": pubspec.format("2.5.0")},
                bumped={"pubspec.yaml": pubspec.format("2.5.1")}, tags=("v2.5.0",))
    assert (pub.version, pub.project.version_file) == ("2.5.1", "pubspec.yaml")
    assert _commands(pub) == ["dart pub publish"]
    ci = _open(make_repo, with_remote, data_dir + "4", {"pubspec.yaml": pubspec.format("2.5.0"),
                                                        ".github/workflows/publish.yaml": DART_PUBLISH},
               tags=("v2.5.0",))
    assert (ci.publishing.kind, ci.publishing.workflows) == ("ci-tag", (".github/workflows/publish.yaml",))

    csproj = '<Project Sdk="Microsoft.NET.Sdk"/>\n'
    nuget = _open(make_repo, with_remote, data_dir + "5", {"Src/Lib/Lib.csproj": csproj, "Src/Lib.sln": "\n"})
    assert any("dotnet nuget push" in command for command in _commands(nuget))


CHANGELOG = "# Changelog\n\n## v1.0.0 (2024-02-16)\n\n- First.\n"


def test_a_changelog_that_stopped_before_the_last_release_is_not_required(make_repo, with_remote, data_dir):
    session = _open(make_repo, with_remote, data_dir, {"go.mod": "module example.com/lib\n",
                                                       "CHANGELOG.md": CHANGELOG},
                    tags=("v1.0.0", "v1.1.0", "v1.2.0", "v1.3.2"))
    assert session.project.changelog_file is None
    assert session.project.changelog_stopped == ("CHANGELOG.md", "1.0.0")
    assert not any("changelog-entry" in (step.command or "") for step in session.steps)
    assert any(step.kind == StepKind.AGENT for step in session.steps)  # release notes are drafted instead
    for language in ("en", "ja", "ko", "zh"):
        line = version_line(session, TEXT.for_language(language))
        assert "CHANGELOG.md" in line and "1.0.0" in line and "v1.3.2" in line


def test_a_changelog_pointing_to_github_releases_is_not_required(make_repo, with_remote, data_dir):
    text = ("Change Log\n==========\n\nThe change log for versions newer than 2.10 is available only on the "
            "[GitHub Releases page](https://github.com/acme/lib/releases).\n\n## Version 2.10\n\n* Change.\n")
    session = _open(make_repo, with_remote, data_dir, {"pom.xml": "<project/>\n", "CHANGELOG.md": text},
                    tags=("v2.10", "v2.10.1"))
    assert session.project.changelog_stopped == ("CHANGELOG.md", "2.10")
    assert not any("changelog-entry" in (step.command or "") for step in session.steps)


def test_a_kept_changelog_that_missed_only_the_new_entry_still_fails(make_repo, with_remote, data_dir):
    """One release behind is a changelog the project keeps: the missing entry fails, never a pass."""
    text = "# Changelog\n\n## v1.2.0\n\n- Change.\n\n## v1.1.0\n\n- Change.\n"
    session = _open(make_repo, with_remote, data_dir, {"go.mod": "module example.com/lib\n", "CHANGELOG.md": text},
                    tags=("v1.1.0", "v1.2.0"))
    assert session.project.changelog_stopped is None
    step = next(step for step in session.steps if "changelog-entry" in (step.command or ""))
    assert session.run_step(step.id).state == "failed"
