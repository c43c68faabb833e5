"""The WebSocket a player or a spectator plays through (``/ws/{code}``) as a FastAPI router: the
origin and rate checks before the socket is accepted, then the session (here, or through the
process that plays the table)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse

from parlour import i18n
from parlour.core.said import N_
from parlour.core.text import tell
from parlour.server.guard import WS_DENIED
from parlour.server.guard import client_address as _client
from parlour.server.lobby import TableServer
from parlour.server.session import WsTransport, run_session


def play_routes(server: TableServer) -> APIRouter:
    """The WebSocket a player (or a spectator) plays through: ``/ws/{code}``."""
    router = APIRouter()

    @router.websocket("/ws/{code}")
    async def play(
        ws: WebSocket,
        code: str,
        seat: str | None = None,
        contrib: str | None = None,
        deltas: str | None = None,
        lang: str | None = None,
    ) -> None:
        try:  # issue 34: the reader's language; an unknown one is English
            language = i18n.choose(lang)
        except i18n.LanguageError as exc:
            WS_DENIED.set(True)
            await ws.send_denial_response(JSONResponse({"detail": str(exc)}, status_code=400))
            return
        host, origin = ws.headers.get("host"), ws.headers.get("origin")
        if not server.origins.host_ok(host) or not server.origins.origin_ok(origin, host):
            WS_DENIED.set(True)
            await ws.send_denial_response(
                JSONResponse(
                    {
                        "detail": tell(
                            N_("pages of another site may not open this table"),
                            i18n.messages(language),
                        )
                    },
                    status_code=403,
                )
            )
            return
        wait = await server.rate_wait("lookup", _client(ws))
        if wait > 0:
            retry = str(max(1, int(wait + 0.999)))
            WS_DENIED.set(True)
            await ws.send_denial_response(
                JSONResponse(
                    {
                        "detail": tell(
                            N_(
                                "too many connections from your address; try again in {seconds} s",
                                seconds=retry,
                            ),
                            i18n.messages(language),
                        )
                    },
                    status_code=429,
                    headers={"Retry-After": retry},
                )
            )
            return
        await ws.accept()
        transport = WsTransport(ws)
        wants = deltas == "1"
        if server.cluster is not None:
            await server.cluster.serve_socket(
                transport, code, seat, contrib, deltas=wants, lang=language
            )
        else:
            await run_session(server, transport, code, seat, contrib, deltas=wants, lang=language)

    return router
