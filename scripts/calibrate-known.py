#!/usr/bin/env python3
"""Sweeps the Judge's known-answer and key-fact thresholds.

Reads what `echoes eval judge FILE --scores` prints (JSON lines: each
question's closest known answers with their word and vector similarities;
each guess's key facts with theirs) and, per language, replays the matching
rules of `src/core/soup/puzzle/known.rs` for a grid of settings:

- questions: the combined score `w * lexical + (1 - w) * semantic`, answered
  when the best is at or above `threshold` and leads the closest known
  answer with another verdict by `margin`; prints right / can't tell / wrong,
  the most right first (at most `--max-wrong` wrong), ties to the fewest
  wrong, then to the setting whose neighbours (one step either way in each)
  answer the most right on average: the middle of a plateau, not its edge;
- questions, the ceiling: how often the closest known answer's verdict is the
  right one (no threshold can answer more right than that);
- guesses: a fact is stated when `a * lexical + (1 - a) * semantic` reaches
  `threshold`; a guess is graded right when the required facts found are the
  required facts expected. Ties go to the setting whose neighbours (one step
  either way) grade the most right on average.

With `--leave-one-out`, the questions are swept on a second scores file
too: known answers as questions (`--write-sample DIR N` writes N of each
puzzle's, seeded), each matched against the rest of its puzzle's known
answers (its own entry left out). A setting must keep within
`--max-wrong` on both, and the most right on the two together wins: a
few hundred labelled questions alone let a setting fit their quirks.

Calibrate on one labelled set and report on another:

    echoes eval judge tests/data/judge_eval.jsonl --scores > /tmp/cal.jsonl
    scripts/calibrate-known.py /tmp/cal.jsonl --max-wrong 5
    scripts/calibrate-known.py --write-sample data/puzzles 15 > /tmp/loo.jsonl
    echoes eval judge /tmp/loo.jsonl --scores > /tmp/loo-scores.jsonl
    scripts/calibrate-known.py /tmp/cal.jsonl --leave-one-out /tmp/loo-scores.jsonl
    echoes eval judge tests/data/judge_heldout.jsonl --scores > /tmp/held.jsonl
    scripts/calibrate-known.py /tmp/held.jsonl --at en:0.9:0.5:0.2 --facts en:0.6:0.5
"""

import argparse
import json
import sys


def frange(lo, hi, step):
    n = int(round((hi - lo) / step))
    return [round(lo + i * step, 4) for i in range(n + 1)]


FLIP_MIN_WORDS = 0.7
# How far the best known answer must lead the closest one with another
# verdict: up to 0.4, as word overlap (the English words, or the Chinese
# pairs) spreads wider than cosines do.
MARGINS = [0.0, 0.03, 0.06, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]
JOINTS = ["而且", "并且", ", and ", " and also ", " as well as "] + [f" and {w} " for w in ["did", "was", "is", "were", "are", "does", "do", "has", "had", "have", "could", "can", "will", "would"]]


def asks_two(text):
    return any(j in text.lower() for j in JOINTS)


def question_outcome(row, w, threshold, margin):
    scored = []
    # A flip the words do not bear out is passed over (`Known::recall`).
    for e in (e for e in row["top"] if not e["flipped"] or e["lexical"] >= FLIP_MIN_WORDS):
        sem = e["semantic"]
        score = e["lexical"] if sem is None else w * e["lexical"] + (1 - w) * sem
        scored.append((score, e["verdict"], e["right"], e))
    if not scored:
        return "cant"
    scored.sort(key=lambda s: -s[0])
    best = scored[0]
    # The closest known answer with another verdict (`--scores` prints
    # every known answer, as `recall` sees them all).
    rival = next((s for s in scored if s[1] != best[1]), None)
    rival_score = rival[0] if rival else None
    clear = rival_score is None or best[0] - rival_score >= margin
    one_ask = not asks_two(row["input"]) or asks_two(best[3]["known"])
    if best[0] >= threshold and clear and one_ask:
        return "right" if best[2] else "wrong"
    return "cant"


def question_figures(rows, w, threshold, margin):
    counts = {"right": 0, "wrong": 0, "cant": 0}
    for row in rows:
        counts[question_outcome(row, w, threshold, margin)] += 1
    n = max(len(rows), 1)
    return {k: 100.0 * v / n for k, v in counts.items()}


def question_grid(rows, ws, ts, margins):
    """`question_figures` for every setting, each row's best known answer
    and rival found once per weight (the same rules as `question_outcome`)."""
    grid = {}
    n = max(len(rows), 1)
    for w in ws:
        ranked = []
        for row in rows:
            scored = sorted(
                (
                    (e["lexical"] if e["semantic"] is None else w * e["lexical"] + (1 - w) * e["semantic"], e)
                    for e in row["top"]
                    if not e["flipped"] or e["lexical"] >= FLIP_MIN_WORDS
                ),
                key=lambda s: -s[0],
            )
            if not scored:
                continue
            best = scored[0]
            rival = next((s[0] for s in scored if s[1]["verdict"] != best[1]["verdict"]), None)
            one_ask = not asks_two(row["input"]) or asks_two(best[1]["known"])
            ranked.append((best[0], rival, best[1]["right"], one_ask))
        for t in ts:
            for m in margins:
                right = wrong = 0
                for score, rival, ok, one_ask in ranked:
                    if score >= t and (rival is None or score - rival >= m) and one_ask:
                        right += ok
                        wrong += not ok
                grid[(w, t, m)] = {"right": 100.0 * right / n, "wrong": 100.0 * wrong / n,
                                   "cant": 100.0 * (n - right - wrong) / n}
    return grid


def guess_right(row, threshold, weight):
    def stated(f):
        return weight * f["lexical"] + (1 - weight) * f["semantic"] >= threshold

    found = {f["id"] for f in row["facts"] if f["required"] and stated(f)}
    expected = {f["id"] for f in row["facts"] if f["required"] and f["expected"]}
    return found == expected


def guess_figures(rows, threshold, weight):
    n = max(len(rows), 1)
    return 100.0 * sum(guess_right(r, threshold, weight) for r in rows) / n


def ceiling(rows, w):
    right = 0
    for row in rows:
        scored = [(e["lexical"] if e["semantic"] is None else w * e["lexical"] + (1 - w) * e["semantic"], e) for e in row["top"]]
        if scored and max(scored, key=lambda s: s[0])[1]["right"]:
            right += 1
    return 100.0 * right / max(len(rows), 1)


def write_sample(root, n):
    """N known answers of each puzzle under `root` (one-part questions), as
    `echoes eval judge` lines: the same draw every time."""
    import glob
    import random
    import tomllib

    rng = random.Random(7)
    for path in sorted(glob.glob(f"{root}/*/*.toml")):
        with open(path, "rb") as f:
            puzzle = tomllib.load(f)
        known = [k for k in puzzle.get("known", []) if not asks_two(k["question"])]
        for k in rng.sample(known, min(n, len(known))):
            line = {"puzzle": puzzle["id"], "kind": "question", "input": k["question"], "expected": k["verdict"]}
            print(json.dumps(line, ensure_ascii=False))


def left_out(rows):
    """Each row without the known answer it was drawn from."""
    for row in rows:
        row["top"] = [e for e in row["top"] if e["known"] != row["input"]]
    return rows


def split(rows, lang):
    questions = [r for r in rows if r.get("language") == lang and "top" in r]
    guesses = [r for r in rows if r.get("language") == lang and "facts" in r]
    return questions, guesses


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scores", nargs="?", help="JSON lines from `echoes eval judge FILE --scores`")
    ap.add_argument("--leave-one-out", help="scores of known answers asked as questions (see --write-sample)")
    ap.add_argument("--write-sample", nargs=2, metavar=("DIR", "N"), help="print N known answers per puzzle as eval lines")
    ap.add_argument("--max-wrong", type=float, default=5.0, help="the most wrong questions allowed, in percent")
    ap.add_argument("--at", action="append", default=[], help="lang:w:threshold:margin to report only")
    ap.add_argument("--facts", action="append", default=[], help="lang:threshold:weight to report only")
    args = ap.parse_args()
    if args.write_sample:
        write_sample(args.write_sample[0], int(args.write_sample[1]))
        return 0
    rows = [json.loads(line) for line in open(args.scores) if line.startswith("{")]
    loo = []
    if args.leave_one_out:
        loo = left_out([json.loads(line) for line in open(args.leave_one_out) if line.startswith("{") and '"top"' in line])
    langs = sorted({r["language"] for r in rows})
    fixed = {a.split(":")[0]: [float(x) for x in a.split(":")[1:]] for a in args.at}
    fixed_facts = {a.split(":")[0]: [float(x) for x in a.split(":")[1:]] for a in args.facts}
    for lang in langs:
        questions, guesses = split(rows, lang)
        print(f"{lang}: {len(questions)} questions, {len(guesses)} guesses")
        if lang in fixed:
            w, t, m = fixed[lang]
            f = question_figures(questions, w, t, m)
            print(f"  questions at w={w} t={t} m={m}: right {f['right']:.1f}% can't tell {f['cant']:.1f}% wrong {f['wrong']:.1f}%")
        if questions:
            top = max(ceiling(questions, w) for w in frange(0, 1, 0.1))
            print(f"  questions: the closest known answer is right for at most {top:.1f}% (any weight)")
        if lang in fixed:
            pass
        elif questions:
            ws, ts = frange(0, 1, 0.1), frange(0.3, 1.0, 0.02)
            grid = question_grid(questions, ws, ts, MARGINS)
            # Left out one by one, the known answers: within the wrong
            # share there too, and their right share counts alongside.
            held = [r for r in loo if r.get("language") == lang]
            if held:
                other = question_grid(held, ws, ts, MARGINS)
                for k, f in grid.items():
                    f["loo"] = other[k]

            def around(w, t, m):
                # One step either way in each setting: a plateau, not a peak.
                i = MARGINS.index(m)
                near = [
                    grid[(ww, tt, mm)]["right"]
                    for (ww, tt, mm) in grid
                    if abs(ww - w) < 0.101 and abs(tt - t) < 0.021 and mm in MARGINS[max(i - 1, 0) : i + 2]
                ]
                return sum(near) / len(near)

            def right(k):
                f = grid[k]
                return f["right"] + f["loo"]["right"] if "loo" in f else f["right"]

            def within(f):
                return f["wrong"] <= args.max_wrong and ("loo" not in f or f["loo"]["wrong"] <= args.max_wrong)

            allowed = [k for k, f in grid.items() if within(f)]
            allowed.sort(key=lambda k: (-right(k), grid[k]["wrong"], -around(*k)))
            for w, t, m in allowed[:8]:
                f = grid[(w, t, m)]
                loo_part = f" · left out: right {f['loo']['right']:.1f}% wrong {f['loo']['wrong']:.1f}%" if "loo" in f else ""
                print(
                    f"  w={w} t={t} m={m}: right {f['right']:.1f}% can't tell {f['cant']:.1f}% wrong {f['wrong']:.1f}%"
                    f" (neighbours {around(w, t, m):.1f}% right){loo_part}"
                )
        if lang in fixed_facts:
            t, a = fixed_facts[lang]
            print(f"  guesses at t={t} a={a}: graded right {guess_figures(guesses, t, a):.1f}%")
        elif guesses:
            ts, ws = frange(0.3, 0.9, 0.05), frange(0, 1, 0.1)
            grid = {(t, a): guess_figures(guesses, t, a) for t in ts for a in ws}

            def around(t, a):
                near = [g for (tt, aa), g in grid.items() if abs(tt - t) < 0.051 and abs(aa - a) < 0.101]
                return sum(near) / len(near)

            ranked = sorted(grid, key=lambda k: (-grid[k], -around(*k)))
            for t, a in ranked[:6]:
                print(f"  guesses t={t} a={a}: graded right {grid[(t, a)]:.1f}% (neighbours {around(t, a):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
