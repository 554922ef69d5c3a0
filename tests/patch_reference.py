"""patch_reference.py: the interventions of chapter 6, done independently
in PyTorch on a trained model.

Written from the description of the interventions (the appendix
"Changing a reading by hand"), not from the C loops: a forward pass of
the book's model that exposes its keys, values, weights and head outputs
(split by heads as torch views), and a patch applied to them at the '='
(row 3) of a*b=.  Reads the input that tests/patch_input.c writes (the
model's float32 parameters and the cases) and writes, for each case, the
13 logits of the patched row.

usage: /usr/bin/python3 patch_reference.py patch_input.bin patch_reference.bin
"""
import struct
import sys

import numpy as np
import torch

import reference   # the model's tables, encode(), TinyTransformer

MAGIC = 0x48435450
OUTPUT, WEIGHTS, KEY, VALUE, DIRECT, VIA_FFN = range(6)   # the site changed
ZERO, MEAN, OTHER = range(3)                # what it is replaced by
ROW = 3                                     # the '=' of a*b=
N_HEADS, WIDTH = reference.N_HEADS, reference.WIDTH
D_HEAD = WIDTH // N_HEADS


def prompts(problems):
    """a*b= for each problem, as a (B, 4) tensor of token ids"""
    return torch.tensor([reference.encode(p)[0][:ROW + 1] for p in problems])


def run(model, tokens, change=None):
    """the forward pass of TinyTransformer, with the attention sublayer
    written out so that change(name, tensor) may edit k, v (B, H, T, d),
    weights (B, H, T, T) and heads (B, H, T, d) in place, and the heads
    as each of their two paths to the logits takes them: "direct", added
    to the stream after the FFN, and "via_ffn", as the FFN reads them;
    returns the logits (B, T, VOCAB) and the activations seen"""
    w = model.tables
    B, T = tokens.shape
    seen = {}

    def split(m):
        return m.view(B, T, N_HEADS, D_HEAD).transpose(1, 2).clone()

    x = w["tok_emb"][tokens] + w["pos_emb"][:T]
    h = model.layer_norm(x, w["ln1_gain"])
    q, k, v = split(h @ w["Wq"]), split(h @ w["Wk"]), split(h @ w["Wv"])
    for name, tensor in (("k", k), ("v", v)):
        seen[name] = tensor.clone()
        if change:
            change(name, tensor)
    scores = q @ k.transpose(-2, -1) / np.sqrt(D_HEAD)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    weights = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
    seen["weights"] = weights.clone()
    if change:
        change("weights", weights)
    heads = weights @ v
    seen["heads"] = heads.clone()
    if change:
        change("heads", heads)
    paths = {"direct": heads.clone(), "via_ffn": heads.clone()}
    for name, tensor in paths.items():
        if change:
            change(name, tensor)

    def mixed(by_head):
        return by_head.transpose(1, 2).reshape(B, T, WIDTH) @ w["Wo"]

    h = model.layer_norm(x + mixed(paths["via_ffn"]), w["ln2_gain"])
    ffn = torch.nn.functional.gelu(h @ w["W1"] + w["b1"].view(-1)) @ w["W2"] \
        + w["b2"].view(-1)
    x = x + mixed(paths["direct"]) + ffn
    return model.layer_norm(x, w["lnf_gain"]) @ w["W_out"], seen


def site_of(kind, pos):
    """the activation a site changes, the activation its numbers are
    read from, and the index of its part that is replaced, for head h:
    [batch, head, row or position, ...]"""
    name = {OUTPUT: "heads", WEIGHTS: "weights", KEY: "k", VALUE: "v",
            DIRECT: "direct", VIA_FFN: "via_ffn"}[kind]
    read = "heads" if kind in (DIRECT, VIA_FFN) else name
    where = pos if kind in (KEY, VALUE) else ROW
    return name, read, where


def patched_logits(model, problem, kind, source, heads, pos, other):
    name, read, where = site_of(kind, pos)
    if source == ZERO:
        numbers = torch.zeros_like(run(model, prompts([problem]))[1][read][0, :, where])
    elif source == MEAN:
        _, seen = run(model, prompts(range(100)))
        numbers = seen[read][:, :, where].mean(dim=0)
    else:
        _, seen = run(model, prompts([other]))
        numbers = seen[read][0, :, where]

    def change(seen_name, tensor):
        if seen_name == name:
            for head in range(N_HEADS):
                if heads >> head & 1:
                    tensor[0, head, where] = numbers[head]

    logits, _ = run(model, prompts([problem]), change)
    return logits[0, ROW]


def main(input_path, output_path):
    data = open(input_path, "rb").read()
    magic, n_params, n_cases = struct.unpack_from("<3i", data)
    assert magic == MAGIC and n_params == sum(r * c for _, r, c in reference.TABLES)
    flat = np.frombuffer(data, "<f4", n_params, 12)
    cases = np.frombuffer(data, "<i4", 6 * n_cases, 12 + 4 * n_params).reshape(n_cases, 6)
    model = reference.TinyTransformer(flat)
    with torch.no_grad(), open(output_path, "wb") as out:
        for problem, kind, source, heads, pos, other in cases.tolist():
            logits = patched_logits(model, problem, kind, source, heads, pos, other)
            out.write(np.asarray(logits.numpy(), dtype="<f4").tobytes())
            print(f"{problem // 10}*{problem % 10}= site {kind} source {source} "
                  f"heads {heads:#x}: first token {reference.VOCAB[int(logits.argmax())]}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
