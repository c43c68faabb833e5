// Seat tokens remembered in localStorage (a seat's token lives only in the browser that holds
// the seat: "Your seats" in the lobby and /t/CODE find it here; the creator's seat is marked
// `host`), the invite links a table's creator was given, and the names the client gives seats.

import { _, pgettext } from "./i18n.js";

const KEY = "parlour.seats";
const INVITES = "parlour.invites";

/** `host`: this browser created the table and took this seat (kept when the seat is remembered
 * again, e.g. with a new token). */
export function rememberSeat(code, seat, token, game, host = false) {
  if (!token) return;
  const same = (s) => s.code === code && (s.seat === seat || s.token === token);
  const before = loadSeats();
  const was = before.find((s) => same(s) && s.seat === seat && s.host);
  const all = before.filter((s) => !same(s));
  all.unshift({ code, seat, token, game: game || was?.game || "", at: Date.now(), ...(host || was ? { host: true } : {}) });
  localStorage.setItem(KEY, JSON.stringify(all.slice(0, 20)));
}

export function forgetSeat(code, token) {
  const all = loadSeats().filter((s) => !(s.code === code && s.token === token));
  localStorage.setItem(KEY, JSON.stringify(all));
}

/** The token this browser holds at a table (the seat taken most recently), or null. */
export function tokenFor(code) {
  const s = loadSeats().find((x) => x.code === code);
  return s ? s.token : null;
}

/** The seat this browser took when it created the table, while it still holds it; else null. */
export function hostSeat(code) {
  const s = loadSeats().find((x) => x.code === code);
  return s && s.host && s.seat != null ? s.seat : null;
}

export function loadSeats() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** The creator's invite links ({seat, url}), kept so the table page can show them again. */
export function rememberInvites(code, links) {
  const all = loadJson(INVITES, {});
  all[code] = { links, at: Date.now() };
  const codes = Object.keys(all).sort((a, b) => all[b].at - all[a].at);
  for (const c of codes.slice(20)) delete all[c];
  localStorage.setItem(INVITES, JSON.stringify(all));
}

/** A new invite link for a seat (the old one no longer works). */
export function replaceInvite(code, seat, url) {
  rememberInvites(code, [...loadInvites(code).filter((l) => l.seat !== seat), { seat, url }]);
}

export function loadInvites(code) {
  const v = loadJson(INVITES, {})[code];
  return v && Array.isArray(v.links) ? v.links : [];
}

function loadJson(key, empty) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v && typeof v === "object" ? v : empty;
  } catch {
    return empty;
  }
}

/** A table's page: it plays the seat whose token this browser keeps, else it watches. */
export function seatUrl(code) {
  return `/t/${encodeURIComponent(code)}`;
}

/** Compass names for four seats (partners opposite: 0–2 North–South, 1–3 East–West). */
const COMPASS = () => [pgettext("seat", "South"), pgettext("seat", "West"), pgettext("seat", "North"), pgettext("seat", "East")];

export function seatName(seat, players) {
  if (seat == null) return "spectator";
  if (players === 4) return COMPASS()[seat];
  return _("Player {n}", { n: seat + 1 });
}

const NAME = "parlour.name";

/** The name this browser's player gave (asked once in the lobby), or "". Sent as `player` when
 * creating a table, joining an open seat or claiming an invite. */
export function playerName() {
  try {
    return (localStorage.getItem(NAME) || "").trim().slice(0, 24);
  } catch {
    return "";
  }
}

export function setPlayerName(name) {
  const clean = String(name || "").replace(/\s+/g, " ").trim().slice(0, 24);
  if (clean) localStorage.setItem(NAME, clean);
  else localStorage.removeItem(NAME);
  return clean;
}
