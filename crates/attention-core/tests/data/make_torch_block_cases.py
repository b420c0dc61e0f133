"""Writes `torch_block_more_cases.json`: further cases of PyTorch's
`nn.TransformerEncoderLayer`, stacked in an `nn.TransformerEncoder`, in
float64, beside the shared `torch_block_cases.json`, for `torch_reference.rs`.

Each case's input is written by the README's snippet (`block_json`, read from
README.md and run here, so the snippet a course author copies is the one that
made these cases); every expected number comes from PyTorch: each layer's
output, and the encoder's output after its final LayerNorm if it has one.
The modules run in train() mode with dropout 0, so that PyTorch takes its
ordinary path rather than the fused one (which writes zeros on padded rows).

Run with a Python that has torch: `python3 make_torch_block_cases.py`.
"""

import json
import re
from pathlib import Path

import torch
from torch import nn

torch.set_default_dtype(torch.float64)

HERE = Path(__file__).parent
README = HERE.parents[3] / "README.md"

# The README's snippet defines block_json(state, norm_first, activation, eps).
snippet = re.search(r"```python\n(# A PyTorch encoder's state_dict.*?)```", README.read_text(), re.S)
exec(snippet.group(1))


def case(seed, d, heads, d_ff, layers, norm_first, activation, bias=True, final_norm=False,
         t=4, batch=None, causal=False, padded=None, x_scale=1.0, tokens=None, note=""):
    generator = torch.Generator().manual_seed(seed)
    layer = nn.TransformerEncoderLayer(d, heads, d_ff, dropout=0.0, activation=activation,
                                       batch_first=True, norm_first=norm_first, bias=bias)
    norm = nn.LayerNorm(d, bias=bias) if final_norm else None
    encoder = nn.TransformerEncoder(layer, layers, norm=norm, enable_nested_tensor=False)
    with torch.no_grad():
        for name, p in encoder.named_parameters():
            noise = torch.randn(p.shape, generator=generator)
            # LayerNorm scales near 1, everything else small and signed.
            p.copy_(1.0 + 0.2 * noise if "norm" in name and name.endswith("weight") else 0.3 * noise)
    encoder.train()
    shape = (batch, t, d) if batch else (t, d)
    x = torch.randn(shape, generator=generator) * x_scale
    padding = None
    if padded is not None:
        # key_padding_mask: True means padding.
        padding = torch.zeros((batch or 1, t), dtype=torch.bool)
        for b, j in padded:
            padding[b, j] = True
    mask = nn.Transformer.generate_square_subsequent_mask(t) if causal else None
    batched = x if batch else x.unsqueeze(0)
    with torch.no_grad():
        outputs, h = [], batched
        for module in encoder.layers:
            h = module(h, src_mask=mask, src_key_padding_mask=padding, is_causal=causal)
            outputs.append(h)
        whole = encoder(batched, mask=mask, src_key_padding_mask=padding, is_causal=causal)
    final = encoder.norm(h) if encoder.norm is not None else h
    assert torch.allclose(final, whole, rtol=0, atol=1e-12), "layer by layer = the encoder"
    squeeze = (lambda a: a) if batch else (lambda a: a[0])
    scenario = {"x": x.tolist(), "heads": heads, "causal": causal, "scale": True,
                "block": block_json(encoder.state_dict(), norm_first, activation)}
    if tokens:
        scenario["tokens"] = tokens
    if padding is not None:
        flags = (~padding).int().tolist()
        scenario["mask"] = flags if batch else flags[0]
    return {
        "note": note,
        "torch": f"nn.TransformerEncoderLayer(d_model={d}, nhead={heads}, dim_feedforward={d_ff}, "
                 f"dropout=0.0, activation='{activation}', batch_first=True, "
                 f"norm_first={norm_first}, bias={bias}) x{layers}"
                 + (" + final LayerNorm" if final_norm else "") + f", torch {torch.__version__}",
        "input": scenario,
        "expected": {"layers": [squeeze(o).tolist() for o in outputs],
                     "output": squeeze(final).tolist()},
    }


cases = {
    "padded_batch_post_norm": case(
        1, 4, 2, 8, 1, False, "relu", t=4, batch=2, padded=[(1, 3), (1, 2)],
        tokens=["我", "喜欢", "打", "篮球"],
        note="a batch of two; the second sequence's last two positions are padding"),
    "causal_pre_norm_three_layers": case(
        2, 8, 4, 16, 3, True, "gelu", final_norm=True, t=5, causal=True,
        note="four heads, causal in every layer, a final LayerNorm"),
    "no_bias_post_norm": case(
        3, 6, 3, 12, 2, False, "relu", bias=False, t=4,
        note="bias=False: no attention, feed-forward or LayerNorm biases"),
    "four_layers_post_norm_gelu": case(
        4, 8, 2, 32, 4, False, "gelu", final_norm=True, t=6,
        note="the most layers the app allows, d_ff = 4·d"),
    "large_inputs_pre_norm": case(
        5, 4, 1, 8, 2, True, "relu", t=3, x_scale=1000.0,
        note="inputs near 1000: LayerNorm's mean and variance at scale"),
    "eight_heads_long": case(
        6, 16, 8, 64, 1, False, "gelu", t=32,
        note="eight heads of two columns over 32 positions"),
}

out = HERE / "torch_block_more_cases.json"
out.write_text(json.dumps({"generator": Path(__file__).name, "cases": cases}, ensure_ascii=False, indent=1) + "\n")
print(f"wrote {len(cases)} cases to {out}")
