"""``parlour rules GAME [--lang nl]``: the game's rules page (``docs/rules/GAME.md``, or its
translation ``docs/rules/LANG/GAME.md``) and its options, with the preset's values, defaults,
allowed values and meaning (in the page's words)."""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from parlour import games, i18n, rules_pages
from parlour.cli.base import app
from parlour.cli.common import choose_variant, console, fail, terminal_language
from parlour.core.said import N_


@app.command(
    help=N_("Print how to play a game (its rules page) and its options with their meaning.")
)
def rules(
    game: Annotated[str | None, typer.Argument(help=N_("game or preset name, or chicago"))] = None,
    preset: Annotated[str | None, typer.Option(help=N_("preset to show"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the rules as JSON"))] = False,
    page: Annotated[
        bool, typer.Option("--page/--no-page", help=N_("print the rules page before the options"))
    ] = True,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=N_("language of the rules page: en, nl, de, es, pt-BR (others: English)"),
        ),
    ] = None,
) -> None:
    """Print how to play a game (its rules page) and its options with their meaning."""
    if lang is None:  # issue 34: the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)
        lang = i18n.from_environment(os.environ)
    t = i18n.messages(i18n.negotiate([lang]))
    terminal_language(t.lang)  # the language of this command's errors too
    if game is None:
        for name in games.names():
            entry = games.entry(name)
            # the game in a line: its English description, else its page's title in the language
            about = entry.description if t.lang == i18n.SOURCE else _title(name, lang)
            console.print(f"[bold]{name}[/] — {escape(about)}")
            console.print(
                "   "
                + escape(t.gettext("presets: {presets}").format(presets=", ".join(entry.presets)))
            )
        console.print(
            "[bold]chicago[/] — "
            + escape(t.gettext("Chicago bridge scoring (parlour score chicago)"))
        )
        console.print(escape(t.gettext("`parlour rules GAME` prints how to play it.")))
        return
    if game.strip().lower() in ("chicago", "bridge") and not as_json:
        _chicago(page, lang, t)
        return
    variant = choose_variant(game, preset)
    values = variant.rules.to_json()
    if as_json:
        typer.echo(json.dumps(values, ensure_ascii=False))
        return
    entry = variant.entry
    words: dict[str, dict[str, str]] = {}
    try:
        if page:
            console.print(Markdown(rules_pages.markdown(entry.name, lang)))
            console.print()
        words = rules_pages.option_words(entry.name, lang)
    except rules_pages.NoRulesPage:
        console.print(f"[bold]{entry.name}[/] — {entry.description}")
    try:
        preset_words = rules_pages.preset_words(entry.name, lang)
    except rules_pages.NoRulesPage:
        preset_words = {}
    doc = preset_words.get(variant.preset) or entry.preset_docs.get(variant.preset, "")
    shown = (
        t.gettext("preset [bold]{preset}[/]: {doc}")
        if doc
        else t.gettext("preset [bold]{preset}[/]")
    )
    console.print(shown.format(preset=variant.preset, doc=doc))
    others = [p for p in entry.presets if p != variant.preset]
    if others:
        console.print(t.gettext("other presets: {presets}").format(presets=", ".join(others)))
    table = Table(
        t.gettext("option"),
        t.gettext("value"),
        t.gettext("default"),
        t.gettext("allowed"),
        t.gettext("meaning"),
        show_lines=False,
    )
    for row in entry.rules_type.describe():
        value = values[row["name"]]
        mark = "" if value == row["default"] else "[yellow]"
        w = words.get(row["name"])
        name = f"{row['name']}\n[dim]{w['label']}[/]" if w else row["name"]
        meaning = w["meaning"] if w else row["doc"]
        table.add_row(name, f"{mark}{value!r}", repr(row["default"]), row["allowed"], meaning)
    console.print(table)


def _title(game: str, lang: str) -> str:
    """The game's rules page title in ``lang`` (``Mogeln — so wird gespielt``)."""
    try:
        return rules_pages.title(game, lang)
    except rules_pages.NoRulesPage:
        return game


def _chicago(page: bool, lang: str | None, t: i18n.Messages) -> None:
    try:
        from parlour.scoring.chicago import ChicagoOptions
    except ImportError:  # pragma: no cover - the scorer ships with parlour
        raise fail(escape(t.gettext("the Chicago score keeper is not installed"))) from None
    if page:
        console.print(Markdown(rules_pages.markdown("chicago", lang)))
        console.print()
    words = rules_pages.option_words("chicago", lang)
    table = Table(
        t.gettext("option"), t.gettext("default"), t.gettext("allowed"), t.gettext("meaning")
    )
    for f in dataclasses.fields(ChicagoOptions):
        choices: Any = f.metadata.get("choices")
        allowed = ", ".join(repr(c) for c in choices) if choices else type(f.default).__name__
        w = words.get(f.name, {"label": "", "meaning": f.metadata.get("doc", "")})
        table.add_row(f"{f.name}\n[dim]{w['label']}[/]", repr(f.default), allowed, w["meaning"])
    console.print(table)
    console.print(t.gettext("Set them with `parlour score chicago -o name=value`."))
