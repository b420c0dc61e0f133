"""Writes `torch_mha_more_cases.json`: further cases of `nn.MultiheadAttention`
in float64, beside the shared `torch_mha_cases.json`, for `torch_reference.rs`.

Each case's input is written the way the README tells a course author to export
a module (W_Q, W_K and W_V from `in_proj_weight`, W_O from `out_proj`), and
every expected field comes from PyTorch: `weights` and `output` are what the
module itself returns, the rest the same projections by torch's own ops.

Run with a Python that has torch: `python3 make_torch_mha_cases.py`.
"""

import json
import math
from pathlib import Path

import torch

torch.set_default_dtype(torch.float64)


def case(seed, heads, e, t, batch=None, causal=False, padded=None, note=""):
    generator = torch.Generator().manual_seed(seed)
    mha = torch.nn.MultiheadAttention(e, heads, bias=False, batch_first=True)
    with torch.no_grad():
        for p in mha.parameters():
            p.copy_(torch.randn(p.shape, generator=generator) * 0.5)
    shape = (batch, t, e) if batch else (t, e)
    x = torch.randn(shape, generator=generator)
    # key_padding_mask: True means padding.
    padding = None
    if padded:
        padding = torch.zeros((batch, t) if batch else (t,), dtype=torch.bool)
        for at in padded:
            padding[at] = True
    attn_mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1) if causal else None
    with torch.no_grad():
        output, weights = mha(x, x, x, key_padding_mask=padding, attn_mask=attn_mask,
                              need_weights=True, average_attn_weights=False)
        # As the README exports a module.
        w_q, w_k, w_v = mha.in_proj_weight.T.chunk(3, dim=1)
        scenario = {"heads": mha.num_heads, "x": x.tolist(), "w_q": w_q.tolist(),
                    "w_k": w_k.tolist(), "w_v": w_v.tolist(),
                    "w_o": mha.out_proj.weight.T.tolist(), "causal": causal}
        if padding is not None:
            scenario["mask"] = (~padding).int().tolist()
        d_k = e // heads
        xb = x if batch else x.unsqueeze(0)

        def split(m):  # B×T×E → B×h×T×d_k
            return m.reshape(m.shape[0], t, heads, d_k).transpose(1, 2)

        q, k, v = (split(xb @ w) for w in (w_q, w_k, w_v))
        scores = q @ k.transpose(-1, -2)
        wb = weights if batch else weights.unsqueeze(0)
        head_output = wb @ v
        concat = head_output.transpose(1, 2).reshape(xb.shape[0], t, e)
        expected = {"q": q, "k": k, "v": v, "scores": scores,
                    "scaled": scores / math.sqrt(d_k), "weights": wb,
                    "head_output": head_output, "concat": concat,
                    "output": output if batch else output.unsqueeze(0)}
        if not batch:
            expected = {name: value[0] for name, value in expected.items()}
    return {"note": note, "input": scenario,
            "expected": {name: value.tolist() for name, value in expected.items()}}


def main():
    cases = {
        "four_heads_batch_causal_padding": case(
            1, 4, 8, 5, batch=2, causal=True, padded=[(0, 4), (1, 3), (1, 4)],
            note="2 sequences, causal, the last positions padded; d = 8, 4 heads of 2"),
        "eight_heads": case(2, 8, 16, 7, note="8 heads of 2 over 7 positions, d = 16"),
        "one_head_with_w_o": case(
            3, 1, 4, 3, note="one head with an output projection: written with a head axis"),
    }
    about = ("Written by make_torch_mha_cases.py from torch " + torch.__version__ +
             " (float64, nn.MultiheadAttention without biases, batch_first=True).")
    out = Path(__file__).with_name("torch_mha_more_cases.json")
    out.write_text(json.dumps({"about": about, "cases": cases}) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
