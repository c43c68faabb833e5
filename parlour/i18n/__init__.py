"""Every word in the reader's language (issue 34): gettext catalogs managed with Babel.

- The languages are English (the source, ``msgid``) and one catalog per language under
  ``parlour/locale/<ll>/LC_MESSAGES/parlour.po`` (``pt_BR`` for ``pt-BR``).  Adding a language is
  adding its catalog (``docs/translating.md``): :func:`languages` lists the directories.
- The ``.mo`` files are compiled when a wheel is built (``hatch_build.py``); a source checkout or
  an editable install compiles the ``.po`` in memory on first use, so an edited catalog is never
  shadowed by a stale ``.mo`` (a ``.mo`` older than its ``.po`` is ignored).
- :func:`negotiate` picks a language from what the reader asks for (``Accept-Language``,
  ``navigator.languages``, ``LANG``/``LC_ALL``, ``--lang``): an unknown language falls back to
  English; :func:`check` refuses text that is no language tag at all.
- :class:`Messages` is one language's ``gettext``/``ngettext``/``pgettext`` and Babel's number and
  date formatting; :func:`browser_catalog` is the same catalog as JSON for the browser.

>>> negotiate(["de-AT", "en"]), negotiate(["pt"]), negotiate(["fr", "nl-BE"]), negotiate(["xx"])
('de', 'pt-BR', 'nl', 'en')
>>> parse_accept_language("fr-CH, fr;q=0.9, nl;q=0.8, *;q=0.5")
['fr-CH', 'fr', 'nl']
>>> from_environment({"LANG": "de_DE.UTF-8"}), from_environment({"LC_ALL": "C", "LANG": "nl_NL"})
('de', 'en')
>>> messages("nl").number(10000), messages("en").number(10000), messages("de").number(1234.5)
('10.000', '10000', '1.234,5')
"""

from __future__ import annotations

import gettext as _gettext
import io
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

DOMAIN = "parlour"
SOURCE = "en"
#: the catalogs: ``<dir>/<ll>/LC_MESSAGES/parlour.po``, the template ``<dir>/parlour.pot``
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

#: a language tag as BCP 47 writes it (``pt-BR``), or as POSIX locales do (``pt_BR.UTF-8``)
_TAG = re.compile(r"^[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*$")
#: longer than any tag a reader sends; longer input is refused, not parsed
MAX_TAG = 35


class LanguageError(ValueError):
    """Text given as a language that is no language tag at all (``--lang '<script>'``)."""


def _dir_to_tag(name: str) -> str:
    return name.replace("_", "-")


def tag_to_dir(tag: str) -> str:
    """``pt-BR`` → ``pt_BR`` (gettext's directory names)."""
    return tag.replace("-", "_")


@cache
def languages() -> tuple[str, ...]:
    """English first, then every language with a catalog (sorted)."""
    found = sorted(
        _dir_to_tag(p.parent.parent.name)
        for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")
        if p.is_file()
    )
    return (SOURCE, *[t for t in found if t != SOURCE])


def check(tag: str) -> str:
    """``tag`` if it is shaped like a language tag, else :class:`LanguageError`."""
    if not isinstance(tag, str) or len(tag) > MAX_TAG or not _TAG.match(tag):
        shown = repr(tag)[:40]
        raise LanguageError(
            f"not a language: {shown} (a language tag such as en, nl, de, es or pt-BR)"
        )
    return tag


def _match(tag: str) -> str | None:
    """The supported language for one tag: exact (case aside), else by its primary subtag."""
    wanted = tag.replace("_", "-").split(".")[0].split("@")[0].lower()
    by_lower = {t.lower(): t for t in languages()}
    if wanted in by_lower:
        return by_lower[wanted]
    primary = wanted.split("-")[0]
    if primary in by_lower:
        return by_lower[primary]
    for t in languages():
        if t.lower().split("-")[0] == primary:
            return t
    return None


def negotiate(wanted: Iterable[str]) -> str:
    """The first supported language of ``wanted`` (in the reader's order), else English.
    Entries that are not language tags are skipped (they come from headers and browsers)."""
    for tag in wanted:
        if not isinstance(tag, str) or len(tag) > MAX_TAG or not _TAG.match(tag.split(".")[0]):
            continue
        if tag.split(".")[0] in ("C", "POSIX"):
            return SOURCE
        found = _match(tag)
        if found is not None:
            return found
    return SOURCE


def choose(tag: str | None) -> str:
    """An explicit choice (``--lang``, ``?lang=``, the WebSocket's ``lang``): a supported
    language, English for an unknown one, :class:`LanguageError` for no tag at all."""
    if tag is None or tag == "":
        return SOURCE
    return negotiate([check(tag)])


def parse_accept_language(header: str | None) -> list[str]:
    """The tags of an ``Accept-Language`` header, most wanted first (``*`` and ``q=0`` dropped)."""
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header[:1000].split(",")[:40]):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0 and _TAG.match(tag) and len(tag) <= MAX_TAG:
            ranked.append((-q, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def from_accept_language(header: str | None) -> str:
    return negotiate(parse_accept_language(header))


def from_environment(env: Mapping[str, str]) -> str:
    """The terminal's language as gettext looks for it: ``LANGUAGE`` (a list), ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` — the first one set decides (``C``/``POSIX``: English)."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            return negotiate(value.split(":"))
    return SOURCE


def po_path(lang: str) -> Path:
    return LOCALE_DIR / tag_to_dir(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the messages themselves)."""
    if lang == SOURCE or lang not in languages():
        return _gettext.NullTranslations()
    po = po_path(lang)
    mo = po.with_suffix(".mo")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    return _gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def compile_po(po: Path) -> bytes:
    """A ``.po`` file compiled to ``.mo`` bytes (fuzzy entries left out, as ``msgfmt`` does)."""
    with po.open("rb") as f:
        catalog = read_po(f, locale=tag_to_dir(po.parent.parent.name))
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


class _Found(dict[str, str]):
    """A catalog's messages; a message it lacks is answered with itself (as gettext does)."""

    def __missing__(self, key: str) -> str:
        return key


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _english_context(context: str, message: str) -> str:
    return message


class Messages:
    """One language's messages and formats.  ``gettext`` and friends keep gettext's names, so
    ``pybabel extract`` finds every call (``babel.cfg``)."""

    #: one message (bound to the catalog's own method: the server calls it for every line it
    #: tells; English, the source, is the message itself: ``str`` returns it unchanged)
    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    pgettext: Callable[[str, str], str]

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in languages() else SOURCE
        self._t = translations(self.lang)
        if self.lang == SOURCE:
            self.gettext = str
            self.ngettext = _english_plural
            self.pgettext = _english_context
        else:
            # a dict that answers a missing message with the message itself: one C call a line
            found = _Found(
                (k, v) for k, v in getattr(self._t, "_catalog", {}).items() if isinstance(k, str)
            )
            self.gettext = found.__getitem__
            self.ngettext = self._t.ngettext
            self.pgettext = self._t.pgettext
        try:
            self.locale = Locale.parse(tag_to_dir(self.lang))
        except (UnknownLocaleError, ValueError):
            self.locale = Locale.parse("en")

    def number(self, value: float) -> str:
        """``10.000`` in Dutch, ``1.234,5`` in German; English keeps the plain digits Parlour
        always wrote (``10000``: score sheets, logs and golden playthroughs stay as they were)."""
        if self.lang == SOURCE:
            return str(value)
        if type(value) is int and 0 <= value < 1000:
            # no grouping below a thousand, and every language here writes ASCII digits: the
            # server tells many small numbers per move (issue 34: cost of telling)
            return str(value)
        return format_decimal(value, locale=self.locale)

    def date(self, value: date | datetime, format: str = "medium") -> str:
        if isinstance(value, datetime):
            return format_datetime(value, format=format, locale=self.locale)
        return format_date(value, format=format, locale=self.locale)

    def join(self, words: list[str]) -> str:
        """``a, b and c`` as the language lists things."""
        if self.lang == SOURCE:
            if len(words) <= 1:
                return "".join(words)
            return ", ".join(words[:-1]) + " and " + words[-1]
        return format_list(words, locale=self.locale) if words else ""


@cache
def messages(lang: str = SOURCE) -> Messages:
    return Messages(lang)


def game_title(name: str, t: Messages) -> str:
    """The game's name in the player's language, as the lobby, the web table and the terminal
    name it (``Mogeln`` for cheat in German); a game without one keeps its code."""
    titles = {
        "samba": t.pgettext("game", "Samba"),
        "handfoot": t.pgettext("game", "Hand and Foot"),
        "cheat": t.pgettext("game", "Cheat"),
        "scat": t.pgettext("game", "Scat / 31"),
    }
    return titles.get(name, name)


def _plural_index(lang: str) -> dict[str, int]:
    """CLDR's plural category of a number → gettext's plural form index for ``lang``: the browser
    picks the category with ``Intl.PluralRules`` and the form with this map."""
    t = translations(lang)
    plural = getattr(t, "plural", lambda n: int(n != 1))
    locale = messages(lang).locale
    out: dict[str, int] = {}
    for n in range(0, 1001):
        out.setdefault(locale.plural_form(n), int(plural(n)))
    return out


def native_name(lang: str) -> str:
    """``Nederlands``, ``Deutsch``, ``español``, ``português (Brasil)`` (CLDR, via Babel)."""
    try:
        name = Locale.parse(tag_to_dir(lang)).get_display_name() or lang
    except (UnknownLocaleError, ValueError):
        return lang
    return name[:1].upper() + name[1:]


@cache
def browser_catalog(lang: str) -> dict[str, Any]:
    """The catalog as the browser reads it (``/i18n/<lang>.json``): ``messages`` maps a msgid
    (``context\\x04msgid`` with a context) to its text, or to its plural forms (a list);
    ``plural`` maps CLDR's categories to the list's index.  English: no messages (the msgids
    are the text)."""
    out: dict[str, Any] = {
        "lang": lang if lang in languages() else SOURCE,
        "languages": [{"tag": t, "name": native_name(t)} for t in languages()],
        "messages": {},
        "plural": {"one": 0, "other": 1},
    }
    if lang == SOURCE or lang not in languages():
        return out
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=tag_to_dir(lang))
    msgs: dict[str, Any] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        key_id = m.id[0] if isinstance(m.id, tuple | list) else m.id
        key = f"{m.context}\x04{key_id}" if m.context else key_id
        if isinstance(m.string, tuple | list):
            if all(m.string):
                msgs[key] = list(m.string)
        elif m.string:
            msgs[key] = m.string
    out["messages"] = msgs
    out["plural"] = _plural_index(lang)
    return out
