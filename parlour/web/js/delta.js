// State deltas (docs/protocol.md, "Deltas"): the page asks for them (`?deltas=1`), and after the
// first `state` on a socket the server may send only what changed since the previous one
// (`base`, `patch`). Here each `state` is made whole again before the page sees it.
const PARTS = ["seat", "to_act", "your_turn", "view", "legal", "outcome", "seats"];
let last = null; // the seat's part of the previous state on this socket, and its version

/** A new socket: its first state is whole. */
export function reset() {
  last = null;
}

/** The message as a whole `state` (other messages as they are); `null` when a delta does not
 * follow the state this page has (never expected: the page then asks for a full `sync`). */
export function whole(msg) {
  if (msg.type !== "state") return msg;
  if (!("patch" in msg)) {
    last = { version: msg.version };
    for (const k of PARTS) last[k] = structuredClone(msg[k]);
    return msg;
  }
  if (!last || last.version !== msg.base) return null;
  for (const op of msg.patch) {
    const path = op[0];
    let obj = last;
    for (let i = 0; i < path.length - 1; i++) obj = obj[path[i]];
    if (op.length > 1) obj[path[path.length - 1]] = op[1];
    else delete obj[path[path.length - 1]];
  }
  last.version = msg.version;
  const out = { ...msg };
  delete out.base;
  delete out.patch;
  for (const k of PARTS) out[k] = structuredClone(last[k]);
  return out;
}
