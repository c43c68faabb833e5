"""``parlour score chicago``: the score pad from arguments, a file, and interactively (seed
``003_8b94f64b123ab947.txt`` sample round)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from parlour.cli import app

runner = CliRunner()
SEED_ROUND = ["3S N +1", "3NT E =", "3DX W =", "6S S = honors4"]


def test_arguments_print_the_sheet() -> None:
    """003_8b94f64b123ab947.txt: "Adding up all the scores gives us 1650 to their 1070 ... +600
    or +6"."""
    result = runner.invoke(app, ["score", "chicago", *SEED_ROUND])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "1,650" in out and "1,070" in out
    assert "difference +580 → +600 (+6)" in out
    assert "Round 1: We 1,650 to They 1,070: We by 580, rounded 600 → +6" in out
    assert "Next: round 2, deal 1: dealer N, vulnerable: none" in out


def test_json_output_for_scripts() -> None:
    """--json prints the sheet as documented in docs/chicago.md."""
    result = runner.invoke(app, ["score", "chicago", "--json", *SEED_ROUND])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["type"] == "ChicagoSheet"
    r = data["rounds"][0]
    assert (r["totals"], r["difference"], r["rounded_difference"], r["display"]) == (
        {"NS": 1650, "EW": 1070},
        580,
        600,
        "+6",
    )


def test_file_input_with_comments_and_options(tmp_path: Path) -> None:
    """--file reads one deal per line; blank lines and # comments are skipped; -o sets options."""
    path = tmp_path / "round.txt"
    path.write_text("# a round\n1NT N -1\n\n1NT E -1  # down one\n1NT S -1\n1NT W -1\n")
    result = runner.invoke(
        app, ["score", "chicago", "--file", str(path), "--json", "-o", "round_half=down"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rounds"][0]["difference"] == 50
    assert data["rounds"][0]["display"] == "0"


def test_bad_input_in_arguments_and_files(tmp_path: Path) -> None:
    """Bad input (level 8, impossible tricks, unknown strain, bad declarer) gets a clear message
    naming the line, and exit code 2."""
    result = runner.invoke(app, ["score", "chicago", "3NT S =", "8NT S ="])
    assert result.exit_code == 2
    assert "deal 2: '8NT S =': level 8 in '8NT'" in result.output
    path = tmp_path / "bad.txt"
    path.write_text("3NT S =\n\n3NT Q =\n")
    result = runner.invoke(app, ["score", "chicago", "--file", str(path)])
    assert result.exit_code == 2
    assert f"{path}:3: '3NT Q =': bad declarer 'Q'" in " ".join(result.output.split())
    result = runner.invoke(app, ["score", "chicago", "-o", "round_half=maybe", "3NT S ="])
    assert result.exit_code == 2
    assert "round_half: 'maybe' is not allowed" in result.output
    result = runner.invoke(app, ["score", "chicago", "--file", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2
    assert "cannot read" in result.output


def test_interactive_pad_with_runner_input() -> None:
    """Interactive mode reads lines when stdin is not a terminal; errors record nothing; undo."""
    lines = ["help", "3S N +1", "4H N +4", "3NT E =", "undo", "3NT E =", "sheet", "quit", ""]
    result = runner.invoke(app, ["score", "chicago", "--json"], input="\n".join(lines))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "4H +4 would be 14 tricks: a deal has only 13 — nothing recorded" in out
    assert "undone: 3NT by E =" in out
    assert "round 1, deal 3: dealer S, vulnerable: N-S >" in out
    data = json.loads(out[out.index('{\n  "type": "ChicagoSheet"') :])
    assert data["entries"] == ["3♠ by N +1", "3NT by E ="]


def test_interactive_pad_in_a_subprocess_with_wrong_input() -> None:
    """The pad run as a program, fed through a pipe: wrong lines get messages, the rest of the
    seed's sample round is scored exactly (003_8b94f64b123ab947.txt: "+600 or +6")."""
    feed = "\n".join(
        [
            "3S N +1",
            "9S N =",  # level 9
            "3Z E =",  # unknown strain
            "3NT Q =",  # bad declarer
            "3NT E +5",  # impossible tricks
            "3NT E =",
            "3DX W =",
            "undo",
            "3DX W =",
            "6S S = honors5",
            "undo",
            "6S S = honors4",
            "quit",
        ]
    )
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", "from parlour.cli import main; main()", "score", "chicago"],
        input=feed,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "level 9 in '9S': a contract is 1 to 7 odd tricks" in out
    assert "unknown strain 'Z' in '3Z'" in out
    assert "bad declarer 'Q': the declarer is a seat, N, E, S or W" in out
    assert "3NT +5 would be 14 tricks: a deal has only 13" in out
    assert out.count("nothing recorded") == 4
    assert "round 1, deal 4: dealer W, vulnerable: both >" in out
    assert out.rstrip().endswith("Next: round 2, deal 1: dealer N, vulnerable: none")
    assert "Round 1: We 1,650 to They 1,070: We by 580, rounded 600 → +6" in out


def test_end_of_input_ends_the_pad() -> None:
    """End of input (no quit) ends the pad and prints the sheet."""
    result = runner.invoke(app, ["score", "chicago"], input="pass\n1C N =\n")
    assert result.exit_code == 0, result.output
    assert "passed out — redealt by N, not counted" in result.output
    assert "Next: round 1, deal 2: dealer E, vulnerable: E-W" in result.output


def test_interactive_after_given_deals() -> None:
    """-i keeps the pad open after deals given as arguments."""
    result = runner.invoke(app, ["score", "chicago", "-i", "3NT S ="], input="undo\nundo\nq\n")
    assert result.exit_code == 0, result.output
    assert "undone: 3NT by S =" in result.output
    assert "nothing to undo" in result.output


def test_interactive_pad_in_a_terminal() -> None:
    """The pad in a pseudo-terminal (pexpect): prompts with the next deal and its vulnerability,
    refuses a level-8 contract, records the good deal."""
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        ["-c", "from parlour.cli import main; main()", "score", "chicago"],
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 160),
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    try:
        child.expect_exact("round 1, deal 1: dealer N, vulnerable: none > ")
        child.sendline("8NT S =")
        child.expect_exact("nothing recorded")
        child.sendline("3NT S =")
        child.expect_exact("round 1, deal 2: dealer E, vulnerable: E-W > ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_an_error_naming_a_long_path_keeps_it_whole_in_a_narrow_terminal(tmp_path: Path) -> None:
    """A CLI error is printed as one soft-wrapped line: a path in it stays whole and copyable,
    however narrow the terminal (under pytest-xdist the temporary paths are long)."""
    import os
    import subprocess
    import sys

    path = tmp_path / ("a-rather-long-folder-name-" * 3) / "bad.txt"
    path.parent.mkdir()
    path.write_text("3NT Q =\n")
    cli = [sys.executable, "-c", "from parlour.cli import main; main()"]
    res = subprocess.run(
        [*cli, "score", "chicago", "--file", str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "30"},
        timeout=60,
    )
    assert res.returncode == 2
    assert f"{path}:1: '3NT Q =': bad declarer 'Q'" in res.stderr
