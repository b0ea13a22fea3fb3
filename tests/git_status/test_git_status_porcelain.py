"""The porcelain v2 parser: hand-written records, garbage, and generated round trips (hypothesis)."""

from __future__ import annotations

import os

import pytest
from git_status.porcelain import PorcelainError, parse_status
from hypothesis import given, settings
from hypothesis import strategies as st

HASH = "0" * 40


def test_headers_and_every_record_kind() -> None:
    output = b"\0".join([
        b"# branch.oid " + HASH.encode(), b"# branch.head feature/x", b"# branch.upstream origin/feature/x",
        b"# branch.ab +4 -1", b"# stash 3", b"# some.future header",
        b"1 M. N... 100644 100644 100644 " + HASH.encode() + b" " + HASH.encode() + b" dir/with space.txt",
        b"2 R. N... 100644 100644 100644 " + HASH.encode() + b" " + HASH.encode() + b" R87 new name", b"old name",
        b"u UU N... 100644 100644 100644 100644 " + b" ".join([HASH.encode()] * 3) + b" both.txt",
        b"1 .M SCM. 160000 160000 160000 " + HASH.encode() + b" " + HASH.encode() + b" libs/sub",
        b"? caf\xc3\xa9.txt", b"? bad\xff.bin", b"! ignored.log", b"",
    ])
    report = parse_status(output)
    branch = report.branch
    assert (branch.head, branch.upstream, branch.ahead, branch.behind, branch.stash) == (
        "feature/x", "origin/feature/x", 4, 1, 3)
    kinds = [(f.kind, f.display) for f in report.files]
    assert kinds[:3] == [("ordinary", "dir/with space.txt"), ("renamed", "new name"), ("unmerged", "both.txt")]
    assert report.files[1].orig_display == "old name" and report.files[1].score == "R87"
    assert report.files[2].conflict == "both-modified"
    assert report.files[3].submodule_notes == ["commit", "modified"]
    assert report.files[4].display == "café.txt"
    # A non-UTF-8 name: shown with a replacement character, kept exact for file system calls.
    assert report.files[5].display == "bad\ufffd.bin" and os.fsencode(report.files[5].path) == b"bad\xff.bin"
    assert report.dirty_count == 6


def test_initial_and_detached() -> None:
    assert parse_status(b"# branch.oid (initial)\0# branch.head main\0").branch.unborn
    detached = parse_status(b"# branch.oid " + HASH.encode() + b"\0# branch.head (detached)\0").branch
    assert detached.detached and detached.head is None


@pytest.mark.parametrize("garbage", [b"hello", b"1 M. short", b"2 R. N... 1 2 3 a b R100 path", b"# branch.ab +x -y"])
def test_garbage_is_a_clear_error(garbage: bytes) -> None:
    with pytest.raises(PorcelainError):
        parse_status(garbage)


names = st.binary(min_size=1, max_size=40).filter(lambda b: b"\0" not in b)
letters = st.sampled_from(".MTADRCU")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["1", "2", "u", "?"]), letters, letters, names, names), max_size=30))
def test_generated_records_round_trip(entries) -> None:  # type: ignore[no-untyped-def]
    records = []
    for kind, x, y, path, original in entries:
        if kind == "1":
            records.append(f"1 {x}{y} N... 100644 100644 100644 {HASH} {HASH} ".encode() + path)
        elif kind == "2":
            records += [f"2 {x}{y} N... 100644 100644 100644 {HASH} {HASH} R50 ".encode() + path, original]
        elif kind == "u":
            records.append(f"u {x}{y} N... 100644 100644 100644 100644 {HASH} {HASH} {HASH} ".encode() + path)
        else:
            records.append(b"? " + path)
    report = parse_status(b"\0".join(records) + b"\0")
    assert len(report.files) == len(entries)
    for change, (kind, x, y, path, original) in zip(report.files, entries):
        assert os.fsencode(change.path) == path
        if kind != "?":
            assert change.index + change.worktree == x + y
        if kind == "2":
            assert os.fsencode(change.orig_path) == original
