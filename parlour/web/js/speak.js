// Words, not internals: what the engines and the server say ("seat 1 discards 6♦", "South: discard
// 6♦", "takes 1 more cards", "(went_out)") put the way a person at the table says it, from where
// the reader sits: "You discard 6♦", "Your partner takes 1 more card", "North challenges you".
// Spectators get every seat by its name. Option names and values are put in words too.

const COMPASS = ["South", "West", "North", "East"];

/** Third-person verb → the form after "you" ("discards" → "discard", "has" → "have"). */
const IRREGULAR = { has: "have", is: "are", does: "do", goes: "go", was: "were" };
export function secondPerson(verb) {
  const low = verb.toLowerCase();
  if (low in IRREGULAR) return IRREGULAR[low];
  if (/(ss|sh|ch|x|z)es$/.test(low)) return low.slice(0, -2);
  if (/[^s]s$/.test(low)) return low.slice(0, -1);
  return low;
}

/** A bare verb → third person ("discard" → "discards", "pass" → "passes"). */
export function thirdPerson(verb) {
  const low = verb.toLowerCase();
  if (low === "have") return "has";
  if (low === "go") return "goes";
  if (/(s|sh|ch|x|z)$/.test(low)) return `${low}es`;
  return `${low}s`;
}

const NOUNS = /^(cards|points|kings|queens|jacks|aces|books|melds|sambas|canastas|threes|jokers|wilds|sevens|pennies|lives|runs|twos)$/;
const NOT_VERBS = new Set(["always", "this", "its", "his", "as", "us", "yes", "cards", "points"]);
const CAP = (t) => (t ? t.charAt(0).toUpperCase() + t.slice(1) : t);

/**
 * Who a seat is for this reader: {subject, object, possessive, side} — "you"/"you"/"your",
 * "your partner"/"your partner"/"your partner's", or the seat's name.
 * `me`: the reader's seat (null: watching); `partnerOf(seat)`: the seats on one side.
 */
export function person(seat, { me, partners = [], name }) {
  if (me != null && seat === me) return { subject: "you", object: "you", possessive: "your", you: true };
  if (me != null && partners.includes(seat) && partners.length === 1) {
    return { subject: "your partner", object: "your partner", possessive: "your partner's", partner: true };
  }
  const n = name(seat);
  return { subject: n, object: n, possessive: `${n}'s` };
}

/** Verbs that may follow "South:" in a move written as "seat: action" (the CLI's style). */
const ACTION_VERBS =
  /^(draw|discard|meld|take|add|lay|merge|stage|unstage|pass|knock|claim|challenge|pick|play|retract|ask|answer|declare|start|put)\b/i;

/**
 * `text` from the reader's seat. `opts`: {me, players, partners (seats on the reader's side,
 * not the reader), name(seat)}.
 */
export function speak(text, opts) {
  if (typeof text !== "string" || !text) return text;
  const { players = 0 } = opts;
  let t = text;
  // Melds by their 0-based index → #1, #2 … ("meld 10♥ J♥ Q♥" is left alone).
  t = t.replace(/\bmeld (\d+)(?=$|[\s,.;:)])/g, (m, n) => `meld #${Number(n) + 1}`);
  // Internal words in brackets: "(went_out)" → "(went out)".
  t = t.replace(/\b([a-z]+(?:_[a-z]+)+)\b/g, (m) => m.replace(/_/g, " "));
  // "1 more cards" → "1 more card".
  t = t.replace(/\b1 ((?:more |other |new |pile )?)cards\b/g, "1 $1card");
  // "draws 2" → "draws 2 cards".
  t = t.replace(/\b(draws?) (\d+)(?=$|[.;,)])/g, (m, verb, n) => `${verb} ${n} ${n === "1" ? "card" : "cards"}`);
  if (!players) return CAP(t);
  // Seat references: "seat 2", and with four players the compass names the engines use.
  const names = players === 4 ? COMPASS.join("|") : "(?!)";
  const ref = new RegExp(`\\b(?:[Ss]eat (\\d+)|(${names}))('s)?\\b`, "g");
  const seatOf = (num, compass) => (num != null ? Number(num) : COMPASS.indexOf(compass));
  // "South: discard 6♦" (a move written as "seat: action") → "South discards 6♦" / "You discard 6♦".
  t = t.replace(new RegExp(`^(?:[Ss]eat (\\d+)|(${names})): (\\w+)`), (m, num, compass, verb) => {
    const seat = seatOf(num, compass);
    if (!(seat >= 0 && seat < players) || !ACTION_VERBS.test(verb)) return m;
    const p = person(seat, opts);
    return `${p.subject} ${p.you ? verb.toLowerCase() : thirdPerson(verb)}`;
  });
  // Each reference: subject at the start of a clause, possessive with 's, else object.
  t = t.replace(ref, (m, num, compass, poss, offset, whole) => {
    const seat = seatOf(num, compass);
    if (!(seat >= 0 && seat < players)) return m;
    const p = person(seat, opts);
    if (poss) return p.possessive;
    const before = whole.slice(0, offset);
    return /(^|[:;.!?(]\s*|,\s*|\band\s|\bthen\s)$/.test(before) ? p.subject : p.object;
  });
  // "you discards" → "you discard" (the reader is the subject at the start of a clause).
  t = t.replace(/(^|[:;.!?(]\s*|,\s*)(you|You) (\w+)/g, (m, lead, you, verb) => `${lead}${you} ${NOT_VERBS.has(verb) ? verb : secondPerson(verb)}`);
  // "You lay out 3♥ and draws replacements": the second verb of the clause too.
  t = t.replace(/(\b[Yy]ou [^.;:!?]*?\band )([a-z]+s)\b/g, (m, head, verb) => (NOUNS.test(verb) || NOT_VERBS.has(verb) ? m : head + secondPerson(verb)));
  // "your partner's side" and "your side" are the same side.
  t = t.replace(/\byour partner's side\b/g, "your side");
  return CAP(t);
}

/** An option's value in words: yes/no, lists, "two canastas" for "two_canastas", "—" for none. */
export function valueWords(v) {
  if (v === true) return "yes";
  if (v === false) return "no";
  if (v == null) return "—";
  if (Array.isArray(v)) return v.map(valueWords).join(", ");
  if (typeof v === "number") return v.toLocaleString("en-US", { maximumFractionDigits: 2 });
  if (typeof v === "object") return Object.entries(v).map(([k, x]) => `${optionName(k)}: ${valueWords(x)}`).join("; ");
  return String(v).replace(/_/g, " ");
}

/** "red_threes_as_canasta" → "Red threes as canasta". */
export function optionName(key) {
  const s = String(key).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** An option's explanation for players: the project's notes on where a rule came from (source
 * numbers, file names) are left out, and "None" reads "not set". */
export function optionDoc(doc) {
  return String(doc || "")
    .replace(/\s*\((?:[^()]*\b(?:seed|seeds|RULES\.md|\.md)\b[^()]*)\)/gi, "")
    .replace(/\s*\b(?:as in|per|from|see) seeds? \d+(?:'s)?/gi, "")
    .replace(/\bseeds? \d+(?:'s)?:?\s*/gi, "")
    .replace(/\b[a-z]+(?:_[a-z]+)+\b/g, (m) => m.replace(/_/g, " "))
    .replace(/\bNone\b/g, "not set")
    .replace(/\bbool\b/g, "yes or no")
    .replace(/\s{2,}/g, " ")
    .trim();
}
