// The Cheat / I Doubt It / Bullshit table: hand sizes, the face-down pile, the claims as they were
// heard, challenge results with the exposed cards. The play is chosen in this browser: click cards
// to select them (click again to take one back), then a Claim button; only then are the picks
// sent, in the order the engine takes them, followed by the claim.
import { backsEl, cardEl, parseCard, rankLabel, SUITS } from "./cards.js";
import { h } from "./dom.js";
import { _, ngettext, rankLetter } from "./i18n.js";

/** A rank as the reader's language writes it (the Dutch vrouw is V). */
const rankText = (rank) => rankLetter(rankLabel(rank));
import { actionButtons, handCards, playersRow, sortCards } from "./generic.js";

export function canRender(view) {
  return Array.isArray(view.hand_sizes) && "claims" in view;
}

/** The engine's card order for picks (docs/games/cheat.md: 2♣ 3♣ … A♣ 2♦ … A♠, then jokers). */
function pickKey(card) {
  const c = parseCard(card);
  return !c ? 99 : c.joker ? 52 : SUITS.indexOf(c.suit) * 13 + c.rank - 2;
}

export function pickOrder(cards) {
  return [...cards].sort((a, b) => pickKey(a) - pickKey(b));
}

/** The counts a claim may name for `picked` cards put down (docs/games/cheat.md, Claim): exactly
 * that many; with overplay also fewer; with overclaim also more, up to the cards of one rank in
 * the shoe, the hand as counted and max_cards. The engine checks the claim again. */
function claimCounts(ctx, picked) {
  const r = ctx.rules || {};
  const lo = r.overplay ? 1 : picked;
  let hi = picked;
  if (r.overclaim) {
    let cap = Math.min(4 * (r.decks || 1) + (r.jokers || 0), (ctx.view.hand_sizes || [])[ctx.seat] ?? picked);
    if (r.max_cards != null) cap = Math.min(cap, r.max_cards);
    hi = Math.max(picked, cap);
  }
  return [lo, hi];
}

/** Put the selected cards down and claim: the picks (in the engine's order), then the claim. A
 * refusal gives back the selection of the cards not put down yet. */
function claim(ctx, count, rank) {
  const picks = pickOrder(ctx.selected);
  ctx.sendAll([...picks.map((card) => ({ type: "Pick", card })), { type: "Claim", count, rank }], {
    onRefuse: () => {
      const down = [...(ctx.view.selection || [])];
      ctx.selected = picks.filter((c) => {
        const i = down.indexOf(c);
        if (i >= 0) down.splice(i, 1);
        return i < 0;
      });
    },
  });
}

/** The claim controls for the selection: how many to say (when the rules let the count differ
 * from the cards put down) and one Claim button per rank that may be named. */
function claimButtons(ctx) {
  const v = ctx.view;
  const already = (v.selection || []).length; // picks sent earlier (another tab, a refused claim)
  const picked = already + ctx.selected.length;
  if (!ctx.selected.length || v.phase !== "play" || v.to_act !== ctx.seat) return [];
  const most = (ctx.rules || {}).max_cards;
  if (most != null && picked > most) return [h("span.hint-text", _("A play is at most {most} cards: take {extra} back.", { most, extra: picked - most }))];
  const [lo, hi] = claimCounts(ctx, picked);
  if (!(ctx.claimSay >= lo && ctx.claimSay <= hi) || ctx.claimFor !== picked) {
    ctx.claimSay = picked;
    ctx.claimFor = picked;
  }
  const out = [];
  if (hi > lo) {
    const say = h("select#claim-count", { "aria-label": _("how many cards to claim") });
    for (let n = lo; n <= hi; n++) say.append(h("option", { value: String(n), selected: n === ctx.claimSay }, String(n)));
    say.addEventListener("change", () => {
      ctx.claimSay = Number(say.value);
      ctx.rerender();
    });
    out.push(h("label.claim-say", _("Say"), " ", say));
  }
  for (const rank of v.allowed_ranks || []) {
    const b = h("button.btn.action.primary.claim", { type: "button", dataset: { type: "Claim", rank: String(rank) } }, _("Claim {count} × {rank}", { count: ctx.claimSay, rank: rankText(rank) }));
    b.addEventListener("click", () => claim(ctx, ctx.claimSay, rank));
    out.push(b);
  }
  return out;
}

/** A move's button, in the reader's words. */
function moveLabel(ctx, l) {
  const a = l.action;
  if (a.type === "Challenge") return _("Cheat! (challenge)");
  if (a.type === "Pass") return _("Let it stand");
  if (a.type === "Claim") return _("Claim {count} × {rank}", { count: a.count, rank: rankText(a.rank) });
  if (a.type === "ChooseFirst") return a.seat === ctx.seat && !ctx.spectator ? _("You play first") : _("{player} plays first", { player: ctx.name(a.seat) });
  return ctx.say(l.text);
}

/** "You claimed 2 × 7", "West claimed 2 × 7". */
function claimed(ctx, last) {
  const values = { count: last.count, rank: rankText(last.rank), player: ctx.who(last.seat) };
  return last.seat === ctx.seat && !ctx.spectator ? _("You claimed {count} × {rank}", values) : _("{player} claimed {count} × {rank}", values);
}

/** "West challenged your 2 × 7: a cheat!" */
function challenged(ctx, ch) {
  const values = {
    challengers: ch.challengers.map((s) => ctx.who(s)).join(", "),
    player: ctx.whom(ch.player),
    count: ch.count,
    rank: rankText(ch.rank),
  };
  const mine = ch.player === ctx.seat && !ctx.spectator;
  if (!ctx.spectator && ch.challengers.length === 1 && ch.challengers[0] === ctx.seat) {
    return ch.truthful ? _("You challenged {player}'s {count} × {rank}: it was true", values) : _("You challenged {player}'s {count} × {rank}: a cheat!", values);
  }
  if (ch.truthful) return mine ? _("{challengers} challenged your {count} × {rank}: it was true", values) : _("{challengers} challenged {player}'s {count} × {rank}: it was true", values);
  return mine ? _("{challengers} challenged your {count} × {rank}: a cheat!", values) : _("{challengers} challenged {player}'s {count} × {rank}: a cheat!", values);
}

export function render(ctx, felt, dock) {
  const v = ctx.view;
  felt.append(
    playersRow(ctx, (s) => {
      const box = h("span.pmeta");
      if ((v.out || []).includes(s)) box.append(h("b", _("out (#{place})", { place: v.out.indexOf(s) + 1 })));
      return box.childNodes.length ? box : null;
    }),
  );
  const claims = v.claims || [];
  const last = claims[claims.length - 1];
  const allowed = (v.allowed_ranks || []).map(rankText).join(" ");
  felt.append(
    h(
      "div.center",
      h("div.pile-box#pile", h("span.lbl", _("Pile (face down)")), v.pile_size ? backsEl(Math.min(v.pile_size, 4), { max: 4, label: String(v.pile_size) }) : h("div.empty-slot")),
      h(
        "div.generic",
        last ? h("p", h("b", claimed(ctx, last))) : h("p", _("No claim yet.")),
        allowed ? h("p", _("Next claim: {ranks}", { ranks: allowed })) : null,
        v.my_decision ? h("p", _("Your answer: {answer}", { answer: v.my_decision })) : null,
      ),
    ),
  );
  const ch = (v.challenges || []).slice(-1)[0];
  if (ch) {
    felt.append(
      h(
        "div.generic#last-challenge",
        h("b", challenged(ctx, ch)),
        " ",
        (ch.cards || []).map((c) => cardEl(c, { small: true })),
        " — ",
        _("pile to {players}", { players: ch.takers.map((s) => ctx.whom(s)).join(", ") }),
      ),
    );
  }
  // Picks are chosen here and sent with the claim, so the buttons leave them out.
  dock.append(actionButtons(ctx, { filter: (a) => a.type !== "Pick", extra: claimButtons(ctx), label: (l) => moveLabel(ctx, l) }));
  if (ctx.spectator) return;
  const playing = v.phase === "play" && v.to_act === ctx.seat;
  const cards = handCards(ctx, sortCards(v.hand || []));
  const must = v.must_include;
  if (playing && must) for (const el of cards) if (el.dataset.card === must) el.classList.add("hint");
  const down = v.selection || [];
  const sel = ctx.selected;
  const how = !playing
    ? ""
    : sel.length
      ? " — " + ngettext("{count} card selected for your play (click it again to take it back), then claim", "{count} cards selected for your play (click a card again to take it back), then claim", sel.length)
      : " — " + (must ? _("click cards to select your play (it must include the {card}), then claim", { card: must }) : _("click cards to select your play, then claim"));
  dock.append(
    h(
      "div.hand-area#hand-area",
      down.length ? h("div#play-down", h("h3", _("Already put down for this play (face down)")), h("div.hand", h("div.hand-group", down.map((c) => cardEl(c, { selected: true }))))) : null,
      h("h3", _("Your hand ({count})", { count: (v.hand || []).length }), h("span.note", how)),
      h("div.hand#hand", h("div.hand-group.loose", cards)),
    ),
  );
}
