// The Chicago (four-deal) bridge score pad: deals are entered as score-pad lines ("3NT S =",
// "4HX E -2 honors4", "pass"), kept in this browser (localStorage), and the server's
// `POST /api/chicago/sheet` scores them. Shows every deal's points above/below the line, each
// round's totals and rounded result, and the next deal's dealer and vulnerability.
import { api, clear, fmt, h } from "./dom.js";
import { _, ngettext, pgettext } from "./i18n.js"; // issue 34

const $ = (id) => document.getElementById(id);
const KEY = "parlour.chicago";
const OPTIONS = [
  ["partscore_carryover", _("Partscores carry over toward game (off: each deal scored alone)"), [true, false]],
  ["vulnerability", _("Who is vulnerable on deals 2 and 3"), ["dealer", "non_dealer"]],
  ["round_half", _("Rounding a difference ending in exactly 50"), ["up", "down", "even"]],
  ["honors", _("Score honors"), [true, false]],
  ["first_dealer", _("First dealer of every round"), ["N", "E", "S", "W"]],
];
/** An option's choice as the reader says it (the value sent stays the option's own). */
const CHOICES = {
  true: _("on"),
  false: _("off"),
  dealer: _("the dealer's side"),
  non_dealer: _("the dealer's opponents"),
  up: pgettext("rounding", "up"),
  down: pgettext("rounding", "down"),
  even: pgettext("rounding", "to even"),
};
let saved = load();

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { entries: Array.isArray(v.entries) ? v.entries : [], options: v.options || {} };
  } catch {
    return { entries: [], options: {} };
  }
}

function save() {
  localStorage.setItem(KEY, JSON.stringify(saved));
}

function fillForm() {
  for (let l = 1; l <= 7; l++) $("level").append(h("option", { value: String(l) }, String(l)));
  for (const [v, t] of [["C", "♣ " + pgettext("suit", "clubs")], ["D", "♦ " + pgettext("suit", "diamonds")], ["H", "♥ " + pgettext("suit", "hearts")], ["S", "♠ " + pgettext("suit", "spades")], ["NT", pgettext("strain", "NT")]]) $("strain").append(h("option", { value: v }, t));
  // the declarer's seat by the letter the reader's players use (O for East in German); the
  // value stays N/E/S/W, the score pad's notation
  for (const o of $("declarer").options) {
    o.value = o.value || o.textContent;
    o.textContent = pgettext("bridge seat", o.value);
  }
  $("level").value = "3";
  $("strain").value = "NT";
  $("level").addEventListener("change", fillResults);
  fillResults();
}

function fillResults() {
  const need = Number($("level").value) + 6;
  const sel = clear($("result"));
  sel.append(h("option", { value: "=" }, _("made exactly (=)")));
  for (let n = 1; need + n <= 13; n++) sel.append(h("option", { value: `+${n}` }, _("+{over} ({count} tricks)", { over: n, count: need + n })));
  for (let n = 1; n <= need; n++) sel.append(h("option", { value: `-${n}` }, ngettext("down {down} ({count} trick)", "down {down} ({count} tricks)", need - n, { down: n, count: need - n })));
}

function formEntry() {
  const bid = `${$("level").value}${$("strain").value}${$("doubling").value}`;
  return [bid, $("declarer").value, $("result").value, $("honors").value].filter(Boolean).join(" ");
}

async function submit(entries, options = saved.options) {
  $("error").textContent = "";
  try {
    const sheet = await api("POST", "/api/chicago/sheet", { entries, options });
    saved = { entries, options };
    save();
    renderSheet(sheet);
    return true;
  } catch (e) {
    $("error").textContent = e.message;
    return false;
  }
}

function vulBadge(v) {
  const ns = v.vulnerable_sides ? v.vulnerable_sides.NS : false;
  const ew = v.vulnerable_sides ? v.vulnerable_sides.EW : false;
  return h(
    "span",
    h(`span.vul.${ns ? "yes" : "no"}`, ns ? _("N-S vulnerable") : _("N-S not vulnerable")),
    " ",
    h(`span.vul.${ew ? "yes" : "no"}`, ew ? _("E-W vulnerable") : _("E-W not vulnerable")),
  );
}

/** A deal's vulnerability ("none", "NS", "EW", "both") in words. */
function vulWords(v) {
  if (v === "none") return _("nobody vulnerable");
  if (v === "NS") return _("N-S vulnerable");
  if (v === "EW") return _("E-W vulnerable");
  if (v === "both") return _("both vulnerable");
  return _("vulnerable: {sides}", { sides: v });
}

function renderSheet(sheet) {
  const n = sheet.next;
  clear($("next-deal")).append(h("b", _("Round {round}, deal {deal}: {dealer} deals.", { round: n.round, deal: n.deal, dealer: n.dealer }), " "), vulBadge(n));
  $("next-deal").classList.remove("muted");
  const s = sheet.session;
  $("session-score").textContent = _("session after {count} complete round(s): N-S {score}", { count: s.complete_rounds, score: s.display });
  const box = clear($("sheet"));
  if (!sheet.rounds.length) box.append(h("p.muted", _("No deals yet. Enter the first deal above.")));
  // Four columns (deal, contract, We, They) so both sides' points and the difference stay on a
  // phone's screen; each deal's breakdown is a full-width line under it.
  for (const r of sheet.rounds) {
    const tbody = h("tbody");
    for (const d of r.deals) {
      const what = (side) => d[side].items.map((i) => i.line === "below" ? _("{what} {points} (below the line)", { what: i.what, points: fmt(i.points) }) : `${i.what} ${fmt(i.points)}`).join(", ");
      const detail = d.passed_out ? _("not counted: the same dealer deals again") : [what("NS") ? _("N-S: {items}", { items: what("NS") }) : "", what("EW") ? _("E-W: {items}", { items: what("EW") }) : ""].filter(Boolean).join(" · ");
      tbody.append(
        h(
          "tr.deal-row",
          { dataset: { deal: String(d.deal) } },
          h("td", h("b", d.passed_out ? "—" : `${d.deal}`), h("small.deal-meta", " " + _("{dealer} deals", { dealer: d.dealer }) + " · " + vulWords(d.vulnerable))),
          h("td.entry", d.passed_out ? _("passed out") : d.entry),
          h("td.num", { title: what("NS") }, d.NS.total ? fmt(d.NS.total) : ""),
          h("td.num", { title: what("EW") }, d.EW.total ? fmt(d.EW.total) : ""),
        ),
        h("tr.detail-row", h("td.detail", { colspan: "4" }, detail)),
      );
    }
    const diff = r.complete ? _("difference {difference} → {rounded} ({result})", { difference: fmt(r.difference), rounded: fmt(r.rounded_difference), result: r.display }) : _("so far");
    tbody.append(h("tr.total", h("td", { colspan: "2" }, h("b", _("Round {round} total", { round: r.number })), h("small.deal-meta", ` ${diff}`)), h("td.num", fmt(r.totals.NS)), h("td.num", fmt(r.totals.EW))));
    box.append(
      h("h3", _("Round {round}", { round: r.number })),
      h("div.table-scroll", h(`table.sheet.chicago-sheet#round-${r.number}`, h("thead", h("tr", h("th", _("Deal")), h("th", _("Contract")), h("th.num", _("We (N-S)")), h("th.num", _("They (E-W)")))), tbody)),
    );
  }
}

function renderOptions() {
  const box = clear($("options"));
  for (const [name, doc, choices] of OPTIONS) {
    const sel = h("select", { id: `opt-${name}` });
    choices.forEach((c, i) => sel.append(h("option", { value: String(i) }, String(CHOICES[String(c)] ?? c))));
    const cur = name in saved.options ? saved.options[name] : choices[0];
    sel.value = String(Math.max(0, choices.indexOf(cur)));
    sel.addEventListener("change", async () => {
      const options = { ...saved.options, [name]: choices[Number(sel.value)] };
      if (!(await submit(saved.entries, options))) renderOptions();
    });
    box.append(h("div.opt", h("label", { for: `opt-${name}` }, h("span.name", doc)), sel, h("small", h("code", name))));
  }
}

async function add(text) {
  if (!text.trim()) {
    $("error").textContent = _("Type a deal like 3NT S = or pass.");
    return;
  }
  if (await submit([...saved.entries, text.trim()])) $("entry-text").value = "";
}

fillForm();
renderOptions();
$("add-deal").addEventListener("click", () => add(formEntry()));
$("add-pass").addEventListener("click", () => add("pass"));
$("add-text").addEventListener("click", () => add($("entry-text").value));
$("entry-text").addEventListener("keydown", (e) => e.key === "Enter" && add($("entry-text").value));
$("undo").addEventListener("click", () => saved.entries.length && submit(saved.entries.slice(0, -1)));
$("new-session").addEventListener("click", () => confirm(_("Start a new session? The sheet is cleared.")) && submit([]));
submit(saved.entries);
