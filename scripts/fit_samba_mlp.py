"""Fit a small non-linear evaluation for Samba's ``strong`` bot (issue 36, sixth pass; an
experiment, not shipped): each side's predicted hand score is ``h(x)`` = the linear model of
``parlour/games/samba/parts/evaluation.py`` plus a one-hidden-layer ReLU network of the same 36
features; the fit minimises the squared error of ``h(x0) - h(x1)`` against the final score
difference of the two sides (so the estimate stays antisymmetric), by Adam in numpy.

    uv run python scripts/fit_samba_mlp.py --hands 10000 --out /tmp/samba_mlp.npz

Positions as ``scripts/fit_samba_eval.py`` takes them (four ``basic`` bots, seeds 0…N−1, every
6th decision); the last fifth of the hands is held out and its R² printed beside the linear
model's.  Reproducible from ``--seed`` (the network's start and the mini-batch order).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from fit_samba_eval import positions

from parlour.games.samba.parts import evaluation


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--out", default="samba_mlp.npz")
    args = ap.parse_args()
    t = time.process_time()
    xa, xb, y, deal = positions(args.hands, args.every)
    print(f"{len(y)} positions, {time.process_time() - t:.0f} CPU s")
    w_lin = np.array(evaluation.WEIGHTS)
    train = deal < int(args.hands * 0.8)
    mu = np.concatenate([xa[train], xb[train]]).mean(0)
    sd = np.concatenate([xa[train], xb[train]]).std(0) + 1e-6
    scale = 1000.0  # the network's output in units of 1,000 points
    za, zb = (xa - mu) / sd, (xb - mu) / sd
    resid = (y - (xa - xb) @ w_lin) / scale  # what the linear model leaves
    rng = np.random.default_rng(args.seed)
    k, hdim = xa.shape[1], args.hidden
    params = {
        "W1": rng.normal(0, 1 / np.sqrt(k), (k, hdim)),
        "b1": np.zeros(hdim),
        "w2": rng.normal(0, 1 / np.sqrt(hdim), hdim) * 0.1,
        "lin": np.zeros(k),
    }
    m = {n: np.zeros_like(p) for n, p in params.items()}
    v = {n: np.zeros_like(p) for n, p in params.items()}
    idx = np.flatnonzero(train)
    step, lr, b1_, b2_ = 0, 1e-3, 0.9, 0.999

    def h(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pre = z @ params["W1"] + params["b1"]
        act = np.maximum(pre, 0.0)
        return act @ params["w2"] + z @ params["lin"], act

    def r2(sel: np.ndarray) -> float:
        pred = h(za[sel])[0] - h(zb[sel])[0]
        err = resid[sel] - pred
        full = y[sel] - y[sel].mean()
        return 1.0 - float((err * scale) @ (err * scale)) / float(full @ full)

    test = ~train
    lin_err = y[test] - (xa[test] - xb[test]) @ w_lin
    full = y[test] - y[test].mean()
    print(f"linear (shipped weights) held-out R2 {1 - (lin_err @ lin_err) / (full @ full):.4f}")
    for epoch in range(args.epochs):
        rng.shuffle(idx)
        for s in range(0, len(idx), 256):
            bi = idx[s : s + 256]
            oa, acta = h(za[bi])
            ob, actb = h(zb[bi])
            err = (oa - ob) - resid[bi]  # d loss / d out = err (mean squared / 2)
            n = len(bi)
            g = {
                "w2": (acta.T @ err - actb.T @ err) / n,
                "lin": (za[bi].T @ err - zb[bi].T @ err) / n,
            }
            da = np.outer(err, params["w2"]) * (acta > 0)
            db = np.outer(err, params["w2"]) * (actb > 0)
            g["W1"] = (za[bi].T @ da - zb[bi].T @ db) / n
            g["b1"] = (da.sum(0) - db.sum(0)) / n
            step += 1
            for name, p in params.items():
                m[name] = b1_ * m[name] + (1 - b1_) * g[name]
                v[name] = b2_ * v[name] + (1 - b2_) * g[name] ** 2
                mh = m[name] / (1 - b1_**step)
                vh = v[name] / (1 - b2_**step)
                p -= lr * mh / (np.sqrt(vh) + 1e-8)
        print(f"epoch {epoch + 1}: held-out R2 {r2(test):.4f} (train {r2(train):.4f})", flush=True)
    np.savez(args.out, mu=mu, sd=sd, scale=scale, w_lin=w_lin, **params)
    print(f"wrote {args.out}, {time.process_time() - t:.0f} CPU s")


if __name__ == "__main__":
    main()
