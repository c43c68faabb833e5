"""axe-core in the browser tests: inject the vendored engine into a page and run it.

axe-core comes from the npm registry (``scripts/vendor_axe.sh`` puts ``axe.min.js`` in
``tests/web/vendor/``, pinned with its sha256), so the tests need no network and no Node.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

VENDOR = Path(__file__).resolve().parent / "vendor"
AXE = VENDOR / "axe.min.js"
#: what axe itself calls serious or critical: these must be zero
BLOCKING = ("serious", "critical")


def _pinned_sha() -> str:
    line = (VENDOR / "axe-core.version").read_text().splitlines()[1]
    return line.split()[1]


def axe_source() -> str:
    data = AXE.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    assert digest == _pinned_sha(), f"{AXE} is not the pinned axe-core (sha256 {digest})"
    return data.decode("utf-8")


#: axe's default rule set (WCAG 2.x A and AA and its best practices; its experimental rules off)
RUN_JS = """async () => {
  const r = await axe.run(document, {resultTypes: ["violations"]});
  return r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")} :: ${(n.failureSummary || "").split("\\n").slice(0, 3).join(" ")}`),
    count: v.nodes.length,
  }));
}"""


def axe_run(page: Any) -> list[dict[str, Any]]:
    """The page's accessibility violations (every impact), axe's own words."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(RUN_JS)  # type: ignore[no-any-return]


def counts(violations: list[dict[str, Any]]) -> dict[str, int]:
    """Nodes found per impact: {"critical": 0, "serious": 0, "moderate": 2, "minor": 0}."""
    out = {k: 0 for k in ("critical", "serious", "moderate", "minor")}
    for v in violations:
        out[v["impact"] or "minor"] += v["count"]
    return out


def assert_no_serious(page: Any, where: str) -> dict[str, int]:
    found = axe_run(page)
    bad = [v for v in found if v["impact"] in BLOCKING]
    assert not bad, f"{where}: axe finds serious or critical problems: {bad}"
    return counts(found)


def assert_no_findings(page: Any, where: str) -> dict[str, int]:
    """Nothing of any impact (critical, serious, moderate, minor)."""
    found = axe_run(page)
    assert not found, f"{where}: axe finds {counts(found)}: {found}"
    return counts(found)
