"""Every link in the README and docs/ resolves inside the repository: the file exists, a
``#anchor`` names a heading of that page, and nothing points outside the repository (a newcomer's
clone has nothing beside it)."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: [text](target) and ![alt](target), not inside inline code
LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|__", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    out: set[str] = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m and not fenced:
            # a translated rules page names its section's English id: ## Opties {#options}
            # (docs/translating-rules.md)
            explicit = re.search(r"\{#([a-z0-9-]+)\}$", m.group(1))
            base = explicit.group(1) if explicit else slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return frozenset(out)


def links(page: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        code_free = re.sub(r"`[^`]*`", "", line)
        found += [(number, m.group(1)) for m in LINK.finditer(code_free)]
    return found


def broken(page: Path) -> list[str]:
    bad = []
    for number, target in links(page):
        where = f"{page.relative_to(ROOT)}:{number}: {target}"
        if re.match(r"^[a-z]+:", target) or target.startswith("/"):
            continue  # a web address, or a path on the running server (/rules/samba)
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.is_relative_to(ROOT):
            bad.append(f"{where} (outside the repository)")
        elif not dest.exists():
            bad.append(f"{where} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{where} (no heading #{anchor} in {dest.relative_to(ROOT)})")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(page: Path) -> None:
    assert broken(page) == []


def test_the_link_check_finds_broken_links(tmp_path: Path) -> None:
    """The checker itself: a missing file, a missing heading and a path outside are all found."""
    page = ROOT / "docs" / "_probe_links.md"
    try:
        page.write_text(
            "# Top\n\n[ok](#top) [gone](nowhere.md) [heading](server.md#no-such-heading)"
            " [out](../../elsewhere/DESIGN.md) `[code](not-a-link.md)`\n",
            encoding="utf-8",
        )
        assert [b.split(" (")[1] for b in broken(page)] == [
            "no such file)",
            "no heading #no-such-heading in docs/server.md)",
            "outside the repository)",
        ]
    finally:
        page.unlink()


def test_nothing_in_the_repository_points_outside_it() -> None:
    """No tracked file mentions the development team's shared folder beside the repository."""
    out = subprocess.run(
        ["git", "grep", "-n", "-I", "-e", "../shared", "--", ".", ":!tests/test_doc_links.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode in (0, 1), out.stderr
    assert out.stdout == ""


def test_the_readme_is_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, len(lines)
