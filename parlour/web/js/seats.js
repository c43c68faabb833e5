// Seat tokens remembered in localStorage (so "Your seats" in the lobby can resume a table), and
// the names the client gives seats.

const KEY = "parlour.seats";

export function rememberSeat(code, seat, token, game) {
  if (!token) return;
  const all = loadSeats().filter((s) => !(s.code === code && s.seat === seat));
  all.unshift({ code, seat, token, game: game ?? "", at: Date.now() });
  localStorage.setItem(KEY, JSON.stringify(all.slice(0, 20)));
}

export function forgetSeat(code, token) {
  const all = loadSeats().filter((s) => !(s.code === code && s.token === token));
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function loadSeats() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function seatUrl(code, token) {
  return `/t/${encodeURIComponent(code)}${token ? `?seat=${encodeURIComponent(token)}` : ""}`;
}

/** Compass names for four seats (partners opposite: 0–2 North–South, 1–3 East–West). */
const COMPASS = ["South", "West", "North", "East"];

export function seatName(seat, players) {
  if (seat == null) return "spectator";
  if (players === 4) return COMPASS[seat];
  return `Player ${seat + 1}`;
}
