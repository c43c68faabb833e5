// The lobby: pick a game and its house rules, set the seats (private, or open to anyone), create
// a table and hand out one-time invite links; join an open seat by code or from the list, watch a
// table, or go back to a seat this browser holds. Seat tokens stay in this browser.
import { api, clear, copyText, h } from "./dom.js";
import { loadSeats, playerName, rememberInvites, rememberSeat, seatName, seatUrl } from "./seats.js";
import * as me from "./players.js"; // issue 33: the player behind this browser
import { _, BOT_WORDS, gameTitle, lang, ngettext, pgettext } from "./i18n.js"; // issue 34
import { afterCreate, openMoveLink, renderMine, showMoveLink } from "./lobby-players.js";

const $ = (id) => document.getElementById(id);

/** A table's status word in the lobby's list of open tables. */
function tableStatus(status) {
  if (status === "waiting") return pgettext("table status", "waiting for players");
  if (status === "playing") return pgettext("table status", "playing");
  if (status === "finished") return pgettext("table status", "finished");
  return status;
}
let games = [];
let current = null; // the selected game record from /api/games
let optionValues = {}; // option name -> value the user set (overrides of the preset)
const PAGE = 50; // open tables per page
let tablesOffset = 0;
// the open tables list updates itself this often while the page is seen (tests set it shorter)
const REFRESH_MS = Number(window.parlourRefreshMs) || 10000;
let refreshTimer = null;

const LOBBY_BOTS = Object.keys(BOT_WORDS);

function botLabel(level) {
  const w = BOT_WORDS[level];
  return w ? `Bot — ${w[0]}` : `Bot — ${level}`;
}

/** The levels this lobby offers for the game: the server's, in the order above. */
function offeredBots() {
  const server = current.bots || [];
  const ours = LOBBY_BOTS.filter((b) => server.includes(b));
  return ours.length ? ours : server;
}

let showName = () => {}; // the name panel drawn again (set by setupName)

async function init() {
  setupName(); // first: a name typed while the page loads is saved, not lost to a reload
  try {
    const data = await api("GET", `/api/games?lang=${encodeURIComponent(lang)}`); // option words in the reader's language
    games = data.games || [];
  } catch (e) {
    $("create-error").textContent = _("Could not load the games: {why}", { why: e.message });
    return;
  }
  const sel = $("game");
  for (const g of games) sel.append(h("option", { value: g.name }, g.title || g.name));
  sel.addEventListener("change", () => chooseGame(sel.value));
  $("preset").addEventListener("change", () => choosePreset($("preset").value));
  $("create").addEventListener("click", createTable);
  $("join").addEventListener("click", joinByCode);
  $("watch").addEventListener("click", () => {
    const code = cleanCode();
    if (code) location.href = seatUrl(code);
  });
  $("refresh").addEventListener("click", () => loadOpenTables(0));
  await openMoveLink(); // issue 33: /move/LINK gives this browser the player
  await me.refresh();
  showName();
  renderMine();
  refreshTimer = setInterval(() => {
    if (document.visibilityState === "visible") loadOpenTables(tablesOffset, true);
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") loadOpenTables(tablesOffset, true);
  });
  const wanted = new URLSearchParams(location.search).get("game");
  chooseGame(games.some((g) => g.name === wanted) ? wanted : games[0]?.name);
  renderMySeats();
  loadOpenTables();
}

/** The player's name: asked once, kept in this browser, sent when creating or joining a table. */
function setupName() {
  const show = () => {
    const p = me.player();
    const name = p ? p.name : playerName();
    $("name-form").classList.toggle("hidden", !!name);
    $("name-shown").classList.toggle("hidden", !name);
    $("name-value").textContent = name;
    if (document.activeElement !== $("player-name")) $("player-name").value = name; // not while typing
    $("my-page").classList.toggle("hidden", !p);
    $("move-device").classList.toggle("hidden", !p);
    if (p) $("my-page").href = `/p/${encodeURIComponent(p.id)}`;
  };
  // issue 33: saving the name makes the player (a key kept in this browser), or renames it
  $("name-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("name-error").textContent = "";
    try {
      await me.saveName($("player-name").value);
    } catch (err) {
      $("name-error").textContent = err.message;
    }
    show();
    renderMine();
  });
  $("move-device").addEventListener("click", showMoveLink);
  showName = show;
  $("name-change").addEventListener("click", () => {
    $("name-form").classList.remove("hidden");
    $("name-shown").classList.add("hidden");
    $("player-name").focus();
  });
  show();
}

function chooseGame(name) {
  current = games.find((g) => g.name === name) || null;
  if (!current) return;
  $("game").value = current.name;
  $("game-desc").textContent = current.description || "";
  const rules = $("rules-for-game");
  rules.classList.toggle("hidden", !current.rules_url);
  if (current.rules_url) {
    rules.href = current.rules_url;
    rules.textContent = _("How to play {game}", { game: current.title || current.name });
    $("rules-top").href = current.rules_url;
  }
  const ps = $("preset");
  clear(ps);
  for (const p of current.presets) ps.append(h("option", { value: p.name }, p.name));
  choosePreset(current.default_preset || current.presets[0]?.name);
}

function presetRecord() {
  return current.presets.find((p) => p.name === $("preset").value) || current.presets[0];
}

function choosePreset(name) {
  $("preset").value = name;
  optionValues = {};
  $("preset-doc").textContent = presetRecord()?.doc || "";
  renderOptions();
  renderSeats();
}

/** The value an option has now: the user's choice, else the preset's, else the default. */
function optionValue(opt) {
  if (opt.name in optionValues) return optionValues[opt.name];
  const po = presetRecord()?.options || {};
  return opt.name in po ? po[opt.name] : opt.default;
}

function playerCount() {
  const opt = current.options.find((o) => o.name === "players");
  return opt ? Number(optionValue(opt)) : 4;
}

function renderOptions() {
  const box = clear($("options"));
  for (const opt of current.options) {
    const value = optionValue(opt);
    const changed = opt.name in optionValues;
    const input = optionInput(opt, value);
    box.append(
      h(
        `div.opt${changed ? ".changed" : ""}`,
        { dataset: { option: opt.name } },
        h("label", { for: `opt-${opt.name}` }, h("span.name", opt.label || opt.name)),
        input,
        h("small", `${opt.meaning || opt.doc || ""}${range(opt)}`, " ", h("code.opt-code", { title: _("the option's name on the command line") }, opt.name)),
      ),
    );
  }
}

/** "(2 to 6)" for a number with bounds; nothing for a choice or a yes/no. */
function range(opt) {
  if (opt.type !== "integer" && opt.type !== "number") return "";
  if (opt.min != null && opt.max != null) return ` (${opt.min} to ${opt.max})`;
  if (opt.min != null) return " " + _("({min} or more)", { min: opt.min });
  return "";
}

/** An option's value in words: "knocker_safe" → "knocker safe", null → "none". */
function valueWord(v) {
  if (v === null) return "none";
  return String(v).replace(/_/g, " ");
}

function optionInput(opt, value) {
  const id = `opt-${opt.name}`;
  // Only this row changes (re-drawing the list under a focused input would fight the browser).
  const set = (v) => {
    optionValues[opt.name] = v;
    document.querySelector(`.opt[data-option="${opt.name}"]`)?.classList.add("changed");
    if (opt.name === "players") renderSeats();
  };
  if (Array.isArray(opt.choices) && opt.choices.length) {
    const sel = h("select", { id });
    const choices = [...opt.choices];
    if (opt.nullable && !choices.includes(null)) choices.unshift(null);
    choices.forEach((c, i) => sel.append(h("option", { value: String(i) }, valueWord(c))));
    sel.value = String(choices.findIndex((c) => JSON.stringify(c) === JSON.stringify(value)));
    sel.addEventListener("change", () => set(choices[Number(sel.value)]));
    return sel;
  }
  if (opt.type === "boolean" || typeof opt.default === "boolean") {
    const cb = h("input", { type: "checkbox", id });
    cb.checked = !!value;
    cb.addEventListener("change", () => set(cb.checked));
    return cb;
  }
  if (opt.type === "integer" || opt.type === "number" || typeof opt.default === "number") {
    const inp = h("input", { type: "number", id, step: opt.type === "integer" ? "1" : "any" });
    if (opt.min != null) inp.min = String(opt.min);
    if (opt.max != null) inp.max = String(opt.max);
    inp.value = value == null ? "" : String(value);
    inp.placeholder = opt.nullable ? "none" : "";
    inp.addEventListener("change", () => {
      const t = inp.value.trim();
      set(t === "" && opt.nullable ? null : Number(t));
    });
    return inp;
  }
  const inp = h("input", { type: "text", id });
  inp.value = value == null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  inp.addEventListener("change", () => {
    let v = inp.value;
    if (typeof opt.default !== "string") {
      try {
        v = JSON.parse(v);
      } catch {
        /* keep the text; the server names the problem */
      }
    }
    set(opt.nullable && inp.value.trim() === "" ? null : v);
  });
  return inp;
}

let seatChoices = [];
const seatOpen = []; // seat -> anyone may take it from the open tables list
function renderSeats() {
  const n = playerCount();
  const bots = offeredBots();
  const def = bots.includes(current.default_bot) ? current.default_bot : bots[0];
  seatChoices = Array.from({ length: n }, (_, i) => {
    const was = seatChoices[i];
    if (was && (was === "human" || bots.includes(was.slice(4)))) return was;
    return i === 0 ? "human" : `bot:${def}`;
  });
  seatChoices.length = n;
  seatOpen.length = n;
  const box = clear($("seats"));
  const openLabels = [];
  // Only the other human seats can be open (the first one is the creator's).
  const showOpen = () => openLabels.forEach((l, i) => l.classList.toggle("hidden", seatChoices[i] !== "human" || seatChoices.indexOf("human") === i));
  for (let i = 0; i < n; i++) {
    const sel = h("select", { "aria-label": seatName(i, n), dataset: { seat: String(i) } });
    sel.append(h("option", { value: "human" }, _("Human player")));
    for (const b of bots) sel.append(h("option", { value: `bot:${b}` }, botLabel(b)));
    sel.value = seatChoices[i];
    sel.addEventListener("change", () => {
      seatChoices[i] = sel.value;
      showOpen();
    });
    const open = h("input", { type: "checkbox", dataset: { openSeat: String(i) } });
    open.checked = !!seatOpen[i];
    open.addEventListener("change", () => (seatOpen[i] = open.checked));
    openLabels.push(h("label.open-seat", open, _("open seat (anyone can join from the list)")));
    box.append(h("div.seat-row", h("span.who", seatName(i, n)), sel, openLabels[i]));
  }
  showOpen();
  const levels = clear($("bot-levels-list"));
  for (const b of bots) {
    const w = BOT_WORDS[b];
    levels.append(h("dt", w ? w[0] : b), h("dd", w ? w[1] : _("a bot level of this server")));
  }
  const partners = !current.partnerships ? "" : n === 4 ? " " + _("Partners sit opposite: South with North, West with East.") : n === 6 ? " " + _("Partners: players 1 & 4, 2 & 5, 3 & 6.") : "";
  $("seat-note").textContent = _("You take the first human seat; each other human seat gets its own invite link. An open seat is also listed for anyone to take.") + partners;
}

async function createTable() {
  $("create-error").textContent = "";
  const first = seatChoices.indexOf("human");
  const seats = seatChoices.map((c, i) => (c === "human" ? { kind: "human", open: i !== first && !!seatOpen[i] } : { kind: "bot", bot: c.slice(4) }));
  const body = {
    game: current.name,
    preset: $("preset").value,
    options: { ...optionValues },
    players: playerCount(),
    seats,
    // no name given: "{game} table" in the reader's language (the server's own default is English)
    name: $("table-name").value.trim() || _("{game} table", { game: gameTitle(current.name) }),
    player: playerName() || undefined,
    hints: $("hints-on").checked || undefined, // unticked: the server's default (one human: on)
  };
  const btn = $("create");
  btn.disabled = true;
  try {
    const t = await api("POST", "/api/tables", body);
    // issue 33: the seat is the player's; rated or not and the turn timer (the host's choice)
    await afterCreate(t, { rated: $("rated-on").checked, turnTimer: Number($("turn-timer").value) });
    showCreated(t);
  } catch (e) {
    $("create-error").textContent = e.message;
  } finally {
    btn.disabled = false;
  }
}

function showCreated(t) {
  $("created").classList.remove("hidden");
  $("created-code").textContent = t.code;
  const box = clear($("invite-links"));
  const origin = location.origin;
  const invites = [];
  if (t.you) rememberSeat(t.code, t.you.seat, t.you.token, t.game, true); // the table's host
  // Nobody to invite (the other seats are bots): the creator sits down at once.
  if (t.you && !t.seats.some((s) => s.kind === "human" && s.seat !== t.you.seat)) {
    location.href = seatUrl(t.code);
    return;
  }
  for (const s of t.seats) {
    if (s.kind !== "human") continue;
    const name = seatName(s.seat, t.players);
    if (t.you && t.you.seat === s.seat) {
      box.append(h("div.link-row", { dataset: { seat: String(s.seat) } }, h("b", _("{players} (you)", { players: name })), h("a.btn.primary.small", { href: seatUrl(t.code), id: "go-to-table" }, _("Take my seat"))));
      continue;
    }
    if (!s.invite_url) continue;
    const url = origin + s.invite_url;
    invites.push({ seat: s.seat, url: s.invite_url });
    const copy = h("button.btn.small", { type: "button" }, _("Copy"));
    copy.addEventListener("click", () => copyText(url, copy));
    box.append(
      h(
        "div.link-row.invite",
        { dataset: { seat: String(s.seat) } },
        h("b", name),
        h("input", { type: "text", readonly: true, value: url, "aria-label": _("invite link seat {n}", { n: s.seat }) }),
        copy,
        h("small.muted.link-note", _("Works once, for one person: send it to the friend who plays {name}.", { name }) + (s.open ? " " + _("This seat is open: anyone can also take it from the list.") : "")),
      ),
    );
  }
  rememberInvites(t.code, invites);
  const watch = origin + (t.watch_url || seatUrl(t.code));
  const copy = h("button.btn.small", { type: "button" }, _("Copy"));
  copy.addEventListener("click", () => copyText(watch, copy));
  box.append(h("div.link-row", h("b", _("Watchers")), h("input", { type: "text", readonly: true, value: watch }), copy));
  renderMySeats();
}

function cleanCode() {
  const code = $("join-code").value.trim().toUpperCase().replace(/.*\/T\//, "").replace(/[?#].*$/, "");
  if (!code) $("join-error").textContent = _("Type a table code first.");
  return code;
}

async function joinByCode() {
  $("join-error").textContent = "";
  const code = cleanCode();
  if (!code) return;
  try {
    const r = await api("POST", `/api/tables/${encodeURIComponent(code)}/join`, { player: playerName() || undefined });
    rememberSeat(code, r.seat, r.token);
    location.href = seatUrl(code);
  } catch (e) {
    $("join-error").textContent = e.message;
  }
}

function renderMySeats() {
  const box = clear($("my-seats"));
  const seats = loadSeats();
  if (!seats.length) box.append(h("p.muted", _("None yet — seats you create or join are remembered here.")));
  for (const s of seats.slice(0, 8)) {
    box.append(
      h("div.link-row", h("a", { href: seatUrl(s.code) }, _("Table {code}", { code: s.code })), h("span.muted", s.seat != null ? _("{game}, seat {n}", { game: gameTitle(s.game || ""), n: s.seat + 1 }) : gameTitle(s.game || ""))),
    );
  }
}

/** "with Anna, Bea": the names the seated players gave, for the open tables list. */
function players(t) {
  const names = (t.seats || []).map((s) => s.name).filter(Boolean);
  return names.length ? h("small.muted", ` with ${names.join(", ")}`) : null;
}

/** Tables with a seat anyone may take (their creators marked it open), a page at a time. */
async function loadOpenTables(offset = tablesOffset, quiet = false) {
  let data;
  try {
    data = await api("GET", `/api/tables?offset=${offset}&limit=${PAGE}`);
  } catch (e) {
    if (!quiet) clear($("open-tables")).append(h("p.error-box", e.message));
    return;
  }
  const box = $("open-tables");
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.join : null;
  clear(box);
  tablesOffset = offset;
  $("tables-updated").textContent = _("updated {time}", { time: new Date().toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" }) });
  const tables = data.tables || [];
  if (!tables.length) {
    box.append(h("p.muted", _("No open seats right now. A table shows up here when its creator marks a seat open.")));
    return;
  }
  const tbody = h("tbody");
  for (const t of tables) {
    const free = t.free_seats || [];
    const join = h("button.btn.small", { type: "button", disabled: !free.length, dataset: { join: t.code } }, _("Join"));
    join.addEventListener("click", () => {
      $("join-code").value = t.code;
      joinByCode();
    });
    tbody.append(
      h(
        "tr",
        { dataset: { code: t.code } },
        h("td.mono", t.code),
        h("td", t.name || "", players(t)),
        h("td", `${gameTitle(t.game)} (${t.preset})`),
        h("td", tableStatus(t.status)),
        h("td", ngettext("{count} open", "{count} open", free.length, { count: free.length })),
        h("td", join, " ", h("a.btn.small", { href: seatUrl(t.code) }, _("Watch"))),
      ),
    );
  }
  box.append(h("div.table-scroll", h("table.tables-list", h("thead", h("tr", [_("Code"), _("Name"), _("Game"), _("Status"), _("Seats")].map((x) => h("th", x)), h("th", h("span.sr-only", _("Join or watch"))))), tbody)));
  if (focused) box.querySelector(`[data-join="${focused}"]`)?.focus();
  const total = data.total ?? tables.length;
  if (total > PAGE) {
    const prev = h("button.btn.small", { type: "button", disabled: offset <= 0 }, _("Previous"));
    const next = h("button.btn.small", { type: "button", disabled: offset + tables.length >= total }, _("More"));
    prev.addEventListener("click", () => loadOpenTables(Math.max(0, offset - PAGE)));
    next.addEventListener("click", () => loadOpenTables(offset + PAGE));
    box.append(h("p.seat-row", prev, next, h("span.muted", _("{first}–{last} of {total}", { first: offset + 1, last: offset + tables.length, total }))));
  }
}

init();
