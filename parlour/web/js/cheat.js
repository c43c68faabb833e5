// The Cheat / I Doubt It / Bullshit table: hand sizes, the face-down pile, the claims as they were
// heard, challenge results with the exposed cards; pick cards by clicking them, then claim.
import { backsEl, cardEl, rankLabel } from "./cards.js";
import { h } from "./dom.js";
import { actionButtons, playersRow, sortCards } from "./generic.js";

export function canRender(view) {
  return Array.isArray(view.hand_sizes) && "claims" in view;
}

export function render(ctx, felt) {
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
        last ? h("p", h("b", `${ctx.name(last.seat)} claimed ${last.count} × ${rankLabel(last.rank)}`)) : h("p", "No claim yet."),
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
        h("b", `${ch.challengers.map((s) => ctx.name(s)).join(", ")} challenged ${ctx.name(ch.player)}'s ${ch.count} × ${rankLabel(ch.rank)}: ${ch.truthful ? "it was true" : "a cheat!"}`),
        " ",
        (ch.cards || []).map((c) => cardEl(c, { small: true })),
        ` — pile to ${ch.takers.map((s) => ctx.name(s)).join(", ")}`,
      ),
    );
  }
  if (!ctx.spectator) {
    const picks = (ctx.legal || []).filter((l) => l.action.type === "Pick");
    const cards = sortCards(v.hand || []).map((c) => {
      const pick = picks.find((l) => l.action.card === c);
      const el = cardEl(c, { onClick: () => ctx.send(pick ? pick.action : { type: "Pick", card: c }) });
      if (pick) el.classList.add("hint");
      return el;
    });
    const sel = v.selection || [];
    felt.append(
      h(
        "div.hand-area#hand-area",
        sel.length ? h("div", h("h3", "Your play (face down)"), h("div.hand", h("div.hand-group", sel.map((c) => cardEl(c, { selected: true }))))) : null,
        h("h3", `Your hand (${(v.hand || []).length}) — click cards to put them in your play, then claim`),
        h("div.hand#hand", h("div.hand-group.loose", cards)),
      ),
    );
  }
  felt.append(actionButtons(ctx, { filter: (a) => a.type !== "Pick" }));
}
