"""``parlour … --help`` in the reader's language (issue 34).

Typer builds the help from the ``help=`` texts of the commands and their options, and from a few
words of its own and of Click ("Usage:", "Options", "Show this message and exit.").  The player's
commands (``play``, ``rules``, ``score chicago``) and every command's one-line summary mark their
texts with ``N_`` so that they are in the catalogs; :func:`translate` puts the catalog's words for
them, and for those few of Typer's and Click's, into the command tree before it is shown.  The
operators' and researchers' options (``serve``, ``simulate``, ``ladder``, …) are not translated:
their help stays English, as do Click's parse errors ("No such option").

It runs only when help is going to be shown (``--help``, or a group called without a command):
loading a catalog costs ~0.2 s of start-up that every other run would pay."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from parlour.core.said import N_

#: Typer's and Click's own words in a help page, in the catalog
USAGE = N_("Usage:")
SHOW_HELP = N_("Show this message and exit.")
PANELS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
}


def wanted_language(args: Sequence[str], env: os._Environ[str] | dict[str, str]) -> str:
    """The language a help page would be shown in: the command line's ``--lang X`` /
    ``--lang=X`` (any command's), else the terminal's; English for an unknown or bad tag."""
    from parlour import i18n

    for i, arg in enumerate(args):
        tag = None
        if arg == "--lang" and i + 1 < len(args):
            tag = args[i + 1]
        elif arg.startswith("--lang="):
            tag = arg.split("=", 1)[1]
        if tag is not None:
            try:
                return i18n.choose(tag)
            except i18n.LanguageError:
                return i18n.SOURCE
    return i18n.from_environment(env)


def shows_help(args: Sequence[str], group: Any) -> bool:
    """Will this command line print a help page (``--help``, or a group without its command)?
    ``group`` is the command tree Typer built (its own Click's classes: duck-typed here)."""
    if "--help" in args or not args:
        return True
    sub = getattr(group, "commands", {}).get(args[0])
    return hasattr(sub, "commands") and len(args) == 1


def translate(command: Any, lang: str) -> None:
    """Put ``lang``'s words for the marked help texts into the command tree (in place), and for
    Typer's and Click's words of a help page (its panel titles, "Usage:", the ``--help`` line)."""
    import typer._click.formatting as formatting
    import typer.rich_utils as rich

    from parlour import i18n

    t = i18n.messages(lang)
    _walk(command, t.gettext)
    for name, text in PANELS.items():
        setattr(rich, name, t.gettext(text))
    usage = t.gettext(USAGE) + " "
    write_usage = formatting.HelpFormatter.write_usage

    def translated_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, usage if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = translated_usage  # type: ignore[method-assign]


def _walk(command: Any, tell: Callable[[str], str]) -> None:
    if command.help:
        command.help = tell(command.help)
    if command.short_help:
        command.short_help = tell(command.short_help)
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = tell(text)
    make_help_option = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = make_help_option(ctx)
        if option is not None and option.help == SHOW_HELP:
            option.help = tell(SHOW_HELP)
        return option

    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        _walk(sub, tell)
