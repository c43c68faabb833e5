// The score sheet, hand by hand, from the server's `outcome` (Outcome.to_json()): one column per
// side, each hand's breakdown rows (e.g. cards, sambas, canastas, red 3s, going out, cards left),
// the hand's total and the running total.
import { fmt, h, humanize } from "./dom.js";

export function sideLabel(outcome, i, ctx) {
  const seats = (outcome && outcome.sides && outcome.sides[i]) || [];
  if (!seats.length) return `Side ${i + 1}`;
  const names = seats.map((s) => ctx.name(s));
  const mine = ctx.seat != null && seats.includes(ctx.seat);
  return `${names.join(" & ")}${mine ? " (you)" : ""}`;
}

/** A <table class="sheet">; `opts.only` = show just that hand number (end-of-hand screen). */
export function scoreSheet(outcome, ctx, opts = {}) {
  if (!outcome) return h("p.muted", "No scores yet.");
  const nSides = (outcome.scores || []).length || (outcome.sides || []).length;
  const table = h("table.sheet", { id: opts.only != null ? "hand-sheet" : "score-sheet" });
  const head = h("tr", h("th", ""));
  for (let i = 0; i < nSides; i++) head.append(h("th", { dataset: { side: String(i) } }, sideLabel(outcome, i, ctx)));
  table.append(h("thead", head));
  const body = h("tbody");
  const running = new Array(nSides).fill(0);
  for (const hand of outcome.hands || []) {
    hand.scores.forEach((s, i) => (running[i] += s));
    if (opts.only != null && hand.number !== opts.only) continue;
    body.append(h("tr.hand-head", h("td", { colspan: String(nSides + 1) }, `Hand ${hand.number + 1}${hand.note ? ` — ${hand.note}` : ""}`)));
    const keys = [];
    for (const b of hand.breakdown || []) for (const k of Object.keys(b || {})) if (!keys.includes(k)) keys.push(k);
    for (const k of keys) {
      const row = h("tr", { dataset: { key: k } }, h("td", humanize(k)));
      for (let i = 0; i < nSides; i++) {
        const v = hand.breakdown[i] ? hand.breakdown[i][k] : undefined;
        row.append(h("td", v === undefined ? "" : fmt(v)));
      }
      body.append(row);
    }
    const tot = h("tr.hand-total", { dataset: { hand: String(hand.number) } }, h("td", "Hand total"));
    hand.scores.forEach((s) => tot.append(h("td", fmt(s))));
    body.append(tot);
    const run = h("tr.running", h("td", "Running total"));
    running.forEach((s) => run.append(h("td", fmt(s))));
    body.append(run);
  }
  if (opts.only == null) {
    const total = h("tr.total", h("td", "Total"));
    (outcome.scores || []).forEach((s) => total.append(h("td", { dataset: { total: "" } }, fmt(s))));
    body.append(total);
  }
  table.append(body);
  return table;
}
