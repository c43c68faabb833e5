"""Issue 34: ``/rules/<game>?lang=`` serves the translated rules page with ``<html lang>``; a value
that is no language we have (unknown, huge, HTML, a lone surrogate) gets the English page, never an
error (docs/translating-rules.md)."""

from __future__ import annotations

import re

import pytest

from tests.server.conftest import LiveServer


def _lang(page: str) -> str:
    m = re.search(r'<html lang="([^"]+)">', page)
    assert m, page[:200]
    return m.group(1)


def test_scat_in_spanish(server: LiveServer) -> None:
    r = server.http.get("/rules/scat", params={"lang": "es"})
    assert r.status_code == 200
    assert _lang(r.text) == "es"
    assert "<h1" in r.text and "Treinta y uno" in r.text and "Plantarse" in r.text
    assert 'id="knocking"' in r.text and 'id="options"' in r.text  # the English section ids
    assert "{#" not in r.text
    assert 'href="/rules/cheat?lang=es"' in r.text  # the other games, in the same language


@pytest.mark.parametrize(
    ("query", "lang", "words"),
    [
        ("lang=de", "de", "Den Stapel aufnehmen"),
        ("lang=pt-br", "pt-BR", "Pegar o lixo"),
        ("lang=nl_NL.UTF-8", "nl", "De pot pakken"),
        ("lang=fr", "en", "Taking the discard pile"),
        ("", "en", "Taking the discard pile"),
    ],
)
def test_samba_in_a_language(server: LiveServer, query: str, lang: str, words: str) -> None:
    r = server.http.get("/rules/bolivia?" + query)  # an alias finds its page in any language
    assert r.status_code == 200
    assert _lang(r.text) == lang and words in r.text


@pytest.mark.parametrize(
    "raw",
    [
        "x" * 5000,
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "%22%3E%3Cb%3E",
        "%ED%A0%80",  # a lone surrogate, UTF-8 encoded
        "%FF%FE",
        "nl%00",
        "..%2F..%2Fetc%2Fpasswd",
        "de&lang=nl",
    ],
)
def test_hostile_language_values_get_the_english_page(server: LiveServer, raw: str) -> None:
    r = server.http.get(f"/rules/scat?lang={raw}")
    if raw.startswith("de&"):  # given twice, the last counts (as for any FastAPI parameter)
        assert r.status_code == 200 and _lang(r.text) == "nl"
        return
    assert r.status_code == 200
    assert _lang(r.text) == "en" and "Knocking" in r.text
    assert "<script>alert" not in r.text and "<b>" not in r.text


def test_the_table_link_and_the_index_keep_the_language(server: LiveServer) -> None:
    r = server.http.get("/rules", params={"lang": "nl"}, follow_redirects=False)
    assert r.headers["location"] == "/rules/samba?lang=nl"
    r = server.http.get("/t/NOSUCH/rules", params={"lang": "de"}, follow_redirects=False)
    assert r.headers["location"] == "/rules/samba?lang=de"
    r = server.http.get("/t/NOSUCH/rules", params={"lang": "<x>"}, follow_redirects=False)
    assert r.headers["location"] == "/rules/samba"
