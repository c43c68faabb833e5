// A game's leaderboard (/leaders/GAME, issue 33): players with at least 5 rated matches, ranked
// by their rating less three times its uncertainty (OpenSkill's ordinal).
import { api, clear, h } from "./dom.js";
import { _, gameTitle, GAME_TITLES, ngettext } from "./i18n.js"; // issue 34

const game = decodeURIComponent(location.pathname.split("/")[2] || "samba");

async function init() {
  const main = document.getElementById("leaders");
  let data;
  try {
    data = await api("GET", `/api/leaders/${encodeURIComponent(game)}`);
  } catch (e) {
    clear(main).append(h("section.panel", h("h1", _("No leaderboard")), h("p#leaders-status", e.message)));
    return;
  }
  const title = gameTitle(data.game);
  document.title = _("{game} leaders — Parlour", { game: title });
  const nav = h("p", Object.entries(GAME_TITLES).map(([g, t]) => [h("a", { href: `/leaders/${g}`, "aria-current": g === data.game ? "page" : undefined }, t), " "]));
  const body = data.players.length
    ? h(
        "div.table-scroll",
        h(
          "table.matches#leaders-table",
          h("thead", h("tr", ["#", _("Player"), _("Rating"), _("Rated matches")].map((x) => h("th", x)))),
          h("tbody", data.players.map((p) => h("tr", h("td", String(p.rank)), h("td", h("a", { href: p.url }, p.name)), h("td", `${p.mu.toFixed(1)} ± ${(3 * p.sigma).toFixed(1)}`), h("td", String(p.matches))))),
        ),
      )
    : h("p.muted#leaders-status", ngettext("Nobody has played {count} rated match of {game} yet.", "Nobody has played {count} rated matches of {game} yet.", data.min_matches, { count: data.min_matches, game: title }));
  clear(main).append(h("section.panel", h("h1", _("{game}: the leaders", { game: title })), nav, h("p.muted", ngettext("Players with at least {count} rated match, best first.", "Players with at least {count} rated matches, best first.", data.min_matches, { count: data.min_matches })), body));
}

init();
