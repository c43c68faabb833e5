// The table page (/t/CODE[?seat=TOKEN]): one WebSocket to the server, the felt drawn by a
// game-specific renderer (generic fallback for any game), the log, the score sheet, the deal
// commitments with "verify this deal", end-of-hand and end-of-match screens, reconnect.
import { api, clear, copyText, fmt, h, humanize } from "./dom.js";
import { rememberSeat, seatName, seatUrl } from "./seats.js";
import { scoreSheet } from "./sheet.js";
import * as generic from "./generic.js";

// Game-specific tables, loaded on demand; a game without one (or whose module fails to load)
// gets the generic table.
const GAME_MODULES = ["samba", "cheat", "scat", "handfoot"];
const RENDERERS = {};
const TITLES = { samba: "Samba", handfoot: "Hand and Foot", cheat: "Cheat", scat: "Scat / 31" };
async function loadRenderer(game) {
  if (!GAME_MODULES.includes(game) || game in RENDERERS) return;
  try {
    RENDERERS[game] = await import(`./${game}.js`);
  } catch (e) {
    console.error(`no ${game} table (${e.message}); using the generic table`);
    RENDERERS[game] = null;
  }
}
const $ = (id) => document.getElementById(id);

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
const params = new URLSearchParams(location.search);
const token = params.get("seat");
const plain = params.has("plain"); // ?plain: the generic table (any game, every field of the view)

/** Everything the renderers may read, plus the few things they may do. */
export const ctx = {
  code,
  token,
  seat: null,
  spectator: true,
  game: "",
  preset: "",
  rules: {},
  players: 0,
  table: null,
  status: "waiting",
  version: 0,
  view: null,
  legal: null,
  outcome: null,
  seats: [],
  log: [],
  error: "",
  errorAt: 0,
  selected: [], // selected hand cards (strings, with repeats)
  pending: false,
  connected: false,
  tab: "log",
  seenHands: null, // number of hand results seen (to pop the end-of-hand screen once)
  dismissedEnd: false,
  name: (seat) => seatName(seat, ctx.players),
  say,
  send,
  rerender: render,
  showError,
  overlay,
  closeOverlay,
};

window.parlour = ctx; // for the browser console and the tests

/** Engine texts name seats by number ("seat 1 melds …") and melds by their 0-based index
 * ("adds 9♥ to meld 0"); show the names this table uses and melds as #1, #2 … (as on the table
 * and in the terminal). A card after "meld" ("meld 10♥ J♥ Q♥") is left alone. */
function say(text) {
  if (typeof text !== "string") return text;
  text = text.replace(/\bmeld (\d+)(?=$|[\s,.;:)])/g, (m, n) => `meld #${Number(n) + 1}`);
  if (!ctx.players) return text;
  return text.replace(/\b[Ss]eat (\d+)\b/g, (m, n) => (Number(n) < ctx.players ? ctx.name(Number(n)) : m));
}

let ws = null;
let backoff = 500;
let nextId = 1;

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${proto}//${location.host}/ws/${encodeURIComponent(code)}${token ? `?seat=${encodeURIComponent(token)}` : ""}`;
  ws = new WebSocket(url);
  ws.addEventListener("open", () => {
    ctx.connected = true;
    backoff = 500;
    setStatus();
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", () => {
    ctx.connected = false;
    ctx.pending = false;
    setStatus();
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  });
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      ctx.seat = msg.seat;
      ctx.spectator = !!msg.spectator;
      ctx.game = msg.game;
      ctx.preset = msg.preset;
      ctx.rules = msg.rules || {};
      ctx.players = msg.players;
      ctx.table = msg.table;
      if (!ctx.spectator && token) rememberSeat(code, msg.seat, token, msg.game);
      document.title = `${humanize(msg.game)} · ${code} · Parlour`;
      loadRenderer(msg.game).then(render);
      break;
    case "state":
      onState(msg);
      break;
    case "table":
      ctx.table = msg.table;
      break;
    case "error":
      ctx.pending = false;
      if (msg.code === "stale_version") ctx.selected = [];
      showError(msg.message || msg.code, msg.code);
      break;
    default:
      return; // unknown message types are ignored (protocol rule)
  }
  render();
}

function onState(msg) {
  const prevVersion = ctx.version;
  ctx.version = msg.version;
  ctx.status = msg.status;
  ctx.view = msg.view;
  ctx.legal = msg.legal;
  ctx.outcome = msg.outcome;
  ctx.seats = msg.seats || ctx.seats;
  ctx.pending = false;
  if (msg.full_log) {
    ctx.log = [];
    ctx.logResets = (ctx.logResets || 0) + 1;
  }
  for (const e of msg.events || []) ctx.log.push(e);
  if (msg.version !== prevVersion && !msg.full_log) ctx.error = "";
  // Keep only selected cards still in the hand.
  const hand = [...handOf(ctx.view)];
  ctx.selected = ctx.selected.filter((c) => {
    const i = hand.indexOf(c);
    if (i < 0) return false;
    hand.splice(i, 1);
    return true;
  });
  const hands = (msg.outcome && msg.outcome.hands) || [];
  if (ctx.seenHands === null) ctx.seenHands = hands.length; // a reload does not replay old screens
  if (hands.length > ctx.seenHands) {
    ctx.seenHands = hands.length;
    if (!(msg.outcome && msg.outcome.finished)) showHandEnd(hands[hands.length - 1]);
  }
}

export function handOf(view) {
  if (!view) return [];
  const hand = view.hand ?? view.my_hand ?? view.cards;
  return Array.isArray(hand) ? hand : [];
}

function send(action) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    showError("Not connected — reconnecting…");
    return;
  }
  ctx.pending = true;
  ctx.error = "";
  ws.send(JSON.stringify({ type: "action", version: ctx.version, action, id: nextId++ }));
  render();
}

function showError(text, kind) {
  text = say(text);
  ctx.error = text;
  ctx.errorAt = Date.now();
  ctx.log.push({ kind: "client_error", text: `✗ ${text}`, local: true, code: kind });
  render();
}

function setStatus() {
  const s = $("status");
  s.className = `status ${ctx.connected ? "online" : "offline"}`;
  const who = ctx.spectator ? "watching" : `you are ${ctx.name(ctx.seat)}`;
  s.textContent = ctx.connected ? who : "reconnecting…";
}

// --- rendering ------------------------------------------------------------------------------

// Renders are coalesced: a burst of bot moves redraws the table once, not once per message.
let renderTimer = null;
function render() {
  if (renderTimer === null) renderTimer = setTimeout(renderNow, 10);
}

function renderNow() {
  renderTimer = null;
  ctx.renders = (ctx.renders || 0) + 1;
  setStatus();
  const title = TITLES[ctx.game] || humanize(ctx.game || "");
  $("title").textContent = ctx.game ? `${title}${ctx.preset && ctx.preset !== ctx.game ? ` · ${ctx.preset}` : ""}` : "";
  $("code").textContent = code;
  const felt = clear($("felt"));
  if (!ctx.view) {
    felt.append(h("p", ctx.connected ? "Waiting for the table…" : "Connecting to the table…"));
  } else {
    felt.append(banner());
    if (ctx.status === "waiting") felt.append(waitingPanel());
    const special = !plain && RENDERERS[ctx.game];
    const renderer = special && special.canRender?.(ctx.view) !== false ? special : generic;
    try {
      renderer.render(ctx, felt);
    } catch (e) {
      console.error(e);
      felt.append(h("p.error-toast", `This view could not be drawn by the ${ctx.game} table (${e.message}); showing the plain view.`));
      generic.render(ctx, felt);
    }
  }
  renderTab();
  if (ctx.outcome && ctx.outcome.finished && !ctx.dismissedEnd && !$("overlay-root").firstChild) showMatchEnd();
}

function banner() {
  const b = h("div.banner#turn-banner");
  const toAct = ctx.view.to_act;
  const mine = ctx.legal && ctx.legal.length && toAct === ctx.seat;
  if (mine) b.classList.add("my-turn");
  if (ctx.status === "finished" || (ctx.outcome && ctx.outcome.finished)) b.append("The match is over.");
  else if (ctx.status === "waiting") b.append("Waiting for players to sit down.");
  else if (mine) b.append("Your turn");
  else if (toAct != null) b.append(`${ctx.name(toAct)} to play${ctx.pending ? "" : "…"}`);
  if (ctx.pending) b.append(h("span.muted", " sending…"));
  if (ctx.error) b.append(h("span", { class: "error-toast", id: "error", role: "alert" }, ctx.error));
  return b;
}

function waitingPanel() {
  const start = h("button.btn.primary#start-now", { type: "button" }, "Start now (bots fill empty seats)");
  start.addEventListener("click", () => ws && ws.send(JSON.stringify({ type: "start" })));
  return h("div.prompt", "The table starts when everyone has sat down. ", ctx.spectator ? null : start);
}

let drawnTab = null; // [tab, log length, outcome hands, version] last drawn: skip identical redraws
function renderTab() {
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("active", b.dataset.tab === ctx.tab);
  const key = JSON.stringify([ctx.tab, ctx.log.length, ctx.logResets, ctx.tab === "log" ? 0 : ctx.version, ctx.seats.length]);
  if (key === drawnTab) return;
  drawnTab = key;
  const body = clear($("tab-body"));
  if (ctx.tab === "log") body.append(logList());
  else if (ctx.tab === "score") body.append(scorePanel());
  else body.append(infoPanel());
}

function logList() {
  const ul = h("ul.log#log");
  const items = ctx.log.slice(-300).reverse(); // newest first: visible on a phone without scrolling
  for (const e of items) {
    const li = h("li", { dataset: { kind: e.kind || "" } }, say(e.text));
    if (e.local) li.classList.add("error");
    if (e.kind === "deal_commitment" || e.kind === "deal_reveal") li.classList.add("deal");
    if (e.kind === "deal_reveal" && e.data && e.data.verify_url) li.append(" ", verifyButton(e.data));
    ul.append(li);
  }
  if (!items.length) ul.append(h("li.muted", "Nothing has happened yet."));
  return ul;
}

function verifyButton(data) {
  const out = h("span.verify-result");
  const btn = h("button.btn.small.verify", { type: "button" }, "verify this deal");
  btn.addEventListener("click", async (ev) => {
    ev.stopPropagation();
    btn.disabled = true;
    try {
      const r = await api("GET", data.verify_url);
      const d = (r.deals || []).find((x) => x.hand === data.hand);
      if (!d) out.textContent = " not revealed yet";
      else if (d.verified) out.textContent = ` ✓ hand ${data.hand + 1}: seed matches the commitment and re-deals the same cards`;
      else out.textContent = ` ✗ hand ${data.hand + 1}: commitment ${d.commitment_ok ? "ok" : "WRONG"}, re-deal ${d.redeal_ok ? "ok" : "WRONG"}`;
    } catch (e) {
      out.textContent = ` ${e.message}`;
    }
    btn.replaceWith(out);
  });
  return btn;
}

function scorePanel() {
  const box = h("div#score-panel");
  const r = RENDERERS[ctx.game];
  if (r && r.scoreExtra) box.append(r.scoreExtra(ctx));
  box.append(scoreSheet(ctx.outcome, ctx));
  return box;
}

function infoPanel() {
  const dl = h("dl.kv");
  const add = (k, v) => dl.append(h("dt", k), h("dd", v));
  add("Table", code);
  add("Game", `${ctx.game} (${ctx.preset})`);
  add("You", ctx.spectator ? "watching" : ctx.name(ctx.seat));
  for (const s of ctx.seats) add(ctx.name(s.seat), `${s.controller}${s.kind === "bot" ? ` (${s.bot || "bot"})` : ""}${s.connected ? " · online" : ""}`);
  const rules = h("dl.kv");
  for (const [k, v] of Object.entries(ctx.rules || {})) rules.append(h("dt", k), h("dd", JSON.stringify(v)));
  const leave = h("button.btn.small.danger", { type: "button" }, "Leave my seat (a bot takes over)");
  leave.addEventListener("click", async () => {
    if (!confirm("Leave this seat? A bot will play it.")) return;
    try {
      await api("POST", `/api/tables/${code}/leave`, { token });
      location.href = seatUrl(code);
    } catch (e) {
      showError(e.message);
    }
  });
  return h(
    "div",
    dl,
    h("h3", "Rules"),
    rules,
    h("p", h("a", { href: `/api/tables/${code}/verify`, target: "_blank" }, "Verify all revealed deals"), " · ", h("a", { href: `/api/tables/${code}/replay`, target: "_blank" }, "Replay (finished matches)")),
    ctx.spectator ? null : leave,
  );
}

// --- overlays --------------------------------------------------------------------------------

function overlay(content, { id = "dialog", onClose } = {}) {
  closeOverlay();
  const close = h("button.btn.primary", { type: "button", id: `${id}-close` }, "Continue");
  const dlg = h(`div.dialog#${id}`, { role: "dialog" }, content, h("div.row", close));
  const ov = h("div.overlay", dlg);
  const done = () => {
    closeOverlay();
    if (onClose) onClose();
  };
  close.addEventListener("click", done);
  ov.addEventListener("click", (e) => e.target === ov && done());
  $("overlay-root").append(ov);
}

function closeOverlay() {
  clear($("overlay-root"));
}

function showHandEnd(hand) {
  overlay(h("div", h("h2", `Hand ${hand.number + 1} is over`), hand.note ? h("p", hand.note) : null, scoreSheet(ctx.outcome, ctx, { only: hand.number })), { id: "hand-end" });
}

function showMatchEnd() {
  const o = ctx.outcome;
  const sides = o.sides || [];
  const sideName = (i) => (sides[i] || []).map((s) => ctx.name(s)).join(" & ") || `Side ${i + 1}`;
  const result = o.winners && o.winners.length ? `Winner: ${o.winners.map(sideName).join(", ")}` : "A draw.";
  overlay(
    h(
      "div",
      h("h2", "Match over"),
      h("p#match-result", h("b", result), o.termination ? h("span.muted", ` (${humanize(o.termination)})`) : null),
      h("ul", (o.scores || []).map((s, i) => h("li", `${sideName(i)}: ${fmt(s)}`))),
      scoreSheet(o, ctx),
      h("p", "Every deal can be checked in the log: “verify this deal”."),
    ),
    { id: "match-end", onClose: () => (ctx.dismissedEnd = true) },
  );
}

// --- start -------------------------------------------------------------------------------------

$("invite").addEventListener("click", () => {
  const rows = [];
  const watch = `${location.origin}${seatUrl(code)}`;
  const mine = token ? `${location.origin}${seatUrl(code, token)}` : null;
  const row = (label, url) => {
    const b = h("button.btn.small", { type: "button" }, "Copy");
    b.addEventListener("click", () => copyText(url, b));
    return h("div.link-row", h("b", label), h("input", { type: "text", readonly: true, value: url }), b);
  };
  if (mine) rows.push(row("Your seat (keep it private)", mine));
  rows.push(row("Watch", watch));
  const free = (ctx.table && ctx.table.free_seats) || [];
  rows.push(h("p", free.length ? `Free seats: ${free.map((s) => ctx.name(s)).join(", ")} — friends join with the code ${code} in the lobby.` : "No free seats."));
  overlay(h("div.links", h("h2", `Table ${code}`), rows), { id: "invite-dialog" });
});
for (const b of document.querySelectorAll(".tabs button")) {
  b.addEventListener("click", () => {
    ctx.tab = b.dataset.tab;
    drawnTab = null;
    renderTab();
  });
}
connect();
