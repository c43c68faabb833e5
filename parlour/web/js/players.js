// The player behind this browser (issue 33): a name and a secret key kept in localStorage (the
// server keeps only the key's hash). Made on the first visit that gives a name; every seat the
// browser takes is then bound to the player ("sit"), so the name sticks across tables, rematches
// and devices. Nothing here is ever put in an address: the key travels in request bodies only.
import { api, clear, h } from "./dom.js";
import { _, botName } from "./i18n.js";
import { playerName, setPlayerName } from "./seats.js";

const KEY = "parlour.player";

/** {id, key, name} of this browser's player, or null. */
export function player() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "null");
    return v && typeof v.key === "string" && typeof v.id === "string" ? v : null;
  } catch {
    return null;
  }
}

function keep(p) {
  localStorage.setItem(KEY, JSON.stringify({ id: p.id, key: p.key, name: p.name }));
  setPlayerName(p.name); // the name the older pages send as `player`
  return player();
}

/** Make the player with this name, or rename the one there is. */
export async function saveName(name) {
  const me = player();
  if (me) {
    const r = await api("POST", "/api/players/rename", { key: me.key, name });
    return keep({ ...me, name: r.name });
  }
  const r = await api("POST", "/api/players", { name });
  return keep(r);
}

/** Check the key with the server (a name changed on another device comes back here). A key the
 * server does not know (another server, a wiped journal) is forgotten. */
export async function refresh() {
  const me = player();
  if (!me) return null;
  try {
    const r = await api("POST", "/api/players/me", { key: me.key });
    return keep({ ...me, name: r.name });
  } catch (e) {
    if (e.status === 403) localStorage.removeItem(KEY);
    return player();
  }
}

/** Bind the seat this token holds to the player (the seat then shows the player's name). */
export async function sit(code, token) {
  const me = player();
  if (!me || !token) return null;
  try {
    return await api("POST", `/api/tables/${encodeURIComponent(code)}/sit`, { key: me.key, token });
  } catch {
    return null; // a seat that is not bound keeps the name it was given
  }
}

/** Open a move link (/move/LINK): this browser gets a key of that player. */
export async function claimMove(link) {
  const r = await api("POST", "/api/players/move/claim", { link });
  return keep(r);
}

export async function moveLink() {
  const me = player();
  return api("POST", "/api/players/move", { key: me.key });
}

export async function myTables() {
  const me = player();
  if (!me) return null;
  return api("POST", "/api/players/tables", { key: me.key });
}

/** Ask for a name once (an invited friend, before taking the seat): resolves with the player, or
 * null if the dialog was closed. `root` is where the dialog goes. */
export function askName(root, { title = _("Your name"), note = "" } = {}) {
  return new Promise((resolve) => {
    const input = h("input#ask-name", { type: "text", maxlength: "24", autocomplete: "nickname", placeholder: _("e.g. Anna"), value: playerName() });
    const error = h("p.error-box#ask-name-error", { role: "alert" });
    const ok = h("button.btn.primary#ask-name-ok", { type: "submit" }, _("Take my seat"));
    const form = h(
      "form.ask-name",
      h("h2", title),
      note ? h("p", note) : null,
      h("label", { for: "ask-name" }, _("Your name, shown to the other players (you can change it later)")),
      input,
      error,
      h("p", ok),
    );
    const box = h("div.overlay#name-dialog", { role: "dialog", "aria-modal": "true", "aria-label": title }, h("div.dialog", form));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      ok.disabled = true;
      try {
        const p = await saveName(input.value);
        box.remove();
        resolve(p);
      } catch (err) {
        error.textContent = err.message;
        ok.disabled = false;
      }
    });
    clear(root).append(box);
    input.focus();
  });
}

/** "3 May, 20:14" */
export function when(ts) {
  return new Date(ts * 1000).toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

/** "Anna & Bot (basic) 120 — Bea & Bot 80": a finished match's sides and scores. */
export function resultText(m) {
  const who = (s) => {
    const p = (m.players || []).find((x) => x.seat === s);
    const seat = _("Seat {n}", { n: s + 1 });
    return p ? p.name || (p.bot ? _("Bot ({level})", { level: botName(p.bot) }) : seat) : seat;
  };
  return (m.sides || []).map((side, i) => `${side.map(who).join(" & ")} ${m.scores[i] ?? ""}`).join(" — ");
}
