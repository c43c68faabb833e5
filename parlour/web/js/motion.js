// See what just happened: after each move the cards that moved get a short animation (drawn cards
// come into the hand, a discard lands on the pile, a meld grows, a taken pile empties), the cards
// new in your hand stay marked "new" until your next draw, and each player shows their last move
// (the latest mover highlighted). Animations are CSS classes (anim-*), off when the system asks
// for reduced motion (parlour.css).

import { _, pgettext } from "./i18n.js"; // issue 34

let snap = null; // what the table looked like at the last move: {version, top, size, melds}

export function reset(ctx) {
  snap = null;
  ctx.fresh = [];
}

/** The hand changed: cards added are the new ones (drawn, taken with the pile); when cards only
 * left the hand the marks stay on the new cards still held. `before` null: nothing is new. */
export function noteHand(ctx, before, after) {
  if (!before) return;
  const left = [...before];
  const added = [];
  for (const c of after) {
    const i = left.indexOf(c);
    if (i >= 0) left.splice(i, 1);
    else added.push(c);
  }
  if (added.length && added.length === after.length) {
    ctx.fresh = []; // a new deal (or a foot picked up): the whole hand is new, nothing to mark
    return;
  }
  if (added.length) {
    ctx.fresh = added;
    ctx.freshAt = ctx.version;
    return;
  }
  const held = [...after];
  ctx.fresh = (ctx.fresh || []).filter((c) => {
    const i = held.indexOf(c);
    if (i >= 0) held.splice(i, 1);
    return i >= 0;
  });
}

const COMPASS = ["South", "West", "North", "East"];
// the compass seats as the reader's lines name them (Zuid, Süd …), and "you" in their language
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const SAID_COMPASS = [pgettext("seat", "South"), pgettext("seat", "West"), pgettext("seat", "North"), pgettext("seat", "East")];
const SEAT_AT_START = new RegExp(`^(?:[Ss]eat (\\d+)|(${[...new Set([...COMPASS, ...SAID_COMPASS])].map(esc).join("|")})(?![\\p{L}]))`, "u");
const YOU_AT_START = new RegExp(`^(?:you|${esc(_("you"))}) `, "iu");

/** The seat whose move an event is (its text starts with the seat), or null. */
export function moverOf(e, ctx) {
  if (YOU_AT_START.test(e.text || "") && !ctx.spectator) return ctx.seat; // what only you were told
  const m = SEAT_AT_START.exec(e.text || "");
  if (!m) return null;
  const compass = COMPASS.includes(m[2]) ? COMPASS.indexOf(m[2]) : SAID_COMPASS.indexOf(m[2]);
  const seat = m[1] != null ? Number(m[1]) : ctx.players === 4 ? compass : -1;
  return seat >= 0 && seat < ctx.players ? seat : null;
}

function meldCounts() {
  const out = {};
  for (const el of document.querySelectorAll("#felt .meld[data-meld]")) {
    const cards = (el.getAttribute("title") || el.getAttribute("aria-label") || "").split(": ")[1] || "";
    out[`${el.dataset.side}:${el.dataset.meld}`] = cards.split(" ").filter(Boolean).length;
  }
  return out;
}

function animate(el, kind) {
  if (!el) return;
  el.classList.remove(`anim-${kind}`);
  el.classList.add(`anim-${kind}`);
}

/** After the table was drawn: marks, last moves and the animations of what changed. */
export function after(ctx, say) {
  const view = ctx.view;
  if (!view) return;
  // New cards in the hand.
  const marked = new Set();
  for (const c of ctx.fresh || []) {
    const el = [...document.querySelectorAll(`#hand .card[data-card="${CSS.escape(c)}"]`)].find((x) => !marked.has(x));
    if (!el) continue;
    marked.add(el);
    el.classList.add("fresh");
    el.setAttribute("aria-label", _("{card}, new", { card: el.getAttribute("aria-label") || c }));
    el.title = _("{card} (new in your hand)", { card: el.title || c });
  }
  lastMoves(ctx, say);
  const now = {
    version: ctx.version,
    top: view.pile_top ?? null,
    size: view.pile_size ?? (Array.isArray(view.pile) ? view.pile.length : null),
    melds: meldCounts(),
  };
  const was = snap;
  if (was && was.version === now.version) return; // a redraw without a move: nothing moved
  snap = now;
  if (!was) return; // the first table drawn: nothing "just" happened
  ctx.animations = (ctx.animations || 0) + 1;
  if (ctx.freshAt === ctx.version) for (const el of marked) animate(el, "draw");
  if (now.size != null && was.size != null && now.size > was.size) animate(document.querySelector("#pile .card, #pile .backs"), "discard");
  else if (now.size != null && was.size != null && now.size < was.size) animate(document.querySelector("#pile"), "taken");
  for (const [key, n] of Object.entries(now.melds)) {
    if (n > (was.melds[key] || 0)) animate(document.querySelector(`#felt .meld[data-side="${key.split(":")[0]}"][data-meld="${key.split(":")[1]}"]`), "meld");
  }
}

/** Under each player their last move ("discards 8♣"); the latest mover highlighted. */
function lastMoves(ctx, say) {
  const players = document.querySelectorAll("#players .player[data-seat]");
  if (!players.length) return;
  const last = {};
  let latest = null;
  for (let i = ctx.log.length - 1; i >= 0 && Object.keys(last).length < ctx.players; i--) {
    const e = ctx.log[i];
    if (e.local) continue;
    if (e.kind === "hand_end" || e.kind === "hand_over" || e.kind === "round_over" || e.kind === "deal") break; // a new hand
    const seat = moverOf(e, ctx);
    if (seat == null || seat in last) continue;
    last[seat] = e;
    if (latest === null) latest = seat;
  }
  for (const p of players) {
    const seat = Number(p.dataset.seat);
    const e = last[seat];
    if (!e) continue;
    p.append(h("span", "pmeta last-move", say(e.text)));
    if (seat === latest) p.classList.add("just-moved");
  }
}

function h(tag, cls, text) {
  const el = document.createElement(tag);
  el.className = cls;
  el.textContent = text;
  return el;
}
