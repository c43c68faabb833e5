"""Every sentence in the browser's JavaScript is marked for translation (issue 34): a string
literal of two words or more that is not an argument of ``_()``, ``ngettext()`` or
``pgettext()`` (nor of ``console.*`` / ``Error``, which the developer reads) fails here — it
would reach the player in English whatever language they chose.

The files not yet translated are listed in ``NOT_YET`` (each with what it shows): the test
holds the others to the rule, and fails when a listed file has no unmarked sentence left (so the
list only shrinks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[2] / "parlour" / "web" / "js"
#: ``N_`` is gettext_noop (Babel extracts it): the message is translated where it is shown
MARKERS = {"_", "N_", "ngettext", "pgettext"}
#: calls whose strings only a developer reads
DEVELOPER = {"error", "warn", "log", "debug", "Error", "TypeError"}
#: files whose words are not marked yet (issue 34, left for a later pass)
NOT_YET = {
    "speak.js": "English rewording of English lines (English only)",
}
#: class names and hashed formats put together in code (not words)
CLASSES = {
    "card-edge back",
    "idx joker-idx",
    "court-figure court- ",
    "card mini  ",
    "parlour-deal: : ",
    "parlour-match: : ",
    "parlour-chain: : ",
    "parlour- -record.json",
    "pmeta last-move",
    "parlour verify  /t/  --log  ",  # the command a player types (its file name is translated)
}
#: literals that are not sentences a player reads (selectors, ids, data, code)
NOT_WORDS = re.compile(
    r"[{}<>=;\\\[]|^\s*[.#:/]|^[a-z]+(-[a-z]+)+$|\bpx\b|^\w+\s*\(|^(?:[\w-]+\.)+[\w-]+$"
    r"|^[a-z0-9]+[.#][\w-]"
)


def _literals(src: str) -> list[tuple[int, str, bool]]:
    """``(line, text, marked)`` of every string literal; a template literal's ``${…}`` parts
    are left out of its text. ``marked``: an argument of a marking (or developer) call."""
    out: list[tuple[int, str, bool]] = []
    stack: list[bool] = []
    i, n, line = 0, len(src), 1
    last = ""  # the last significant character (regex literal or division)
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            line += src.count("\n", i, j)
            i = j + 2
            continue
        if c in "'\"`":
            j, parts, depth = i + 1, [], 0
            while j < n:
                d = src[j]
                if d == "\\":
                    j += 2
                    continue
                if c == "`" and src.startswith("${", j) and depth == 0:
                    depth, j = 1, j + 2
                    while j < n and depth:
                        depth += {"{": 1, "}": -1}.get(src[j], 0)
                        j += 1
                    parts.append(" ")
                    continue
                if d == c:
                    break
                parts.append(d)
                j += 1
            out.append((line, "".join(parts), bool(stack and stack[-1])))
            line += src.count("\n", i, j)
            i, last = j + 1, "a"
            continue
        if c == "/" and last in "(,=:[!&|?{};+-*%<>~^" and last != "":
            j = i + 1
            klass = False
            while j < n and (src[j] != "/" or klass):
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    klass = True
                elif src[j] == "]":
                    klass = False
                j += 1
            i, last = j + 1, "a"
            continue
        if c == "(":
            name = re.search(r"([\w$]+)\s*$", src[max(0, i - 40) : i])
            word = name.group(1) if name else ""
            stack.append(word in MARKERS or word in DEVELOPER or bool(stack and stack[-1]))
        elif c == ")" and stack:
            stack.pop()
        if not c.isspace():
            last = c if not (c.isalnum() or c in "_$") else "a"
        i += 1
    return out


def _unmarked(path: Path) -> list[str]:
    found = []
    for line, text, marked in _literals(path.read_text(encoding="utf-8")):
        words = re.findall(r"[A-Za-z][a-z']+", text)
        if (
            marked
            or text in CLASSES
            or len(words) < 2
            or " " not in text.strip()
            or NOT_WORDS.search(text)
        ):
            continue
        found.append(f"{path.name}:{line}: {text[:70]!r}")
    return found


@pytest.mark.parametrize("name", sorted(p.name for p in JS.glob("*.js")))
def test_sentences_are_marked(name: str) -> None:
    found = _unmarked(JS / name)
    if name in NOT_YET:
        assert found, f"{name} has no unmarked sentence left: take it out of NOT_YET"
        return
    assert not found, "unmarked sentences (wrap them in _()):\n" + "\n".join(found)


def test_the_scanner_finds_what_it_should() -> None:
    src = 'h("p", "Not marked here"); h("p", _("Marked {x}", { x: `a ${b("c d")} e` }));\n'
    src += "const r = /a b/; console.error(`no table here`); t(`Also not ${x} marked`);"
    got = [(text, marked) for _, text, marked in _literals(src)]
    assert ("Not marked here", False) in got and ("Marked {x}", True) in got
    assert ("no table here", True) in got and ("Also not   marked", False) in got
