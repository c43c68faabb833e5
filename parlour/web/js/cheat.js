// The Cheat / I Doubt It / Bullshit table: hand sizes, the face-down pile, the claims as they were
// heard, challenge results with the exposed cards. The play is chosen in this browser: click cards
// to select them (click again to take one back), then a Claim button; only then are the picks
// sent, in the order the engine takes them, followed by the claim.
import { backsEl, cardEl, parseCard, rankLabel, SUITS } from "./cards.js";
import { h } from "./dom.js";
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
  if (most != null && picked > most) return [h("span.hint-text", `A play is at most ${most} cards: take ${picked - most} back.`)];
  const [lo, hi] = claimCounts(ctx, picked);
  if (!(ctx.claimSay >= lo && ctx.claimSay <= hi) || ctx.claimFor !== picked) {
    ctx.claimSay = picked;
    ctx.claimFor = picked;
  }
  const out = [];
  if (hi > lo) {
    const say = h("select#claim-count", { "aria-label": "how many cards to claim" });
    for (let n = lo; n <= hi; n++) say.append(h("option", { value: String(n), selected: n === ctx.claimSay }, String(n)));
    say.addEventListener("change", () => {
      ctx.claimSay = Number(say.value);
      ctx.rerender();
    });
    out.push(h("label.claim-say", "Say ", say));
  }
  for (const rank of v.allowed_ranks || []) {
    const b = h("button.btn.action.primary.claim", { type: "button", dataset: { type: "Claim", rank: String(rank) } }, `Claim ${ctx.claimSay} × ${rankLabel(rank)}`);
    b.addEventListener("click", () => claim(ctx, ctx.claimSay, rank));
    out.push(b);
  }
  return out;
}

export function render(ctx, felt, dock) {
  const v = ctx.view;
  felt.append(
    playersRow(ctx, (s) => {
      const box = h("span.pmeta");
      if ((v.out || []).includes(s)) box.append(h("b", `out (#${v.out.indexOf(s) + 1})`));
      return box.childNodes.length ? box : null;
    }),
  );
  const claims = v.claims || [];
  const last = claims[claims.length - 1];
  const allowed = (v.allowed_ranks || []).map(rankLabel).join(" ");
  felt.append(
    h(
      "div.center",
      h("div.pile-box#pile", h("span.lbl", "Pile (face down)"), v.pile_size ? backsEl(Math.min(v.pile_size, 4), { max: 4, label: String(v.pile_size) }) : h("div.empty-slot")),
      h(
        "div.generic",
        last ? h("p", h("b", ctx.say(`seat ${last.seat} claimed ${last.count} × ${rankLabel(last.rank)}`))) : h("p", "No claim yet."),
        allowed ? h("p", `Next claim: ${allowed}`) : null,
        v.my_decision ? h("p", `Your answer: ${v.my_decision}`) : null,
      ),
    ),
  );
  const ch = (v.challenges || []).slice(-1)[0];
  if (ch) {
    felt.append(
      h(
        "div.generic#last-challenge",
        h("b", ctx.say(`${ch.challengers.map((s) => `seat ${s}`).join(", ")} challenged seat ${ch.player}'s ${ch.count} × ${rankLabel(ch.rank)}: ${ch.truthful ? "it was true" : "a cheat!"}`)),
        " ",
        (ch.cards || []).map((c) => cardEl(c, { small: true })),
        ctx.say(` — pile to ${ch.takers.map((s) => `seat ${s}`).join(", ")}`),
      ),
    );
  }
  // Picks are chosen here and sent with the claim, so the buttons leave them out.
  dock.append(actionButtons(ctx, { filter: (a) => a.type !== "Pick", extra: claimButtons(ctx) }));
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
      ? ` — ${sel.length} selected for your play (click a card again to take it back), then claim`
      : ` — click cards to select your play${must ? ` (it must include the ${must})` : ""}, then claim`;
  dock.append(
    h(
      "div.hand-area#hand-area",
      down.length ? h("div#play-down", h("h3", "Already put down for this play (face down)"), h("div.hand", h("div.hand-group", down.map((c) => cardEl(c, { selected: true }))))) : null,
      h("h3", `Your hand (${(v.hand || []).length})`, h("span.note", how)),
      h("div.hand#hand", h("div.hand-group.loose", cards)),
    ),
  );
}
