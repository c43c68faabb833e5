"""What stands between a stranger's bytes and the tables: strict JSON, rate limits, origins, logs.

- :func:`parse_json` reads a client message or request body: size, nesting depth and lone
  surrogates are checked before anything else sees it (a lone surrogate cannot be sent back as
  UTF-8; a deeply nested array exhausts the parser's recursion).
- :class:`RateLimiter` is a token bucket per client address and kind of request;
  :class:`SharedRateLimiter` keeps the same buckets in Redis, so several server processes count an
  address together (a client spreading its requests over N processes gets no N-fold budget).
- :class:`OriginPolicy` decides which ``Host`` and ``Origin`` headers the server answers.
- :class:`RedactTokens` keeps seat tokens and invites out of the access log.

>>> parse_json('{"type": "ping", "t": 1}')
{'type': 'ping', 't': 1}
>>> parse_json('{"t": "\\\\udfff"}')
Traceback (most recent call last):
...
parlour.server.guard.BadInput: the message contains a lone surrogate (\\udfff), which is not text
>>> parse_json("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
parlour.server.guard.BadInput: the message is nested deeper than 32 levels
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import re
import socket
import time
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pydantic import ConfigDict

from parlour.core.said import N_

log = logging.getLogger("parlour.server")

MAX_DEPTH = 32


class BadInput(ValueError):
    """A client message or body that is not acceptable JSON; the text says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _depth_ok(raw: str, limit: int) -> bool:
    """True when brackets nest at most ``limit`` deep (strings skipped), without recursion."""
    depth = 0
    in_string = False
    escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def _check_text(value: Any) -> None:
    """Raise on a lone surrogate in any string or key, or a non-finite number."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError as exc:
                bad = v[exc.start]
                raise BadInput(
                    "bad_text",
                    N_(
                        "the message contains a lone surrogate ({char}), which is not text",
                        char=f"\\u{ord(bad):04x}",
                    ),
                ) from None
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, float) and not math.isfinite(v):
            raise BadInput("bad_json", N_("numbers must be finite (no NaN or Infinity)"))


def _no_constant(name: str) -> Any:
    raise BadInput("bad_json", N_("{name} is not a JSON number", name=name))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise BadInput(
                    "bad_json", N_("the key {key} appears twice in one object", key=repr(key[:40]))
                )
            seen.add(key)
    return out


#: one decoder for every message (``json.loads`` with an option builds a new one per call)
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
#: the same, refusing an object with a key twice (HTTP bodies: which of the two a reader
#: takes differs between parsers, so such a body means two things)
_UNIQUE_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_unique_keys)

#: the ``model_config`` of every request body: exact JSON types (``"yes"`` is not a boolean,
#: ``"3"`` not a number) and no field the model does not name
STRICT_BODY = ConfigDict(strict=True, extra="forbid")


def parse_json(raw: str | bytes, *, max_depth: int = MAX_DEPTH, unique_keys: bool = False) -> Any:
    """Parse strict JSON: depth ≤ ``max_depth``, no NaN/Infinity, no lone surrogates (and, with
    ``unique_keys``, no object with a key twice)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(
                "bad_json", N_("the body is not UTF-8: {error}", error=exc.reason)
            ) from None
    # fewer brackets than the limit cannot nest deeper: the scan is only for the others
    if (raw.count("[") + raw.count("{") > max_depth) and not _depth_ok(raw, max_depth):
        raise BadInput(
            "bad_json", N_("the message is nested deeper than {depth} levels", depth=max_depth)
        )
    try:
        value = (_UNIQUE_DECODER if unique_keys else _DECODER).decode(raw)
    except BadInput as exc:
        if unique_keys and exc.code == "bad_json" and "appears twice" in exc.message:
            # a key twice: the text's other faults (a lone surrogate, NaN) are named first,
            # as they were before keys were checked
            parse_json(raw, max_depth=max_depth)
        raise
    except (ValueError, RecursionError) as exc:
        raise BadInput(
            "bad_json", N_("the message is not valid JSON: {error}", error=str(exc))
        ) from None
    # ASCII text without a \u escape holds no surrogate, and a number without an exponent or
    # 300 digits in a row is finite: most messages (a ping, an action) need no walk
    if not raw.isascii() or "\\u" in raw or _RISKY_NUMBER.search(raw):
        _check_text(value)
    return value


#: what may make a float overflow to infinity
_RISKY_NUMBER = re.compile(r"[0-9][eE]|[0-9]{300}")


def client_address(conn: Any) -> str:
    """The client's address of a request or WebSocket (uvicorn has already read it from
    ``X-Forwarded-For`` when the request came from ``--forwarded-allow-ips``)."""
    return conn.client.host if conn.client else "unknown"


# --- rate limits -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """``burst`` requests at once, then ``per_minute`` on average."""

    burst: int
    per_minute: float


#: the default budget per client address; ``ServerConfig.rate_limits`` overrides
DEFAULT_LIMITS: dict[str, Limit] = {
    "create": Limit(10, 10),  # tables created
    "join": Limit(20, 30),  # claims, joins, token rotations, leaves
    "lookup": Limit(120, 600),  # table look-ups, lists, replays, verifications, WebSocket opens
    "sheet": Limit(20, 60),  # Chicago score sheets
}


class RateLimiter:
    """Token buckets per (kind, client address); at most ``max_clients`` addresses remembered.

    >>> r = RateLimiter({"create": Limit(2, 60)})
    >>> [r.take("create", "1.2.3.4", now=0.0) for _ in range(3)]
    [0.0, 0.0, 1.0]
    >>> r.take("create", "1.2.3.4", now=1.0)
    0.0
    """

    def __init__(self, limits: dict[str, Limit], max_clients: int = 10_000) -> None:
        self.limits = limits
        self.max_clients = max_clients
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def take(self, kind: str, client: str, now: float | None = None) -> float:
        """Spend one request; returns 0 when allowed, else the seconds until one is allowed."""
        limit = self.limits.get(kind)
        if limit is None:
            return 0.0
        now = time.monotonic() if now is None else now
        rate = limit.per_minute / 60.0
        key = (kind, client)
        tokens, last = self._buckets.pop(key, (float(limit.burst), now))
        tokens = min(float(limit.burst), tokens + (now - last) * rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / rate if rate > 0 else 3600.0
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return wait


#: a token bucket in Redis, atomically: KEYS[1] the bucket; ARGV burst, tokens per second.
#: Redis's own clock (TIME) is the one clock of every process; the key expires once full again.
_BUCKET_LUA = """
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens = tonumber(v[1]) or burst
local last = tonumber(v[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
elseif rate > 0 then
  wait = (1 - tokens) / rate
else
  wait = 3600
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', tostring(now))
local ttl = 3600
if rate > 0 then ttl = math.ceil(burst / rate) + 1 end
redis.call('EXPIRE', KEYS[1], ttl)
return tostring(wait)
"""


class SharedRateLimiter:
    """The buckets of :class:`RateLimiter` in Redis, shared by every process of a cluster.

    When Redis does not answer within ``timeout`` seconds the process falls back to its own
    buckets (``local``) and says so once in the log: a Redis outage never blocks the lobby, and
    each process still limits what it sees."""

    def __init__(self, url: str, local: RateLimiter, timeout: float = 0.5) -> None:
        import redis.asyncio as aioredis

        self.local = local
        self.timeout = timeout
        self._client = aioredis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout
        )
        self._bucket = self._client.register_script(_BUCKET_LUA)
        self._down = False

    async def take(self, kind: str, client: str) -> float:
        """Spend one request; 0 when allowed, else the seconds until one is allowed."""
        limit = self.local.limits.get(kind)
        if limit is None:
            return 0.0
        key = f"parlour:rate:{kind}:{client}"
        try:
            wait = await asyncio.wait_for(
                self._bucket(keys=[key], args=[limit.burst, limit.per_minute / 60.0]),
                self.timeout,
            )
        except Exception as exc:  # Redis down or slow: this process's own buckets
            if not self._down:
                self._down = True
                log.warning("shared rate limits unavailable (%s); using this process's own", exc)
            return self.local.take(kind, client)
        if self._down:
            self._down = False
            log.info("shared rate limits available again")
        return float(wait)

    async def close(self) -> None:
        await self._client.aclose()


# --- origins -----------------------------------------------------------------------------------

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def _host_only(value: str) -> str:
    """``example.org:8000`` → ``example.org``; ``[::1]:8000`` → ``::1``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def local_addresses() -> set[str]:
    """Names and addresses this machine answers to (for a server bound to every interface)."""
    names = {*LOOPBACK_NAMES, socket.gethostname().lower()}
    try:
        names.add(socket.getfqdn().lower())
        for info in socket.getaddrinfo(socket.gethostname(), None):
            names.add(str(info[4][0]).lower())
    except OSError:
        pass
    try:  # the address used to reach other machines (no packet is sent by a UDP connect)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            names.add(s.getsockname()[0])
    except OSError:
        pass
    return names


class OriginPolicy:
    """Which ``Host`` headers the server answers and which browser ``Origin`` may open a socket.

    ``hosts`` are the names the server serves on (``None``: any host, for a server behind a proxy
    that checks them); ``origins`` are extra allowed origins (``--allow-origin``).  A browser
    page's ``Origin`` must be the same origin as the request's ``Host`` or one of ``origins``;
    clients that send no ``Origin`` (programs, not browsers) are not asked.

    >>> p = OriginPolicy({"127.0.0.1", "localhost"}, ["https://friends.example"])
    >>> p.host_ok("127.0.0.1:8000"), p.host_ok("evil.example")
    (True, False)
    >>> p.origin_ok("http://127.0.0.1:8000", "127.0.0.1:8000")
    True
    >>> p.origin_ok("https://evil.example", "127.0.0.1:8000")
    False
    >>> p.origin_ok("https://friends.example", "127.0.0.1:8000")
    True
    """

    def __init__(self, hosts: set[str] | None, origins: list[str] | tuple[str, ...] = ()) -> None:
        self.hosts = {h.lower() for h in hosts} if hosts is not None else None
        self.origins = {o.rstrip("/").lower() for o in origins}
        for o in self.origins:
            if self.hosts is not None and (name := urlsplit(o).hostname):
                self.hosts.add(name)

    @classmethod
    def for_bind(cls, host: str, origins: list[str] | tuple[str, ...] = ()) -> OriginPolicy:
        """The default for ``parlour serve --host HOST``: the address it serves on."""
        bind = host.strip().lower().strip("[]")
        if bind in ("0.0.0.0", "::", ""):
            return cls(local_addresses(), origins)
        names = {bind}
        try:
            if ipaddress.ip_address(bind).is_loopback:
                names.update(LOOPBACK_NAMES)
        except ValueError:
            if bind == "localhost":
                names.update(LOOPBACK_NAMES)
        return cls(names, origins)

    def host_ok(self, host_header: str | None) -> bool:
        if self.hosts is None:
            return True
        if not host_header:
            return False
        return _host_only(host_header) in self.hosts

    def origin_ok(self, origin: str | None, host_header: str | None) -> bool:
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        if origin in self.origins:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or not host_header:
            return False
        return parts.netloc == host_header.strip().lower() and self.host_ok(host_header)


# --- logs --------------------------------------------------------------------------------------

_SECRET_QUERY = re.compile(r"((?:seat|invite|token|contrib)=)[^&\s\"']+", re.IGNORECASE)


def redact(text: str) -> str:
    """Seat tokens, invites and contributions out of a log line.

    >>> redact('GET /ws/ABC?seat=s3cr3t&contrib=ff HTTP/1.1')
    'GET /ws/ABC?seat=***&contrib=*** HTTP/1.1'
    """
    return _SECRET_QUERY.sub(r"\1***", text)


#: set by the WebSocket handler when it refuses an upgrade with an HTTP answer (403, 429)
WS_DENIED: ContextVar[bool] = ContextVar("parlour_ws_denied", default=False)
#: what uvicorn's sans-I/O WebSocket protocol logs at ERROR after any HTTP answer to an upgrade
#: (it counts a denial response as "returned without completing handshake"; uvicorn 0.54)
_NO_HANDSHAKE = "ASGI callable returned without completing handshake."


class RedactTokens(logging.Filter):
    """A logging filter for uvicorn's loggers: no token reaches a log line, and an upgrade the
    server refused on purpose (another site's page, another host, too many requests) is not
    logged as an error — a stranger could otherwise fill the log with ERROR lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == _NO_HANDSHAKE and WS_DENIED.get():
            return False
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        return True


def install_log_redaction() -> None:
    flt = RedactTokens()
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(flt)
