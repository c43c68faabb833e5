// The replay viewer (/replay/CODE): a finished match step by step. Every seat's hand is shown
// (all cards are public once the match is over), the move and what it did, the table as a
// watcher saw it, and the deal checks made by this browser itself from what the table published
// (the same formulas as the table page's end-of-match check: js/fair.js).
// Keys: ← → one step, Home / End, PageUp / PageDown one hand, Space plays / pauses.
import { cardEl, parseCard } from "./cards.js";
import { api, clear, fmt, h } from "./dom.js";
import * as fair from "./fair.js";
import { _, BOT_WORDS, botName, gameTitle, lang, ngettext, pgettext, rankLetter } from "./i18n.js"; // issue 34
import { seatName } from "./seats.js";
import { scoreSheet } from "./sheet.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const R = { data: null, step: 0, hands: [], handStarts: [], timer: null };
const RANKS = { 11: "J", 12: "Q", 13: "K", 14: "A" };

async function init() {
  document.title = _("Replay of table {code} — Parlour", { code });
  $("rules-link").href = `/t/${encodeURIComponent(code)}/rules`;
  let data;
  try {
    // the moves, event lines and notes come told in the reader's language (issue 34)
    data = await api("GET", `/api/tables/${encodeURIComponent(code)}/replay?lang=${encodeURIComponent(lang)}`, undefined, fair.parseKeepingSeeds);
  } catch (e) {
    const main = clear($("replay"));
    const why = e.status === 409 ? _("This match is not finished yet: its replay opens when it ends.") : e.status === 404 ? _("There is no table {code}.", { code }) : _("The replay could not be loaded: {why}", { why: e.message });
    main.append(h("section.panel", h("h1", _("No replay")), h("p#replay-status", { role: "status" }, why), h("p", h("a", { href: `/t/${encodeURIComponent(code)}` }, _("Go to the table")), " · ", h("a", { href: "/" }, _("Back to the lobby")))));
    return;
  }
  R.data = data;
  R.players = (data.seats || []).length || (data.steps[0]?.view?.players || []).length || 0;
  R.hands = handsAtEveryStep(data.steps, R.players);
  R.handStarts = handStarts(data);
  const game = data.record.game;
  $("replay-title").textContent = _("Replay {code}", { code });
  build(game);
  show(stepInAddress());
  addEventListener("hashchange", () => show(stepInAddress()));
  verify();
  document.addEventListener("keydown", onKey);
}

/** The step named in the address (#step=N), else 0. */
function stepInAddress() {
  const wanted = Number(new URLSearchParams(location.hash.slice(1)).get("step"));
  return Number.isFinite(wanted) && wanted > 0 ? Math.min(wanted, R.data.steps.length - 1) : 0;
}

/** The seats' hands at every step: each step carries only the hands that changed. */
function handsAtEveryStep(steps, n) {
  const out = [];
  let cur = Array.from({ length: n }, () => []);
  for (const st of steps) {
    if (st.hands && Object.keys(st.hands).length) {
      cur = cur.slice();
      for (const [seat, cards] of Object.entries(st.hands)) cur[Number(seat)] = cards;
    }
    out.push(cur);
  }
  return out;
}

/** The first step of each hand: where its deal was sealed (else where the hand number changes). */
function handStarts(data) {
  const starts = (data.deals || []).map((d) => Number(d.step)).filter((s) => Number.isFinite(s));
  if (starts.length) return [...new Set(starts)].sort((a, b) => a - b);
  const out = [0];
  let last = handNumber(data.steps[0].view);
  data.steps.forEach((st, i) => {
    const n = handNumber(st.view);
    if (n != null && n !== last) out.push(i);
    last = n;
  });
  return out;
}

function handNumber(view) {
  return view ? view.hand_number ?? view.round ?? null : null;
}

function name(seat) {
  if (seat == null) return _("the table");
  const s = (R.data.seats || [])[seat] || {};
  const base = seatName(seat, R.players);
  if (s.name) return `${s.name} (${base})`;
  if (s.kind === "bot") return _("{seat} (bot: {level})", { seat: base, level: botWord(s.bot) });
  return base;
}

/** Seat numbers in a text as the viewer's names ("seat 2 draws 2" → "North draws 2"). */
function words(text) {
  return text
    .replace(/\bseat (\d+)(?!\d)/gi, (_, n) => seatName(Number(n), R.players))
    .replace(/\bmeld (\d+)\b/g, (_, n) => `meld #${Number(n) + 1}`);
}

function botWord(level) {
  if (!level) return _("stand-in");
  if (level in BOT_WORDS) return botName(level); // a level the lobby offers: its name
  const [base, secs] = String(level).split(":");
  return secs ? _("{level}, {seconds} s a move", { level: base, seconds: secs }) : base;
}

function build(game) {
  const main = clear($("replay"));
  const rec = R.data.record;
  const jump = h("div.hand-jump", { role: "group", "aria-label": _("Jump to a hand") });
  R.handStarts.forEach((step, i) => jump.append(h("button.btn.small", { type: "button", dataset: { hand: String(i) }, onclick: () => show(step) }, _("Hand {n}", { n: i + 1 }))));
  const range = h("input#step-range", { type: "range", min: "0", max: String(R.data.steps.length - 1), value: "0", "aria-label": _("Step") });
  range.addEventListener("input", () => show(Number(range.value)));
  const btn = (id, label, key, fn) => h(`button.btn.small#${id}`, { type: "button", "aria-keyshortcuts": key, onclick: fn }, label);
  main.append(
    h(
      "section.panel",
      h("h1", _("{game} — replay of table {code}", { game: gameTitle(game), code })),
      h(
        "p.muted",
        [
          rec.preset ? _("House rules: {preset}.", { preset: rec.preset }) : "",
          ngettext("{count} move,", "{count} moves,", R.data.steps.length - 1),
          ngettext("{count} hand.", "{count} hands.", R.handStarts.length),
          _("All cards are shown: the match is over."),
          _("Keys: ← → step, PageUp / PageDown hand, Home / End, Space play."),
        ]
          .filter(Boolean)
          .join(" "),
      ),
      h(
        "div.replay-bar",
        btn("first", "◀◀ " + _("Start"), "Home", () => show(0)),
        btn("prev-hand", "« " + pgettext("replay button", "Hand"), "PageUp", () => show(prevHand())),
        btn("prev", "◀ " + _("Back"), "ArrowLeft", () => show(R.step - 1)),
        btn("play", "▶ " + _("Play"), "Space", togglePlay),
        btn("next", _("Next") + " ▶", "ArrowRight", () => show(R.step + 1)),
        btn("next-hand", pgettext("replay button", "Hand") + " »", "PageDown", () => show(nextHand())),
        btn("last", _("End") + " ▶▶", "End", () => show(R.data.steps.length - 1)),
        h("span.step-of#step-of", { "aria-live": "polite" }, ""),
      ),
      h("div.replay-bar", range),
      jump,
      h("p.replay-move#move", ""),
      h("ul.replay-events#events"),
    ),
    h("section.panel", h("h2", _("Hands")), h("div.replay-grid#seats")),
    h("section.panel.replay-public#public", h("h2", _("On the table"))),
    h("section.panel.verify-box#verify", h("h2", _("Deal check")), h("p.muted", _("Checking…"))),
    h("section.panel#final", h("h2", _("Final score")), h("div.table-scroll", scoreSheet(R.data.outcome || rec.outcome, { name, seat: null }))),
  );
}

function prevHand() {
  const before = R.handStarts.filter((s) => s < R.step);
  return before.length ? before[before.length - 1] : 0;
}

function nextHand() {
  return R.handStarts.find((s) => s > R.step) ?? R.data.steps.length - 1;
}

function togglePlay() {
  if (R.timer) return stopPlay();
  $("play").textContent = "⏸ " + _("Pause");
  R.timer = setInterval(() => {
    if (R.step >= R.data.steps.length - 1) return stopPlay();
    show(R.step + 1);
  }, 600);
}

function stopPlay() {
  clearInterval(R.timer);
  R.timer = null;
  $("play").textContent = "▶ " + _("Play");
}

function onKey(e) {
  // the slider moves itself with the keys (and says so with its input event)
  if (e.target && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const last = R.data.steps.length - 1;
  const go = { ArrowLeft: R.step - 1, ArrowRight: R.step + 1, Home: 0, End: last, PageUp: prevHand(), PageDown: nextHand() }[e.key];
  if (go !== undefined) {
    e.preventDefault();
    show(go);
  } else if (e.key === " " && e.target?.tagName !== "BUTTON") {
    e.preventDefault();
    togglePlay();
  }
}

function currentHand(step) {
  let n = 0;
  R.handStarts.forEach((s, i) => {
    if (s <= step) n = i;
  });
  return n;
}

function show(step) {
  const steps = R.data.steps;
  R.step = Math.max(0, Math.min(steps.length - 1, step));
  const st = steps[R.step];
  history.replaceState(null, "", `#step=${R.step}`);
  $("step-range").value = String(R.step);
  const hand = currentHand(R.step);
  $("step-of").textContent = _("Move {step} of {steps} · hand {hand}", { step: R.step, steps: steps.length - 1, hand: hand + 1 });
  document.querySelectorAll(".hand-jump button").forEach((b) => b.setAttribute("aria-pressed", String(Number(b.dataset.hand) === hand)));
  $("prev").disabled = $("first").disabled = R.step === 0;
  $("next").disabled = $("last").disabled = R.step === steps.length - 1;
  $("move").textContent = st.action == null ? _("The cards are dealt.") : `${name(st.seat)}: ${words(String(st.text).replace(/^seat \d+:\s*/i, ""))}`;
  const evs = clear($("events"));
  for (const e of st.events || []) if (e.text) evs.append(h("li", words(e.text)));
  drawSeats(st);
  drawPublic(st.view);
}

function drawSeats(st) {
  const box = clear($("seats"));
  const hands = R.hands[R.step] || [];
  const view = st.view || {};
  const players = view.players || [];
  for (let s = 0; s < R.players; s++) {
    const cards = hands[s] || [];
    const facts = [];
    const pv = players.find((p) => p && p.seat === s);
    if (pv && pv.foot_size) facts.push(ngettext("foot: {count} card", "foot: {count} cards", pv.foot_size));
    if (view.status && view.status[s]) facts.push(view.status[s]);
    if (R.data.record.game === "scat" && cards.length) facts.push(_("worth {value}", { value: scatValue(cards) }));
    if (view.to_act === s) facts.push(_("to play"));
    box.append(
      h(
        `div.replay-seat${st.seat === s ? ".acted" : ""}`,
        { dataset: { seat: String(s) } },
        h("h3", name(s), h("small.muted", ngettext("{count} card", "{count} cards", cards.length))),
        facts.length ? h("p.muted", facts.join(" · ")) : null,
        h("div.cards", { role: "list", "aria-label": _("{player}: hand", { player: name(s) }) }, cards.map((c) => li(cardEl(c, { small: true })))),
      ),
    );
  }
}

/** A Scat hand's plain value: the best suit's total, ace 11, court cards 10 (the table's own
 * special hands — three of a kind and the like — are scored by the engine, not here). */
function scatValue(cards) {
  const bySuit = {};
  for (const c of cards.map(parseCard).filter(Boolean)) {
    const v = c.rank === 14 ? 11 : Math.min(c.rank, 10);
    bySuit[c.suit] = (bySuit[c.suit] || 0) + v;
  }
  return Math.max(0, ...Object.values(bySuit));
}

function li(el) {
  el.setAttribute("role", "listitem");
  return el;
}

function cardsRow(cards, label) {
  return h("div.cards", { role: "list", "aria-label": label }, (cards || []).map((c) => li(cardEl(c, { small: true }))));
}

/** A turn's phase as a player says it (the engines' codes: draw, meld, play, discard, window, over). */
function phaseWords(phase) {
  const words = {
    draw: pgettext("phase", "drawing"),
    meld: pgettext("phase", "melding"),
    play: pgettext("phase", "playing"),
    discard: pgettext("phase", "discarding"),
    window: pgettext("phase", "a challenge may come"),
    over: pgettext("phase", "over"),
  };
  return words[phase] || String(phase).replace(/_/g, " ");
}

/** The table as a watcher saw it: piles, stock, melds per side, scores and lives. */
function drawPublic(view) {
  const box = $("public");
  clear(box).append(h("h2", _("On the table")));
  if (!view) return;
  const dl = h("dl");
  const row = (label, value) => value != null && value !== "" && dl.append(h("dt", label), h("dd", value));
  if (view.phase) row(_("Phase"), phaseWords(view.phase));
  if (view.stock_size != null) row(_("Stock"), ngettext("{count} card", "{count} cards", view.stock_size));
  if (Array.isArray(view.pile) && view.pile.length) row(_("Discard pile ({count})", { count: view.pile_size ?? view.pile.length }), cardsRow(view.pile.slice(-12), _("discard pile, top last")));
  else if (view.pile_top) row(_("Discard pile"), cardsRow([view.pile_top], _("top of the discard pile")));
  else if (view.pile_size != null) row(_("Discard pile"), ngettext("{count} card", "{count} cards", view.pile_size));
  if (Array.isArray(view.lives)) row(_("Lives"), view.lives.map((l, s) => `${name(s)}: ${view.status ? view.status[s] : l}`).join(" · "));
  if (Array.isArray(view.claims) && view.claims.length) {
    const c = view.claims[view.claims.length - 1];
    row(_("Last claim"), _("{player} said {count} × {rank}", { player: name(c.seat), count: c.count, rank: RANKS[c.rank] ? rankLetter(RANKS[c.rank]) : c.rank }));
  }
  box.append(dl);
  for (const side of view.sides || []) {
    const who = (side.seats || []).map((s) => name(s)).join(" & ") || _("Side {n}", { n: side.side + 1 });
    const melds = h("div.replay-side", { dataset: { side: String(side.side) } }, h("h3", who, side.score != null ? h("small.muted", " " + ngettext("{count} point", "{count} points", side.score, { count: fmt(side.score) })) : null));
    const grid = h("div.meld-grid");
    (side.melds || []).forEach((m, i) => {
      const label = m.label || [m.canasta ? _("{kind} canasta", { kind: m.canasta }) : "", m.samba ? "samba" : "", m.kind].filter(Boolean).join(" ");
      grid.append(h("div.meld-line", h("small.muted", `#${i + 1} ${label}`), cardsRow(m.cards, _("{side}: meld #{n}, {label}", { side: who, n: i + 1, label }))));
    });
    if (side.red_threes && side.red_threes.length) grid.append(h("div.meld-line", h("small.muted", _("red 3s")), cardsRow(side.red_threes, _("{side}: red 3s", { side: who }))));
    melds.append(grid);
    if (!(side.melds || []).length) melds.append(h("p.muted", _("no melds yet")));
    box.append(melds);
  }
}

/** The checks this browser makes itself from what the table published. */
async function verify() {
  const box = $("verify");
  const d = R.data;
  const f = d.fairness || {};
  const out = [];
  const add = (ok, text) => out.push({ ok, text });
  if (!f.secret) add(false, _("This table published no secret, so its shuffle cannot be checked (it was played before deals were sealed)."));
  else {
    add(fair.secretCommitment(f.secret) === f.server_commitment, _("The table's secret matches the commitment it published before the first deal"));
    const seed = fair.matchSeed(f.secret, f.contributions || {});
    add(seed === String(f.match_seed) && seed === String(d.record.seed), ngettext("The shuffle follows from the secret and the randomness of {count} player", "The shuffle follows from the secret and the randomness of {count} players", Object.keys(f.contributions || {}).length));
  }
  const deals = d.deals || [];
  const opened = deals.filter((x) => x.seed != null);
  const good = opened.filter((x) => fair.dealCommitment(x.seed, x.salt) === x.commitment);
  if (deals.length) add(good.length === deals.length, _("Every deal matches the commitment published before it was dealt ({good} of {all})", { good: good.length, all: deals.length }));
  if (f.server_commitment && Array.isArray(d.chain)) {
    const heads = fair.chainHeads(code, f.server_commitment, d.record.actions || []);
    const known = d.chain.map((x, i) => [x, i]).filter(([x]) => x != null);
    const same = known.filter(([x, i]) => heads[i] === x).length;
    add(same === known.length, _("Every move matches the chain of moves the table published ({good} of {all})", { good: same, all: known.length }));
  }
  const mine = localStorage.getItem(`parlour.fair.${code}`);
  if (mine) {
    const rec = fair.openRecord(code);
    const results = await fair.finalCheck(rec, { secret: f.secret, contributions: f.contributions, match_seed: f.match_seed }, async () => d.record);
    for (const r of results) out.push({ ...r, text: _("What you saw: {check}", { check: r.text }) });
  }
  const bad = out.some((r) => r.ok === false);
  box.classList.toggle("bad", bad);
  clear(box).append(
    h("h2", _("Deal check")),
    h("p", { id: "verify-result", class: bad ? "bad" : "ok" }, bad ? "✗ " + _("Something does not match — see below.") : "✓ " + _("The deals were fair: every check passed.")),
    h("ul", out.map((r) => h("li", { dataset: { ok: String(r.ok) } }, `${r.ok === true ? "✓" : r.ok === false ? "✗" : "•"} ${r.text}`))),
    h("p.muted", _("Checked by this browser from what the table published, with the same formulas as {command}.", { command: "parlour verify" })),
  );
}

init();
