// SHA-256 in plain JavaScript (FIPS 180-4), synchronous, for text as UTF-8. The browser's own
// crypto.subtle.digest exists only on https or localhost; a table opened over plain http on a
// home network has none, and the deal checks must work there too.

const ror = (x, n) => (x >>> n) | (x << (32 - n));
const frac32 = (x) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
const PRIMES = [];
for (let n = 2; PRIMES.length < 64; n++) if (PRIMES.every((p) => n % p)) PRIMES.push(n);
// Round constants: cube roots of the first 64 primes; start: square roots of the first 8.
const K = Uint32Array.from(PRIMES, (p) => frac32(Math.cbrt(p)));
const START = Uint32Array.from(PRIMES.slice(0, 8), (p) => frac32(Math.sqrt(p)));

/** SHA-256 of a string (UTF-8) or a Uint8Array, as 64 lowercase hex digits. */
export function sha256(input) {
  const data = typeof input === "string" ? new TextEncoder().encode(input) : input;
  const n = data.length;
  const words = (((n + 8) >> 6) + 1) << 4; // message + 0x80 + 64-bit length, in 16-word blocks
  const m = new Uint32Array(words);
  for (let i = 0; i < n; i++) m[i >> 2] |= data[i] << (24 - (i & 3) * 8);
  m[n >> 2] |= 0x80 << (24 - (n & 3) * 8);
  m[words - 2] = Math.floor(n / 2 ** 29); // length in bits, high word
  m[words - 1] = n << 3; // low word
  const hash = START.slice();
  const w = new Uint32Array(64);
  for (let off = 0; off < words; off += 16) {
    for (let t = 0; t < 64; t++) {
      if (t < 16) w[t] = m[off + t];
      else {
        const a = w[t - 15];
        const b = w[t - 2];
        w[t] = w[t - 16] + (ror(a, 7) ^ ror(a, 18) ^ (a >>> 3)) + w[t - 7] + (ror(b, 17) ^ ror(b, 19) ^ (b >>> 10));
      }
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let t = 0; t < 64; t++) {
      const t1 = (h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, h].forEach((x, i) => (hash[i] += x));
  }
  return Array.from(hash, (x) => x.toString(16).padStart(8, "0")).join("");
}
