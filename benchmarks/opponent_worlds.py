"""How well the worlds weighed by an opponent model place the hidden cards: the heuristic against the learned policy.

    python -m benchmarks.opponent_worlds --deals 300 --out opponent-worlds.json

``pimc:infer=1`` weighs each world by how well a model of the other seats explains what they did
(``tarotsim.inference.weighted_sample``): the heuristic (its default setting), or with
``learned_opponent`` the learned policy, which gives every legal card a probability. At card
decisions of play by ``--bots`` at table 4 (tricks 2 to 12, every ninth card decision), for each
setting of :data:`SETTINGS`: ``--worlds`` uniform worlds of the seat weighed so (tempered to an
effective sample size of at least ``min_ess``, as the search does), the weighted frequency of
each hidden card's true place (smoothed by half a world per allowed place), its mean log-loss in
bits, and the median effective sample size. The setting ``uniform`` is the exact sampler's law.
The JSON (``--out``; ``-``: stdout) holds one entry per setting with the run's arguments;
progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

#: (name, weighted_sample's keywords): the exact sampler's law, ``pimc:infer=1``'s defaults, and
#: the learned policy for the cards at a few ε (the bids unweighed, as with ``epsilon=1``)
SETTINGS = (
    ("uniform", {"epsilon": 1.0, "card_epsilon": 1.0}),
    ("heuristic", {"epsilon": 0.3, "card_epsilon": 0.8, "trust": 0.5, "min_ess": 16}),
    ("learned 0.1", {"epsilon": 1.0, "card_epsilon": 0.1, "trust": 0.5, "min_ess": 16, "opponent": "learned"}),
    ("learned 0.3", {"epsilon": 1.0, "card_epsilon": 0.3, "trust": 0.5, "min_ess": 16, "opponent": "learned"}),
    ("learned 0.6", {"epsilon": 1.0, "card_epsilon": 0.6, "trust": 0.5, "min_ess": 16, "opponent": "learned"}),
)


def measure(deals: int, worlds: int, seed: int, bots: str = "heuristic", settings=SETTINGS) -> dict:
    """The log-loss (bits per hidden card) of each setting's weighted marginals, paired by position."""
    from tarotsim import rng
    from tarotsim.adapters import FastBotAdapter
    from tarotsim.engine import Game
    from tarotsim.inference import weighted_sample
    from tarotsim.learn import allowed
    from tarotsim.rules import Rules
    from tarotsim.worlds import PILE

    rules, n = Rules("4"), 4
    name, _, rest = bots.partition(":")
    params = dict(kv.split("=") for kv in rest.split(",")) if rest else {}
    bot = FastBotAdapter(name, {k: float(v) for k, v in params.items()})
    loss: dict[str, list] = {s: [] for s, _ in settings}
    ess: dict[str, list] = {s: [] for s, _ in settings}
    for index in range(deals):
        game = Game(rules, seed=seed, index=index)
        k = 0
        stream = rng.Rng(index)
        while (d := game.decision) is not None:
            legal = game.legal_actions()
            if d.kind == "card" and 1 <= len(game._deal.tricks) <= 11 and k % 9 == index % 9:
                seat = d.seat
                a = allowed(game, seat)
                hidden = [c for c in range(78) if bin(a[c]).count("1") > 1]
                where = {c.id: s for s in range(n) for c in game._deal.hands[s]}
                draw = seed * 1_000_003 + index * 100 + k
                for label, kw in settings:
                    ww = weighted_sample(game, seat, worlds, draw, **kw)
                    locs = ww.worlds.locations.astype(np.int64)
                    col = np.where(locs == PILE, n, locs)
                    w = ww.weights
                    ess[label].append(ww.ess)
                    for c in hidden:
                        places = bin(a[c]).count("1")
                        m = (w @ (col[:, c] == where.get(c, n)) * worlds + 0.5) / (worlds + 0.5 * places)
                        loss[label].append(-np.log2(m))
            k += d.kind == "card"
            game.apply(bot.choose(game.view(d.seat), legal, stream))
        if (index + 1) % 25 == 0:
            print(f"{index + 1}/{deals} deals", file=sys.stderr)
    uniform = np.array(loss[settings[0][0]])
    return {"positions": len(ess[settings[0][0]]), "hidden_cards": int(uniform.size),
            "settings": [{"setting": s, **kw, "bits": float(np.mean(loss[s])),
                          "gain_over_uniform": float(np.mean(uniform - np.array(loss[s]))),
                          "median_ess": float(np.median(ess[s]))} for s, kw in settings]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.opponent_worlds", description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--worlds", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--bots", default="heuristic", help="the bot of every seat, e.g. pimc:worlds=32")
    ap.add_argument("--out", default="-")
    args = ap.parse_args(argv)
    out = {"deals": args.deals, "worlds": args.worlds, "seed": args.seed, "table": "4", "bots": args.bots,
           **measure(args.deals, args.worlds, args.seed, args.bots)}
    text = json.dumps(out, indent=2) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
