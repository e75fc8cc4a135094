"""The 18Ireland tests' view of the exports (see tests/exports.py)."""

from tests.exports import REPO, export_paths

__all__ = ["REPO", "export_paths"]
