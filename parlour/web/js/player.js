// A player's page (/p/ID, issue 33): the name, games played and won per game, the ratings with
// their uncertainty and a small chart of their history, and the last 50 matches with their
// replays. Public: nothing of a key, a seat token or a hidden card is on it.
import { api, clear, h } from "./dom.js";
import { _, gameTitle, ngettext } from "./i18n.js"; // issue 34
import { matchTable } from "./lobby-players.js";
import { player } from "./players.js";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");

async function init() {
  const main = document.getElementById("player");
  let p;
  try {
    p = await api("GET", `/api/players/${encodeURIComponent(id)}`);
  } catch (e) {
    clear(main).append(h("section.panel", h("h1", _("No such player")), h("p#player-status", e.status === 404 ? _("There is no player with this link.") : e.message)));
    return;
  }
  document.title = `${p.name} — Parlour`;
  const mine = player();
  const games = Object.entries(p.games);
  const played = games.reduce((n, [, g]) => n + g.played, 0);
  clear(main).append(
    h(
      "section.panel",
      h("h1#player-name", p.name),
      h("p.muted", (mine && mine.id === p.id ? _("Player {id} — this is you.", { id: p.id }) : _("Player {id}.", { id: p.id })) + " " + ngettext("{count} match played.", "{count} matches played.", played)),
      games.length
        ? h("ul#player-games", games.map(([g, c]) => h("li", { dataset: { game: g } }, _("{game}: {played} played, {won} won", { game: gameTitle(g), played: c.played, won: c.won }))))
        : h("p.muted", _("No finished matches yet.")),
    ),
    h("section.panel", h("h2", _("Ratings")), ratings(p.ratings)),
    h("section.panel", h("h2", _("Last matches")), p.matches.length ? matchTable(p.matches) : h("p.muted", _("None yet."))),
  );
}

function ratings(all) {
  const entries = Object.entries(all);
  if (!entries.length) return h("p.muted", _("No rated matches yet."));
  return h(
    "div.ratings#ratings",
    entries.map(([g, r]) =>
      h(
        "div.rating-card",
        { dataset: { game: g } },
        h("h3", h("a", { href: `/leaders/${encodeURIComponent(g)}` }, gameTitle(g))),
        h("p", h("span.big", r.mu.toFixed(1)), ` ± ${(3 * r.sigma).toFixed(1)}`),
        h("p.small.muted", ngettext("{count} rated match; ranked by {ordinal} (rating − 3 × uncertainty)", "{count} rated matches; ranked by {ordinal} (rating − 3 × uncertainty)", r.matches, { count: r.matches, ordinal: r.ordinal.toFixed(1) })),
        chart(r.history),
      ),
    ),
  );
}

/** The rating after each rated match, with its ± 3σ band, as a small SVG line. */
function chart(history) {
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    return n;
  };
  const svg = el("svg", { class: "rating-chart", viewBox: "0 0 200 70", preserveAspectRatio: "none", role: "img", "aria-label": _("rating history") });
  const pts = [{ mu: 25, sigma: 25 / 3 }, ...history];
  const lo = Math.min(...pts.map((p) => p.mu - 3 * p.sigma));
  const hi = Math.max(...pts.map((p) => p.mu + 3 * p.sigma));
  const x = (i) => (pts.length === 1 ? 100 : (i * 200) / (pts.length - 1));
  const y = (v) => 66 - ((v - lo) / (hi - lo || 1)) * 62;
  const upper = pts.map((p, i) => `${x(i)},${y(p.mu + 3 * p.sigma)}`);
  const lower = pts.map((p, i) => `${x(i)},${y(p.mu - 3 * p.sigma)}`).reverse();
  svg.append(el("polygon", { class: "band", points: [...upper, ...lower].join(" ") }));
  svg.append(el("polyline", { points: pts.map((p, i) => `${x(i)},${y(p.mu)}`).join(" ") }));
  return svg;
}

init();
