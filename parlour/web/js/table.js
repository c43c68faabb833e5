// The table page (/t/CODE, /t/CODE?invite=INV, old links /t/CODE?seat=TOKEN): takes the seat,
// one WebSocket to the server, the felt drawn by a game-specific renderer (generic fallback for
// any game), the log with each deal checked against its commitment, the score sheet, end-of-hand
// and end-of-match screens (with the fair deal check), reconnect. The page is laid out around a
// dock pinned at the bottom (whose turn, the moves, your hand) with the table scrolling on its own
// above it; focus is kept across redraws and the common moves have keys (see onKey below).
import { api, clear, copyText, fmt, h, humanize } from "./dom.js";
import * as delta from "./delta.js";
import * as fair from "./fair.js";
import { forgetSeat, hostSeat, loadInvites, playerName, rememberSeat, replaceInvite, seatName, seatUrl, tokenFor } from "./seats.js";
import { scoreSheet, sideLabel } from "./sheet.js";
import * as generic from "./generic.js";
import * as motion from "./motion.js";
import { optionDoc, optionName, speak, valueWords } from "./speak.js";
import * as chatui from "./chat.js"; // issue 33: table chat and the turn clock
import * as me from "./players.js"; // issue 33: the player behind this browser
import { _, botName, GAME_TITLES, lang as readerLang, number, pgettext } from "./i18n.js"; // issue 34

// Game-specific tables, loaded on demand; a game without one (or whose module fails to load)
// gets the generic table.
const GAME_MODULES = ["samba", "cheat", "scat", "handfoot"];
const RENDERERS = {};
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
const plain = params.has("plain"); // ?plain: the generic table (any game, every field of the view)
let token = null; // this browser's seat token: kept in localStorage, never in the address bar
const record = fair.openRecord(code); // what this browser saw of the deals and the moves

const USED_INVITE =
  _("This invite link has already been used. If that was you in another browser, open the table there; otherwise ask the table's host for a new link.");
// Why a connection was refused at the table's door (the error before the close): no_table and
// gone are final (no reconnecting); unavailable is retried.
const REFUSALS = {
  no_table: () => _("There is no table {code} on this server. Check the link or the code.", { code }),
  gone: (m) => _("This table is gone: {why}. It cannot be played or watched here any more.", { why: m || _("it expired") }),
  unavailable: () => _("The server cannot read its tables just now (its database is not answering). Trying again…"),
};

/** Everything the renderers may read, plus the few things they may do. */
export const ctx = {
  code,
  token: null,
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
  queue: [], // the rest of a sequence of actions being sent (see sendAll)
  connected: false,
  tab: "log",
  notice: null, // {text, alarm}: a message that stays on the felt until closed
  closed: null, // why this page stopped connecting (the table does not exist or is gone)
  links: { move: null, seats: {} }, // invite links made on this page: to move my seat; host's new ones
  fair: null, // the end-of-match deal check: {state: "checking"|"done", results}
  fairRecord: record,
  seenHands: null, // number of hand results seen (to pop the end-of-hand screen once)
  dismissedEnd: false,
  // a seat's player name where the player gave one, else the seat's name (South, Player 2 …)
  name: (seat) => {
    const s = (ctx.seats || []).find((x) => x.seat === seat);
    return s && s.name ? s.name : seatName(seat, ctx.players);
  },
  say,
  // "you", "your partner" or the seat's name, as the subject / the object of a sentence
  who: (seat) => (!ctx.spectator && seat === ctx.seat ? _("you") : !ctx.spectator && partners().includes(seat) ? _("your partner") : ctx.name(seat)),
  whom: (seat) => (!ctx.spectator && seat === ctx.seat ? pgettext("object", "you") : !ctx.spectator && partners().includes(seat) ? pgettext("object", "your partner") : ctx.name(seat)),
  lang: readerLang,
  send,
  sendAll,
  rerender: render,
  showError,
  overlay,
  closeOverlay,
};

window.parlour = ctx; // for the browser console and the tests

/** The seats on this reader's side, the reader left out (a partner), from the outcome's sides. */
function partners() {
  if (ctx.spectator || ctx.seat == null) return [];
  const sides = (ctx.outcome && ctx.outcome.sides) || [];
  const mine = sides.find((s) => s.includes(ctx.seat)) || [];
  return mine.filter((s) => s !== ctx.seat);
}

/** Engine texts name seats by number ("seat 1 melds …") and melds by their 0-based index
 * ("adds 9♥ to meld 0"); show them from where the reader sits ("You meld …", "your partner",
 * the table's seat names) and melds as #1, #2 … (speak.js). */
function say(text) {
  // the server tells each connection in its own language (issue 34); the English rewording
  // below is for English text only
  if (readerLang !== "en") return typeof text === "string" ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return speak(text, { me: ctx.spectator ? null : ctx.seat, players: ctx.players, partners: partners(), name: ctx.name });
}

let ws = null;
let backoff = 500;
let nextId = 1;

/** The seat this page plays: claim an invite, take an old-style ?seat= link, or the token this
 * browser remembers for the table; null to watch. The address bar is left without the invite or
 * the token, so copying it shares a link for watching, not the seat. */
async function takeSeat() {
  const invite = params.get("invite");
  const linkToken = params.get("seat");
  const cleanAddress = () => {
    params.delete("invite");
    params.delete("seat");
    const rest = params.toString();
    history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  };
  if (linkToken) {
    rememberSeat(code, null, linkToken);
    cleanAddress();
    return linkToken;
  }
  if (!invite) return tokenFor(code);
  // issue 33: an invited friend is asked for a name once, before taking the seat
  // (a browser that gave a name before players had keys keeps it: its player is made with it)
  if (!me.player() && playerName()) await me.saveName(playerName()).catch(() => null);
  if (!me.player()) await me.askName($("overlay-root"), { title: _("Welcome to the table"), note: _("You were invited to play. What should the others call you?") });
  try {
    const r = await api("POST", `/api/tables/${encodeURIComponent(code)}/claim`, { invite, player: playerName() || undefined });
    rememberSeat(code, r.seat, r.token, r.game);
    cleanAddress();
    return r.token;
  } catch (e) {
    const held = tokenFor(code);
    if (e.status === 410 || e.status === 403 || e.status === 404) cleanAddress();
    if (held && (e.status === 410 || e.status === 403)) return held; // this browser took it earlier
    // the server says it in the reader's language (issue 34): the same catalog message here
    const used = _("this invite link has already been used; if that was you in another browser, open the table there, otherwise ask for a new link");
    if (e.status === 410 && e.message === used) ctx.notice = { text: USED_INVITE };
    else if (e.status === 403) ctx.notice = { text: _("This invite link is not valid for this table (a newer link may have replaced it). Ask the table's host for a new link; meanwhile you are watching.") };
    else if (e.status === 429) ctx.notice = { text: _("{why} Reload the page to try the invite again; meanwhile you are watching.", { why: e.message }) };
    else ctx.notice = { text: _("The seat could not be taken: {why}. You are watching.", { why: e.message }) };
    return null;
  }
}

function setToken(t) {
  if (t && t !== token) me.sit(code, t); // issue 33: the seat's (new) token is the player's
  token = t;
  ctx.token = t;
  if (t && ctx.seat != null) rememberSeat(code, ctx.seat, t, ctx.game);
}

let unopened = 0; // closes in a row before the socket opened (a refused handshake looks like this)
let refusal = null; // the door's error on this socket (no_table, gone, unavailable)
let welcomed = false; // this socket got its welcome
const UNREACHABLE = _("Cannot reach the table: the server may be down, or it refused this page (too many connections from your address, or a page from another site). Still trying…");
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // A player's browser adds its own randomness to the shuffle (used if the table has not started).
  // issue 34: the reader's language; the server tells this connection everything in it
  const lang = `&lang=${encodeURIComponent(readerLang)}`;
  const query = (token ? `?seat=${encodeURIComponent(token)}&contrib=${fair.contribution(record)}&deltas=1` : "?deltas=1") + lang;
  refusal = null;
  delta.reset();
  welcomed = false;
  ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(code)}${query}`);
  let opened = false;
  ws.addEventListener("open", () => {
    opened = true;
    unopened = 0;
    ctx.connected = true;
    backoff = 500;
    setStatus();
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try {
      msg = fair.parseKeepingSeeds(ev.data);
    } catch {
      return;
    }
    msg = delta.whole(msg);
    if (msg) onMessage(msg);
    else ws.send(JSON.stringify({ type: "sync" })); // a delta out of step: the whole state again
  });
  ws.addEventListener("close", (ev) => {
    ctx.connected = false;
    ctx.pending = false;
    const final = refusal && refusal.code !== "unavailable" ? refusal : { 4404: { code: "no_table" }, 4410: { code: "gone" } }[ev.code];
    if (final) ctx.closed = REFUSALS[final.code](final.message);
    else if (refusal || ev.code === 4503) ctx.notice = { text: REFUSALS.unavailable(), retry: true };
    // A browser is not told why a handshake was refused (it sees 1006): after a few, say so.
    else if (!opened && ++unopened >= 3 && !ctx.notice) ctx.notice = { text: UNREACHABLE, retry: true };
    render();
    if (final) return; // the table is not there: nothing to reconnect to
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  });
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      welcomed = true;
      if (ctx.notice && ctx.notice.retry) ctx.notice = null; // "trying again…": it worked
      if (ctx.errorCode === "offline") ctx.error = ""; // "Not connected": connected again
      ctx.seat = msg.seat;
      ctx.spectator = !!msg.spectator;
      ctx.game = msg.game;
      ctx.preset = msg.preset;
      ctx.rules = msg.rules || {};
      ctx.players = msg.players;
      ctx.table = msg.table;
      if (!ctx.spectator && token) rememberSeat(code, msg.seat, token, msg.game);
      fair.noteWelcome(record, ctx.spectator ? null : msg.seat, msg.table);
      baseTitle = `${GAME_TITLES[msg.game] || humanize(msg.game)} · ${code} · Parlour`;
      document.title = baseTitle;
      motion.reset(ctx);
      ctx.hint = null;
      // the reviews of this seat's finished hands; the server sends each new one when ready
      if (!ctx.spectator && ws) ws.send(JSON.stringify({ type: "review" }));
      chatui.welcome(); // issue 33: the chat so far
      if (!ctx.spectator && token) me.sit(code, token); // issue 33: this seat shows the player's name
      loadRenderer(msg.game).then(render);
      break;
    case "state":
      onState(msg);
      break;
    case "table":
      ctx.table = msg.table;
      chatui.onTable(msg.table);
      flowChanged();
      ctx.seats = msg.table.seats || ctx.seats; // who is online changed (no move was made)
      fair.noteTable(record, msg.table);
      break;
    case "hint": // the search's suggestion for this turn (hints.js-free: drawn by hintBox)
      ctx.hint = msg;
      break;
    case "review": // the reviews of this seat's finished hands (sent again when a new one is ready)
      ctx.review = msg;
      if (ctx.tab === "review") redrawTab();
      return;
    case "chat": // issue 33: table chat
    case "chat_log":
    case "chat_muted":
      if (chatui.onMessage(msg, ctx.tab === "chat")) chatChanged();
      return;
    case "timer": // issue 33: the decision's clock
      chatui.onTimer(msg, tickClock);
      break;
    case "token": // a new seat key (made here or in another tab of this seat)
      setToken(msg.token);
      return;
    case "error":
      ctx.pending = false;
      if (msg.code in REFUSALS && !welcomed) {
        refusal = msg; // said at the door, before any welcome; the close that follows acts on it
        return;
      }
      if (msg.request && typeof msg.request.type === "string" && msg.request.type.startsWith("chat")) {
        chatui.onError(msg); // issue 33: a refused chat message is told in the chat box
        chatChanged();
        return;
      }
      if (msg.code === "seat_moved") {
        seatMoved(msg.message || _("it was taken with a new invite link"));
        break;
      }
      // This browser's randomness refused at connect (the seat already had some from another
      // browser, or the cards were dealt): no fault in the game; the fair deal check says whose
      // randomness was used.
      if (msg.code === "bad_contribution" || (msg.code === "started" && !msg.request)) return;
      if (msg.request && msg.request.type === "hint") {
        ctx.hint = { error: msg.message || msg.code, version: ctx.version };
        break;
      }
      if (msg.code === "stale_version") ctx.selected = [];
      if (sequence && msg.request && msg.request.type === "action") {
        stopSequence(msg);
        showError(msg.message || msg.code, msg.code);
        return;
      }
      if (msg.code === "bad_token") {
        if (token) forgetSeat(code, token); // revoked or replaced elsewhere: watch from now on
        setToken(null);
        ctx.notice = { text: _("This seat key does not work at this table (a new key may have been made in another browser, or the seat was given up), so you are watching.") };
        break;
      }
      showError(msg.message || msg.code, msg.code);
      break;
    default:
      return; // unknown message types are ignored (protocol rule)
  }
  render();
}

/** The seat was taken with a new invite (moved to another device, or the host made a new link
 * for it): this browser's token no longer works, and this socket now watches. */
function seatMoved(reason) {
  const text = ctx.links.move
    ? _("Your seat moved to the other device. This browser now watches.")
    : _("Your seat moved away from this browser ({why}), so you are watching now. If you did not move it yourself, ask the table's host for a new link.", { why: reason });
  if (token) forgetSeat(code, token);
  setToken(null);
  ctx.seat = null;
  ctx.spectator = true;
  ctx.selected = [];
  ctx.links = { move: null, seats: {} };
  ctx.notice = { text };
  drawnTab = null;
}

function onState(msg) {
  const prevVersion = ctx.version;
  const handBefore = ctx.view ? [...handOf(ctx.view)] : null;
  ctx.version = msg.version;
  ctx.status = msg.status;
  ctx.view = msg.view;
  ctx.legal = msg.legal;
  ctx.outcome = msg.outcome;
  ctx.seats = msg.seats || ctx.seats;
  ctx.pending = false;
  fair.noteHead(record, msg.version, msg.chain);
  // A full log (first state, a resync, a reconnect) replaces the log; this page's own lines (the
  // refusals it was told) stay where they were.
  const local = msg.full_log ? ctx.log.filter((e) => e.local) : null;
  if (msg.full_log) {
    ctx.log = [];
    ctx.logResets = (ctx.logResets || 0) + 1;
  }
  for (const e of msg.events || []) {
    fairEvent(e);
    ctx.log.push(e);
  }
  // Someone else moved since the last message: the turn went round, even when the bots played
  // so fast that no message showed it away from this seat — the next turn of ours is a new one.
  if (!msg.full_log && (msg.events || []).some((e) => e.data && typeof e.data.seat === "number" && e.data.seat !== ctx.seat)) wasMine = false;
  if (local) local.forEach((e, i) => ctx.log.splice(Math.min(e.after + i, ctx.log.length), 0, e));
  const secret = msg.events && msg.events.find((e) => e.kind === "secret_reveal" && e.data);
  if (secret && !ctx.fair) startFinalCheck(secret.data); // after this message's deal openings
  if (msg.version !== prevVersion && !msg.full_log) ctx.error = "";
  motion.noteHand(ctx, msg.full_log ? null : handBefore, handOf(ctx.view));
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
  if (sequence) {
    if (msg.full_log) stopSequence(null); // reconnected meanwhile: start again from what is shown
    else if (msg.version > sequence.from) nextStep(); // the last step was accepted
  }
}

/** Deal commitments are recorded as first seen; each opened deal is checked against that record
 * here; the table's secret at the end starts the whole-match check. */
function fairEvent(e) {
  if (!e.data) return;
  if (e.kind === "deal_commitment") fair.noteCommitment(record, e.data);
  else if (e.kind === "deal_reveal") {
    e.check = fair.checkReveal(record, e.data);
    if (!e.check.ok) ctx.notice = { text: _("Hand {hand}: {check}", { hand: Number(e.data.hand) + 1, check: e.check.text }), alarm: true };
  }
}

function startFinalCheck(reveal) {
  ctx.fair = { state: "checking", results: [] };
  fair.finalCheck(record, reveal, loadRecord).then((results) => {
    ctx.fair = { state: "done", results };
    const panel = $("fair-check");
    if (panel) panel.replaceWith(fairPanel());
  });
}

/** The finished match's record (moves and shuffle number), from the replay. */
async function loadRecord() {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await api("GET", `/api/tables/${encodeURIComponent(code)}/replay`, undefined, fair.parseKeepingSeeds);
      return r.record;
    } catch (e) {
      if (e.status !== 409 || attempt >= 6) throw e; // 409: the server is still closing the match
      await new Promise((ok) => setTimeout(ok, 400 * attempt));
    }
  }
}

export function handOf(view) {
  if (!view) return [];
  const hand = view.hand ?? view.my_hand ?? view.cards;
  return Array.isArray(hand) ? hand : [];
}

function send(action) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    if (sequence) stopSequence(null);
    showError(_("Not connected — reconnecting…"), "offline");
    return;
  }
  ctx.pending = true;
  ctx.error = "";
  ws.send(JSON.stringify({ type: "action", version: ctx.version, action, id: nextId++ }));
  render();
}

/**
 * Send actions one after another, each once the server accepted the previous one (a meld card by
 * card, picks then a claim). A step is an action, or a function of `ctx` called when its turn
 * comes (with the state and the legal moves the previous step led to) that returns the action, or
 * null to stop there. If the server refuses a step the rest is dropped, `onRefuse(error)` is
 * called (e.g. to give back the selection of the cards not played), the rule is shown and the
 * page asks for the whole state again.
 */
let sequence = null; // {steps, from, onRefuse}: the sequence being sent
function sendAll(steps, { onRefuse } = {}) {
  ctx.selected = [];
  sequence = { steps: [...steps], from: ctx.version, onRefuse, sent: 0 };
  nextStep();
}

function nextStep() {
  const step = sequence.steps.shift();
  // The first step is sent as it is (a refusal explains it); the next ones only while it is still
  // this seat's turn.
  const mine = !sequence.sent || (ctx.legal && ctx.legal.length && ctx.view && ctx.view.to_act === ctx.seat);
  const action = step && mine ? (typeof step === "function" ? step(ctx) : step) : null;
  if (!action) {
    sequence = null;
    ctx.queue = [];
    render();
    return;
  }
  sequence.from = ctx.version;
  sequence.sent += 1;
  ctx.queue = sequence.steps; // still to send (tests and the console read it)
  send(action);
}

function stopSequence(error) {
  const s = sequence;
  sequence = null;
  ctx.queue = [];
  if (!s || !error) return;
  if (s.onRefuse) s.onRefuse(error);
  // Refused after some steps went through: make sure the table shown is the server's.
  if (s.sent > 1 && ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "sync" }));
}

function showError(text, kind) {
  text = say(text);
  ctx.error = text;
  ctx.errorCode = kind || "";
  ctx.errorAt = Date.now();
  const after = ctx.log.filter((e) => !e.local).length; // where it goes back after a full log
  ctx.log.push({ kind: "client_error", text: `✗ ${text}`, local: true, code: kind, after });
  render();
}

function setStatus() {
  const s = $("status");
  s.className = `status ${ctx.connected ? "online" : "offline"}`;
  const who = ctx.spectator ? _("watching") : _("you are {seat}", { seat: ctx.name(ctx.seat) });
  s.textContent = ctx.connected ? who : ctx.closed ? _("not connected") : _("reconnecting…");
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
  const title = GAME_TITLES[ctx.game] || humanize(ctx.game || "");
  $("title").textContent = ctx.game ? `${title}${ctx.preset && ctx.preset !== ctx.game ? ` · ${ctx.preset}` : ""}` : "";
  $("code").textContent = code;
  // The felt and the dock are drawn afresh; where the keyboard was and how far the table was
  // scrolled are put back afterwards.
  const focus = focusKey(document.activeElement);
  const felt = $("felt");
  const scrolled = felt.scrollTop;
  clear(felt);
  felt.append(h("h2.sr-only", _("The table"))); // the headings below it (each side's melds) are h3
  // a table that is not there (unknown code, gone): only the message and the way back
  document.body.classList.toggle("no-table", !!ctx.closed && !ctx.view);
  const dock = clear($("dock"));
  if (ctx.closed) felt.append(h("div.notice.alarm#closed", { role: "alert" }, h("span", ctx.closed), h("a.btn.small", { href: "/" }, _("Lobby"))));
  if (ctx.notice) felt.append(noticeBox());
  if (!ctx.view && ctx.connected && ctx.status === "waiting" && ctx.table) {
    dock.append(banner()); // nothing is dealt before everyone has sat down
    felt.append(waitingPanel());
  } else if (!ctx.view) {
    if (!ctx.closed) felt.append(h("p", ctx.connected ? _("Waiting for the table…") : _("Connecting to the table…")));
  } else {
    dock.append(banner());
    if (ctx.status === "waiting") felt.append(waitingPanel());
    const special = !plain && RENDERERS[ctx.game];
    const renderer = special && special.canRender?.(ctx.view) !== false ? special : generic;
    try {
      renderer.render(ctx, felt, dock);
    } catch (e) {
      console.error(e);
      clear(dock).append(banner());
      felt.append(h("p.error-toast", _("This view could not be drawn by the {game} table ({why}); showing the plain view.", { game: ctx.game, why: e.message })));
      generic.render(ctx, felt, dock);
    }
  }
  if (ctx.hint && ctx.hint.version === ctx.version && myTurn()) {
    const bar = dock.querySelector("#actions");
    if (bar) bar.before(hintBox());
    else dock.append(hintBox());
  }
  fitMelds(felt);
  felt.scrollTop = scrolled;
  moreBelow();
  motion.after(ctx, say);
  turnSignal();
  restoreFocus(focus);
  rovingHand();
  seatClock(); // issue 33: the decision's clock on the seat too
  renderTab();
  if (ctx.outcome && ctx.outcome.finished && !ctx.dismissedEnd && !$("overlay-root").firstChild) showMatchEnd();
}

/** "Skip to your hand and moves" (the page's first keyboard stop): the focus goes to the hand
 * (its card that takes the focus), else the first move, else the dock. */
function skipToHand(e) {
  e.preventDefault();
  const target = document.querySelector('#hand [tabindex="0"], #hand button, #actions button, #dock button');
  if (target) target.focus();
  else {
    $("dock").tabIndex = -1;
    $("dock").focus();
  }
}
document.getElementById("skip-to-hand")?.addEventListener("click", skipToHand);

/** Bigger meld cards when the table has room for them (a wide window with few melds): the
 * largest of a few sizes at which the felt still needs no scrolling. Only where the felt
 * scrolls on its own (not the one-column phone layout). */
function fitMelds(felt) {
  felt.style.removeProperty("--meld-w");
  if (!felt.querySelector(".side-melds") || getComputedStyle(felt).overflowY === "visible") return;
  if (felt.scrollHeight > felt.clientHeight) return;
  const base = parseFloat(getComputedStyle(felt).getPropertyValue("--meld-w")) || 40;
  for (const k of [1.6, 1.4, 1.2]) {
    felt.style.setProperty("--meld-w", `${Math.round(base * k)}px`);
    if (felt.scrollHeight <= felt.clientHeight) return;
  }
  felt.style.removeProperty("--meld-w");
}

/** What scrolls the table: the felt, or on a phone (one column) the whole page under the top
 * bar; and where the part that can be seen ends (the dock is pinned over the page's bottom). */
function tableScroller() {
  const felt = $("felt");
  const phone = getComputedStyle(felt).overflowY === "visible";
  const scroller = phone ? document.querySelector(".table-page") : felt;
  const dock = $("dock");
  const bottom = phone && dock.firstChild ? dock.getBoundingClientRect().top : scroller.getBoundingClientRect().bottom;
  return { scroller, phone, bottom };
}

/** "↓ Below: your melds · West & East · Log": the parts of the table out of sight under the dock or the
 * felt's edge, as a button in the turn banner that scrolls to the next one (nothing shows that
 * the table scrolls otherwise). */
function moreBelow() {
  const bar = $("turn-banner");
  if (!bar) return;
  const { scroller, phone, bottom } = tableScroller();
  if (!scroller.dataset.watched) {
    scroller.dataset.watched = "1";
    scroller.addEventListener("scroll", () => moreBelow(), { passive: true });
    window.addEventListener("resize", () => moreBelow(), { passive: true });
  }
  const parts = [...$("felt").querySelectorAll(".side-melds, #centre, .center")];
  if (phone) parts.push(document.querySelector(".side"));
  const hidden = parts.filter((el) => el && el.getBoundingClientRect().bottom > bottom + 2 && el.getBoundingClientRect().height > 0);
  let btn = $("more-below");
  if (!hidden.length) {
    if (btn) btn.remove();
    return;
  }
  const sideName = (el) => (el.matches(".mine") ? _("your melds") : (el.querySelector("h3 span")?.textContent || _("their melds")).trim());
  const names = hidden.map((el) => (el.matches(".side") ? _("Log") : el.matches(".side-melds") ? sideName(el) : _("the piles")));
  const text = "↓ " + _("Below: {parts}", { parts: [...new Set(names)].join(" · ") });
  if (!btn) {
    btn = h("button.btn.small.more-below#more-below", { type: "button" });
    btn.addEventListener("click", () => {
      const t = tableScroller();
      const next = [...$("felt").querySelectorAll(".side-melds, #centre, .center"), ...(t.phone ? [document.querySelector(".side")] : [])].find((el) => el && el.getBoundingClientRect().bottom > t.bottom + 2);
      if (!next) return;
      const r = next.getBoundingClientRect();
      const view = t.bottom - t.scroller.getBoundingClientRect().top;
      t.scroller.scrollBy({ top: Math.max(40, Math.min(r.bottom - t.bottom + 8, Math.max(r.top - t.scroller.getBoundingClientRect().top, 0) || view * 0.8)) });
    });
    bar.append(btn);
  }
  btn.textContent = text;
  btn.setAttribute("aria-label", _("More of the table below: {parts} (scrolls the table)", { parts: [...new Set(names)].join(", ") }));
}

function myTurn() {
  return !ctx.spectator && !!(ctx.legal && ctx.legal.length) && ctx.view && ctx.view.to_act === ctx.seat;
}

let baseTitle = document.title;
let wasMine = false;
/** Your turn: the tab's title says so (seen from another tab) and, when the player turned it on
 * in the Table tab, a short sound plays (off by default). */
function turnSignal() {
  const mine = myTurn();
  const left = chatui.secondsLeft(ctx); // issue 33: the turn clock in the tab's title
  const clock = left != null && mine ? ` ${chatui.clockText(left)}` : "";
  document.title = mine ? "● " + _("Your turn") + `${clock} · ${baseTitle}` : baseTitle;
  if (mine && !wasMine && localStorage.getItem("parlour.sound") === "on") beep();
  wasMine = mine;
}

let audio = null;
function beep() {
  ctx.beeps = (ctx.beeps || 0) + 1;
  try {
    audio ||= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // no sound device: the title still says it
  }
}

function banner() {
  const b = h("div.banner#turn-banner");
  const toAct = ctx.view ? ctx.view.to_act : null;
  const mine = myTurn();
  if (mine) b.classList.add("my-turn");
  if (ctx.status === "finished" || (ctx.outcome && ctx.outcome.finished)) b.append(_("The match is over."), " ", ...afterMatch());
  else if (ctx.status === "waiting") b.append(_("Waiting for players to sit down."));
  else if (mine) b.append(_("Your turn"));
  else if (toAct != null) b.append(_("{player} to play", { player: ctx.name(toAct) }) + (ctx.pending ? "" : "…"));
  const clock = chatui.clockBadge(ctx); // issue 33: the decision's clock
  if (clock) b.append(" ", clock);
  if (ctx.pending) b.append(h("span.muted", " ", _("sending…")));
  // Not an alert: the log (a live region) says each refusal once; this stays until the next move.
  if (ctx.error) b.append(h("span", { class: "error-toast", id: "error" }, ctx.error));
  return b;
}

// --- keyboard ---------------------------------------------------------------------------------

const FOCUSABLE = "button, a[href], input, select, textarea, [tabindex]";

/** Where the keyboard focus is, in terms that survive a redraw: the element's id, or the nearest
 * container with an id, the element's tag and data attributes, which of those it is, and its
 * place among the container's focusable elements. Null when the focus is not on the table. */
function focusKey(el) {
  if (!el || !el.closest || !el.closest("#felt, #dock")) return null;
  if (el.id) return { id: el.id };
  const box = el.parentElement.closest("[id]");
  const data = Object.keys(el.dataset).map((k) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(el.dataset[k])}"]`);
  const sel = el.tagName.toLowerCase() + data.join("");
  return { box: box.id, sel, nth: [...box.querySelectorAll(sel)].indexOf(el), at: [...box.querySelectorAll(FOCUSABLE)].indexOf(el), text: el.textContent };
}

/** After a redraw: the same element again (the same card, button or meld); if it went away (a
 * card played, a move made), its neighbour in the hand or the hand itself — never <body>. */
function restoreFocus(key) {
  if (!key || (document.activeElement && document.activeElement !== document.body)) return;
  const usable = (el) => el && !el.disabled && el.getClientRects().length;
  let el = key.id ? $(key.id) : null;
  const box = key.box ? $(key.box) : null;
  if (!usable(el) && box) {
    // A move button counts as the same only with the same words (another "Discard …" is not).
    const same = [...box.querySelectorAll(key.sel)].filter((x) => key.box !== "actions" || x.textContent === key.text);
    el = same[key.nth] || same[same.length - 1];
    // A card that left the hand: the card now in its place. A move button that went away: the
    // hand, not whatever button took its place (Enter must not make another move).
    if (!usable(el) && key.box === "hand") {
      const cards = [...box.querySelectorAll(FOCUSABLE)];
      el = cards[Math.min(key.at, cards.length - 1)];
    }
  }
  if (usable(el)) el.focus({ preventScroll: true });
  else focusHand();
}

const handCardsNow = () => [...document.querySelectorAll("#hand button.card")];
let handAt = 0; // the hand card last focused: the hand's one place in the Tab order

/** The hand is one stop for Tab; the arrow keys move along it (a roving tabindex). */
function rovingHand() {
  const cards = handCardsNow();
  const i = cards.indexOf(document.activeElement);
  if (i >= 0) handAt = i;
  cards.forEach((c, k) => (c.tabIndex = k === Math.min(handAt, cards.length - 1) ? 0 : -1));
}

function focusHand() {
  const cards = handCardsNow();
  const card = cards[Math.min(handAt, cards.length - 1)];
  if (card) card.focus({ preventScroll: false });
  return !!card;
}

/** A rank typed (2–9, 0 for 10, J Q K A): the next card of that rank in the hand. */
const RANK_KEYS = { 0: "10", J: "J", Q: "Q", K: "K", A: "A" };
function jumpToRank(key) {
  const rank = RANK_KEYS[key] ?? (/^[2-9]$/.test(key) ? key : null);
  const cards = handCardsNow();
  if (!rank || !cards.length) return false;
  const from = cards.indexOf(document.activeElement);
  for (let k = 1; k <= cards.length; k++) {
    const card = cards[(from + k + cards.length) % cards.length];
    const text = card.dataset.card || "";
    if (text !== "Jk" && text.slice(0, -1) === rank) {
      card.focus();
      rovingHand();
      return true;
    }
  }
  return false;
}

function moveInHand(key) {
  const cards = handCardsNow();
  const i = cards.indexOf(document.activeElement);
  const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: cards.length - 1 }[key];
  if (i < 0 || to === undefined) return false;
  cards[Math.max(0, Math.min(cards.length - 1, to))].focus();
  rovingHand();
  return true;
}

/**
 * Keys: the arrows (and Home/End) move along the hand, a rank (2–9, 0 for 10, J Q K A) jumps to
 * the next card of that rank, Space or Enter selects the card; H goes to the hand; Escape clears
 * the selection; a letter shown on a button ("Draw (D)", its aria-keyshortcuts) presses it (before
 * a rank: K knocks in Scat). Typing in a text field, or a dialog being open, turns them off.
 */
function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("input, select, textarea, [contenteditable]")) return;
  const dialog = $("overlay-root").firstChild;
  if (dialog) {
    if (e.key === "Escape") dialog.querySelector(".dialog > .row .btn.primary")?.click();
    return;
  }
  if (e.key === "?") {
    const hint = $("hint-button");
    if (hint && !hint.disabled) hint.click();
    if (hint) e.preventDefault();
    return;
  }
  let done = moveInHand(e.key);
  if (!done && e.key === "Escape" && ctx.selected.length) {
    ctx.selected = [];
    render();
    done = true;
  } else if (!done && e.key.length === 1 && !e.shiftKey) {
    const key = e.key.toUpperCase();
    if (key === "H") done = focusHand();
    else {
      const button = [...document.querySelectorAll(`#dock [aria-keyshortcuts="${CSS.escape(key)}"], #felt [aria-keyshortcuts="${CSS.escape(key)}"]`)].find((b) => !b.disabled);
      if (button) button.click();
      done = !!button || jumpToRank(key);
    }
  }
  if (done) e.preventDefault();
}

function noticeBox() {
  const close = h("button.btn.small", { type: "button", "aria-label": _("close") }, _("OK"));
  close.addEventListener("click", () => {
    ctx.notice = null;
    render();
  });
  return h(`div.notice${ctx.notice.alarm ? ".alarm" : ""}#notice`, { role: "alert" }, h("span", ctx.notice.text), close);
}

function waitingPanel() {
  const start = h("button.btn.primary#start-now", { type: "button" }, _("Start now (bots fill empty seats)"));
  start.addEventListener("click", () => ws && ws.send(JSON.stringify({ type: "start" })));
  const missing = ctx.seats.filter((s) => s.kind === "human" && !s.connected).map((s) => ctx.name(s.seat));
  const who = missing.length ? " " + _("Still to come: {players}.", { players: missing.join(", ") }) + " " : " ";
  return h("div.prompt#waiting", _("The table starts when everyone has sat down."), who, ctx.spectator ? null : start);
}

// --- hints and the post-hand review (issue 19) ------------------------------------------------

/** The "Hint (?)" button of the action bar (generic.js adds it): on your turn, when the table
 * allows hints. The answer (`hint` message) is drawn above the moves by hintBox. */
ctx.hintButton = () => {
  if (ctx.spectator || !ctx.table || !ctx.table.hints || !myTurn()) return null;
  const waiting = !!(ctx.hint && ctx.hint.pending && ctx.hint.version === ctx.version);
  const b = h("button.btn#hint-button", { type: "button", "aria-keyshortcuts": "?", disabled: waiting }, waiting ? _("Thinking…") : _("Hint (?)"));
  b.title = _("What would the strong bot do here? (key: ?)");
  b.addEventListener("click", () => {
    if (!ws || ws.readyState !== 1) return;
    ctx.hint = { pending: true, version: ctx.version };
    ws.send(JSON.stringify({ type: "hint" }));
    render();
  });
  return b;
};

const pct = (v) => `${Math.round(v * 100)}%`;
const pointsText = (o) => (o.points == null ? "" : _(", about {points} points", { points: (o.points > 0 ? "+" : "") + o.points }));
const moveText = (t) => generic.capitalize(ctx.say(String(t).replace(/^[Ss]eat \d+: /, "")));

function hintBox() {
  const hint = ctx.hint;
  const close = h("button.btn.small", { type: "button", "aria-label": _("close the hint") }, _("OK"));
  close.addEventListener("click", () => {
    ctx.hint = null;
    render();
  });
  if (hint.pending) return h("div.hint-box#hint", { role: "status" }, h("span", _("Thinking about your move…")));
  if (hint.error) return h("div.hint-box#hint", { role: "status" }, h("span", _("No hint: {why}", { why: hint.error })), close);
  // moves of one rank are equal within the search's noise: they share the number, unordered
  const rankOf = (o, i) => (typeof o.rank === "number" ? o.rank : i + 1);
  const rows = hint.options.map((o, i) =>
    h(`li${rankOf(o, i) === 1 ? ".best" : ""}`, { value: rankOf(o, i) }, h("strong", moveText(o.text)), ` — ${pct(o.value)}${pointsText(o)}: ${o.reason}`),
  );
  const ties = hint.options.filter((o, i) => i > 0 && rankOf(o, i) === 1).map((o) => moveText(o.text));
  const shared = hint.options.some((o, i) => i > 0 && rankOf(o, i) === rankOf(hint.options[i - 1], i - 1));
  return h(
    "div.hint-box#hint",
    { role: "status" },
    h("p", h("strong", _("Hint: {move}", { move: moveText(hint.text) })), ` — ${hint.reason}.`),
    ties.length ? h("p.small.hint-ties", _("About as good (within the search's noise): {moves}.", { moves: ties.join("; ") })) : null,
    rows.length > 1 ? h("p.small", _("The moves compared (estimated result for your side, 50% = level with the others):")) : null,
    rows.length > 1 ? h("ol.hint-options", rows) : null,
    shared ? h("p.small", _("Moves with the same number are equal within the search's noise.")) : null,
    close,
  );
}

function reviewPanel() {
  if (ctx.spectator) return h("p.muted#review", _("The review is of a player's own decisions: watchers have none."));
  const r = ctx.review;
  if (!r) return h("p.muted#review", _("Loading the review…"));
  const box = h("div#review");
  if (r.pending) box.append(h("p.muted", _("Reviewing the last hand…")));
  if (!r.hands.length && !r.pending) box.append(h("p.muted", _("After each hand, the decisions where the strong bot would have played otherwise are listed here.")));
  if (r.hands.length)
    box.append(h("p.small.review-scale", _("Percentages are the bot's estimate of the hand's result for your side: 50% = level with the other side, higher is better. A decision is listed only when the bot's move is better beyond the noise of its estimate.")));
  for (const hand of [...r.hands].reverse()) {
    box.append(h("h3", _("Hand {hand}: {checked} of your {decisions} decisions checked", { hand: hand.hand, checked: hand.checked, decisions: hand.decisions })));
    if (!hand.remarks.length) box.append(h("p.small", _("No decision stands out: the bot would have played as you did.")));
    else
      box.append(
        h(
          "ul.review-list",
          hand.remarks.map((x) =>
            h("li", _("You played {played} ({played_value}); the bot prefers {better} ({better_value}), {difference} percentage points better: {why}.", { played: moveText(x.played.text), played_value: pct(x.played.value), better: moveText(x.better.text), better_value: pct(x.better.value), difference: Math.round(x.difference * 100), why: x.better.reason })),
          ),
        ),
      );
  }
  return box;
}

let drawnTab = null; // [tab, log resets, what it shows] last drawn: skip identical redraws
function renderTab() {
  for (const b of document.querySelectorAll(".tabs button")) b.classList.toggle("active", b.dataset.tab === ctx.tab);
  // What the tab shows: the Table tab is not redrawn by moves (a link being copied there stays).
  const t = ctx.table || {};
  const info = [ctx.seats, t.seats, ctx.status, ctx.spectator, t.bot_delay, t.speed_set, t.rematch];
  const c = chatui.chat;
  const shown = { log: [ctx.log.length], score: [ctx.version, ctx.seats.length], review: [ctx.review, ctx.spectator], chat: [c.messages.length, c.muted, c.settings, c.error, ctx.seats, ctx.spectator] }[ctx.tab] || info;
  const key = JSON.stringify([ctx.tab, ctx.logResets, shown]);
  if (key === drawnTab) return;
  drawnTab = key;
  // The log only grows between resets: new lines are added on top of the list already there, so
  // a screen reader (the list is a live region) says just those.
  const ul = $("log");
  if (ctx.tab === "log" && ul && ul.dataset.resets === String(ctx.logResets) && Number(ul.dataset.shown) <= ctx.log.length) {
    addLogLines(ul);
    return;
  }
  const body = clear($("tab-body"));
  if (ctx.tab === "log") body.append(logList());
  else if (ctx.tab === "score") body.append(scorePanel());
  else if (ctx.tab === "review") body.append(reviewPanel());
  else if (ctx.tab === "chat") {
    const typing = document.activeElement && document.activeElement.id === "chat-input";
    body.append(chatui.chatPanel(ctx));
    if (typing) $("chat-input")?.focus({ preventScroll: true });
  }
  else body.append(infoPanel());
}

const LOG_LINES = 300; // lines kept on the page (the newest)

function logLine(e) {
  const li = h("li", { dataset: { kind: e.kind || "" } }, say(e.text));
  if (e.local) li.classList.add("error");
  if (e.kind === "deal_commitment" || e.kind === "deal_reveal") li.classList.add("deal");
  if (e.check) li.append(" ", h(`span.${e.check.ok ? "fair-ok" : "fair-bad"}`, e.check.text));
  return li;
}

function logList() {
  const ul = h("ul.log#log", { "aria-live": "polite", "aria-relevant": "additions", "aria-label": _("What happened, newest first"), dataset: { resets: String(ctx.logResets), shown: "0" } });
  // Newest first: visible on a phone without scrolling.
  const items = ctx.log.slice(-LOG_LINES).reverse();
  ul.append(...items.map(logLine));
  if (!items.length) ul.append(h("li.muted#log-empty", _("Nothing has happened yet.")));
  ul.dataset.shown = String(ctx.log.length);
  return ul;
}

function addLogLines(ul) {
  const shown = Number(ul.dataset.shown);
  if (shown === ctx.log.length) return;
  $("log-empty")?.remove();
  const fresh = ctx.log.slice(Math.max(shown, ctx.log.length - LOG_LINES)).reverse();
  ul.prepend(...fresh.map(logLine));
  while (ul.children.length > LOG_LINES) ul.lastChild.remove();
  ul.dataset.shown = String(ctx.log.length);
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
  add(_("Table"), code);
  const title = GAME_TITLES[ctx.game] || humanize(ctx.game);
  add(_("Game"), ctx.preset && ctx.preset !== ctx.game ? `${title} (${valueWords(ctx.preset)})` : title);
  add(_("You"), ctx.spectator ? _("watching") : ctx.name(ctx.seat));
  const who = { human: _("a person"), bot: _("a bot") };
  const online = " · " + pgettext("seat", "online");
  for (const s of ctx.seats) add(ctx.name(s.seat), `${who[s.controller] || s.controller}${s.kind === "bot" ? ` (${botName(s.bot || "basic")})` : ""}${s.connected ? online : ""}`);
  return h(
    "div",
    dl,
    speedControl(),
    soundControl(),
    ctx.spectator || !token ? null : seatActions(),
    h("h3", _("Rules")),
    rulesText(),
    h("p", h("a", { href: `/replay/${encodeURIComponent(code)}`, target: "_blank" }, _("Replay (finished matches)"))),
  );
}

/** The table's rules as sentences: each option's name, its value in words and what it means (the
 * lobby's list of games explains every option). */
let catalogue = null; // GET /api/games, once
function rulesText() {
  const box = h("div.rules-text#rules-text");
  const game = catalogue && catalogue.find((g) => g.name === ctx.game);
  if (!catalogue) {
    catalogue = [];
    api("GET", `/api/games?lang=${encodeURIComponent(readerLang)}`).then((r) => {
      catalogue = r.games || [];
      if (ctx.tab === "info") redrawTab();
    }, () => {});
  }
  const docs = {};
  for (const o of (game && game.options) || []) docs[o.name] = o;
  const preset = game && (game.presets || []).find((p) => p.name === ctx.preset);
  if (preset && preset.doc) box.append(h("p", optionDoc(preset.doc)));
  const list = h("dl.kv.rules");
  for (const [k, v] of Object.entries(ctx.rules || {})) {
    if (k === "type") continue;
    const o = docs[k];
    const shown = v == null && o && o.nullable ? _("not set") : ruleValue(v);
    // the option's name and meaning in the reader's language (the rules page's words, as in the lobby)
    const meaning = o && (o.meaning || optionDoc(o.doc));
    list.append(h("dt", { dataset: { option: k } }, (o && o.label) || optionName(k)), h("dd", h("b", shown), meaning ? h("span.muted", ` — ${meaning}`) : null));
  }
  box.append(list);
  return box;
}

/** A rule's value in the reader's words: yes/no and numbers in their language; a choice stays
 * the word the option lists (as in the lobby). */
function ruleValue(v) {
  if (v === true) return _("yes");
  if (v === false) return _("no");
  if (typeof v === "number") return number(v);
  if (Array.isArray(v)) return v.map(ruleValue).join(", ");
  return valueWords(v);
}

/** How long the bots wait before they play, for this table (any seated player may set it). */
const SPEEDS = [
  ["", _("Normal (the server's pace)")],
  ["0.2", _("Quick (0.2 s)")],
  ["1.5", _("Slow (1.5 s)")],
  ["3", _("Very slow (3 s)")],
];
function speedControl() {
  const t = ctx.table || {};
  const now = t.speed_set ? String(t.bot_delay) : "";
  const pace = t.bot_delay != null ? " " + _("Bots now wait {seconds} s before each move.", { seconds: number(t.bot_delay) }) : "";
  if (ctx.spectator || !token) return h("p.small.muted#table-speed-text", pace.trim());
  const select = h("select#table-speed", { "aria-label": _("Table speed") });
  const known = SPEEDS.some(([v]) => v === now);
  for (const [v, label] of known ? SPEEDS : [...SPEEDS, [now, `${now} s`]]) select.append(h("option", { value: v, selected: v === now }, label));
  select.addEventListener("change", async () => {
    try {
      await api("POST", `/api/tables/${encodeURIComponent(code)}/speed`, { token, delay: select.value === "" ? null : Number(select.value) });
    } catch (e) {
      showError(e.message);
    }
  });
  return h("section#speed-box", h("h3", _("Table speed")), h("label", _("How fast the bots play:"), " ", select), h("small.muted", pace));
}

function soundControl() {
  if (ctx.spectator) return null;
  const box = h("input#turn-sound", { type: "checkbox", checked: localStorage.getItem("parlour.sound") === "on" });
  box.addEventListener("change", () => localStorage.setItem("parlour.sound", box.checked ? "on" : "off"));
  return h("p", h("label", box, " ", _("A sound when it is your turn")));
}

let seatKeyRotated = false; // the Table tab may be drawn again (seats, flow) after "New seat key": it still says so
function seatActions() {
  const rotate = h("button.btn.small#new-seat-key", { type: "button" }, _("New seat key"));
  const done = () => _("Done: only this browser holds your seat now.");
  const said = h("small.muted.note#seat-key-note", seatKeyRotated ? done() : _("Locks out any other browser or old link that holds your seat; this browser keeps playing."));
  rotate.addEventListener("click", async () => {
    rotate.disabled = true;
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(code)}/rotate`, { token });
      setToken(r.token);
      seatKeyRotated = true;
      said.textContent = done();
      const shown = $("seat-key-note"); // the tab may have been drawn again meanwhile
      if (shown) shown.textContent = done();
    } catch (e) {
      showError(e.message);
    }
    rotate.disabled = false;
  });
  const leave = h("button.btn.small.danger#leave-seat", { type: "button" }, _("Leave my seat (a bot takes over)"));
  leave.addEventListener("click", async () => {
    if (!confirm(_("Leave this seat? A bot will play it."))) return;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(code)}/leave`, { token });
      forgetSeat(code, token);
      location.href = seatUrl(code);
    } catch (e) {
      showError(e.message);
    }
  });
  const over = ctx.status === "finished";
  return h("section.seat-actions", h("h3", _("Your seat")), h("p", rotate, said), over ? null : moveSeat(), h("p", leave), over ? null : hostInvites());
}

const INVITE = `/api/tables/${encodeURIComponent(code)}/invite`;

function redrawTab() {
  drawnTab = null;
  renderTab();
}

/** A one-time link for this seat, to open on another device: the seat moves there. */
function moveSeat() {
  const btn = h("button.btn.small#move-seat", { type: "button" }, _("Move my seat to another device"));
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      const r = await api("POST", INVITE, { token });
      ctx.links.move = location.origin + r.invite_url;
      redrawTab();
    } catch (e) {
      showError(e.message);
      btn.disabled = false;
    }
  });
  const url = ctx.links.move;
  return h("div#move-box", h("p", btn), url ? linkRow(null, url, "move-link", _("Open this link on the other device; this one will then watch. It works once.")) : null);
}

/** The host (this browser made the table and holds the seat it took): a new invite link for
 * another human seat, when a friend's link got lost or into the wrong hands. */
function hostInvites() {
  if (hostSeat(code) !== ctx.seat) return null;
  const others = ((ctx.table && ctx.table.seats) || []).filter((s) => s.kind === "human" && s.seat !== ctx.seat);
  if (!others.length) return null;
  const rows = others.map((s) => {
    const name = ctx.name(s.seat);
    const btn = h("button.btn.small", { type: "button", dataset: { reinvite: String(s.seat) } }, _("New invite link"));
    btn.addEventListener("click", async () => {
      if (s.claimed && !confirm(_("Make a new invite link for {name}? The old link stops working and whoever holds {name} now will only watch.", { name }))) return;
      btn.disabled = true;
      try {
        const r = await api("POST", INVITE, { token, seat: s.seat });
        ctx.links.seats[s.seat] = location.origin + r.invite_url;
        replaceInvite(code, s.seat, r.invite_url);
        redrawTab();
      } catch (e) {
        showError(e.message);
        btn.disabled = false;
      }
    });
    const state = s.claimed ? (s.connected ? _("playing") : _("away")) : _("not joined yet");
    const url = ctx.links.seats[s.seat];
    const note = _("New link for {name}: it replaces the old one, which no longer works. It works once.", { name });
    return h("div.host-seat", { dataset: { seat: String(s.seat) } }, h("p", h("b", name), h("span.muted", state), btn), url ? linkRow(null, url, `invite-${s.seat}`, note) : null);
  });
  return h("section.host-invites#host-invites", h("h3", _("Friends' invite links")), h("p.small.muted", _("You made this table. A friend's link lost or in the wrong hands? Make a new one: the old link stops working at once.")), rows);
}

/** A link with a Copy button (and a note under it). */
function linkRow(label, url, id, note) {
  const b = h("button.btn.small", { type: "button" }, "Copy");
  b.addEventListener("click", () => copyText(url, b));
  return h("div.link-row", id ? { id } : {}, label ? h("b", label) : null, h("input", { type: "text", readonly: true, value: url, "aria-label": label || "link" }), b, note ? h("small.muted.link-note", note) : null);
}

// --- overlays --------------------------------------------------------------------------------

function overlay(content, { id = "dialog", onClose } = {}) {
  closeOverlay();
  const close = h("button.btn.primary", { type: "button", id: `${id}-close` }, _("Continue"));
  const dlg = h(`div.dialog#${id}`, { role: "dialog", "aria-modal": "true" }, content, h("div.row", close));
  // the dialog is named by its heading ("Hand 2 is over", "The match is over")
  const title = dlg.querySelector("h2, h3");
  if (title) {
    title.id = title.id || `${id}-title`;
    dlg.setAttribute("aria-labelledby", title.id);
  } else dlg.setAttribute("aria-label", id.replace(/-/g, " "));
  const ov = h("div.overlay", dlg);
  const back = focusKey(document.activeElement); // the keyboard goes back there afterwards
  const done = () => {
    closeOverlay();
    if (onClose) onClose();
    restoreFocus(back);
  };
  close.addEventListener("click", done);
  ov.addEventListener("click", (e) => e.target === ov && done());
  $("overlay-root").append(ov);
  close.focus({ preventScroll: true });
}

function closeOverlay() {
  clear($("overlay-root"));
}

/** The end of a hand: its score sheet, side by side. While a seated player reads it the bots
 * wait (the server lets one player hold them for at most 30 s, once per move). */
function showHandEnd(hand) {
  const hold = (on) => !ctx.spectator && token && api("POST", `/api/tables/${encodeURIComponent(code)}/hold`, { token, on }).catch(() => {});
  hold(true);
  const note = hand.note ? h("p", say(hand.note)) : null;
  const bots = ctx.seats.some((s) => s.controller === "bot");
  const waiting = ctx.spectator || !bots ? null : h("p.small.muted#hold-note", _("The bots wait while you read this (at most 30 seconds)."));
  overlay(h("div", h("h2", _("Hand {hand} is over", { hand: hand.number + 1 })), note, scoreSheet(ctx.outcome, ctx, { only: hand.number, explain: true }), waiting), { id: "hand-end", onClose: () => hold(false) });
}

/** At the end of the match: a rematch (same seats and bots, a new deal) and the way back to the
 * lobby. The first player to ask makes the new table; the others join it with the same button. */
function afterMatch() {
  const lobby = h("a.btn.small#to-lobby", { href: "/" }, _("Back to the lobby"));
  const next = ctx.table && ctx.table.rematch;
  // (never a null in the list: append() would write it out as the word "null")
  if (ctx.spectator || !token) return next ? [h("a.btn.small.primary#watch-rematch", { href: seatUrl(next) }, _("Watch the rematch")), " ", lobby] : [lobby];
  const again = h("button.btn.small.primary#rematch", { type: "button" }, next ? _("Join the rematch") : _("Rematch (same seats, new deal)"));
  again.addEventListener("click", async () => {
    again.disabled = true;
    try {
      const r = await api("POST", `/api/tables/${encodeURIComponent(code)}/rematch`, { token });
      rememberSeat(r.code, r.seat, r.token, ctx.game, !!r.host); // the one who asked first hosts it
      location.href = seatUrl(r.code);
    } catch (e) {
      again.disabled = false;
      showError(e.message);
    }
  });
  return [again, " ", lobby];
}

/** Issue 33: once a second while a decision's clock runs: its badge and the tab's title. */
function tickClock() {
  const el = $("turn-clock");
  const badge = chatui.clockBadge(ctx);
  if (el && badge) el.replaceWith(badge);
  else if (!!el !== !!badge) render();
  seatClock();
  turnSignal();
}

/** Issue 33: the time left on the seat to act, in the felt's seat box. */
function seatClock() {
  for (const old of document.querySelectorAll("#felt .seat-clock")) old.remove();
  const left = chatui.secondsLeft(ctx);
  const box = left == null ? null : document.querySelector(`#felt .player[data-seat="${chatui.clockSeat()}"]`);
  if (box) box.append(h(`span.seat-clock${left <= 10 ? ".low" : ""}`, { "aria-hidden": "true" }, `⏱ ${chatui.clockText(left)}`));
}

/** Issue 33: a chat message or setting came: the Chat tab is drawn again, or its button counts
 * the messages not read yet. */
function chatChanged() {
  const n = chatui.chat.unread;
  $("chat-tab").textContent = n && ctx.tab !== "chat" ? _("Chat ({count})", { count: n }) : _("Chat");
  if (ctx.tab === "chat") renderTab();
}

/** The table's record changed (speed, rematch, pause): the parts that show it are drawn again. */
function flowChanged() {
  if (ctx.tab === "info") drawnTab = null;
  const end = $("match-end-actions");
  if (end) clear(end).append(...afterMatch());
}

/** How a match ended, in words (the outcome's `termination`). */
const ENDINGS = {
  target_score: _("a side reached the target score"),
  max_hands: _("the set number of hands was played"),
  last_player: _("one player had lives left"),
  went_out: _("a player went out"),
  max_turns: _("the turn limit was reached"),
  target_points: _("a player reached the target points"),
  rounds: _("every round was played"),
};

function showMatchEnd() {
  const o = ctx.outcome;
  const sides = o.sides || [];
  const sideName = (i) => (sides[i] ? sideLabel(o, i, ctx) : _("Side {n}", { n: i + 1 }));
  const result = o.winners && o.winners.length ? _("Winner: {winners}", { winners: o.winners.map(sideName).join(", ") }) : _("A draw.");
  overlay(
    h(
      "div",
      h("h2", _("Match over")),
      h("p#match-result", h("b", result), o.termination ? h("span.muted", ` (${ENDINGS[o.termination] || say(humanize(o.termination))})`) : null),
      h("ul", (o.scores || []).map((s, i) => h("li", `${sideName(i)}: ${fmt(s)}`))),
      h("p.row#match-end-actions", ...afterMatch()),
      scoreSheet(o, ctx, { explain: true }),
      fairPanel(),
      h("p", h("a.btn#replay-link", { href: `/replay/${encodeURIComponent(code)}` }, _("Watch the replay, every hand shown"))),
    ),
    { id: "match-end", onClose: () => (ctx.dismissedEnd = true) },
  );
}

/** The end-of-match deal check, done by this browser from what it recorded during the match. */
function fairPanel() {
  const f = ctx.fair;
  const box = h("section.fair-check#fair-check", { dataset: { state: f ? f.state : "waiting" } }, h("h3", _("Fair deal check")));
  if (!f) box.append(h("p.muted", _("Waiting for the table to reveal its secret…")));
  else if (f.state === "checking") box.append(h("p.muted", _("Checking the deals and the moves…")));
  else {
    box.dataset.ok = String(f.results.every((r) => r.ok !== false));
    const mark = (ok) => (ok === true ? ["ok", "✓"] : ok === false ? ["bad", "✗"] : ["info", "•"]);
    box.append(h("ul.checks", f.results.map((r) => h(`li.${mark(r.ok)[0]}`, h("span.mark", mark(r.ok)[1]), h("span", r.text)))));
  }
  const download = h("button.btn.small#download-record", { type: "button" }, _("Download my record"));
  const recordFile = _("your-record.json");
  download.addEventListener("click", () => fair.download(record));
  box.append(
    h("p", download),
    h("p.small.muted", _("A browser cannot deal the cards again to compare every hand with the game; this command does, with your record:") + " ", h("code", `parlour verify ${location.origin}/t/${code} --log ${recordFile}`)),
  );
  return box;
}

// --- start -------------------------------------------------------------------------------------

$("invite").addEventListener("click", () => {
  const rows = [];
  rows.push(linkRow("Watch", `${location.origin}${seatUrl(code)}`));
  // Invite links this browser was given when it made the table, for seats nobody has taken yet.
  const seats = (ctx.table && ctx.table.seats) || [];
  const waiting = loadInvites(code).filter((l) => seats.some((s) => s.seat === l.seat && !s.claimed));
  if (waiting.length) rows.push(h("p", _("Invite links — each works once, for one person:")));
  for (const l of waiting) rows.push(linkRow(ctx.name(l.seat), location.origin + l.url));
  const free = (ctx.table && ctx.table.free_seats) || [];
  rows.push(h("p", free.length ? _("Open seats: {seats} — anyone can take one from the lobby's list or with the code {code}.", { seats: free.map((s) => ctx.name(s)).join(", "), code }) : _("No open seats.")));
  overlay(h("div.links", h("h2", _("Table {code}", { code })), rows), { id: "invite-dialog" });
});
for (const b of document.querySelectorAll(".tabs button")) {
  b.addEventListener("click", () => {
    ctx.tab = b.dataset.tab;
    drawnTab = null;
    renderTab();
    if (ctx.tab === "chat") chatChanged();
  });
}
addEventListener("pagehide", () => fair.save(record, true));
addEventListener("keydown", onKey);
chatui.connectChat((m) => ws && ws.readyState === 1 && (ws.send(JSON.stringify(m)), true)); // issue 33
ctx.isHost = () => hostSeat(code) === ctx.seat;
takeSeat().then((t) => {
  setToken(t);
  render();
  connect();
});
