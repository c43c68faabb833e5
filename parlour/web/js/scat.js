// The Scat / 31 table: lives (or points) per player, stock and discard, the 3–4 card hand with its
// value; click the stock to draw, the discard to take it; a hand card is selected by a click (a
// second click takes it back) and discarded with the "Discard" button (X) or a click on the
// discard pile — the same select-then-confirm as the other tables, so one tap never discards.
import { backsEl, cardEl } from "./cards.js";
import { fmt, h } from "./dom.js";
import { actionButtons, playersRow } from "./generic.js";
import { _, lang, ngettext, pgettext } from "./i18n.js"; // issue 34

/** Why a hand ended (the words of parlour/games/scat/text.py). */
const REASONS = {
  knock: pgettext("hand ended by", "knock"),
  hammer: pgettext("hand ended by", "hammer"),
  throw_down: pgettext("hand ended by", "throw down"),
  declared_31: pgettext("hand ended by", "declared 31"),
  dealt_31: pgettext("hand ended by", "dealt 31"),
  stock_exhausted: pgettext("hand ended by", "stock exhausted"),
};

/** "West, North and East" in the reader's language. */
function listOf(words) {
  try {
    return new Intl.ListFormat(lang, { type: "conjunction" }).format(words);
  } catch {
    return words.join(", ");
  }
}

export function canRender(view) {
  return Array.isArray(view.hand_sizes) && "pile_top" in view;
}

function legalOf(ctx, type, pred = () => true) {
  return (ctx.legal || []).filter((l) => l.action.type === type && pred(l.action));
}

function knownOf(view, seat) {
  const k = (view.known || []).find((x) => x.seat === seat);
  return k ? k.cards : [];
}

function discardLabel(ctx, l) {
  const a = l.action;
  if (a.type !== "Discard") return ctx.say(l.text).replace(/^./, (x) => x.toUpperCase());
  const declaring = legalOf(ctx, "Discard", (x) => x.card === a.card && x.declare).length > 0;
  if (a.declare) return _("Discard {card} and declare 31!", { card: a.card });
  return declaring ? _("Discard {card} without declaring", { card: a.card }) : _("Discard {card}", { card: a.card });
}

/** How the last hand ended, told to this reader from the view's data ("hand 3 (knock): you lose
 * 1, West loses 2; out: West"): the words of parlour/games/scat/text.py for "hand_over". */
export function lastHandText(ctx, l) {
  const me = ctx.spectator ? null : ctx.seat;
  const who = (s) => (s === me ? _("you") : ctx.name(s));
  const parts = [];
  (l.changes || []).forEach((c, s) => {
    if (c < 0) parts.push(s === me ? _("you lose {points}", { points: -c }) : _("{player} loses {points}", { player: ctx.name(s), points: -c }));
    else if (c > 0) parts.push(s === me ? _("you score {points}", { points: c }) : _("{player} scores {points}", { player: ctx.name(s), points: c }));
  });
  const why = REASONS[l.reason] || String(l.reason).replace(/_/g, " ");
  let text = _("hand {hand} ({why}): {changes}", { hand: l.number + 1, why, changes: parts.join(", ") || _("no change") });
  if (l.replay) text += _("; every remaining player would be out: they play another hand");
  const out = (l.out || []).map(who);
  if (out.length) text += _("; out: {players}", { players: listOf(out) });
  return text;
}

export function render(ctx, felt, dock) {
  const v = ctx.view;
  const pointsGame = ctx.rules && ctx.rules.target_points && ctx.rules.showdown === "points";
  felt.append(
    playersRow(ctx, (s) => {
      const box = h("span.pmeta");
      const lives = (v.lives || [])[s];
      const status = (v.status || [])[s];
      // Lives as pennies on the table (the view's status words say "3 pennies", "on the county"…).
      if (lives != null && !pointsGame) box.append(h("span.lives", { title: ngettext("{count} life", "{count} lives", lives) }, "●".repeat(Math.max(0, lives))), " ");
      if (status) box.append(status);
      else if (lives != null) box.append(pointsGame ? ngettext("{count} point", "{count} points", lives, { count: fmt(lives) }) : ngettext("{count} life", "{count} lives", lives));
      if (v.dealer === s) box.append(" · " + _("dealer"));
      if (v.knocker === s) box.append(h("b", " · " + _("knocked")));
      const known = knownOf(v, s);
      if (known.length && s !== ctx.seat) box.append(" ", ...known.map((c) => cardEl(c, { mini: true })));
      return box;
    }),
  );
  const stock = h("button.pile-box#stock", { type: "button" }, h("span.lbl", _("Stock")), v.stock_size ? backsEl(1, { max: 1, label: `${v.stock_size}` }) : h("div.empty-slot"));
  const draw = legalOf(ctx, "DrawStock")[0];
  stock.disabled = !draw;
  stock.addEventListener("click", () => draw && ctx.send(draw.action));
  const pile = h("button.pile-box#pile", { type: "button" }, h("span.lbl", _("Discard")), v.pile_top ? cardEl(v.pile_top) : h("div.empty-slot"), h("span.lbl", pileWords(v)));
  const take = legalOf(ctx, "TakeDiscard")[0];
  // with a card selected, the pile takes the discard (the button "Discard X" does the same)
  const chosen = ctx.selected.length === 1 ? plainDiscard(ctx, ctx.selected[0]) : null;
  pile.disabled = !take && !chosen;
  pile.addEventListener("click", () => {
    if (chosen) {
      ctx.selected = [];
      ctx.send(chosen.action);
    } else if (take) ctx.send(take.action);
  });
  for (const b of [stock, pile]) Object.assign(b.style, { background: "transparent", border: "0", color: "inherit" });
  felt.append(h("div.center", stock, pile));
  // The pile is squared up (only its top card shows) unless the table plays the open pile.
  if (v.rules?.open_pile && (v.pile || []).length > 1) felt.append(h("div.generic#pile-open", h("b", _("The discard pile, top last:"), " "), v.pile.map((c) => cardEl(c, { mini: true }))));
  if (v.last_hand) {
    const value = (sc) => ((v.last_hand.values || [])[sc.seat] != null ? ` (${fmt(v.last_hand.values[sc.seat])})` : "");
    const shown = (v.last_hand.shown || []).map((sc) => h("div", h("b", _("{who}: ", { who: (sc.seat === ctx.seat ? _("You") : ctx.name(sc.seat)) + value(sc) })), sc.cards.map((c) => cardEl(c, { small: true }))));
    felt.append(h("div.generic#last-hand", h("b", _("Last hand: {text}", { text: lastHandText(ctx, v.last_hand) })), shown));
  }
  let hand = null;
  if (!ctx.spectator) {
    const cards = (v.hand || []).map((c) => {
      const can = legalOf(ctx, "Discard", (a) => a.card === c).length > 0;
      const selected = ctx.selected.includes(c);
      const el = cardEl(c, {
        selected,
        pressable: true,
        onClick: () => {
          ctx.selected = selected ? [] : [c]; // one card at a time: a click on another moves it
          ctx.rerender();
        },
      });
      if (can) el.classList.add("hint");
      return el;
    });
    const value = v.hand_value != null ? " — " + _("worth {value}", { value: v.hand_value }) : "";
    const note = cards.some((c) => c.classList.contains("hint")) ? " — " + (ctx.selected.length ? _("discard it with the button or the pile") : _("select the card to discard")) : "";
    hand = h("div.hand-area#hand-area", h("h3", _("Your hand") + value, h("span.note", note)), h("div.hand#hand", h("div.hand-group.spread", cards)));
  }
  // The selected card's discards are buttons (with a 31 to declare: both choices); the other
  // decisions (knock, declare 31, end the hand…) are always there.
  const sel = ctx.selected;
  dock.append(actionButtons(ctx, { filter: (a) => a.type !== "Discard" || (sel.length === 1 && a.card === sel[0]), label: (l) => discardLabel(ctx, l) }));
  if (hand) dock.append(hand);
}

/** The discard of `card` a click on the pile makes: declaring a 31 it makes (the obvious
 * choice, docs/games/scat.md), else the plain one. */
function plainDiscard(ctx, card) {
  const discards = legalOf(ctx, "Discard", (a) => a.card === card).sort((a, b) => Number(b.action.declare) - Number(a.action.declare));
  return discards[0] || null;
}

/** "12 cards" — the size of the discard pile (the view holds its size; the cards under the top
 * only with the open pile). */
function pileWords(v) {
  const n = v.pile_size ?? (v.pile || []).length;
  return ngettext("{count} card", "{count} cards", n);
}
