// The score sheet, hand by hand, from the server's `outcome` (Outcome.to_json()): one column per
// side, each hand's breakdown rows (e.g. cards, sambas, canastas, red 3s, going out, cards left),
// the hand's total and the running total. Rows that are zero for every side are left out; the
// rows whose meaning is not obvious say it (why red 3s counted against a side); Scat shows the
// hands shown at the end and their values.
import { fmt, h, humanize } from "./dom.js";
import { _ } from "./i18n.js";

/** Row names and, for a value, why it counts so (by game, then for any game). */
const ROWS = () => ({
  cards_melded: [_("Cards melded"), () => _("the points of the cards on the table")],
  cards_in_hand: [_("Cards left in hand"), () => _("cards still held count against the side")],
  table_cards: [_("Cards on the table"), () => _("the points of the cards in the books")],
  hand_cards: [_("Cards left in hand and foot"), () => _("cards still held count against the side")],
  sambas: [_("Sambas"), (v) => (v ? _("a 7-card sequence") : "")],
  pure_canastas: [_("Pure canastas"), () => _("seven of a rank, no wild card")],
  mixed_canastas: [_("Mixed canastas"), () => _("seven of a rank with wild cards")],
  red_threes: [
    _("Red 3s"),
    (v, game) =>
      v < 0
        ? game === "samba"
          ? _("they count against a side that had not met the going-out requirement (−100 each)")
          : _("they count against a side that had not met the going-out requirement (minus their value)")
        : _("a bonus for each red 3 laid out"),
  ],
  red_three_penalty: [_("Red 3 still in a hand"), () => _("a red 3 never laid out costs 750")],
  black_three_penalty: [_("Black 3s in hand"), () => _("each black 3 left in a hand costs 100")],
  black_threes: [_("Black 3s"), () => _("black 3s left in hand or foot cost 100 each")],
  going_out: [_("Going out"), () => _("the bonus for the side that went out")],
  exact_cut: [_("Exact cut"), () => _("cutting exactly 30 cards for the foot")],
});

function rowName(key) {
  const rows = ROWS();
  return rows[key] ? rows[key][0] : humanize(key);
}

function why(key, v, game) {
  const rows = ROWS();
  return rows[key] ? rows[key][1](v, game) : "";
}

/** Scat: the hands shown at the end of `hand` and their values (the view's last hand). */
function scatRows(hand, ctx, nSides, sides) {
  const last = ctx.view && ctx.view.last_hand;
  if (ctx.game !== "scat" || !last || last.number !== hand.number) return [];
  const bySeat = {};
  for (const sc of last.shown || []) bySeat[sc.seat] = sc.cards;
  const cells = (f) => {
    const out = [];
    for (let i = 0; i < nSides; i++) out.push(h("td", f((sides[i] || [i])[0])));
    return out;
  };
  // who knocked (or called the hammer / the throw-down): "knocked" in that player's column
  const caller = { knock: _("knocked"), hammer: _("called the hammer"), throw_down: _("called a throw-down") }[last.reason];
  const knocker = last.knocker ?? null;
  return [
    ...(caller && knocker != null ? [h("tr.scat-knock", { dataset: { key: "knocked" } }, h("td", _("Who knocked")), cells((s) => (s === knocker ? caller : "")))] : []),
    h("tr.scat-cards", { dataset: { key: "cards_shown" } }, h("td", _("Cards shown")), cells((s) => (bySeat[s] || []).join(" ") || "—")),
    h("tr.scat-values", { dataset: { key: "hand_value" } }, h("td", _("Hand value")), cells((s) => ((last.values || [])[s] == null ? "—" : fmt(last.values[s])))),
  ];
}

export function sideLabel(outcome, i, ctx) {
  const seats = (outcome && outcome.sides && outcome.sides[i]) || [];
  if (!seats.length) return _("Side {n}", { n: i + 1 });
  const names = seats.map((s) => ctx.name(s));
  const mine = ctx.seat != null && seats.includes(ctx.seat);
  return mine ? _("{players} (you)", { players: names.join(" & ") }) : names.join(" & ");
}

/** A <table class="sheet">; `opts.only` = show just that hand number (end-of-hand screen). */
export function scoreSheet(outcome, ctx, opts = {}) {
  if (!outcome) return h("p.muted", _("No scores yet."));
  const nSides = (outcome.scores || []).length || (outcome.sides || []).length;
  const table = h("table.sheet", { id: opts.only != null ? "hand-sheet" : "score-sheet" });
  const head = h("tr", h("th", { scope: "col" }, h("span.sr-only", _("Score item"))));
  for (let i = 0; i < nSides; i++) head.append(h("th", { dataset: { side: String(i) } }, sideLabel(outcome, i, ctx)));
  table.append(h("thead", head));
  const body = h("tbody");
  const running = new Array(nSides).fill(0);
  for (const hand of outcome.hands || []) {
    hand.scores.forEach((s, i) => (running[i] += s));
    if (opts.only != null && hand.number !== opts.only) continue;
    const note = hand.note ? (ctx.say ? ctx.say(hand.note) : hand.note) : "";
    // (the end-of-hand screen says the hand's note above its sheet)
    const head = /^hand \d+/i.test(note) ? note : note ? _("Hand {hand} — {note}", { hand: hand.number + 1, note }) : _("Hand {hand}", { hand: hand.number + 1 });
    if (opts.only == null) body.append(h("tr.hand-head", h("td", { colspan: String(nSides + 1) }, head)));
    const keys = [];
    for (const b of hand.breakdown || []) for (const k of Object.keys(b || {})) if (!keys.includes(k) && k !== "total") keys.push(k);
    for (const k of keys) {
      const values = [];
      for (let i = 0; i < nSides; i++) values.push(hand.breakdown[i] ? hand.breakdown[i][k] : undefined);
      if (values.every((v) => !v)) continue; // a row of zeros says nothing
      const row = h("tr", { dataset: { key: k } }, h("td", rowName(k)));
      for (const v of values) {
        const reason = opts.explain && v ? why(k, v, ctx.game) : "";
        row.append(h("td", v === undefined ? "" : fmt(v), reason ? h("small.why", reason) : null));
      }
      body.append(row);
    }
    body.append(...scatRows(hand, ctx, nSides, outcome.sides || []));
    const tot = h("tr.hand-total", { dataset: { hand: String(hand.number) } }, h("td", _("Hand total")));
    hand.scores.forEach((s) => tot.append(h("td", fmt(s))));
    body.append(tot);
    const run = h("tr.running", h("td", _("Running total")));
    running.forEach((s) => run.append(h("td", fmt(s))));
    body.append(run);
  }
  if (opts.only == null) {
    const total = h("tr.total", h("td", _("Total")));
    (outcome.scores || []).forEach((s) => total.append(h("td", { dataset: { total: "" } }, fmt(s))));
    body.append(total);
  }
  table.append(body);
  return table;
}
