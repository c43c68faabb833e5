"""The catalogs for the browser: ``GET /i18n/<lang>.json`` (:func:`parlour.i18n.browser_catalog`).

An unknown language gets English (with ``lang: "en"``); text that is no language tag is refused
with 400 and a sentence saying what a language looks like."""

from __future__ import annotations

import orjson
from fastapi import APIRouter, Response

from parlour import i18n

router = APIRouter()


@router.get("/i18n/{name}.json", include_in_schema=False)
def catalog_json(name: str) -> Response:
    try:
        lang = i18n.choose(name)
    except i18n.LanguageError as exc:
        return Response(
            orjson.dumps({"error": "bad_language", "detail": str(exc)}),
            status_code=400,
            media_type="application/json",
        )
    return Response(
        orjson.dumps(i18n.browser_catalog(lang)),
        media_type="application/json",
        headers={"cache-control": "public, max-age=300"},
    )
