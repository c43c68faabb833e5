// Tiny DOM helpers shared by the pages (no framework, no build step).
import { _, lang, number } from "./i18n.js";

/** h("div.cls#id", {attr: v, onclick: fn}, ...children) → element. */
export function h(spec, attrs = {}, ...children) {
  const m = /^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const tag = (m && m[1]) || "div";
  const node = document.createElement(tag);
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") node.classList.add(part.slice(1));
      else node.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = {};
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "text") node.textContent = v;
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** 1234 → "1,234"; −50 → "−50" (true minus sign, as a score sheet prints it). */
export function fmt(n) {
  if (typeof n !== "number") return n == null ? "" : String(n);
  const s = number(Math.abs(n), { maximumFractionDigits: 1 }); // 1.234 in Dutch (issue 34)
  return n < 0 ? `−${s}` : s;
}

/** "cards_left" → "Cards left". */
export function humanize(key) {
  const s = String(key).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** fetch JSON; throws Error(message) with the server's `detail`/`error` text on failure, its
 * `status`, and for a refusal to go faster (429) the seconds to wait (`retryAfter`). */
export async function api(method, url, body, parse = JSON.parse) {
  // the server tells its refusals in the language the reader picked (issue 34)
  const init = { method, headers: { "accept-language": lang } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new Error(`cannot reach the server (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const err = new Error(errorText(data) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    if (res.status === 429) err.retryAfter = Number(res.headers.get("retry-after")) || null;
    throw err;
  }
  return data;
}

export function errorText(data) {
  if (data == null) return "";
  if (typeof data === "string") return data;
  const d = data.detail ?? data.error ?? data.message ?? data.reason;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => (x.loc ? `${x.loc.join(".")}: ${x.msg}` : x.msg ?? JSON.stringify(x))).join("; ");
  if (d && typeof d === "object") return d.message ?? d.reason ?? JSON.stringify(d);
  return JSON.stringify(data);
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = h("textarea", { style: "position:fixed;left:-1000px" }, text);
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  if (button) {
    const old = button.textContent;
    button.textContent = _("Copied ✓");
    setTimeout(() => (button.textContent = old), 1200);
  }
}
