"""How well the worlds weighted by the card-location model place the hidden cards, by the power of the weights.

    python -m benchmarks.location_power --deals 300 --out location-power.json

``pimc:infer=1,locations=1`` weighs a world by ``prod_c q(c, w_c) ** location_power`` over the
cards its seat cannot place (``q``: the model's probabilities, ``tarotsim.learn.locations``). At
card decisions of heuristic play at table 4 (tricks 2 to 12, every ninth card decision), for each
power: ``--worlds`` uniform worlds of the seat (``tarotsim.worlds.sample``) weighted so, the
weighted frequency of each hidden card's true place (smoothed by half a world per allowed place),
its mean log-loss in bits, and the median effective sample size of the weights; beside them the
model's own log-loss. Power 0 is the uniform worlds; a power near 1 counts what the seat saw once
per card, and a few worlds take all the weight. The JSON (``--out``; ``-``: stdout) holds one
entry per power with the run's arguments; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

POWERS = (0.0, 0.15, 0.25, 0.35, 0.5, 0.75, 1.0)


def measure(deals: int, worlds: int, seed: int, powers=POWERS) -> dict:
    """The log-loss (bits per hidden card) of the weighted worlds' marginals per power, and the model's own."""
    from tarotsim import rng
    from tarotsim.adapters import FastBotAdapter
    from tarotsim.engine import Game
    from tarotsim.learn import allowed, locations
    from tarotsim.rules import Rules
    from tarotsim.worlds import PILE, sample

    rules, n = Rules("4"), 4
    bot = FastBotAdapter("heuristic")
    loss = {p: [] for p in powers}
    ess = {p: [] for p in powers}
    model = []
    for index in range(deals):
        game = Game(rules, seed=seed, index=index)
        k = 0
        while (d := game.decision) is not None:
            legal = game.legal_actions()
            if d.kind == "card" and 1 <= len(game._deal.tricks) <= 11 and k % 9 == index % 9:
                seat = d.seat
                q = locations(game, seat).astype(np.float64)
                a = allowed(game, seat)
                hidden = [c for c in range(78) if bin(a[c]).count("1") > 1]
                where = {c.id: s for s in range(n) for c in game._deal.hands[s]}
                locs = sample(game, seat, worlds, seed * 1_000_003 + index * 100 + k).locations.astype(np.int64)
                col = np.where(locs == PILE, n, locs)
                live = locs >= 0
                picked = np.where(live, q[np.arange(78)[None, :], np.where(live, col, 0)], 1.0)
                logq = np.log(np.maximum(picked, 1e-30)).sum(axis=1)
                for p in powers:
                    w = np.exp(p * (logq - logq.max()))
                    w /= w.sum()
                    ess[p].append(1.0 / np.square(w).sum())
                    for c in hidden:
                        places = bin(a[c]).count("1")
                        m = (w @ (col[:, c] == where.get(c, n)) * worlds + 0.5) / (worlds + 0.5 * places)
                        loss[p].append(-np.log2(m))
                model.extend(-np.log2(max(q[c, where.get(c, n)], 1e-30)) for c in hidden)
            k += d.kind == "card"
            game.apply(bot.choose(game.view(d.seat), legal, rng.Rng(0)))
        if (index + 1) % 50 == 0:
            print(f"{index + 1}/{deals} deals", file=sys.stderr)
    return {"positions": len(ess[powers[0]]), "hidden_cards": len(model), "model_bits": float(np.mean(model)),
            "powers": [{"power": p, "bits": float(np.mean(loss[p])), "median_ess": float(np.median(ess[p]))}
                       for p in powers]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.location_power", description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--worlds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--out", default="-")
    args = ap.parse_args(argv)
    out = {"deals": args.deals, "worlds": args.worlds, "seed": args.seed, "table": "4", "bots": "heuristic",
           **measure(args.deals, args.worlds, args.seed)}
    text = json.dumps(out, indent=2) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
