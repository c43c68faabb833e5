// The lobby's player parts (issue 33): "your tables" and "your last matches", the move to another
// device (a one-time link and its QR code), and what happens right after creating a table (the
// seat is bound to the player; rated or not and the turn timer are set).
import { api, clear, copyText, h } from "./dom.js";
import { _, gameTitle } from "./i18n.js"; // issue 34
import * as me from "./players.js";
import { playerName, rememberSeat, seatUrl, tokenFor } from "./seats.js";

const $ = (id) => document.getElementById(id);

/** After POST /api/tables: sit at the creator's seat as the player, and the house settings. */
export async function afterCreate(t, { rated, turnTimer }) {
  if (!me.player() && playerName()) {
    try {
      await me.saveName(playerName()); // a name from before players had keys
    } catch {
      /* the table works without a player */
    }
  }
  if (!t.you) return;
  await me.sit(t.code, t.you.token);
  const body = { token: t.you.token, rated: !!rated };
  if (turnTimer) body.turn_timer = turnTimer;
  try {
    await api("POST", `/api/tables/${encodeURIComponent(t.code)}/house`, body);
  } catch (e) {
    console.error(`house settings: ${e.message}`);
  }
}

/** /move/LINK: this browser becomes the player the link was made for. */
export async function openMoveLink() {
  const m = /^\/move\/([^/?#]+)/.exec(location.pathname);
  if (!m) return;
  history.replaceState(null, "", "/"); // the link is spent: never leave it in the address bar
  try {
    const p = await me.claimMove(decodeURIComponent(m[1]));
    $("name-error").textContent = "";
    $("name-panel").prepend(h("p.notice#moved", _("This browser now plays as {name}.", { name: p.name })));
  } catch (e) {
    $("name-error").textContent = _("The move link did not work: {why}", { why: e.message });
  }
}

/** A one-time link (and its QR code) that gives another device this player. */
export async function showMoveLink() {
  const box = clear($("move-box"));
  box.classList.remove("hidden");
  let r;
  try {
    r = await me.moveLink();
  } catch (e) {
    box.append(h("p.error-box", e.message));
    return;
  }
  const url = location.origin + r.url;
  const copy = h("button.btn.small", { type: "button" }, _("Copy"));
  copy.addEventListener("click", () => copyText(url, copy));
  // the QR code is the server's SVG, shown as an image (an image never runs anything)
  const img = h("img#move-qr-img", { alt: _("QR code of the move link"), src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(r.qr_svg)}` });
  box.append(
    h("p", _("Open this link on the other device (or scan the code). It works once, for 10 minutes.")),
    h("div.link-row", h("input#move-link", { type: "text", readonly: true, value: url, "aria-label": _("move link") }), copy),
    h("div.move-qr", img),
  );
}

/** "Your tables" (waiting or playing, one click back) and "your last matches". */
export async function renderMine() {
  const panel = $("mine-panel");
  if (!me.player()) {
    panel.classList.add("hidden");
    return;
  }
  let data;
  try {
    data = await me.myTables();
  } catch {
    return;
  }
  if (!data) return;
  panel.classList.remove("hidden");
  const tables = clear($("my-tables"));
  if (!data.tables.length) tables.append(h("p.muted", _("No tables in play. Tables you sit at appear here.")));
  for (const t of data.tables) {
    const back = h("a.btn.small.primary", { href: seatUrl(t.code) }, _("Back to {code}", { code: t.code }));
    // another device (no token for the table here): the key takes the seat back first
    back.addEventListener("click", async (e) => {
      if (tokenFor(t.code)) return;
      e.preventDefault();
      try {
        const r = await api("POST", `/api/tables/${encodeURIComponent(t.code)}/reseat`, { key: me.player().key });
        rememberSeat(t.code, r.seat, r.token, t.game);
      } catch {
        /* not ours any more: the table page watches */
      }
      location.href = seatUrl(t.code);
    });
    tables.append(
      h(
        "div.link-row",
        { dataset: { code: t.code } },
        back,
        h("span", t.status === "waiting" ? _("{name} — {game}, waiting for players", { name: t.name, game: gameTitle(t.game) }) : _("{name} — {game}, playing", { name: t.name, game: gameTitle(t.game) })),
      ),
    );
  }
  const matches = clear($("my-matches"));
  if (!data.matches.length) {
    matches.append(h("p.muted", _("No finished matches yet.")));
    return;
  }
  matches.append(matchTable(data.matches));
}

export function matchTable(list) {
  const tbody = h("tbody");
  for (const m of list) {
    tbody.append(
      h(
        "tr",
        { dataset: { code: m.code } },
        h("td", gameTitle(m.game)),
        h("td", me.when(m.finished)),
        h("td", me.resultText(m)),
        h(`td.${m.won ? "won" : "lost"}`, m.won ? _("won") : _("lost"), m.rated ? "" : " " + _("(unrated)")),
        h("td", h("a", { href: m.replay_url }, _("replay"))),
      ),
    );
  }
  return h("div.table-scroll", h("table.matches", h("thead", h("tr", [_("Game"), _("Date"), _("Players and result"), _("You"), ""].map((x) => h("th", x)))), tbody));
}
