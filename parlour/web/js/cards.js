// Playing cards drawn as SVG by our own code: faces, backs, and the helpers the tables use to
// sort and group hands. Cards travel as the strings people write ("10♥", "Q♠", "Jk").

import { _, pgettext, rankLetter } from "./i18n.js";

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

/** A card as the reader's language writes it ("Q♠" is "V♠" in Dutch, "D♠" in German): for
 * display only — the card's identity (sent to the server) stays parseCard(text).text. */
export function cardText(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.joker) return pgettext("card: joker", "Jk");
  return rankLetter(rankLabel(c.rank)) + c.suit;
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

// Pip layouts on a 60×84 card, inside the band x 19…41 between the two corner indices (top left,
// and bottom right turned round), so that no pip ever covers an index.
const L = 23.5;
const M = 30;
const R = 36.5;
const PIPS = {
  2: [[M, 20], [M, 64, 1]],
  3: [[M, 20], [M, 42], [M, 64, 1]],
  4: [[L, 20], [R, 20], [L, 64, 1], [R, 64, 1]],
  5: [[L, 20], [R, 20], [M, 42], [L, 64, 1], [R, 64, 1]],
  6: [[L, 20], [R, 20], [L, 42], [R, 42], [L, 64, 1], [R, 64, 1]],
  7: [[L, 20], [R, 20], [M, 31], [L, 42], [R, 42], [L, 64, 1], [R, 64, 1]],
  8: [[L, 20], [R, 20], [M, 31], [L, 42], [R, 42], [M, 53, 1], [L, 64, 1], [R, 64, 1]],
  9: [[L, 18], [R, 18], [L, 33], [R, 33], [M, 42], [L, 51, 1], [R, 51, 1], [L, 66, 1], [R, 66, 1]],
  10: [[L, 18], [R, 18], [M, 26], [L, 33], [R, 33], [L, 51, 1], [R, 51, 1], [M, 58, 1], [L, 66, 1], [R, 66, 1]],
};

// Court figures drawn over the framed panel: a king's crown, a queen's coronet, a jack's cap.
const FIGURES = {
  11: "M22 30 Q30 17 38 30 Z M36 25 L42 14 L38 27 Z",
  12: "M22 30 L24 20 L27.5 26 L30 17 L32.5 26 L36 20 L38 30 Z",
  13: "M21 30 L21 17 L25.5 24 L30 14 L34.5 24 L39 17 L39 30 Z",
};

/** The corner index (rank over suit) at the top left, and the same turned round at the bottom
 * right, as printed cards have. */
function corners(svg, label) {
  const wide = label.length > 1;
  for (const flip of [false, true]) {
    const g = el("g", flip ? { class: "corner", transform: "rotate(180 30 42)" } : { class: "corner" });
    g.append(
      el("text", { x: 9, y: 18, class: `idx${wide ? " idx-10" : ""}`, "text-anchor": "middle" }, label),
      el("text", { x: 9, y: 31, class: "idx-suit", "text-anchor": "middle" }, svg.dataset.suit),
    );
    svg.append(g);
  }
}

/**
 * An <svg> card face for `text` ("10♥"), or a back when `text` is null/"?".
 * The corner index (rank over suit) is large so overlapped cards stay readable.
 */
export function cardSvg(text, { back = false } = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg", role: "img" });
  const c = back || text == null ? null : parseCard(text);
  if (!c) {
    svg.setAttribute("aria-label", _("card back"));
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
    for (const flip of [false, true]) {
      const g = el("g", flip ? { class: "corner", transform: "rotate(180 30 42)" } : { class: "corner" });
      g.append(el("text", { x: 8, y: 16, class: "idx joker-idx", "text-anchor": "middle" }, "J"), el("text", { x: 8, y: 28, class: "idx joker-idx", "text-anchor": "middle" }, "K"));
      svg.append(g);
    }
    svg.append(el("path", { d: star(30, 36, 13, 5.5), class: "joker-star" }));
    svg.append(el("text", { x: 30, y: 62, class: "joker-word", "text-anchor": "middle" }, "JOKER"));
    return svg;
  }
  const label = rankLetter(rankLabel(c.rank));
  svg.dataset.suit = c.suit;
  corners(svg, label);
  if (c.rank >= 11 && c.rank <= 13) {
    // Court cards: a framed panel between the indices with the figure's headwear, a big letter
    // and the suit — a king, a queen and a jack are told apart at a glance.
    svg.append(el("rect", { x: 18, y: 8, width: 24, height: 68, rx: 3, class: "court-frame" }));
    svg.append(el("path", { d: FIGURES[c.rank], class: `court-figure court-${rankLabel(c.rank)}` }));
    svg.append(el("text", { x: 30, y: 52, class: "court-letter", "text-anchor": "middle" }, label));
    svg.append(el("text", { x: 30, y: 70, class: "court-suit", "text-anchor": "middle" }, c.suit));
  } else if (c.rank === 14) {
    svg.append(el("text", { x: 30, y: 54, class: "ace-pip", "text-anchor": "middle" }, c.suit));
  } else {
    for (const [x, y, flip] of PIPS[c.rank]) {
      const t = el("text", { x, y: y + 4.5, class: "pip", "text-anchor": "middle" }, c.suit);
      if (flip) t.setAttribute("transform", `rotate(180 ${x} ${y})`);
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
  if (opts.mini && text != null) return miniCard(text);
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

/** A card as a small readable chip ("K♥" in its colour on white) where a drawn face would be too
 * small to read: cards known to be in another player's hand. */
export function miniCard(text) {
  const c = parseCard(text);
  const span = document.createElement("span");
  span.className = `card mini ${c && c.joker ? "joker" : isRed(c) ? "red" : "black"}`;
  span.dataset.card = c ? c.text : String(text);
  span.title = cardName(text);
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(text));
  span.textContent = c ? c.text : String(text);
  return span;
}

const RANK_WORD = () => ({ 11: _("jack"), 12: _("queen"), 13: _("king"), 14: _("ace") });
const SUIT_WORD = () => ({ "♣": pgettext("suit", "clubs"), "♦": pgettext("suit", "diamonds"), "♥": pgettext("suit", "hearts"), "♠": pgettext("suit", "spades") });
export function cardName(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.joker) return _("joker");
  return _("{rank} of {suit}", { rank: RANK_WORD()[c.rank] ?? c.rank, suit: SUIT_WORD()[c.suit] });
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
