"""Text contrast on the felt (WCAG AA), measured in the page.

axe-core leaves text on a gradient "to be reviewed" (it cannot tell the colour behind it), and the
felt is a gradient; this check takes, for every visible text on the table page, the nearest solid
background behind it — or, on the felt, its lightest and darkest colours — and computes the
WCAG contrast ratio against the worst of them."""

from __future__ import annotations

from typing import Any

CONTRAST_JS = """(root) => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(",").map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const over = (fg, bg) => ({r: fg.r * fg.a + bg.r * (1 - fg.a), g: fg.g * fg.a + bg.g * (1 - fg.a), b: fg.b * fg.a + bg.b * (1 - fg.a), a: 1});
  const felt = getComputedStyle(document.documentElement);
  const hex = (h) => { h = h.trim().replace("#", ""); return {r: parseInt(h.slice(0, 2), 16), g: parseInt(h.slice(2, 4), 16), b: parseInt(h.slice(4, 6), 16), a: 1}; };
  const feltColours = ["--felt", "--felt-dark", "--felt-light"].map((v) => hex(felt.getPropertyValue(v)));
  // the backgrounds behind an element, innermost first, stopping at the first opaque one
  const backs = (el) => {
    const layers = [];
    for (let p = el; p; p = p.parentElement) {
      const st = getComputedStyle(p);
      if (st.backgroundImage && st.backgroundImage.includes("gradient")) return {layers, base: feltColours};
      const c = parse(st.backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) return {layers: layers.slice(0, -1), base: [c]}; }
    }
    return {layers, base: [{r: 255, g: 255, b: 255, a: 1}]};
  };
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll(root + " *")) {
    if (!el.childNodes.length || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.closest("svg, [aria-hidden=true], .sr-only")) continue;
    const st = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (st.visibility === "hidden" || st.display === "none" || box.width === 0 || box.height === 0) continue;
    let opacity = 1;
    for (let p = el; p; p = p.parentElement) opacity *= Number(getComputedStyle(p).opacity);
    if (el.closest("button:disabled")) continue; // WCAG exempts inactive controls
    const fg0 = parse(st.color); if (!fg0) continue;
    const {layers, base} = backs(el);
    let worst = 99;
    for (const b of base) {
      let bg = b;
      for (const l of [...layers].reverse()) bg = over(l, bg);
      const fg = over({...fg0, a: fg0.a * opacity}, bg);
      worst = Math.min(worst, ratio(fg, bg));
    }
    const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    const need = large ? 3 : 4.5;
    const key = `${el.tagName}.${el.className}:${el.textContent.trim().slice(0, 20)}`;
    if (worst < need && !seen.has(key)) { seen.add(key); out.push(`${key} ${worst.toFixed(2)} < ${need}`); }
  }
  return out;
}"""


def low_contrast(page: Any, root: str = "body") -> list[str]:
    """Texts under ``root`` whose contrast is below WCAG AA (4.5:1, 3:1 for large text)."""
    return page.evaluate(CONTRAST_JS, root)  # type: ignore[no-any-return]
