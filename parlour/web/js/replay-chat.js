// The table's chat in the replay viewer (issue 33): every message as the table journaled it,
// each marked with the move it was said at; messages said after the step shown are dimmed. Shown
// as text only (textContent), never as HTML.
import { api, h } from "./dom.js";
import { said } from "./chat.js";
import { _ } from "./i18n.js"; // issue 34

const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();

function currentStep() {
  const n = Number(new URLSearchParams(location.hash.slice(1)).get("step"));
  return Number.isFinite(n) ? n : 0;
}

async function init() {
  let data;
  try {
    data = await api("GET", `/api/tables/${encodeURIComponent(code)}/chat`);
  } catch {
    return; // no chat to show (an old table, or the server cannot read it now)
  }
  const list = h("ol.chat-log#replay-chat-log", { "aria-label": _("Chat messages") });
  for (const m of data.messages) {
    const who = m.system ? _("Table") : m.name || (m.seat == null ? _("Spectator") : _("Seat {n}", { n: m.seat + 1 }));
    list.append(h(`li${m.system ? ".system" : ""}`, { dataset: { version: String(m.version ?? 0) } }, h("small.muted", _("move {n}", { n: m.version ?? 0 }) + " · "), h("b.who", _("{who}: ", { who })), h("span.text", said(m))));
  }
  if (!data.messages.length) list.append(h("li.muted", _("Nobody wrote in the chat.")));
  const section = h("section.panel#replay-chat", h("h2", _("Table chat")), list);
  const place = () => {
    const main = document.getElementById("replay");
    if (main && !document.getElementById("replay-chat")) main.append(section);
    const step = currentStep();
    for (const li of list.children) li.classList.toggle("muted", Number(li.dataset.version || 0) > step);
  };
  place();
  // the viewer writes the step into the address and the "Move N of M" line as it moves
  new MutationObserver(place).observe(document.getElementById("replay"), { childList: true, subtree: true, characterData: true });
}

init();
