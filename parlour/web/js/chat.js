// Table chat and the turn clock (issue 33). Messages are shown as text (textContent, never HTML
// or links); one-tap quick phrases for phones; mute a player for yourself; the host turns the
// chat off or lets spectators write. The turn clock counts down the decision of the seat to act
// (when the table has a turn timer) in the dock and in the tab's title.
import { h } from "./dom.js";
import { _, pgettext } from "./i18n.js"; // issue 34

/** Marks a message for extraction (Babel's gettext_noop) where it is kept in English. */
const N_ = (msgid) => msgid;
/** The one-tap phrases, sent in English (the server takes only these with `quick`) and shown to
 * every reader in their own language: a Dutch player's "Good luck" reads "Succes!" to a Dutch
 * reader and "Viel Glück!" to a German one. */
export const QUICK = [N_("Good luck"), N_("Well played"), N_("Your turn"), N_("Thanks"), N_("Oops")];
const MAX = 200;

export const chat = {
  messages: [], // as the server sent them (newest last)
  muted: [], // seats this player muted
  settings: { on: true, spectators: false, silenced: [] },
  unread: 0,
  draft: "",
  error: "",
};

let sendFn = () => false;
/** How this module talks to the server: a function that sends one message on the table's socket. */
export function connectChat(send) {
  sendFn = send;
}

/** The table's socket opened: ask for the messages so far. */
export function welcome() {
  chat.messages = [];
  sendFn({ type: "chat_log" });
}

/** A chat-related message from the server; true if the page should redraw the chat. */
export function onMessage(msg, visible) {
  if (msg.type === "chat") {
    if (!chat.messages.some((m) => m.seq === msg.seq)) chat.messages.push(msg);
    if (!visible) chat.unread += 1;
    return true;
  }
  if (msg.type === "chat_log") {
    chat.messages = msg.messages || [];
    chat.muted = msg.muted || [];
    if (msg.chat) chat.settings = msg.chat;
    return true;
  }
  if (msg.type === "chat_muted") {
    chat.muted = msg.muted || [];
    return true;
  }
  return false;
}

export function onTable(table) {
  if (table && table.chat) chat.settings = table.chat;
}

/** A refusal of a chat message (too long, too fast, chat off, muted …): shown in the chat box. */
export function onError(msg) {
  chat.error = msg.message || msg.code;
}

/** A message's text as this reader reads it: a quick phrase in their language, else as written. */
export function said(m) {
  return m.quick && QUICK.includes(m.text) ? phrase(m.text) : m.text;
}

/** A quick phrase as said at a card table in the reader's language ("Your turn" is shorter
 * there than the dock's "it is your turn"). */
function phrase(p) {
  return p === QUICK[2] ? pgettext("quick chat phrase", "Your turn") : _(p);
}

function say(text, quick = false) {
  chat.error = "";
  if (!text.trim()) return;
  const msg = { type: "chat", text };
  if (quick) msg.quick = true;
  sendFn(msg);
}

/** The Chat tab: the messages (oldest first, newest at the bottom), the box, quick phrases. */
export function chatPanel(ctx) {
  chat.unread = 0;
  const box = h("section.chat#chat", { "aria-label": _("Table chat") });
  const list = h("ol.chat-log#chat-log", { "aria-live": "polite", "aria-label": _("Chat messages") });
  for (const m of chat.messages.slice(-200)) {
    if (m.seat != null && chat.muted.includes(m.seat)) continue;
    const who = m.system ? _("Table") : m.seat != null && ctx.seat === m.seat ? _("You") : m.name || (m.seat == null ? _("Spectator") : ctx.name(m.seat));
    const li = h(`li${m.system ? ".system" : ""}${m.quick ? ".quick" : ""}`, { dataset: { seq: String(m.seq ?? "") } }, h("b.who", _("{who}: ", { who })), h("span.text", said(m)));
    list.append(li);
  }
  if (!list.children.length) list.append(h("li.muted#chat-empty", _("No messages yet.")));
  box.append(list);
  const canWrite = chat.settings.on && (!ctx.spectator || chat.settings.spectators);
  if (!chat.settings.on) box.append(h("p.muted.small", _("The host turned the chat off.")));
  else if (!canWrite) box.append(h("p.muted.small", _("Spectators read the chat; the host has not let them write.")));
  if (canWrite) {
    const input = h("input#chat-input", { type: "text", maxlength: String(MAX), placeholder: _("Say something to the table"), "aria-label": _("Chat message"), value: chat.draft, autocomplete: "off" });
    input.addEventListener("input", () => (chat.draft = input.value));
    const form = h("form.chat-form#chat-form", input, h("button.btn.small.primary#chat-send", { type: "submit" }, _("Send")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      say(input.value);
      chat.draft = "";
      input.value = "";
    });
    const quick = h("div.quick-phrases#quick-phrases", { role: "group", "aria-label": _("Quick phrases") });
    for (const p of QUICK) {
      const b = h("button.btn.small.quick", { type: "button", dataset: { phrase: p } }, phrase(p));
      b.addEventListener("click", () => say(p, true));
      quick.append(b);
    }
    box.append(form, quick);
  }
  if (chat.error) box.append(h("p.error-box#chat-error", { role: "alert" }, chat.error));
  if (!ctx.spectator && ctx.seat != null) box.append(muteControls(ctx));
  if (!ctx.spectator && ctx.table && ctx.isHost && ctx.isHost()) box.append(hostControls());
  queueMicrotask(() => {
    const el = document.getElementById("chat-log");
    if (el) el.scrollTop = el.scrollHeight;
  });
  return box;
}

function muteControls(ctx) {
  const det = h("details.chat-mutes", h("summary", _("Mute a player (for you only)")));
  for (const s of ctx.seats || []) {
    if (s.seat === ctx.seat || s.kind !== "human") continue;
    const on = chat.muted.includes(s.seat);
    const cb = h("input", { type: "checkbox", dataset: { mute: String(s.seat) } });
    cb.checked = on;
    cb.addEventListener("change", () => sendFn({ type: "chat_mute", seat: s.seat, mute: cb.checked }));
    det.append(h("label.row", cb, ` ${ctx.name(s.seat)}`));
  }
  return det;
}

function hostControls() {
  const det = h("details.chat-host", h("summary", _("Chat settings (host)")));
  const on = h("input#chat-on", { type: "checkbox" });
  on.checked = !!chat.settings.on;
  on.addEventListener("change", () => sendFn({ type: "chat_settings", on: on.checked }));
  const spec = h("input#chat-spectators", { type: "checkbox" });
  spec.checked = !!chat.settings.spectators;
  spec.addEventListener("change", () => sendFn({ type: "chat_settings", spectators: spec.checked }));
  det.append(h("label.row", on, " ", _("Chat on")), h("label.row", spec, " ", _("Spectators may write")));
  return det;
}

// --- the turn clock ------------------------------------------------------------------------------

let clock = null; // {seat, version, deadline}
let ticker = null;

/** A `timer` message: the decision of `seat` at `version` has `left` seconds. */
export function onTimer(msg, redraw) {
  clock = { seat: msg.seat, version: msg.version, deadline: Date.now() + msg.left * 1000 };
  if (!ticker) ticker = setInterval(redraw, 1000);
}

/** Seconds left for this decision (null: no clock running for it). */
export function secondsLeft(ctx) {
  if (!clock || clock.version !== ctx.version || ctx.status !== "playing") return null;
  return Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
}

export function clockSeat() {
  return clock ? clock.seat : null;
}

/** "0:23" */
export function clockText(s) {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The clock shown in the dock: whose decision and the time left (null: none). */
export function clockBadge(ctx) {
  const s = secondsLeft(ctx);
  if (s == null) return null;
  const mine = !ctx.spectator && clock.seat === ctx.seat;
  return h(`span.turn-clock${s <= 10 ? ".low" : ""}#turn-clock`, { role: "timer", "aria-label": mine ? _("Your time left") : _("{player}'s time left", { player: ctx.name(clock.seat) }) }, "⏱ " + (mine ? _("You") : ctx.name(clock.seat)) + " " + clockText(s));
}
