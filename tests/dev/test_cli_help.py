"""`roundhouse --help` and every subcommand's --help, run as a user runs them: every command is
described, and every option says what it does and what its default is."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from services.cli import build_parser
from tests.dev.devproc import REPO


def _subcommands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every (sub)command below `parser`, depth first, with its parser."""
    found = [(path, parser)]
    sub = _subcommands(parser)
    if sub is not None:
        for name, child in sub.choices.items():
            found += commands(child, (*path, name))
    return found


def run_help(*path: str) -> str:
    done = subprocess.run([sys.executable, "-m", "services.cli", *path, "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


ALL = commands(build_parser())
PARSED = [(path, parser) for path, parser in ALL if path != ("test",)]


def test_every_command_is_listed_with_a_summary() -> None:
    for path, parser in ALL:
        sub = _subcommands(parser)
        if sub is None:
            continue
        described = {a.dest: a.help for a in sub._choices_actions}
        assert set(described) == set(sub.choices), path
        assert all(help and help.strip() for help in described.values()), (path, described)
        out = run_help(*path)
        for name in sub.choices:
            assert f"    {name}" in out, (path, name, out)
    assert {path[0] for path, _ in ALL if path} >= {"dev", "game", "projection", "bot", "replay", "selfplay",
                                                     "arena", "bench", "test", "lint"}


@pytest.mark.parametrize("path", [path for path, _ in PARSED], ids=lambda path: " ".join(path) or "roundhouse")
def test_every_option_has_help_with_its_default(path: tuple[str, ...]) -> None:
    parser = dict(PARSED)[path]
    out = run_help(*path)
    assert out.startswith(f"usage: {' '.join(('roundhouse', *path))} ")
    if path:
        assert parser.description and parser.description in " ".join(out.split())
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        name = action.option_strings[-1] if action.option_strings else action.dest
        assert action.help and action.help.strip(), f"roundhouse {' '.join(path)} {name}: no help text"
        assert name in out
        if action.option_strings:
            assert "default" in action.help, f"roundhouse {' '.join(path)} {name}: help does not give the default"
            # The rendered line carries the text (argparse expands %(default)s when it prints).
            first_words = " ".join(action.help.split()[:3])
            assert first_words in " ".join(out.split()), (name, out)


def test_test_passes_help_to_pytest() -> None:
    # Everything after `test` belongs to pytest, --help included.
    out = run_help("test")
    assert out.startswith("usage: ") and "pytest" in out
