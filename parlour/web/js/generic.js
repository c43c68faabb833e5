// The generic table: draws any game's view (cards wherever a field holds cards) and offers the
// server's legal actions as buttons, narrowed by the cards selected in the hand. Game-specific
// tables reuse its pieces.
import { cardEl, cardKey, isCardText } from "./cards.js";
import { h, humanize } from "./dom.js";
import { _, botName, ngettext } from "./i18n.js";

/** Every card string inside an action JSON (any field, any depth), in order. */
export function actionCards(action) {
  const out = [];
  const walk = (v, key) => {
    if (key === "type") return;
    if (typeof v === "string" && isCardText(v)) out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(action);
  return out;
}

export function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/** Toggle one copy of `card` in the selection: `copy` is which of the hand's copies of it (0 =
 * the leftmost), so the copy clicked is the one that lifts. */
export function toggleSelected(ctx, card, isSelected, copy = 0) {
  const copies = (ctx.copies ||= {});
  const held = ctx.selected.filter((c) => c === card).length;
  if (isSelected) {
    const i = ctx.selected.lastIndexOf(card);
    if (i >= 0) ctx.selected.splice(i, 1);
    copies[card] = (copies[card] || []).filter((k) => k !== copy);
  } else {
    ctx.selected.push(card);
    copies[card] = [...(held ? copies[card] || [] : []).filter((k) => k !== copy), copy];
  }
  ctx.rerender();
}

/** Hand cards as clickable card elements (aria-pressed when selected). Of several copies of a
 * card, the ones clicked are shown selected (then any others left to right). */
export function handCards(ctx, cards) {
  const want = {};
  for (const c of ctx.selected) want[c] = (want[c] || 0) + 1;
  const chosen = {};
  for (const [c, n] of Object.entries(want)) {
    const held = cards.filter((x) => x === c).length;
    const picks = ((ctx.copies || {})[c] || []).filter((k) => k < held).slice(-n);
    for (let k = 0; picks.length < Math.min(n, held); k++) if (!picks.includes(k)) picks.push(k);
    chosen[c] = picks;
  }
  const seen = {};
  return cards.map((c) => {
    const copy = (seen[c] = (seen[c] ?? -1) + 1);
    const sel = (chosen[c] || []).includes(copy);
    return cardEl(c, { selected: sel, pressable: true, onClick: () => toggleSelected(ctx, c, sel, copy) });
  });
}

/** The keys of the common moves, shown on their buttons ("Draw (D)"); a key presses the one
 * enabled button that carries it (table.js). */
export const SHORTCUTS = { Draw: "D", DrawStock: "D", TakePile: "T", TakeDiscard: "T", Discard: "X", Meld: "M", Challenge: "C", Knock: "K", Pass: "P" };

/** Give a button its key: shown after its label and announced as aria-keyshortcuts. */
export function withKey(button, key) {
  if (!key) return button;
  button.setAttribute("aria-keyshortcuts", key);
  button.append(" ", h("kbd", `(${key})`));
  return button;
}

export function playersRow(ctx, extra = () => null, sizes = null) {
  const row = h("div.seats-row#players");
  const n = ctx.players || 0;
  const sides = (ctx.outcome && ctx.outcome.sides) || [];
  const counts = sizes || ctx.view.hand_sizes || ctx.view.hand_counts || null;
  for (let s = 0; s < n; s++) {
    const side = sides.findIndex((x) => x.includes(s));
    const seatInfo = (ctx.seats || []).find((x) => x.seat === s);
    const p = h(
      `div.player${ctx.view.to_act === s ? ".to-act" : ""}${ctx.seat === s ? ".me" : ""}`,
      { dataset: { seat: String(s) } },
      h("span.pname", ctx.name(s), ctx.seat === s ? " " + _("(you)") : "", side >= 0 && sides.length < n ? h("span.side-tag", _("side {n}", { n: side + 1 })) : null),
      h(
        "span.pmeta",
        seatInfo ? (seatInfo.controller === "bot" ? _("bot") + (seatInfo.bot ? ` · ${botName(seatInfo.bot)}` : "") : seatInfo.controller === "human" ? _("human") : seatInfo.controller) : "",
        seatInfo && seatInfo.controller === "human" && !seatInfo.connected ? " · " + _("away") : "",
      ),
    );
    if (Array.isArray(counts) && counts[s] != null) p.append(h("span.pmeta", ngettext("{count} card", "{count} cards", counts[s])));
    const more = extra(s);
    if (more) p.append(more);
    row.append(p);
  }
  return row;
}

/** A value of the view, drawn: cards as cards, lists of cards as rows, the rest as text. */
export function valueEl(v) {
  if (typeof v === "string" && isCardText(v)) return cardEl(v, { small: true });
  if (Array.isArray(v)) {
    if (v.length && v.every((x) => typeof x === "string" && isCardText(x))) return h("span.cardrow", v.map((c) => cardEl(c, { small: true })));
    if (!v.length) return h("span.muted", "—");
    return h("span", v.map((x, i) => [i ? " · " : "", valueEl(x)]));
  }
  if (v && typeof v === "object") {
    const dl = h("dl");
    for (const [k, x] of Object.entries(v)) if (k !== "type") dl.append(h("dt", humanize(k)), h("dd", valueEl(x)));
    return dl;
  }
  return h("span", v === null ? "—" : String(v));
}

export function viewDetails(view, skip = []) {
  const dl = h("dl");
  for (const [k, v] of Object.entries(view)) {
    if (["type", "seat", "to_act", "hand", ...skip].includes(k)) continue;
    dl.append(h("dt", humanize(k)), h("dd", valueEl(v)));
  }
  return h("div.generic#view-details", dl);
}

/**
 * Buttons for the legal actions. With cards selected, only the actions that use exactly those
 * cards (plus actions without cards) are shown, so a long list stays short. `extra` are buttons
 * the table adds for the selection (moves made of several actions, e.g. a meld of five cards);
 * they come first. A move type with one button gets its key (SHORTCUTS). `group(l)` may return
 * [words, short label] so that several moves alike share their words: "Add 7♣ to meld: #2 #3"
 * (each short button keeps the whole sentence as its name), which keeps the bar short on a phone.
 */
export function actionButtons(ctx, { filter = () => true, label = (l) => capitalize(ctx.say(String(l.text).replace(/^[Ss]eat \d+: /, ""))), needSelection = false, always = () => false, extra = [], group = () => null } = {}) {
  const bar = h("div.actions#actions");
  if (!ctx.legal || !ctx.legal.length) {
    if (ctx.status === "playing" && !ctx.spectator && ctx.view && ctx.view.to_act !== ctx.seat) bar.append(h("span.hint-text", _("Waiting for the others…")));
    return bar;
  }
  bar.append(...extra);
  const legal = ctx.legal.filter((l) => filter(l.action));
  const sel = ctx.selected;
  let shown = legal.filter((l) => {
    const cards = actionCards(l.action);
    return !cards.length || (sel.length ? sameMultiset(cards, sel) : !needSelection || always(l.action));
  });
  const limit = 24;
  const many = (shown.length > limit || needSelection) && !sel.length && legal.some((l) => actionCards(l.action).length && !always(l.action));
  if (many) shown = shown.filter((l) => !actionCards(l.action).length || always(l.action));
  const taken = new Set(extra.map((b) => b.getAttribute("aria-keyshortcuts")));
  const groups = new Map(); // words → the group's element
  const together = (g) => g && shown.filter((x) => (group(x) || [])[0] === g[0]).length > 1;
  for (const l of shown) {
    const g = group(l);
    const alike = together(g);
    const b = h("button.btn.action", { type: "button", dataset: { type: l.action.type } }, alike ? g[1] : label(l));
    if (alike) b.setAttribute("aria-label", label(l));
    b.addEventListener("click", () => {
      ctx.selected = [];
      ctx.send(l.action);
    });
    const key = SHORTCUTS[l.action.type];
    if (key && !taken.has(key) && shown.filter((x) => x.action.type === l.action.type).length === 1) withKey(b, key);
    if (!alike) bar.append(b);
    else {
      if (!groups.has(g[0])) groups.set(g[0], bar.appendChild(h("span.btn-group", { role: "group", "aria-label": g[0] }, h("span.btn-group-label", `${g[0]}:`))));
      groups.get(g[0]).append(b);
    }
  }
  if (ctx.hintButton) bar.append(...[ctx.hintButton()].filter(Boolean)); // table.js: "Hint (?)"
  if (many) bar.append(h("span.hint-text", _("Select cards in your hand to see the {count} moves that use them.", { count: legal.filter((l) => actionCards(l.action).length && !always(l.action)).length })));
  else if (sel.length && !extra.length && !shown.some((l) => actionCards(l.action).length)) bar.append(h("span.hint-text", _("No legal move uses exactly the selected cards.")));
  return bar;
}

export function capitalize(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => cardKey(a) - cardKey(b));
}

/** The table in two parts: `felt` (the players and the view, scrolling) and `dock` (pinned: the
 * moves and the hand). */
export function render(ctx, felt, dock) {
  felt.append(playersRow(ctx));
  felt.append(viewDetails(ctx.view));
  dock.append(actionButtons(ctx));
  const hand = Array.isArray(ctx.view.hand) && !ctx.spectator ? ctx.view.hand : null;
  if (hand) dock.append(h("div.hand-area#hand-area", h("h3", _("Your hand ({count})", { count: hand.length })), h("div.hand#hand", h("div.hand-group", handCards(ctx, sortCards(hand))))));
}
