// Playing cards drawn as SVG by our own code: faces, backs, and the helpers the tables use to
// sort and group hands. Cards travel as the strings people write ("10♥", "Q♠", "Jk").

const SVG_NS = "http://www.w3.org/2000/svg";
export const SUITS = "♣♦♥♠";
const ASCII_SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_VALUE = { J: 11, Q: 12, K: 13, A: 14, T: 10 };
const RANK_LABEL = { 11: "J", 12: "Q", 13: "K", 14: "A" };

/** Parse "10♥", "TH", "Q♠", "Jk" into {rank (2..14, 0 = joker), suit ("♣♦♥♠" or ""), text}. */
export function parseCard(text) {
  const t = String(text).trim();
  if (/^(jk|joker|🃏)$/i.test(t)) return { rank: 0, suit: "", text: "Jk", joker: true };
  let suit = t.slice(-1);
  if (ASCII_SUITS[suit.toUpperCase()]) suit = ASCII_SUITS[suit.toUpperCase()];
  if (!SUITS.includes(suit)) return null;
  const r = t.slice(0, -1).toUpperCase();
  const rank = RANK_VALUE[r] ?? Number.parseInt(r, 10);
  if (!(rank >= 2 && rank <= 14)) return null;
  return { rank, suit, text: rankLabel(rank) + suit, joker: false };
}

export function rankLabel(rank) {
  return rank === 0 ? "Jk" : (RANK_LABEL[rank] ?? String(rank));
}

export function isRed(card) {
  const c = typeof card === "string" ? parseCard(card) : card;
  return !!c && (c.suit === "♥" || c.suit === "♦");
}

/** Whether a string looks like a card, so generic views can draw cards wherever they appear. */
export function isCardText(value) {
  return typeof value === "string" && value.length <= 3 && parseCard(value) !== null;
}

/** Sort key: rank then suit (jokers last). */
export function cardKey(card) {
  const c = parseCard(card);
  if (!c) return 999;
  if (c.joker) return 900;
  return c.rank * 4 + SUITS.indexOf(c.suit);
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Pip layouts on a 60×84 card (centre column x=30, side columns x=19/41).
const PIPS = {
  2: [[30, 22], [30, 62, 1]],
  3: [[30, 22], [30, 42], [30, 62, 1]],
  4: [[20, 22], [40, 22], [20, 62, 1], [40, 62, 1]],
  5: [[20, 22], [40, 22], [30, 42], [20, 62, 1], [40, 62, 1]],
  6: [[20, 22], [40, 22], [20, 42], [40, 42], [20, 62, 1], [40, 62, 1]],
  7: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [20, 62, 1], [40, 62, 1]],
  8: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [30, 52, 1], [20, 62, 1], [40, 62, 1]],
  9: [[20, 20], [40, 20], [20, 34], [40, 34], [30, 42], [20, 50, 1], [40, 50, 1], [20, 64, 1], [40, 64, 1]],
  10: [[20, 20], [40, 20], [30, 28], [20, 34], [40, 34], [20, 50, 1], [40, 50, 1], [30, 56, 1], [20, 64, 1], [40, 64, 1]],
};

/**
 * An <svg> card face for `text` ("10♥"), or a back when `text` is null/"?".
 * The corner index (rank over suit) is large so overlapped cards stay readable.
 */
export function cardSvg(text, { back = false } = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img" });
  const c = back || text == null ? null : parseCard(text);
  if (!c) {
    svg.setAttribute("aria-label", "card back");
    svg.append(
      el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-edge back" }),
      el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, class: "back-inner" }),
    );
    for (let i = 0; i < 6; i++) {
      svg.append(el("path", { d: `M5 ${12 + i * 12} L55 ${5 + i * 12}`, class: "back-line" }));
    }
    svg.append(el("circle", { cx: 30, cy: 42, r: 9, class: "back-medal" }));
    return svg;
  }
  svg.setAttribute("aria-label", c.text);
  svg.dataset.card = c.text;
  const colour = c.joker ? "joker" : isRed(c) ? "red" : "black";
  svg.classList.add(colour);
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "card-edge" }));
  if (c.joker) {
    svg.append(el("text", { x: 5, y: 17, class: "idx joker-idx" }, "J"));
    svg.append(el("text", { x: 5, y: 29, class: "idx joker-idx" }, "K"));
    svg.append(el("path", { d: star(33, 46, 17, 7), class: "joker-star" }));
    svg.append(el("text", { x: 33, y: 76, class: "joker-word", "text-anchor": "middle" }, "JOKER"));
    return svg;
  }
  const label = rankLabel(c.rank);
  svg.append(
    el("text", { x: label.length > 1 ? 2.5 : 4.5, y: 18, class: `idx${label.length > 1 ? " idx-10" : ""}` }, label),
    el("text", { x: 4.5, y: 33, class: "idx-suit" }, c.suit),
  );
  if (c.rank >= 11 && c.rank <= 13) {
    // Court cards: a framed panel with a big letter and suit, readable at small sizes.
    svg.append(el("rect", { x: 19, y: 12, width: 36, height: 62, rx: 3, class: "court-frame" }));
    svg.append(el("text", { x: 37, y: 46, class: "court-letter", "text-anchor": "middle" }, label));
    svg.append(el("text", { x: 37, y: 66, class: "court-suit", "text-anchor": "middle" }, c.suit));
  } else if (c.rank === 14) {
    svg.append(el("text", { x: 35, y: 56, class: "ace-pip", "text-anchor": "middle" }, c.suit));
  } else {
    for (const [x, y, flip] of PIPS[c.rank]) {
      const px = x + 4; // shift right of the corner index
      const t = el("text", { x: px, y: y + 5, class: "pip", "text-anchor": "middle" }, c.suit);
      if (flip) t.setAttribute("transform", `rotate(180 ${px} ${y + 1.5})`);
      svg.append(t);
    }
  }
  return svg;
}

function star(cx, cy, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join(" L")} Z`;
}

/** A card element (div wrapping the SVG) with data-card; `opts.selected`, `opts.onClick`; a card
 * that can be selected (`opts.pressable`) says so to screen readers with aria-pressed. */
export function cardEl(text, opts = {}) {
  const div = document.createElement(opts.onClick ? "button" : "div");
  div.className = `card${opts.small ? " small" : ""}${opts.selected ? " selected" : ""}`;
  if (opts.onClick) {
    div.type = "button";
    div.addEventListener("click", opts.onClick);
    if (opts.pressable) div.setAttribute("aria-pressed", String(!!opts.selected));
  }
  if (text != null && !opts.back) {
    div.dataset.card = parseCard(text)?.text ?? String(text);
    div.title = cardName(text);
  }
  // The picture names the card ("king of diamonds"), so a card button's name is what it shows.
  const svg = cardSvg(text, { back: !!opts.back });
  if (text != null && !opts.back) svg.setAttribute("aria-label", cardName(text));
  div.append(svg);
  return div;
}

const RANK_WORD = { 11: "jack", 12: "queen", 13: "king", 14: "ace" };
const SUIT_WORD = { "♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades" };
export function cardName(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.joker) return "joker";
  return `${RANK_WORD[c.rank] ?? c.rank} of ${SUIT_WORD[c.suit]}`;
}

/** A row of face-down cards with a count, for other players' hands and the stock. */
export function backsEl(count, { max = 5, label } = {}) {
  const wrap = document.createElement("div");
  wrap.className = "backs";
  for (let i = 0; i < Math.min(count, max); i++) wrap.append(cardEl(null, { back: true, small: true }));
  const n = document.createElement("span");
  n.className = "count";
  n.textContent = label ?? String(count);
  wrap.append(n);
  return wrap;
}
