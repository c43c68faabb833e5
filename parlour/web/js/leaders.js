// A game's leaderboard (/leaders/GAME, issue 33): players with at least 5 rated matches, ranked
// by their rating less three times its uncertainty (OpenSkill's ordinal).
import { api, clear, h } from "./dom.js";

const game = decodeURIComponent(location.pathname.split("/")[2] || "samba");
const TITLES = { samba: "Samba", handfoot: "Hand and Foot", cheat: "Cheat", scat: "Scat / 31" };

async function init() {
  const main = document.getElementById("leaders");
  let data;
  try {
    data = await api("GET", `/api/leaders/${encodeURIComponent(game)}`);
  } catch (e) {
    clear(main).append(h("section.panel", h("h1", "No leaderboard"), h("p#leaders-status", e.message)));
    return;
  }
  const title = TITLES[data.game] || data.game;
  document.title = `${title} leaders — Parlour`;
  const nav = h("p", Object.entries(TITLES).map(([g, t]) => [h("a", { href: `/leaders/${g}`, "aria-current": g === data.game ? "page" : undefined }, t), " "]));
  const body = data.players.length
    ? h(
        "div.table-scroll",
        h(
          "table.matches#leaders-table",
          h("thead", h("tr", ["#", "Player", "Rating", "Rated matches"].map((x) => h("th", x)))),
          h("tbody", data.players.map((p) => h("tr", h("td", String(p.rank)), h("td", h("a", { href: p.url }, p.name)), h("td", `${p.mu.toFixed(1)} ± ${(3 * p.sigma).toFixed(1)}`), h("td", String(p.matches))))),
        ),
      )
    : h("p.muted#leaders-status", `Nobody has played ${data.min_matches} rated matches of ${title} yet.`);
  clear(main).append(h("section.panel", h("h1", `${title}: the leaders`), nav, h("p.muted", `Players with at least ${data.min_matches} rated matches, best first.`), body));
}

init();
