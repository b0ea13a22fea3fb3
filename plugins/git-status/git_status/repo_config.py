"""The one repository problem git-status refuses to read past: a program named in a way no override reaches."""

from __future__ import annotations


class UnsafeRepositoryConfig(Exception):
    """The repository's config names a program that cannot be switched off (the runtime refused to run git)."""
