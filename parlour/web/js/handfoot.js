// The Samba Hand and Foot table on the Canasta-family base (docs/games/handfoot.md): feet, the
// round's meld requirement, books squared when complete (samba, 7s, wilds, clean, dirty), what each
// side still needs to go out; clicks become Draw, TakePile, Meld (3 cards), AddToMeld, Discard,
// Retract. Cards no rule tells apart (2s, 4–7, black 3s) are sent as the lowest suit held, as the
// engine lists them.
import { cardText, parseCard } from "./cards.js";
import { fmt, h } from "./dom.js";
import { _, pgettext } from "./i18n.js";
import { isWild, renderTable, sendAll, showPile, sideIndex } from "./canasta.js";

const CANON_ORDER = "♣♦♥♠";

export function canRender(view) {
  return Array.isArray(view.players) && Array.isArray(view.sides) && "round" in view;
}

function classOf(card) {
  const c = parseCard(card);
  if (!c || c.joker) return card;
  if (c.rank === 2 || (c.rank >= 4 && c.rank <= 7)) return `r${c.rank}`;
  if (c.rank === 3 && (c.suit === "♣" || c.suit === "♠")) return "b3";
  return card;
}

/** The cards the engine lists for this selection: interchangeable cards as the lowest suits held. */
export function canonical(selected, hand) {
  const used = new Map();
  return selected.map((card) => {
    const cls = classOf(card);
    if (cls === card) return card;
    const pool = hand.filter((x) => classOf(x) === cls).sort((a, b) => CANON_ORDER.indexOf(parseCard(a).suit) - CANON_ORDER.indexOf(parseCard(b).suit));
    const n = used.get(cls) || 0;
    used.set(cls, n + 1);
    return pool[n] ?? card;
  });
}

export function model(view) {
  const players = view.players || [];
  const sides = view.sides || [];
  return {
    hand: view.hand || [],
    handNote: view.provisional ? "— " + _("melded {value} of {points} this turn (provisional)", { value: view.turn_value, points: view.opening_minimum }) : "",
    sizes: players.map((p) => p.hand_size),
    known: players.map((p) => p.known || []),
    sideOf: players.map((p) => p.side),
    sides: sides.map((s) => s.seats || []),
    melds: sides.map((s) => s.melds || []),
    red3: sides.map((s) => s.red_threes || []),
    raw: sides,
    players,
    pile: view.pile || [],
    pileTop: view.pile_top || null,
    pileSize: view.pile_size ?? (view.pile || []).length,
    stock: view.stock_size ?? 0,
    pending: view.pending || [],
    // seed 004: taken "without looking" and kept face down (faces only with the house rule)
    pendingSize: view.pending_size ?? (view.pending || []).length,
    pendingLabel: (ctx) => pendingWords(ctx, view.to_act, (view.pending || []).length > 0),
    phase: view.phase || "",
  };
}

/** Whose cards from the pile wait beside the hand, and whether they lie face up. */
function pendingWords(ctx, seat, up) {
  if (seat == null) return up ? _("Pile cards, set aside face up: they join the hand after the discard") : _("Pile cards, set aside face down: they join the hand after the discard");
  if (!ctx.spectator && seat === ctx.seat) return up ? _("Your pile cards, set aside face up: they join the hand after the discard") : _("Your pile cards, set aside face down: they join the hand after the discard");
  const values = { player: ctx.name(seat) };
  return up ? _("{player}'s pile cards, set aside face up: they join the hand after the discard", values) : _("{player}'s pile cards, set aside face down: they join the hand after the discard", values);
}

const legalOf = (ctx, type) => (ctx.legal || []).filter((l) => l.action.type === type);

export const game = {
  model,
  blocks(top) {
    const c = parseCard(top);
    return !c || (c.rank === 3 && (c.suit === "♣" || c.suit === "♠"));
  },
  meldInfo(meld) {
    const tags = [];
    if (meld.samba) tags.push(h("span.tag.samba", pgettext("meld", "samba")));
    else if (meld.sevens && meld.complete) tags.push(h("span.tag.pure", _("book of 7s")));
    else if (meld.wilds && meld.complete) tags.push(h("span.tag.samba", _("wild book")));
    else if (meld.clean) tags.push(h("span.tag.pure", _("clean book")));
    else if (meld.dirty) tags.push(h("span.tag.mixed", _("dirty book")));
    tags.push(h("span.tag.count", `${meld.label || ""} · ${meld.cards.length}`));
    let top = meld.cards[meld.cards.length - 1];
    if (meld.dirty) top = meld.cards.find((c) => isWild(parseCard(c))) || top;
    return { tags, squared: !!meld.complete, top, kind: meld.kind };
  },
  sideFacts(ctx, m, i) {
    const s = m.raw[i];
    const facts = [_("board {points}", { points: fmt(s.board_points) }), s.opened ? _("down") : _("needs {points}", { points: ctx.view.opening_minimum })];
    const books = (s.books || []).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`);
    if (books.length) facts.push(_("books: {books}", { books: books.join(", ") }));
    facts.push(s.can_go_out ? _("may go out") : _("to go out: {missing}", { missing: (s.missing || []).join(", ") || "—" }));
    return facts;
  },
  playerFacts(ctx, m, seat) {
    const p = m.players[seat];
    if (!p) return [];
    const facts = [p.foot_taken ? _("foot picked up") : _("foot {count}", { count: p.foot_size })];
    if (p.down) facts.push(_("down"));
    if (p.cut === 30) facts.push(_("exact cut +100"));
    return facts;
  },
  /** Several selected cards that may all go onto one of the side's melds; four or more cards
   * that start with a legal meld of three: all of them laid in one move (see `layAll`). */
  selectionMoves(ctx, m) {
    const sel = canonical(ctx.selected, ctx.view.hand || []);
    if (sel.length < 2) return [];
    const adds = legalOf(ctx, "AddToMeld").map((l) => l.action);
    const melds = m.melds[sideIndex(m, ctx.seat)] || [];
    const moves = melds
      .map((_, i) => i)
      .filter((i) => sel.every((c) => adds.some((a) => a.meld === i && a.card === c)))
      .map((i) => ({ id: `add-all-${i}`, type: "AddToMeld", label: _("Add {cards} to meld #{meld}", { cards: ctx.selected.map(cardText).join(" "), meld: i + 1 }), run: () => game.onMeld(ctx, i) }));
    if (sel.length > 3 && firstMeld(ctx.legal, sel)) {
      moves.unshift({ id: "meld-new", type: "Meld", key: "M", label: _("Meld {cards}", { cards: ctx.selected.map(cardText).join(" ") }), run: () => game.onNewMeld(ctx) });
    }
    return moves;
  },
  isTarget(ctx, index) {
    const sel = canonical(ctx.selected, ctx.view.hand || []);
    return legalOf(ctx, "AddToMeld").some((l) => l.action.meld === index && sel.length === 1 && l.action.card === sel[0]);
  },
  onMeld(ctx, index) {
    const sel = ctx.selected;
    if (!sel.length) {
      ctx.showError(_("Select cards in your hand first, then click the meld to add them to it."));
      return;
    }
    if (sel.length === 2 && legalOf(ctx, "TakePile").length) {
      sendAll(ctx, { type: "TakePile", cards: canonical(sel, ctx.view.hand || []), meld: index });
      return;
    }
    const cards = canonical(sel, ctx.view.hand || []);
    sendAll(ctx, ...cards.map((card) => ({ type: "AddToMeld", meld: index, card })));
  },
  onNewMeld(ctx) {
    const cards = canonical(ctx.selected, ctx.view.hand || []);
    if (cards.length === 3) sendAll(ctx, { type: "Meld", cards });
    else if (cards.length > 3) layAll(ctx, ctx.selected);
    else ctx.showError(_("A new meld needs at least 3 cards."));
  },
  onPile(ctx, m) {
    const sel = canonical(ctx.selected, ctx.view.hand || []);
    if (sel.length === 1) sendAll(ctx, { type: "Discard", card: sel[0] });
    else if (sel.length === 2) sendAll(ctx, { type: "TakePile", cards: sel, meld: -1 });
    else if (sel.length) ctx.showError(_("Select one card to discard it, or the two cards to meld the top card with."));
    else showPile(ctx, m);
  },
  label(ctx, l) {
    const a = l.action;
    switch (a.type) {
      case "Draw":
        return _("Draw {count} from the stock", { count: ctx.rules.draw_count ?? 4 });
      case "TakePile":
        return a.meld >= 0 ? _("Take the pile: top card with {cards} onto meld #{meld}", { cards: a.cards.map(cardText).join(" "), meld: a.meld + 1 }) : _("Take the pile: top card with {cards}", { cards: a.cards.map(cardText).join(" ") });
      case "Meld":
        return _("Meld {cards}", { cards: a.cards.map(cardText).join(" ") });
      case "AddToMeld":
        return _("Add {cards} to meld #{meld}", { cards: cardText(a.card), meld: a.meld + 1 });
      case "Discard":
        return _("Discard {card}", { card: cardText(a.card) });
      case "Retract":
        return _("Take back this turn's melds");
      default:
        return ctx.say(l.text);
    }
  },
  prompts(ctx) {
    const v = ctx.view;
    if (ctx.spectator || ctx.seat == null || v.to_act !== ctx.seat) return [];
    const need = ctx.rules.pile_take ?? 8;
    const size = v.pile_size ?? (v.pile || []).length;
    if (v.phase === "draw" && ctx.legal && ctx.legal.length) {
      const can = legalOf(ctx, "TakePile").length > 0;
      return [h("div.prompt#pile-rule", can ? _("You may take the pile ({count} cards): select two cards that meld with its top card.", { count: size }) : _("{need} cards needed to take the pile; it has {count}. Draw from the stock.", { need, count: size }))];
    }
    if (!v.provisional) return [];
    return [h("div.prompt", _("Your melds this turn count {value} of the {points} needed (or play on your partner's meld). Meld more, or take them back.", { value: v.turn_value, points: v.opening_minimum }))];
  },
  centreExtras(ctx) {
    const v = ctx.view;
    const need = ctx.rules.pile_take ?? 8;
    return [h("div.pile-box", h("span.lbl", _("Round {round} of {rounds}", { round: v.round + 1, rounds: v.rounds })), h("span.lbl", _("meld requirement {points}", { points: v.opening_minimum })), h("span.lbl#pile-take-rule", _("{need} cards needed to take the pile", { need })))];
  },
};

export function render(ctx, felt, dock) {
  renderTable(ctx, felt, dock, game);
}


// --- several cards laid in one move -------------------------------------------------------------

const wild = (card) => isWild(parseCard(card));

/** Take `part` out of the multiset `cards` (a copy); null when `cards` does not hold it. */
function without(cards, part) {
  const left = [...cards];
  for (const c of part) {
    const i = left.indexOf(c);
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return left;
}

/** The legal `Meld` (three cards) best made of `cards`: the fewest wild cards, then the rank the
 * cards hold most of (so 4♣ 4♦ 4♥ 4♥ 4♠ 2♣ starts with three 4s, the rest added after). */
export function firstMeld(legal, cards) {
  const melds = (legal || []).map((l) => l.action).filter((a) => a.type === "Meld" && without(cards, a.cards));
  const same = (a) => cards.filter((c) => a.cards.some((x) => !wild(x) && parseCard(x).rank === parseCard(c).rank)).length;
  melds.sort((a, b) => a.cards.filter(wild).length - b.cards.filter(wild).length || same(b) - same(a));
  return melds[0] || null;
}

/**
 * Lay every selected card in one move, whatever the engine needs underneath: a new meld starts
 * with exactly three cards (`Meld`) and the others go on with `AddToMeld`. Each step is chosen
 * from the legal moves the last one led to: a card onto a meld started in this move (naturals
 * before wild cards), else a new legal meld of three of the cards left, else a card onto any of
 * the side's melds. The first refusal stops the rest and gives back the cards not laid.
 */
function layAll(ctx, selected) {
  let left = [...selected];
  const made = []; // indices of the melds started in this move
  let last = [];
  const step = (now) => {
    if (!left.length) return null;
    const hand = now.view.hand || [];
    const cards = canonical(left, hand);
    const legal = (now.legal || []).map((l) => l.action);
    const adds = legal.filter((a) => a.type === "AddToMeld");
    const naturalsFirst = [...cards.keys()].sort((i, j) => Number(wild(cards[i])) - Number(wild(cards[j])));
    const onto = (targets) => {
      for (const i of naturalsFirst) {
        const a = adds.find((x) => x.card === cards[i] && targets(x.meld));
        if (a) return { a, used: [left[i]] };
      }
      return null;
    };
    let pick = onto((meld) => made.includes(meld));
    if (!pick) {
      const meld = firstMeld(now.legal, cards);
      if (meld) {
        const mine = now.view.sides?.[now.view.players?.[now.seat]?.side]?.melds || [];
        made.push(mine.length); // a new meld goes at the end of the side's melds
        const used = [];
        const pool = [...cards];
        for (const c of meld.cards) {
          const k = pool.indexOf(c);
          pool[k] = null;
          used.push(left[k]);
        }
        pick = { a: meld, used };
      }
    }
    if (!pick) pick = onto(() => true);
    // nothing legal: send one card anyway, the server's refusal says why
    if (!pick) {
      // nothing legal: send the likeliest step anyway, the server's refusal says why (three cards
      // of one rank as a new meld, else a card onto the meld just started)
      const byRank = [...cards.keys()].sort((i, j) => cards.filter((c) => parseCard(c)?.rank === parseCard(cards[j])?.rank).length - cards.filter((c) => parseCard(c)?.rank === parseCard(cards[i])?.rank).length);
      if (cards.length >= 3 || !made.length) pick = { a: { type: "Meld", cards: byRank.slice(0, 3).map((i) => cards[i]) }, used: byRank.slice(0, 3).map((i) => left[i]) };
      else pick = { a: { type: "AddToMeld", meld: made[made.length - 1], card: cards[0] }, used: [left[0]] };
    }
    last = pick.used;
    left = without(left, pick.used) || [];
    return pick.a;
  };
  const onRefuse = () => (ctx.selected = [...last, ...left]);
  ctx.sendAll(selected.map(() => step), { onRefuse });
}
