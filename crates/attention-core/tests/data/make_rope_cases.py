"""Writes `rope_cases.json`: rotary positions (RoPE) computed outside the
project, for `rope_reference.rs`.

The rotation is the textbook one of RoFormer (Su et al., 2021, eq. 34): each
pair of a head's query or key columns (2i, 2i + 1) is read as the complex
number z = x[2i] + i·x[2i+1] and multiplied by e^(i·m·θ_i) at position m, with
θ_i = 10000^(−2i/d_k). Everything else (projections, scaled scores, masks,
softmax, W_O) is written out here in plain Python floats (float64), from the
formulas, sharing no code with the project.

Run with any Python 3: `python3 make_rope_cases.py`.
"""

import cmath
import json
import math
import random
from pathlib import Path


def matrix(rng, rows, cols):
    return [[round(rng.uniform(-1.0, 1.0), 6) for _ in range(cols)] for _ in range(rows)]


def matmul(a, b):
    return [[sum(a[i][c] * b[c][j] for c in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def rotate(row, m):
    """The textbook rotation of one row at position m, pair by pair, as complex numbers."""
    d_k = len(row)
    out = []
    for i in range(d_k // 2):
        theta = 10000.0 ** (-2.0 * i / d_k)
        z = complex(row[2 * i], row[2 * i + 1]) * cmath.exp(1j * m * theta)
        out += [z.real, z.imag]
    return out


def softmax(scores, allowed):
    kept = [s for s, ok in zip(scores, allowed) if ok]
    if not kept:
        return [0.0] * len(scores)
    top = max(kept)
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed)]
    total = sum(exps)
    return [e / total for e in exps]


def head_columns(w, h, width):
    return [row[h * width:(h + 1) * width] for row in w]


def case(seed, t, d, heads, d_k, d_v, causal=False, padded=0, w_o_cols=None, note=""):
    rng = random.Random(seed)
    x = matrix(rng, t, d)
    w_q, w_k = matrix(rng, d, heads * d_k), matrix(rng, d, heads * d_k)
    w_v = matrix(rng, d, heads * d_v)
    w_o = matrix(rng, heads * d_v, w_o_cols) if w_o_cols else None
    real = [j < t - padded for j in range(t)]
    fields = {"q": [], "k": [], "scores": [], "weights": [], "head_output": []}
    for h in range(heads):
        q = [rotate(r, m) for m, r in enumerate(matmul(x, head_columns(w_q, h, d_k)))]
        k = [rotate(r, m) for m, r in enumerate(matmul(x, head_columns(w_k, h, d_k)))]
        v = matmul(x, head_columns(w_v, h, d_v))
        scores = [[sum(a * b for a, b in zip(q[i], k[j])) for j in range(t)] for i in range(t)]
        scaled = [[s / math.sqrt(d_k) for s in row] for row in scores]
        weights = [
            softmax(scaled[i], [real[j] and (not causal or j <= i) for j in range(t)]) for i in range(t)
        ]
        output = matmul(weights, v)
        for name, value in zip(fields, (q, k, scores, weights, output)):
            fields[name].append(value)
    concat = [sum((fields["head_output"][h][i] for h in range(heads)), []) for i in range(t)]
    output = matmul(concat, w_o) if w_o else concat
    single = heads == 1 and w_o is None
    expected = {name: (value[0] if single else value) for name, value in fields.items() if name != "head_output"}
    expected["output"] = output
    given = {"x": x, "w_q": w_q, "w_k": w_k, "w_v": w_v, "heads": heads, "positions": "rope", "causal": causal}
    if w_o:
        given["w_o"] = w_o
    if padded:
        # Padding needs the batch axis: one sequence.
        given["x"] = [x]
        given["mask"] = [[1 if r else 0 for r in real]]
        expected = {name: [value] for name, value in expected.items()}
    return {"note": note, "input": given, "expected": expected}


CASES = {
    "one_head": case(1, t=5, d=4, heads=1, d_k=4, d_v=3, note="one head, d_k = 4: two pairs turning at different rates"),
    "long_pairs": case(2, t=9, d=6, heads=1, d_k=6, d_v=2, note="three pairs, positions up to 8"),
    "two_heads_causal_padded": case(
        3, t=6, d=4, heads=2, d_k=2, d_v=2, causal=True, padded=1, w_o_cols=3,
        note="two heads of d_k = 2, the causal mask, the last token padding, and W_O",
    ),
}

if __name__ == "__main__":
    out = Path(__file__).with_name("rope_cases.json")
    out.write_text(json.dumps({"made_by": "make_rope_cases.py", "cases": CASES}, indent=1) + "\n")
    print(f"wrote {out}")
