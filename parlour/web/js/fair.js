// Provable deals, checked by this browser itself (never by asking the server whether the server
// was honest). The server commits to a secret when the table is made; each player's browser adds
// randomness of its own; every hand's deal is sealed with a hash before anyone acts and opened
// when the hand ends; every move extends a hash chain. This module keeps, per table, what this
// browser saw first (in localStorage) and checks the openings against it.
import { _, ngettext } from "./i18n.js";
import { sha256 } from "./sha256.js";

const PREFIX = "parlour.fair.";
const INDEX = "parlour.fair"; // table codes, most recent first
const KEEP_TABLES = 20;
const MAX_HEADS = 5000;

// --- the formulas (the server's docs give the same ones) ------------------------------------------

/** JSON with keys sorted at every level, no spaces, non-ASCII as is: Python's
 * json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False). */
export function canon(x) {
  if (Array.isArray(x)) return `[${x.map(canon).join(",")}]`;
  if (x !== null && typeof x === "object") {
    return `{${Object.keys(x).sort().map((k) => `${JSON.stringify(k)}:${canon(x[k])}`).join(",")}}`;
  }
  return JSON.stringify(x);
}

export const secretCommitment = (secret) => sha256(`parlour-secret:${secret}`);
export const dealCommitment = (seed, salt) => sha256(`parlour-deal:${seed}:${salt}`);

/** The match's shuffle number (decimal text) from the server's secret and the contributions. */
export function matchSeed(secret, contributions) {
  const parts = Object.keys(contributions || {})
    .map(Number)
    .sort((a, b) => a - b)
    .map((seat) => `${seat}=${contributions[seat]}`);
  const digest = sha256(`parlour-match:${secret}:${parts.join(",")}`);
  return (BigInt(`0x${digest.slice(0, 16)}`) >> 1n).toString();
}

/** heads[v] = the chain head after v moves. */
export function chainHeads(code, serverCommitment, actions) {
  const heads = [sha256(`parlour-chain:${code}:${serverCommitment}`)];
  for (const a of actions) heads.push(sha256(`${heads[heads.length - 1]}|${canon(a)}`));
  return heads;
}

/** JSON.parse that keeps every digit of the deal numbers ("seed", "match_seed" become decimal
 * text): they are 63-bit integers, and a JavaScript number would round them. */
export function parseKeepingSeeds(text) {
  return JSON.parse(text.replace(/"(seed|match_seed)":\s*(-?\d+)/g, '"$1":"$2"'));
}

function randomHex(bytes) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// --- what this browser saw, per table -------------------------------------------------------------

export function openRecord(code) {
  let rec = null;
  try {
    rec = JSON.parse(localStorage.getItem(PREFIX + code) || "null");
  } catch {
    rec = null;
  }
  if (!rec || typeof rec !== "object") rec = {};
  rec = { code, server_commitment: null, contribution: null, contributed: false, seat: null, commitments: {}, reveals: {}, heads: {}, forks: [], ...rec };
  const codes = [code, ...tableCodes().filter((c) => c !== code)];
  for (const old of codes.slice(KEEP_TABLES)) localStorage.removeItem(PREFIX + old);
  setCodes(codes.slice(0, KEEP_TABLES));
  return rec;
}

function tableCodes() {
  try {
    const v = JSON.parse(localStorage.getItem(INDEX) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function setCodes(codes) {
  try {
    localStorage.setItem(INDEX, JSON.stringify(codes));
  } catch (e) {
    console.error(`could not keep the list of deal records: ${e.message}`);
  }
}

let saveTimer = null;
export function save(rec, now = false) {
  clearTimeout(saveTimer);
  const write = () => {
    for (;;) {
      try {
        localStorage.setItem(PREFIX + rec.code, JSON.stringify(rec));
        return;
      } catch (e) {
        // Storage full: make room by dropping the oldest other table's record.
        const codes = tableCodes();
        const old = codes.filter((c) => c !== rec.code).pop();
        if (!old) return console.error(`could not keep the deal record of table ${rec.code}: ${e.message}`);
        localStorage.removeItem(PREFIX + old);
        setCodes(codes.filter((c) => c !== old));
      }
    }
  };
  if (now) write();
  else saveTimer = setTimeout(write, 400);
}

/** This browser's randomness for the table: made once, kept. */
export function contribution(rec) {
  if (!rec.contribution) {
    rec.contribution = randomHex(16);
    save(rec, true);
  }
  return rec.contribution;
}

/** welcome: which seat this browser plays (watching: the seat held earlier, if any, stays). */
export function noteWelcome(rec, seat, table) {
  if (seat != null) rec.seat = seat;
  noteTable(rec, table);
}

/** A table record: its commitment to the secret, and whether this browser's randomness is in.
 * Only the table's own word counts (the server may refuse a contribution: the seat already had
 * one from another browser, or the cards were dealt); once dealt, the answer is final. */
export function noteTable(rec, table) {
  const f = (table && table.fairness) || {};
  const sc = f.server_commitment;
  if (sc && !rec.server_commitment) rec.server_commitment = sc;
  else if (sc && sc !== rec.server_commitment && !rec.forks.includes("commitment")) rec.forks.push("commitment");
  const used = rec.seat != null && !!rec.contribution && (f.contributions || {})[rec.seat] === rec.contribution;
  if (used || f.seeded) rec.contributed = used;
  save(rec);
}

export function noteHead(rec, version, head) {
  if (typeof head !== "string" || version == null) return;
  const seen = rec.heads[version];
  if (seen === undefined) {
    rec.heads[version] = head;
    const keys = Object.keys(rec.heads); // integer keys come in increasing order
    if (keys.length > MAX_HEADS) delete rec.heads[keys[0]];
  } else if (seen !== head && !rec.forks.includes(version)) {
    rec.forks.push(version); // two different histories shown for the same move
  }
  save(rec);
}

export function noteCommitment(rec, data) {
  if (!data || data.hand == null || rec.commitments[data.hand]) return;
  rec.commitments[data.hand] = { hand: data.hand, step: data.step, commitment: data.commitment };
  save(rec);
}

/** A hand's seed and salt are out: do they hash to the commitment THIS browser recorded? */
export function checkReveal(rec, data) {
  const mine = rec.commitments[data.hand];
  const ok = !!mine && dealCommitment(data.seed, data.salt) === mine.commitment;
  rec.reveals[data.hand] = ok;
  save(rec);
  if (ok) return { ok, text: "✓ " + _("the deal matches the commitment shown before it was dealt") };
  if (!mine) return { ok, text: "✗ " + _("No commitment to this deal was shown before it was dealt: it cannot be checked.") };
  return { ok, text: "✗ " + _("WARNING: this deal does NOT match the commitment shown before it was dealt. The cards may have been changed.") };
}

const count = (a, b) => _("({count}\u00a0of\u00a0{total})", { count: a, total: b }); // kept on one line

/** The end-of-match checks, in words: [{ok: true|false|null, text}] (null: nothing to check).
 * `reveal` is the secret_reveal data; `loadRecord()` fetches the match record (actions, seed). */
export async function finalCheck(rec, reveal, loadRecord) {
  const out = [];
  const add = (ok, text) => out.push({ ok, text });

  const hands = [...new Set([...Object.keys(rec.commitments), ...Object.keys(rec.reveals)])].map(Number).sort((a, b) => a - b);
  const matched = hands.filter((h) => rec.reveals[h] === true);
  const unopened = hands.filter((h) => !(h in rec.reveals));
  const wrong = hands.filter((h) => rec.reveals[h] === false);
  const names = (hs) => hs.map((h) => h + 1).join(", ");
  if (!hands.length) add(false, _("No deal was sealed and opened at this table, so no deal could be checked."));
  else if (matched.length === hands.length) add(true, _("Every deal matched the commitment shown before it was dealt {count}", { count: count(matched.length, hands.length) }));
  else {
    const why = [wrong.length ? _("hand {hands} did not match", { hands: names(wrong) }) : "", unopened.length ? _("hand {hands} was never opened", { hands: names(unopened) }) : ""];
    add(false, _("Only {count} of {total} deals matched the commitment shown before they were dealt: {why}", { count: matched.length, total: hands.length, why: why.filter(Boolean).join("; ") }));
  }

  const secret = String(reveal.secret || "");
  if (!rec.server_commitment) add(false, _("The table showed no commitment to its secret when you arrived, so the shuffle cannot be checked."));
  else if (rec.forks.includes("commitment")) add(false, _("The table showed you two different commitments to its secret."));
  else if (secretCommitment(secret) === rec.server_commitment) add(true, _("The table's secret matches the commitment it showed before the first deal"));
  else add(false, _("The table's secret does NOT match the commitment it showed before the first deal."));

  const contributions = reveal.contributions || {};
  const players = Object.keys(contributions).length;
  if (rec.contributed) {
    if (contributions[rec.seat] === rec.contribution) add(true, _("Your randomness was used in the shuffle"));
    else add(false, _("Your randomness is missing from the shuffle."));
  } else if (rec.seat != null && contributions[rec.seat]) add(null, _("This browser's randomness was not used: your seat's came from the browser that held it before the start."));
  else if (rec.seat != null) add(null, _("This browser's randomness was not used (you joined after the start)."));
  else add(null, ngettext("You watched this match; randomness from {count} player went into the shuffle.", "You watched this match; randomness from {count} players went into the shuffle.", players));

  let record = null;
  try {
    record = await loadRecord();
  } catch (e) {
    add(false, _("The record of the match could not be fetched ({why}), so the moves were not checked.", { why: e.message }));
  }
  const seed = matchSeed(secret, contributions);
  const seedOk = String(reveal.match_seed) === seed && (!record || String(record.seed) === seed);
  add(seedOk, seedOk ? _("The shuffle follows from the secret and the players' randomness") : _("The shuffle does NOT follow from the secret and the players' randomness."));

  if (record) {
    const heads = chainHeads(rec.code, rec.server_commitment, record.actions || []);
    const seen = Object.keys(rec.heads).map(Number);
    const bad = seen.filter((v) => heads[v] !== rec.heads[v]).concat(rec.forks.filter((f) => typeof f === "number"));
    if (!seen.length) add(null, _("This browser saw no moves to compare with the record."));
    else if (!bad.length) add(true, _("The moves in the record are the moves you saw {count}", { count: count(seen.length, seen.length) }));
    else {
      const first = Math.min(...bad);
      const where = first === 0 ? _("from the very start") : _("from move {move} on", { move: first });
      add(false, _("The record differs from the moves you saw, {where} ({agree} of {total} agree).", { where, agree: seen.length - new Set(bad).size, total: seen.length }));
    }
  }
  return out;
}

/** What this browser kept, for checking later with Parlour's verify command. */
export function download(rec) {
  const data = {
    code: rec.code,
    server_commitment: rec.server_commitment,
    contribution: rec.contributed ? rec.contribution : null,
    seat: rec.seat,
    commitments: Object.values(rec.commitments).sort((a, b) => a.hand - b.hand),
    heads: rec.heads,
  };
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `parlour-${rec.code}-record.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
