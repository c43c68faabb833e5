// The Samba table (also Bolivia) on the Canasta-family base: the SambaView (docs/games/samba.md)
// drawn as a felt table, and clicks turned into Samba's actions — a new meld of any size in one
// click (Stage card by card, the third completes it, then AddToMeld for the rest), AddToMeld,
// TakePile with the selected pair, TakeTop, Discard, MeldBlackThrees, and the "partner, may I go
// out?" question and answer.
import { cardText, parseCard } from "./cards.js";
import { fmt, h } from "./dom.js";
import { _, pgettext, rankLetter } from "./i18n.js";
import { isWild, myMelds, renderTable, sendAll, sendCards, showPile } from "./canasta.js";

export function canRender(view) {
  return Array.isArray(view.players) && Array.isArray(view.sides);
}

/** The SambaView JSON in the shape the Canasta-family table draws. */
export function model(view) {
  const players = view.players || [];
  const sides = view.sides || [];
  const phaseNote = {
    pile_open: "— " + _("meld from your hand until your side's opening minimum is met (the pile joins your hand then), or take the opening back"),
    answer: "",
  };
  return {
    hand: view.hand || [],
    handNote: phaseNote[view.phase] || "",
    sizes: players.map((p) => p.hand_size),
    known: players.map((p) => p.known || []),
    sideOf: players.map((p) => p.side),
    sides: sides.map((s) => s.seats || []),
    melds: sides.map((s) => s.melds || []),
    red3: sides.map((s) => s.red_threes || []),
    raw: sides,
    pile: view.pile || [],
    pileTop: view.pile_top || null,
    pileSize: view.pile_size ?? (view.pile || []).length,
    stock: view.stock_size ?? 0,
    pending: view.pending || [],
    // whose: the meld being built is the side of the seat to act (a bot's turn animates it too)
    pendingLabel: (ctx) => (view.to_act == null ? _("A new meld being built (3 cards make it)") : !ctx.spectator && view.to_act === ctx.seat ? _("Your new meld being built (3 cards make it)") : _("{player}'s new meld being built (3 cards make it)", { player: ctx.name(view.to_act) })),
    phase: view.phase || "",
    dealer: view.dealer,
    handNo: view.hand_number ?? 0,
  };
}

const legalOf = (ctx, type) => (ctx.legal || []).filter((l) => l.action.type === type);

/** "Your" / "East's" — who owns what the seat to act is building. */
export function whose(ctx, seat) {
  if (seat == null) return "A";
  return !ctx.spectator && seat === ctx.seat ? "Your" : `${ctx.name(seat)}'s`;
}

/**
 * What one meld of these cards would be: "group" (one rank, 4 to A, with at most two wild cards
 * and twice as many naturals), "sequence" (one suit, no gaps, seven at most, no wild cards),
 * "wild" (wild cards only, when the rules allow them) — or null (docs/games/samba.md, Melds).
 * The client only uses it to offer the button and to choose the order of the actions; the
 * engine still decides each one.
 */
export function meldShape(cards, wildMelds = false) {
  const parsed = cards.map(parseCard);
  if (parsed.some((c) => !c || (!isWild(c) && c.rank < 4))) return null;
  const wilds = parsed.filter(isWild);
  const nats = parsed.filter((c) => !isWild(c));
  if (!nats.length) return wildMelds && cards.length <= 7 ? "wild" : null;
  if (nats.every((c) => c.rank === nats[0].rank)) return wilds.length <= 2 && nats.length >= 2 * wilds.length ? "group" : null;
  if (wilds.length || cards.length > 7 || nats.some((c) => c.suit !== nats[0].suit)) return null;
  const ranks = nats.map((c) => c.rank).sort((a, b) => a - b);
  return ranks.every((r, i) => !i || r === ranks[i - 1] + 1) ? "sequence" : null;
}

const rankOf = (card) => parseCard(card).rank;
const wildFirst = (cards) => [...cards].sort((a, b) => Number(isWild(parseCard(b))) - Number(isWild(parseCard(a))));
const naturalsFirst = (cards) => [...cards].sort((a, b) => Number(isWild(parseCard(a))) - Number(isWild(parseCard(b))));
const ascending = (cards) => [...cards].sort((a, b) => rankOf(a) - rankOf(b));

/**
 * Send `cards` as one new meld, in one go: Stage until the meld has its three cards (naturals
 * first; a run from its low end), then AddToMeld for the rest onto the meld just made (wild cards
 * as soon as the rules take them). The order is chosen step by step from the legal moves.
 */
function meldAll(ctx, cards) {
  meldGroups(ctx, [cards]);
}

/** The selection split into new melds (each a `meldShape` of three cards or more), or null. A
 * small search: the first card's meld is tried with every subset of the others. */
export function splitIntoMelds(cards, wildMelds = false) {
  if (!cards.length) return [];
  if (cards.length > 14) return null;
  const [first, ...rest] = cards;
  const n = rest.length;
  for (let mask = (1 << n) - 1; mask > 0; mask--) {
    const pick = [first];
    const others = [];
    rest.forEach((c, i) => ((mask >> i) & 1 ? pick : others).push(c));
    if (pick.length < 3 || !meldShape(pick, wildMelds)) continue;
    const more = splitIntoMelds(others, wildMelds);
    if (more) return [pick, ...more];
  }
  return null;
}

/** Several new melds in one move, one after the other (each as `meldAll` sends one). */
function meldGroups(ctx, groups) {
  const queue = groups.map((g) => [...g]);
  const wildMelds = ctx.rules.wild_melds;
  let before = myMelds(ctx, game).length; // the new meld is added after the side's melds
  let left = queue.shift() || [];
  let shape = meldShape([...(ctx.view.pending || []), ...left], wildMelds);
  let last = null;
  const step = (now) => {
    if (!left.length) {
      if (!queue.length) return null;
      left = queue.shift();
      before = myMelds(now, game).length;
      shape = meldShape(left, wildMelds);
    }
    const made = myMelds(now, game).length > before;
    const order = shape === "sequence" ? ascending(left) : made ? wildFirst(left) : naturalsFirst(left);
    const action = (card) => (made ? { type: "AddToMeld", meld: before, card } : { type: "Stage", card });
    const legal = (now.legal || []).map((l) => l.action);
    last = order.find((c) => legal.some((a) => a.type === action(c).type && a.card === c && (a.meld ?? before) === (action(c).meld ?? before))) ?? order[0];
    left.splice(left.indexOf(last), 1);
    return action(last);
  };
  const all = groups.flat();
  const onRefuse = () => (ctx.selected = [...(last === null ? [] : [last]), ...left, ...queue.flat()]);
  ctx.sendAll(all.map(() => step), { onRefuse });
}

export const game = {
  model,
  alwaysShown: ["TakePile", "LayRedThree", "MeldBlackThrees"],
  blocks(top) {
    const c = parseCard(top);
    return !c || isWild(c) || c.rank === 3;
  },
  meldInfo(meld) {
    const tags = [];
    const squared = meld.samba || meld.bolivia || !!meld.canasta;
    if (meld.samba) tags.push(h("span.tag.samba", pgettext("meld", "samba")));
    else if (meld.bolivia) tags.push(h("span.tag.samba", pgettext("meld", "bolivia")));
    else if (meld.canasta === "pure") tags.push(h("span.tag.pure", _("pure canasta")));
    else if (meld.canasta === "mixed") tags.push(h("span.tag.mixed", _("mixed canasta")));
    tags.push(h("span.tag.count", `${meld.cards.length} · ${fmt(meld.value)}`));
    // Squared up: a pure canasta shows a red natural on top, a mixed one its wild card, a samba
    // its top card.
    let top = meld.cards[meld.cards.length - 1];
    if (meld.canasta === "mixed") top = meld.cards.find((c) => isWild(parseCard(c))) || top;
    return { tags, squared, top, kind: meld.kind };
  },
  sideFacts(ctx, m, i) {
    const s = m.raw[i];
    const facts = [_("score {points}", { points: fmt(s.score) })];
    facts.push(s.opened ? _("opened") : _("opening needs {points}", { points: s.opening_minimum }));
    if (s.can_go_out) facts.push(_("may go out"));
    return facts;
  },
  playerFacts(ctx, m, seat) {
    return m.dealer === seat ? [_("dealer")] : [];
  },
  /** The moves of several actions the selection allows: all of it as a new meld, all of it onto
   * one of the side's melds. */
  selectionMoves(ctx, m) {
    const sel = ctx.selected;
    const legal = (ctx.legal || []).map((l) => l.action);
    const moves = [];
    if (sel.length < 2) return moves;
    const wildMelds = ctx.rules.wild_melds;
    const pending = m.pending || [];
    const startable = sel.some((c) => legal.some((a) => a.type === "Stage" && a.card === c));
    if (startable && meldShape([...pending, ...sel], wildMelds)) {
      const label = pending.length + sel.length >= 3 ? _("Meld {cards}", { cards: sel.join(" ") }) : _("Start a meld with {cards}", { cards: sel.join(" ") });
      moves.push({ id: "meld-new", type: "Meld", key: "M", label, run: () => game.onNewMeld(ctx, m) });
    } else if (startable && !pending.length && sel.length >= 6) {
      // several new melds at once (7♣ 7♥ 7♠ and K♦ K♠ Jk): each laid in turn
      const groups = splitIntoMelds([...sel], wildMelds);
      if (groups) moves.push({ id: "meld-new", type: "Meld", key: "M", label: _("Meld {cards}", { cards: groups.map((g) => g.join(" ")).join(" + ") }), run: () => meldGroups(ctx, groups) });
    }
    myMelds(ctx, game).forEach((meld, i) => {
      const fits = sel.some((c) => legal.some((a) => a.type === "AddToMeld" && a.meld === i && a.card === c));
      if (fits && meldShape([...meld.cards, ...sel], wildMelds) === meld.kind) {
        moves.push({ id: `add-all-${i}`, type: "AddToMeld", label: _("Add {cards} to meld #{meld}", { cards: sel.join(" "), meld: i + 1 }), run: () => game.onMeld(ctx, i) });
      }
    });
    return moves;
  },
  isTarget(ctx, index) {
    const sel = ctx.selected;
    return (ctx.legal || []).some((l) => {
      const a = l.action;
      if (a.type === "AddToMeld") return a.meld === index && sel.length === 1 && a.card === sel[0];
      if (a.type === "TakeTop") return a.meld === index && sel.length === 0;
      return false;
    });
  },
  onMeld(ctx, index) {
    const sel = [...ctx.selected];
    if (!sel.length) {
      const top = legalOf(ctx, "TakeTop").find((l) => l.action.meld === index);
      if (top) sendAll(ctx, top.action);
      else ctx.showError(_("Select cards in your hand first, then click the meld to add them to it."));
      return;
    }
    // Several cards go on one by one, in an order the rules take; the first refusal stops the
    // rest.
    const kind = (myMelds(ctx, game)[index] || {}).kind;
    const prefer = kind === "sequence" ? ascending : wildFirst;
    sendCards(ctx, sel, (card) => ({ type: "AddToMeld", meld: index, card }), prefer);
  },
  onNewMeld(ctx) {
    const sel = [...ctx.selected];
    if (!sel.length) return;
    // black 3s, with wild cards as in any group (option black_three_wilds): one MeldBlackThrees,
    // its cards in the engine's order (3♣ 3♠, then 2♣ 2♦ 2♥ 2♠ Jk)
    const parsed = sel.map(parseCard);
    const black3 = parsed.some(isBlackThree) && parsed.every((p) => isBlackThree(p) || (p && (p.joker || p.rank === 2)));
    if (black3) sendAll(ctx, { type: "MeldBlackThrees", cards: blackThreeOrder(sel) });
    else if (meldShape([...(ctx.view.pending || []), ...sel], ctx.rules.wild_melds) || sel.length + (ctx.view.pending || []).length < 3) meldAll(ctx, sel);
    else ctx.showError(_("{cards} do not make one meld: three or more cards of one rank (wild cards allowed), or three to seven cards in a row of one suit.", { cards: sel.join(" ") }));
  },
  onPile(ctx, m) {
    const sel = [...ctx.selected];
    if (sel.length === 1) sendAll(ctx, { type: "Discard", card: sel[0] });
    else if (sel.length === 2) sendAll(ctx, { type: "TakePile", pair: sel });
    else if (sel.length) ctx.showError(_("Select one card to discard it, or the two natural cards to take the pile with."));
    else showPile(ctx, m);
  },
  label(ctx, l) {
    const a = l.action;
    switch (a.type) {
      case "Draw":
        return _("Draw from the stock");
      case "TakePile":
        return _("Take the pile with {cards}", { cards: a.pair.map(cardText).join(" ") });
      case "TakeTop":
        return _("Take the top card onto meld #{meld}", { meld: a.meld + 1 });
      case "Stage":
        return (ctx.view.pending || []).length ? _("Put {card} into the new meld", { card: cardText(a.card) }) : _("Start a meld with {cards}", { cards: cardText(a.card) });
      case "AddToMeld":
        return _("Add {cards} to meld #{meld}", { cards: cardText(a.card), meld: a.meld + 1 });
      case "MergeGroups":
        return _("Merge meld #{other} into meld #{meld}", { other: a.other + 1, meld: a.meld + 1 });
      case "LayRedThree":
        return _("Lay out {card}", { card: cardText(a.card) });
      case "MeldBlackThrees":
        return _("Meld black 3s {cards}", { cards: a.cards.map(cardText).join(" ") });
      case "UndoOpening":
        return _("Take back the opening");
      case "Unstage":
        return _("Take back the unfinished meld");
      case "AskGoOut":
        return _("Partner, may I go out?");
      case "AnswerGoOut":
        return a.yes ? _("Yes, go out") : _("No, don't go out");
      case "Discard":
        return _("Discard {card}", { card: cardText(a.card) });
      case "Pass":
        return _("Pass (keep the last card)");
      default:
        return ctx.say(l.text);
    }
  },
  prompts(ctx, m) {
    const out = [];
    if (ctx.spectator || ctx.seat == null) return out; // a seat's prompts are for that seat alone
    const opening = openingPrompt(ctx, m);
    if (opening) out.push(opening);
    if (legalOf(ctx, "AnswerGoOut").length) {
      out.push(h("div.prompt#go-out-prompt", h("b", _("Your partner asks: “Partner, may I go out?”")), " ", _("Your answer binds them.")));
    } else if (ctx.view.asked && ctx.view.permission && ctx.view.to_act === ctx.seat) {
      out.push(h("div.prompt#go-out-answer", ctx.view.permission === "yes" ? _("Your partner said yes: you must go out now.") : _("Your partner said no: keep a card (pass).")));
    }
    return out;
  },
};

export function render(ctx, felt, dock) {
  renderTable(ctx, felt, dock, game);
}

function isBlackThree(p) {
  return !!p && p.rank === 3 && (p.suit === "♣" || p.suit === "♠");
}

/** The cards of a group of black 3s in the engine's order: black 3s (3♣ before 3♠), then the
 * wild cards by kind (2♣ 2♦ 2♥ 2♠ Jk). */
function blackThreeOrder(cards) {
  const key = (t) => {
    const p = parseCard(t);
    if (!p) return 999;
    const kind = p.joker ? 52 : "♣♦♥♠".indexOf(p.suit) * 13 + p.rank - 2;
    return isBlackThree(p) ? kind : 100 + kind;
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** Card points (docs/games/samba.md): joker 50, 2 and A 20, K…8 10, 7…4 5, black 3 5. */
export function cardPoints(card) {
  const c = parseCard(card);
  if (!c) return 0;
  if (c.joker) return 50;
  if (c.rank === 2 || c.rank === 14) return 20;
  if (c.rank >= 8) return 10;
  return 5;
}

export const VALUES_TEXT = _("Card values: joker 50, A and 2 = 20, K to 8 = 10, 7 to 4 = 5");

/** While the side has not opened: how far this turn's melds are ("melded 45 of 50", each meld
 * and the meld being built with its points), what a take-back does, and — before drawing — what
 * taking the pile needs. Only for the seat to act. */
function openingPrompt(ctx, m) {
  const v = ctx.view;
  const side = (v.sides || []).find((s) => (s.seats || []).includes(ctx.seat));
  if (!side || side.opened || v.to_act !== ctx.seat || !ctx.legal || !ctx.legal.length) return null;
  const need = side.opening_minimum;
  const top = m.pileTop ? parseCard(m.pileTop) : null;
  if (m.phase === "draw") {
    const rank = top && !isWild(top) && top.rank !== 3 ? rankLetter(top.text.replace(/[♣♦♥♠]/u, "")) : null;
    const pile = rank
      ? _("To take the pile you need two natural cards of rank {rank} from your hand, and melds reaching {points} with them.", { rank, points: need })
      : _("The pile cannot be taken now (its top card is a wild card or a 3, or it is empty).");
    return h("div.prompt#opening-prompt", h("b", _("Your side has not opened: your first melds must reach {points} points.", { points: need })), " ", pile, h("small.values", ` ${VALUES_TEXT}.`));
  }
  const melds = side.melds || [];
  const pending = v.pending || [];
  const melded = melds.reduce((n, x) => n + (x.value || 0), 0);
  const building = pending.reduce((n, c) => n + cardPoints(c), 0);
  const parts = melds.map((x, i) => `#${i + 1} ${x.cards.join(" ")} = ${x.value}`);
  if (pending.length) parts.push(_("being built {cards} = {points}", { cards: pending.join(" "), points: building }));
  const canUndo = legalOf(ctx, "UndoOpening").length > 0;
  const canUnstage = legalOf(ctx, "Unstage").length > 0;
  const takeBack = [
    canUnstage ? _("“Take back the unfinished meld” returns the cards being built to your hand.") : "",
    canUndo ? _("“Take back the opening” returns this turn's melds to your hand (a card from the pile goes back onto it) and you draw instead.") : "",
  ]
    .filter(Boolean)
    .join(" ");
  return h(
    "div.prompt#opening-prompt",
    { dataset: { melded: String(melded), need: String(need) } },
    m.phase === "pile_open" ? _("You took the pile for your side's first meld; the rest of it joins your hand when the minimum is met.") + " " : null,
    h("b#opening-count", _("Opening: melded {melded} of {points}", { melded, points: need })),
    parts.length ? ` (${parts.join("; ")})` : "",
    ". ",
    melded >= need ? "" : _("Meld {points} more points to open.", { points: need - melded }) + " ",
    takeBack ? h("span#takeback-note", takeBack + " " + _("A take-back can be made once from each position.") + " ") : null,
    h("small.values", VALUES_TEXT + "."),
  );
}

function rankWord(rank) {
  return { 11: "jacks", 12: "queens", 13: "kings", 14: "aces" }[rank];
}

/** Above the score sheet: each side's score and opening minimum for the hand in play. */
export function scoreExtra(ctx) {
  if (!ctx.view || !canRender(ctx.view)) return null;
  const sides = ctx.view.sides;
  return h(
    "div#opening-minimums",
    h("h3", _("Hand {hand}: opening minimums", { hand: (ctx.view.hand_number ?? 0) + 1 })),
    h(
      "ul",
      sides.map((s) =>
        h("li", { dataset: { side: String(s.side) } }, s.opened ? _("{players}: score {score} — needs {points} to open (opened this hand)", { players: s.seats.map((x) => ctx.name(x)).join(" & "), score: fmt(s.score), points: s.opening_minimum }) : _("{players}: score {score} — needs {points} to open", { players: s.seats.map((x) => ctx.name(x)).join(" & "), score: fmt(s.score), points: s.opening_minimum })),
      ),
    ),
  );
}
