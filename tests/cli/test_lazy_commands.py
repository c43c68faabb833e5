"""``parlour COMMAND`` loads only that command's module (start-up time counts in every run,
issue 18); the name → module table of parlour/cli/__init__.py matches what the modules register."""

from __future__ import annotations

import subprocess
import sys

import typer.main

import parlour.cli as cli


def test_command_table_matches_the_registered_commands() -> None:
    app = cli.load_commands()
    group = typer.main.get_group(app)
    assert sorted(group.commands) == sorted(cli.COMMANDS)


def test_one_command_loads_only_its_module() -> None:
    code = (
        "import sys; sys.argv = ['parlour', 'tournament', '--help']\n"
        "from parlour.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('parlour.cli.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = out.strip().splitlines()[-1]
    assert "'parlour.cli.tournament'" in loaded
    assert "'parlour.cli.serve'" not in loaded and "'parlour.cli.rules_cmd'" not in loaded
    assert "Usage: parlour tournament" in out  # still a command group (not run as a lone command)
