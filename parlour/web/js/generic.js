// The generic table: draws any game's view (cards wherever a field holds cards) and offers the
// server's legal actions as buttons, narrowed by the cards selected in the hand. Game-specific
// tables reuse its pieces.
import { cardEl, cardKey, isCardText } from "./cards.js";
import { h, humanize } from "./dom.js";

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

/** Toggle one copy of `card` in the selection (hand position `index` disambiguates repeats). */
export function toggleSelected(ctx, card, isSelected) {
  if (isSelected) {
    const i = ctx.selected.lastIndexOf(card);
    if (i >= 0) ctx.selected.splice(i, 1);
  } else ctx.selected.push(card);
  ctx.rerender();
}

/** Hand cards as clickable card elements; repeats of a card are selected left to right. */
export function handCards(ctx, cards) {
  const left = {};
  for (const c of ctx.selected) left[c] = (left[c] || 0) + 1;
  return cards.map((c) => {
    const sel = (left[c] || 0) > 0;
    if (sel) left[c] -= 1;
    return cardEl(c, { selected: sel, onClick: () => toggleSelected(ctx, c, sel) });
  });
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
      h("span.pname", ctx.name(s), ctx.seat === s ? " (you)" : "", side >= 0 && sides.length < n ? h("span.side-tag", `side ${side + 1}`) : null),
      h(
        "span.pmeta",
        seatInfo ? (seatInfo.controller === "bot" ? `bot${seatInfo.bot ? ` · ${seatInfo.bot}` : ""}` : seatInfo.controller) : "",
        seatInfo && seatInfo.controller === "human" && !seatInfo.connected ? " · away" : "",
      ),
    );
    if (Array.isArray(counts) && counts[s] != null) p.append(h("span.pmeta", `${counts[s]} cards`));
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
 * cards (plus actions without cards) are shown, so a long list stays short.
 */
export function actionButtons(ctx, { filter = () => true, label = (l) => capitalize(ctx.say(l.text)), needSelection = false, always = () => false } = {}) {
  const bar = h("div.actions#actions");
  if (!ctx.legal || !ctx.legal.length) {
    if (ctx.status === "playing" && !ctx.spectator && ctx.view && ctx.view.to_act !== ctx.seat) bar.append(h("span.hint-text", "Waiting for the others…"));
    return bar;
  }
  const legal = ctx.legal.filter((l) => filter(l.action));
  const sel = ctx.selected;
  let shown = legal.filter((l) => {
    const cards = actionCards(l.action);
    return !cards.length || (sel.length ? sameMultiset(cards, sel) : !needSelection || always(l.action));
  });
  const limit = 24;
  const many = (shown.length > limit || needSelection) && !sel.length && legal.some((l) => actionCards(l.action).length && !always(l.action));
  if (many) shown = shown.filter((l) => !actionCards(l.action).length || always(l.action));
  for (const l of shown) {
    const b = h("button.btn.action", { type: "button", dataset: { type: l.action.type } }, label(l));
    b.addEventListener("click", () => {
      ctx.selected = [];
      ctx.send(l.action);
    });
    bar.append(b);
  }
  if (many) bar.append(h("span.hint-text", `Select cards in your hand to see the ${legal.filter((l) => actionCards(l.action).length && !always(l.action)).length} moves that use them.`));
  else if (sel.length && !shown.some((l) => actionCards(l.action).length)) bar.append(h("span.hint-text", "No legal move uses exactly the selected cards."));
  return bar;
}

export function capitalize(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => cardKey(a) - cardKey(b));
}

export function render(ctx, felt) {
  felt.append(playersRow(ctx));
  felt.append(viewDetails(ctx.view));
  const hand = Array.isArray(ctx.view.hand) ? ctx.view.hand : null;
  if (hand) felt.append(h("div.hand-area#hand-area", h("h3", `Your hand (${hand.length})`), h("div.hand#hand", h("div.hand-group", handCards(ctx, sortCards(hand))))));
  felt.append(actionButtons(ctx));
}
