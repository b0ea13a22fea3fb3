"""Change logs read by their structure: plain-text entries whose version sits inside a heading sentence, XML
and Debian-style logs, top-level list items that are only a version, and a missing-entry hint written in the
file's own format (issue 26, draw A and round 5)."""
from __future__ import annotations

from release_checklist.command_runner import Outcome, run_command
from release_checklist.project_files import changelog_mentions, find_changelog, top_changelog_version

# libpcap's shape: a date line, then an indented sentence naming the version, then indented sections.
PCAP = ("Tuesday, December 30, 2025 / The Group\n  Summary for 1.10.6 demo release\n    General:\n"
        "      Fix a crash introduced in 1.10.5 (pull request\n        #1008).\n\n"
        "Friday, August 30, 2024 / The Group\n  Summary for 1.10.5 demo release\n    General:\n      Things.\n\n"
        "Friday, April 7, 2023 / The Group\n  Summary for 1.10.4 demo release\n    General:\n      More.\n")
CHANGES_XML = ('<?xml version="1.0" ?>\n<!DOCTYPE change_log SYSTEM "../../dtd/changes.dtd" >\n\n'
               '<change_log title="demo">\n\n<changes ver="1.31.4" date="2026-08-19">\n\n<change type="bugfix">\n'
               '<para lang="en">\na fix.\n</para>\n</change>\n\n</changes>\n\n'
               '<changes ver="1.31.3" date="2026-07-15">\n\n<change type="feature">\n<para lang="en">\nx.\n</para>\n'
               '</change>\n\n</changes>\n\n</change_log>\n')
DEBIAN = ("demo (2.4.1-1) unstable; urgency=medium\n\n  * New upstream release.\n\n"
          " -- Maintainer <m@example.invalid>  Mon, 01 Jun 2026 10:00:00 +0000\n\n"
          "demo (2.4.0-2) unstable; urgency=low\n\n  * Packaging fix.\n\n"
          " -- Maintainer <m@example.invalid>  Mon, 01 May 2026 10:00:00 +0000\n")


def check(repo, *args: str):
    return run_command(["release-check", *args], str(repo))


def test_a_version_inside_an_indented_heading_sentence_is_an_entry(make_repo):
    repo = make_repo(version=None, files={"CHANGES": PCAP}, tags=("demo-1.10.6",))
    assert changelog_mentions(PCAP, "1.10.6") == 2
    # "introduced in 1.10.5 (pull request" is a wrapped sentence of an entry, not 1.10.5's heading.
    assert changelog_mentions(PCAP, "1.10.5") == 8
    assert top_changelog_version(PCAP) == "1.10.6"
    found = check(repo, "changelog-entry", "1.10.6", "CHANGES")
    assert found.outcome == Outcome.PASSED and "line 2" in found.lines[0]
    # The hint is in the file's own format, never a Markdown heading for a plain-text file.
    missing = check(repo, "changelog-entry", "1.10.7", "CHANGES")
    assert missing.outcome == Outcome.FAILED
    assert '"  Summary for 1.10.7 demo release"' in missing.lines[0] and "##" not in missing.lines[0]


def test_headings_that_are_sentences_at_the_top_of_plain_release_notes(make_repo):
    notes = "curl and libcurl 8.21.1\n\n Public curl releases:         275\n\nThis release includes:\n\n o fix\n"
    versions = "Version 1.2.3 (2026-05-01)\n\n  * Fixed things.\n\nVersion 1.2.2 (2026-04-01)\n\n  * Other.\n"
    assert changelog_mentions(notes, "8.21.1") == 1
    assert changelog_mentions(versions, "1.2.2") == 5 and top_changelog_version(versions) == "1.2.3"
    repo = make_repo(version=None, files={"NEWS": versions})
    missing = check(repo, "changelog-entry", "1.2.4", "NEWS")
    assert missing.outcome == Outcome.FAILED and '"Version 1.2.4 (2026-05-01)"' in missing.lines[0]


def test_a_link_reference_is_not_an_entry(make_repo):
    text = ("# Changelog\n\n## [1.1.0] - 2026-01-01\n\n- x\n\n[1.2.0]: https://example.invalid/compare/v1.1.0...v1.2.0\n"
            "[1.1.0]: https://example.invalid/compare/v1.0.0...v1.1.0\n")
    assert changelog_mentions(text, "1.2.0") is None
    repo = make_repo(version=None, changelog=text)
    missing = check(repo, "changelog-entry", "1.2.0", "CHANGELOG.md")
    assert missing.outcome == Outcome.FAILED and '"## [1.2.0] - 2026-01-01"' in missing.lines[0]


def test_an_xml_change_log_is_found_and_checked(make_repo):
    repo = make_repo(version=None, files={"docs/xml/demo/changes.xml": CHANGES_XML, "src/core/demo.c": "int x;\n"})
    assert find_changelog(str(repo.path), ["1.31.4"]) == "docs/xml/demo/changes.xml"
    assert top_changelog_version(CHANGES_XML) == "1.31.4"
    found = check(repo, "changelog-entry", "1.31.4", "docs/xml/demo/changes.xml")
    assert found.outcome == Outcome.PASSED and "line 6" in found.lines[0]
    missing = check(repo, "changelog-entry", "1.31.5", "docs/xml/demo/changes.xml")
    assert missing.outcome == Outcome.FAILED and '<changes ver="1.31.5" date="2026-08-19">' in missing.lines[0]
    # The XML declaration's version="1.0" is no entry.
    assert changelog_mentions(CHANGES_XML, "1.0") is None


def test_a_debian_style_change_log(make_repo):
    assert changelog_mentions(DEBIAN, "2.4.1") == 1 and changelog_mentions(DEBIAN, "2.4.0") == 7
    assert changelog_mentions(DEBIAN, "2.4") is None and top_changelog_version(DEBIAN) == "2.4.1"
    repo = make_repo(version=None, files={"debian/changelog": DEBIAN, "src/demo.c": "int x;\n"})
    assert find_changelog(str(repo.path), ["2.4.1"]) == "debian/changelog"
    assert check(repo, "changelog-entry", "2.4.1", "debian/changelog").outcome == Outcome.PASSED
    missing = check(repo, "changelog-entry", "2.4.2", "debian/changelog")
    assert missing.outcome == Outcome.FAILED and '"demo (2.4.2-1) unstable; urgency=medium"' in missing.lines[0]


BULLETED = ("* 2.4.1 (2026-06-01)\n  - Fixed a crash.\n  - Bump the minimum to 1.9.0\n"
            "* 2.4.0 (2026-05-01)\n  - Added x.\n")


def test_top_level_list_items_that_are_only_a_version_head_their_entries(make_repo):
    assert changelog_mentions(BULLETED, "2.4.1") == 1 and changelog_mentions(BULLETED, "2.4.0") == 4
    assert top_changelog_version(BULLETED) == "2.4.1"
    assert changelog_mentions(BULLETED, "1.9.0") is None  # a change line that names a version is no heading
    # A list of changes that each name a version is no list of entries.
    assert changelog_mentions("# Changes\n\n- Bump to 2.4.1\n- Bump to 2.4.0\n", "2.4.1") is None
    repo = make_repo(version=None, files={"CHANGES.md": BULLETED})
    assert check(repo, "changelog-entry", "2.4.1", "CHANGES.md").outcome == Outcome.PASSED
    missing = check(repo, "changelog-entry", "2.4.2", "CHANGES.md")
    assert missing.outcome == Outcome.FAILED and '"* 2.4.2 (2026-06-01)"' in missing.lines[0]
