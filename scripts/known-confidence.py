#!/usr/bin/env python3
"""Tries two confidence rules for known answers beyond `Known::recall`'s
threshold and lead (neither is used by `src/core/soup/puzzle/known.rs`; the
figures are in docs/benchmarks.md).

Reads `echoes eval judge FILE --scores` output, as `calibrate-known.py`
does (and reuses its rules), and per language:

- logistic: a logistic model of "the closest known answer is right" over
  the best match's combined, word and vector scores, its word coverage both
  ways, its lead over the closest other verdict, the share of the closest
  five's weight its verdict has, how many of the closest three agree, a
  flip, a two-part question, its verdict; answered when the model says at
  least theta;
- vote: the verdict with the most weight among the closest k (each weighed
  exp((score - best) / tau)), answered when the best score reaches min and
  the verdict's share reaches share.

Each is fitted on the calibration scores and the leave-one-out scores (at
most `--max-wrong` wrong on each, the most right on the two), then run
once on the report scores:

    echoes eval judge tests/data/judge_eval.jsonl --scores > /tmp/cal.jsonl
    scripts/calibrate-known.py --write-sample data/puzzles 15 > /tmp/loo.jsonl
    echoes eval judge /tmp/loo.jsonl --scores > /tmp/loo-scores.jsonl
    echoes eval judge tests/data/judge_heldout.jsonl --scores > /tmp/held.jsonl
    scripts/known-confidence.py /tmp/cal.jsonl /tmp/loo-scores.jsonl /tmp/held.jsonl
"""

import argparse
import importlib.util
import json
import math
import os

_spec = importlib.util.spec_from_file_location(
    "calibrate_known", os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibrate-known.py")
)
ck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ck)

# The word weight of each language's combined score (`known::Tuning`).
WEIGHT = {"en": 0.9, "zh": 0.7}


def load(path, leave_one_out=False):
    rows = [json.loads(line) for line in open(path) if line.startswith("{") and '"top"' in line]
    return ck.left_out(rows) if leave_one_out else rows


def candidates(row):
    """The known answers `recall` weighs, the closest first, with their combined score."""
    w = WEIGHT[row["language"]]
    out = []
    for e in row["top"]:
        if e["flipped"] and e["lexical"] < ck.FLIP_MIN_WORDS:
            continue
        score = e["lexical"] if e["semantic"] is None else w * e["lexical"] + (1 - w) * e["semantic"]
        out.append((score, e))
    out.sort(key=lambda c: -c[0])
    return out


def features(row):
    c = candidates(row)
    if not c:
        return None, None
    s1, e1 = c[0]
    rival = next((s for s, e in c if e["verdict"] != e1["verdict"]), 0.0)
    votes = {}
    for s, e in c[:5]:
        votes[e["verdict"]] = votes.get(e["verdict"], 0.0) + math.exp((s - s1) / 0.05)
    share = votes[e1["verdict"]] / sum(votes.values())
    agree = sum(1 for _, e in c[:3] if e["verdict"] == e1["verdict"]) / 3
    two = 1.0 if ck.asks_two(row["input"]) and not ck.asks_two(e1["known"]) else 0.0
    x = [1.0, s1, e1["lexical"], e1["semantic"] or 0.0, e1["asked_in_known"], e1["known_in_asked"], s1 - rival,
         share, agree, float(e1["flipped"]), two, float(e1["verdict"] == "IRRELEVANT"),
         float(e1["verdict"] == "YES_AND_NO")]
    return x, e1


def sigmoid(z):
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def fit(xs, ys, l2=1e-3, steps=3000, rate=0.5):
    w = [0.0] * len(xs[0])
    for _ in range(steps):
        grad = [0.0] * len(w)
        for x, y in zip(xs, ys):
            p = sigmoid(sum(a * b for a, b in zip(w, x)))
            for j, v in enumerate(x):
                grad[j] += (p - y) * v
        w = [wj - rate * (g / len(xs) + l2 * wj) for wj, g in zip(w, grad)]
    return w


def figures(rows, answer):
    """Right and wrong shares when `answer(row)` gives (answered, right)."""
    right = wrong = 0
    for row in rows:
        answered, ok = answer(row)
        right += answered and ok
        wrong += answered and not ok
    n = max(len(rows), 1)
    return 100.0 * right / n, 100.0 * wrong / n


def logistic(cal, loo, held, max_wrong):
    xs, ys = [], []
    for row in cal + loo:
        x, e1 = features(row)
        if x is not None:
            xs.append(x)
            ys.append(1.0 if e1["right"] else 0.0)
    w = fit(xs, ys)

    def rule(theta):
        def answer(row):
            x, e1 = features(row)
            if x is None or sigmoid(sum(a * b for a, b in zip(w, x))) < theta:
                return False, False
            return True, e1["right"]
        return answer

    return sweep([(t / 100,) for t in range(50, 100)], rule, cal, loo, held, max_wrong)


def vote(cal, loo, held, max_wrong):
    def rule(k, tau, least, share):
        def answer(row):
            c = candidates(row)
            if not c or c[0][0] < least:
                return False, False
            votes = {}
            for s, e in c[:k]:
                votes[e["verdict"]] = votes.get(e["verdict"], 0.0) + math.exp((s - c[0][0]) / tau)
            verdict = max(votes, key=votes.get)
            if votes[verdict] / sum(votes.values()) < share:
                return False, False
            return True, next(e["right"] for _, e in c if e["verdict"] == verdict)
        return answer

    grid = [(k, tau, least, share) for k in [3, 5, 8, 12] for tau in [0.02, 0.05, 0.1, 0.2]
            for least in [0.3, 0.4, 0.5, 0.6] for share in [0.6, 0.7, 0.8, 0.9, 0.95]]
    return sweep(grid, rule, cal, loo, held, max_wrong)


def sweep(grid, rule, cal, loo, held, max_wrong):
    best = None
    for setting in grid:
        c, l = figures(cal, rule(*setting)), figures(loo, rule(*setting))
        if c[1] <= max_wrong and l[1] <= max_wrong and (best is None or c[0] + l[0] > best[0]):
            best = (c[0] + l[0], setting, c, l)
    if best is None:
        return None
    _, setting, c, l = best
    return setting, c, l, figures(held, rule(*setting))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("calibration")
    ap.add_argument("leave_one_out")
    ap.add_argument("report")
    ap.add_argument("--max-wrong", type=float, default=5.0)
    args = ap.parse_args()
    cal, loo, held = load(args.calibration), load(args.leave_one_out, True), load(args.report)
    for lang in ["en", "zh"]:
        pick = [[r for r in rows if r["language"] == lang] for rows in (cal, loo, held)]
        for name, method in [("logistic", logistic), ("vote", vote)]:
            found = method(*pick, args.max_wrong)
            if found is None:
                print(f"{lang} {name}: no setting within {args.max_wrong}% wrong")
                continue
            setting, c, l, h = found
            print(f"{lang} {name} {setting}: calibration {c[0]:.1f}% right / {c[1]:.1f}% wrong, "
                  f"left out {l[0]:.1f}% / {l[1]:.1f}%, report {h[0]:.1f}% / {h[1]:.1f}% ({len(pick[2])} questions)")


if __name__ == "__main__":
    main()
