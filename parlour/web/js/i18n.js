// Every word in the reader's language (issue 34). The messages are the server's gettext
// catalogs as JSON (/i18n/<lang>.json, made from parlour/locale/*.po: one source of truth);
// English is the msgid itself. Mark a message with _("…"), ngettext("…", "…", n) or
// pgettext("context", "…") — `pybabel extract` finds them (babel.cfg) — and give values by name:
// _("{player} discards {card}", { player, card }). The pages' own words are marked
// data-i18n (parlour/i18n/html.py) and translated by translatePage().

const KEY = "parlour.lang";

/** The languages the server has catalogs for (en first), as the server said on the last load. */
let known = ["en", "de", "es", "nl", "pt-BR"];

function supported(tag) {
  if (typeof tag !== "string" || !/^[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*$/.test(tag)) return null;
  const want = tag.replace("_", "-").toLowerCase();
  const exact = known.find((t) => t.toLowerCase() === want);
  if (exact) return exact;
  const primary = want.split("-")[0];
  return known.find((t) => t.toLowerCase().split("-")[0] === primary) || null;
}

/** The reader's language: ?lang= in the address, then the one chosen on this device, then the
 * browser's (navigator.languages), else English. */
export function chosenLang() {
  const fromUrl = new URLSearchParams(location.search).get("lang");
  if (fromUrl && supported(fromUrl)) return supported(fromUrl);
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { /* private mode */ }
  if (stored && supported(stored)) return supported(stored);
  for (const tag of navigator.languages || [navigator.language]) {
    const found = supported(tag);
    if (found) return found;
  }
  return "en";
}

let catalog = { lang: "en", messages: {}, plural: { one: 0, other: 1 }, languages: [] };

async function load(lang) {
  try {
    const r = await fetch(`/i18n/${encodeURIComponent(lang)}.json`);
    if (r.ok) return await r.json();
  } catch { /* offline: English */ }
  return { lang: "en", messages: {}, plural: { one: 0, other: 1 }, languages: [] };
}

catalog = await load(chosenLang());
if (Array.isArray(catalog.languages) && catalog.languages.length) known = catalog.languages.map((l) => l.tag);
document.documentElement.lang = catalog.lang;

/** The language the page is in now. */
export const lang = catalog.lang;

function fill(text, values) {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}

export function _(msgid, values) {
  const t = catalog.messages[msgid];
  return fill(typeof t === "string" ? t : msgid, values);
}

export function pgettext(context, msgid, values) {
  const t = catalog.messages[`${context}\u0004${msgid}`];
  return fill(typeof t === "string" ? t : msgid, values);
}

/** The games' names in the reader's language ("Mogeln" for cheat in German), as the terminal
 * and the lobby name them; code → name. */
export const GAME_TITLES = Object.freeze({ samba: pgettext("game", "Samba"), handfoot: pgettext("game", "Hand and Foot"), cheat: pgettext("game", "Cheat"), scat: pgettext("game", "Scat / 31") });

/** One game's name in the reader's language (a game without one keeps its code). */
export const gameTitle = (game) => GAME_TITLES[game] || game;

/** The bot levels a player can pick, in words: [name, what it is like]. `strong` is offered at
 * two strengths; `expert` searches longest (up to 3 s a move). */
export const BOT_WORDS = Object.freeze({
  random: [_("Beginner"), _("plays any legal move at random: easy to beat, good for learning the rules")],
  basic: [_("Casual"), _("plays by simple rules of thumb, like a friendly newcomer")],
  "strong:0.3": [_("Strong, quick"), _("looks ahead by playing out many possible deals, 0.3 s a move")],
  "strong:1": [_("Strong, thoughtful"), _("the same search with a full second a move")],
  expert: [_("Expert"), _("the deepest search Parlour plays, up to 3 s a move: the toughest opponent")],
});

/** A bot level's name ("Casual" for basic); a level without one keeps its code. */
export const botName = (level) => (BOT_WORDS[level] ? BOT_WORDS[level][0] : level);

const rules = (() => { try { return new Intl.PluralRules(catalog.lang); } catch { return new Intl.PluralRules("en"); } })();

/** ngettext("{count} card", "{count} cards", n, {count: n}): the form by the language's rules
 * (the browser's CLDR categories, mapped to the catalog's forms by the server). */
export function ngettext(singular, plural, n, values) {
  const forms = catalog.messages[singular];
  const v = values || { count: n };
  if (Array.isArray(forms)) {
    const i = catalog.plural[rules.select(n)] ?? forms.length - 1;
    return fill(forms[Math.min(i, forms.length - 1)], v);
  }
  return fill(n === 1 ? singular : plural, v);
}

/** A number as the language writes it: 10.000 in Dutch (English: 10,000). */
export function number(n, options) {
  return Number(n).toLocaleString(catalog.lang, options);
}

/** A card's rank letter in the reader's language (the Dutch heer is H, the German Dame D). */
export function rankLetter(letter) {
  if (letter === "J") return pgettext("card rank: jack", "J");
  if (letter === "Q") return pgettext("card rank: queen", "Q");
  if (letter === "K") return pgettext("card rank: king", "K");
  if (letter === "A") return pgettext("card rank: ace", "A");
  return letter;
}

function collapse(text) {
  return text.replace(/\s+/g, " ").trim();
}

/** The page's marked words (data-i18n, data-i18n-attr) in the reader's language. */
export function translatePage(root = document) {
  if (catalog.lang === "en") return;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const source = el.dataset.i18nSource || collapse(el.innerHTML);
    el.dataset.i18nSource = source;
    const t = catalog.messages[source];
    if (typeof t === "string") el.innerHTML = t;
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of el.dataset.i18nAttr.split(/\s+/)) {
      const value = el.getAttribute(name);
      if (!value) continue;
      const t = catalog.messages[collapse(value)];
      if (typeof t === "string") el.setAttribute(name, t);
    }
  }
}

/** A language selector: switching stores the choice on this device and reloads the page in it
 * (the table's connection then tells the server the new language). */
export function languagePicker() {
  const select = document.createElement("select");
  select.id = "lang-select";
  select.className = "lang-select";
  select.setAttribute("aria-label", _("Language"));
  const list = catalog.languages && catalog.languages.length ? catalog.languages : known.map((tag) => ({ tag, name: tag }));
  for (const { tag, name } of list) {
    const o = document.createElement("option");
    o.value = tag;
    o.textContent = name;
    if (tag === catalog.lang) o.selected = true;
    select.append(o);
  }
  select.addEventListener("change", () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* private mode */ }
    const url = new URL(location.href);
    if (url.searchParams.has("lang")) url.searchParams.set("lang", select.value);
    location.replace(url.toString());
  });
  return select;
}

/** Put the selector in the page's top bar (every page that imports this module). */
function mountPicker() {
  const bar = document.querySelector(".topbar");
  if (bar && !document.getElementById("lang-select")) bar.append(languagePicker());
}

translatePage();
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => { translatePage(); mountPicker(); });
else mountPicker();
