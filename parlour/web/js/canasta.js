// The Canasta-family table shared by Samba and Hand and Foot: the hand grouped as players hold it,
// card selection by click/tap, the stock and the discard pile (all its cards on request), each
// side's melds with finished books squared up, and sequences of actions sent one after another.
//
// A game adapter supplies `model(view)` (a common shape), `meldInfo(meld)` (tags, squared) and
// `moves` that turn a click (meld, pile, "meld these cards") plus the selection into actions, and
// `selectionMoves` (the moves of several actions the selected cards allow, as buttons in the
// action bar). Only legal actions are offered as buttons; direct moves are sent as they are, so an
// illegal one comes back from the server with the rule in words.
import { backsEl, cardEl, cardText, parseCard } from "./cards.js";
import { h } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js";
import { actionButtons, handCards, playersRow, withKey } from "./generic.js";

const SUIT_ORDER = "♠♥♣♦"; // alternate colours when sorting by suit
export const isWild = (c) => !!c && (c.joker || c.rank === 2);

/** Groups of a hand: naturals by rank (A…4) or by suit, then wilds, then black 3s, red 3s. */
export function groupHand(hand, mode = "rank") {
  const parsed = hand.map((t) => ({ t, c: parseCard(t) })).filter((x) => x.c);
  const naturals = parsed.filter((x) => !isWild(x.c) && x.c.rank !== 3);
  const wilds = parsed.filter((x) => isWild(x.c)).sort((a, b) => (a.c.joker ? 99 : a.c.rank) - (b.c.joker ? 99 : b.c.rank));
  const black3 = parsed.filter((x) => x.c.rank === 3 && (x.c.suit === "♣" || x.c.suit === "♠"));
  const red3 = parsed.filter((x) => x.c.rank === 3 && (x.c.suit === "♥" || x.c.suit === "♦"));
  const groups = [];
  if (mode === "suit") {
    for (const s of SUIT_ORDER) {
      const g = naturals.filter((x) => x.c.suit === s).sort((a, b) => a.c.rank - b.c.rank);
      if (g.length) groups.push({ kind: "suit", label: s, cards: g.map((x) => x.t) });
    }
  } else {
    for (let r = 14; r >= 4; r--) {
      const g = naturals.filter((x) => x.c.rank === r).sort((a, b) => SUIT_ORDER.indexOf(a.c.suit) - SUIT_ORDER.indexOf(b.c.suit));
      if (g.length) groups.push({ kind: "rank", label: String(r), cards: g.map((x) => x.t) });
    }
  }
  if (wilds.length) groups.push({ kind: "wild", label: "wild", cards: wilds.map((x) => x.t) });
  if (black3.length) groups.push({ kind: "black3", label: _("black 3s"), cards: black3.map((x) => x.t) });
  if (red3.length) groups.push({ kind: "red3", label: _("red 3s"), cards: red3.map((x) => x.t) });
  return groups;
}

export function sideIndex(m, seat) {
  if (seat == null) return -1;
  if (m.sideOf[seat] !== undefined) return m.sideOf[seat];
  return m.sides.findIndex((s) => s.includes(seat));
}

// --- sending sequences of actions --------------------------------------------------------------

/** Send actions one after another, each once the previous one was accepted (table.js sendAll). */
export function sendAll(ctx, ...actions) {
  ctx.sendAll(actions);
}

/** The side's melds as the latest view shows them. */
export function myMelds(ctx, game) {
  const m = game.model(ctx.view);
  return m.melds[sideIndex(m, ctx.seat)] || [];
}

/**
 * Put `cards` onto one meld, one action each, the next card chosen when the previous one was
 * accepted: the first card of `prefer(cards left)` whose action (`actionFor(card, ctx)`) the
 * server now lists as legal — so cards go on in an order the rules take (9♥ before 10♥ on 6-7-8♥,
 * naturals before a second wild). If none is legal the first is sent anyway and the server's
 * refusal says why; the cards not played are selected again.
 */
export function sendCards(ctx, cards, actionFor, prefer = (left) => left) {
  const left = [...cards];
  let last = null; // the card of the step sent last
  const step = (now) => {
    const order = prefer(left, now);
    const legal = (now.legal || []).map((l) => l.action);
    last = order.find((c) => legal.some((a) => sameAction(a, actionFor(c, now)))) ?? order[0];
    left.splice(left.indexOf(last), 1);
    return actionFor(last, now);
  };
  const onRefuse = () => (ctx.selected = last === null ? [...left] : [...left, last]);
  ctx.sendAll(cards.map(() => step), { onRefuse });
}

/** Two actions alike field by field (whatever order their keys came in). */
function sameAction(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

// --- pieces -------------------------------------------------------------------------------------

function handArea(ctx, m) {
  const mode = localStorage.getItem("parlour.hand.sort") || "rank";
  const toggle = h("button.btn.small#sort-toggle", { type: "button", title: mode === "rank" ? _("Sort your hand by suit") : _("Sort your hand by rank") }, mode === "rank" ? _("By suit") : _("By rank"));
  toggle.addEventListener("click", () => {
    localStorage.setItem("parlour.hand.sort", mode === "rank" ? "suit" : "rank");
    ctx.rerender();
  });
  const clearSel = h("button.btn.small#clear-selection", { type: "button", disabled: !ctx.selected.length, title: _("Clear the selection (Escape)") }, _("Clear"));
  clearSel.addEventListener("click", () => {
    ctx.selected = [];
    ctx.rerender();
  });
  const groups = groupHand(m.hand, mode);
  const els = handCards(ctx, groups.flatMap((g) => g.cards));
  const row = h(`div.hand#hand${m.hand.length > 15 ? ".big" : ""}`); // a big hand packs tighter
  let i = 0;
  for (const g of groups) {
    const grp = h(`div.hand-group.${g.kind}`, { dataset: { group: g.label } });
    for (let k = 0; k < g.cards.length; k++) grp.append(els[i++]);
    row.append(grp);
  }
  if (!m.hand.length) row.append(h("span.muted", _("No cards in hand.")));
  return h(
    "div.hand-area#hand-area",
    h("h3", _("Your hand ({count})", { count: m.hand.length }), m.handNote ? h("span.note", ` ${m.handNote}`) : null, " ", toggle, " ", clearSel, ctx.selected.length ? h("span.note", " " + _("{count} selected", { count: ctx.selected.length })) : null),
    row,
  );
}

export function showPile(ctx, m) {
  ctx.overlay(
    h(
      "div",
      h("h2", ngettext("Discard pile ({count} card)", "Discard pile ({count} cards)", m.pileSize)),
      h("p.muted", _("Bottom first, top card last. The pile is public: everyone saw these discards.")),
      m.pile.length ? h("div.pile-cards#pile-cards", m.pile.map((c) => cardEl(c))) : h("p", _("The pile is empty.")),
    ),
    { id: "pile-dialog" },
  );
}

function centre(ctx, m, game) {
  const top = m.pileTop;
  const stock = h("button.pile-box#stock", { type: "button", title: _("Draw from the stock") }, h("span.lbl", _("Stock")), m.stock ? cardEl(null, { back: true }) : h("div.empty-slot"), h("span.lbl#stock-size", ngettext("{count} card", "{count} cards", m.stock)), h("span.sr-only", ": " + _("draw")));
  const draw = (ctx.legal || []).find((l) => l.action.type === "Draw");
  stock.addEventListener("click", () => (draw ? sendAll(ctx, draw.action) : ctx.send({ type: "Draw" })));
  if (draw) stock.classList.add("can");
  const blocked = !!(top && game.blocks(top));
  const pile = h(
    `button.pile-box#pile${blocked ? ".frozen" : ""}`,
    { type: "button", title: _("With one card selected: discard it · with a pair: take the pile · nothing selected: see the pile") },
    h("span.lbl", _("Discard pile")),
    top ? cardEl(top) : h("div.empty-slot"),
    h("span.lbl#pile-size", ngettext("{count} card", "{count} cards", m.pileSize) + (blocked ? " · " + _("blocked") : "")),
  );
  pile.addEventListener("click", () => game.onPile(ctx, m));
  const see = h("button.btn.small#see-pile", { type: "button", disabled: !m.pile.length }, _("See the pile"));
  see.addEventListener("click", () => showPile(ctx, m));
  const box = h("div.center#centre", stock, h("div.pile-col", pile, see));
  for (const extra of game.centreExtras ? game.centreExtras(ctx, m) : []) if (extra) box.append(extra);
  const pendingSize = Math.max(m.pendingSize ?? 0, (m.pending || []).length);
  if (pendingSize) {
    const label = typeof m.pendingLabel === "function" ? m.pendingLabel(ctx) : m.pendingLabel;
    const faces = m.pending.length ? m.pending.map((c) => cardEl(c)) : [backsEl(pendingSize, { max: 3, label: ngettext("{count} card", "{count} cards", pendingSize) })];
    box.append(h("div.pile-box#pending", h("span.lbl", label), h("div.pending-cards", faces)));
  }
  return box;
}

function meldKind(kind) {
  const words = { group: pgettext("meld kind", "group"), sequence: pgettext("meld kind", "sequence"), wild: pgettext("meld kind", "wild"), book: pgettext("meld kind", "book"), run: pgettext("meld kind", "run") };
  return words[kind] || kind;
}

function meldEl(ctx, game, meld, index, sideNo, isMine) {
  const info = game.meldInfo(meld);
  // People square a finished canasta/book into one pile with one telling card on top.
  // Underneath, a natural card shows the meld's rank on its visible strip.
  let cards = meld.cards;
  if (info.squared) {
    const bottom = cards.find((c) => !isWild(parseCard(c))) || cards[0];
    cards = [bottom, info.top || cards[cards.length - 1]];
  }
  // A compact row: the cards fanned sideways, each showing its corner index.
  const stack = h("div.stack", { "aria-hidden": "true" }, cards.map((c) => cardEl(c)));
  const what = _("meld #{meld}, {kind}: {cards}", { meld: index + 1, kind: meldKind(info.kind), cards: meld.cards.join(" ") });
  const attrs = { dataset: { meld: String(index), side: String(sideNo), kind: info.kind }, title: what };
  const target = isMine && !ctx.spectator;
  const el = h(`${target ? "button" : "div"}.meld${info.squared ? ".squared" : ""}`, target ? { ...attrs, type: "button" } : attrs, h("span.sr-only", what), stack, h("div.tags", h("span.tag.index", `#${index + 1}`), info.tags));
  if (target) {
    if (game.isTarget(ctx, index)) el.classList.add("target");
    el.addEventListener("click", () => game.onMeld(ctx, index));
  }
  return el;
}

function sideMelds(ctx, m, game, sideNo) {
  const mine = sideNo === sideIndex(m, ctx.seat);
  const seats = m.sides[sideNo] || [];
  const melds = m.melds[sideNo] || [];
  const red3 = m.red3[sideNo] || [];
  const title = seats.map((s) => ctx.name(s)).join(" & ") || _("Side {n}", { n: sideNo + 1 });
  const box = h(
    `div.side-melds${mine ? ".mine" : ""}`,
    { dataset: { side: String(sideNo) }, id: `side-${sideNo}` },
    h("h3", h("span", mine ? _("{side} (your side)", { side: title }) : title), game.sideFacts(ctx, m, sideNo).map((f) => h("small", f))),
  );
  if (red3.length) box.append(h("div.red3s", { title: _("red 3s laid out") }, red3.map((c) => cardEl(c)), h("small", " " + _("red 3s") + ` ×${red3.length}`)));
  const row = h("div.melds", melds.map((meld, i) => meldEl(ctx, game, meld, i, sideNo, mine)));
  if (!melds.length) row.append(h("span.muted", _("no melds yet")));
  box.append(row);
  return box;
}

/** Buttons for what the selected cards can do in several actions (a new meld of them, all of
 * them onto one meld); they join the legal moves in the action bar. */
function selectionButtons(ctx, m, game) {
  if (ctx.spectator || !ctx.selected.length || ctx.view.to_act !== ctx.seat) return [];
  const out = [];
  for (const move of game.selectionMoves ? game.selectionMoves(ctx, m) : []) {
    const b = h("button.btn.action.combo", { type: "button", id: move.id, dataset: { type: move.type } }, move.label);
    b.addEventListener("click", move.run);
    out.push(withKey(b, move.key));
  }
  return out;
}

/** The whole table for a Canasta-family game: players, stock and pile, the melds (scrolling) on
 * the felt; the moves and the hand in the dock. */
export function renderTable(ctx, felt, dock, game) {
  const m = game.model(ctx.view);
  felt.append(
    playersRow(
      ctx,
      (s) => {
        const extra = h("span.pmeta");
        const facts = game.playerFacts ? game.playerFacts(ctx, m, s) : [];
        if (facts.length) extra.append(h("span", facts.join(" · ")));
        const known = m.known[s] || [];
        // A few known cards are drawn; many (a big pile taken) are listed as text to stay compact.
        const title = _("cards known to be in this hand (taken from the pile)");
        if (known.length > 6) extra.append(h("span.known-text", { title }, _("known ({count}): {cards}", { count: known.length, cards: known.map(cardText).join(" ") })));
        else if (known.length) extra.append(h("span.known", { title }, _("known:"), ...known.map((c) => cardEl(c, { mini: true }))));
        return extra.childNodes.length ? extra : null;
      },
      m.sizes,
    ),
  );
  const mySide = sideIndex(m, ctx.seat);
  const order = mySide >= 0 ? [mySide] : [];
  for (let i = 0; i < m.sides.length; i++) if (i !== mySide) order.push(i);
  felt.append(h("div.table-mid", centre(ctx, m, game), h("div.sides#melds", order.map((i) => sideMelds(ctx, m, game, i)))));
  // A few card moves are worth a button even with nothing selected (red 3s, taking the pile).
  const always = (a) => (game.alwaysShown || []).includes(a.type);
  // "Add 7♣ to meld: #2 #3 #5" rather than three buttons.
  const group = (l) => (l.action.type === "AddToMeld" ? [_("Add {card} to meld", { card: cardText(l.action.card) }), `#${l.action.meld + 1}`] : null);
  const bar = actionButtons(ctx, { label: (l) => game.label(ctx, l), needSelection: true, always, extra: selectionButtons(ctx, m, game), group });
  for (const p of game.prompts ? game.prompts(ctx, m) : []) if (p) dock.append(p);
  dock.append(bar);
  if (!ctx.spectator) dock.append(handArea(ctx, m));
}
