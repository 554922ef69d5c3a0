"""reference.py: an independent PyTorch version of the tiny transformer.

Written from the model's description (BOOK.md, the specimen), not from the
C loops: torch ops and autograd do the work.  Reads the input file that
test_reference writes (Adam's constants, initial weights, a batch, ten
training batches) and
writes reference.bin: logits and loss of the batch, the 14 gradient tables,
the losses of 10 Adam steps and the weights after them (all float32).

usage: /usr/bin/python3 reference.py ref_input.bin reference.bin
       /usr/bin/python3 reference.py bench ref_input.bin STEPS REPEAT
"""
import math
import struct
import sys

import numpy as np
import torch
import torch.nn.functional as F

torch.set_num_threads(1)

VOCAB = "0123456789*=;"
SEQ_LEN, WIDTH, N_HEADS = 7, 32, 4
TABLES = [("tok_emb", 13, 32), ("pos_emb", 7, 32), ("ln1_gain", 1, 32),
          ("Wq", 32, 32), ("Wk", 32, 32), ("Wv", 32, 32), ("Wo", 32, 32),
          ("ln2_gain", 1, 32), ("W1", 32, 64), ("b1", 1, 64),
          ("W2", 64, 32), ("b2", 1, 32), ("lnf_gain", 1, 32),
          ("W_out", 32, 13)]
MAGIC = 0x52545047


def shortest_decimal(x):
    """The shortest decimal that rounds to the float32 x.  The C program
    keeps Adam's constants as float32; this is the number as attention.nw
    types it (3e-3 rather than 0.0030000000260770321)."""
    exact = struct.pack("<f", x)
    for digits in range(1, 10):
        text = f"{x:.{digits}g}"
        if struct.pack("<f", float(text)) == exact:
            return float(text)
    return x


def read_input(path):
    data = open(path, "rb").read()
    magic, n_params, batch, steps, step_batch = struct.unpack_from("<5i", data)
    assert magic == MAGIC and n_params == sum(r * c for _, r, c in TABLES)
    lr, beta1, beta2, eps = map(shortest_decimal, struct.unpack_from("<4f", data, 20))
    adam = {"lr": lr, "betas": (beta1, beta2), "eps": eps}
    offset = 36
    flat = np.frombuffer(data, "<f4", n_params, offset)
    offset += 4 * n_params
    problems = np.frombuffer(data, "<i4", batch, offset)
    offset += 4 * batch
    step_problems = np.frombuffer(data, "<i4", steps * step_batch, offset)
    return (flat, problems.tolist(), step_problems.reshape(steps, step_batch).tolist(),
            adam)


def encode(problem):
    """'a*b=P;' as token ids, padded with ';' to SEQ_LEN; targets -1 = none"""
    a, b = divmod(problem, 10)
    text = f"{a}*{b}={a * b};"
    ids = [VOCAB.index(ch) for ch in text]
    targets = ids[1:] + [-1]
    pad = SEQ_LEN - len(ids)
    return ids + [VOCAB.index(";")] * pad, targets + [-1] * pad


def make_batch(problems):
    pairs = [encode(p) for p in problems]
    return (torch.tensor([p[0] for p in pairs]),
            torch.tensor([p[1] for p in pairs]))


class TinyTransformer(torch.nn.Module):
    def __init__(self, flat):
        super().__init__()
        self.tables = torch.nn.ParameterDict()
        offset = 0
        for name, rows, cols in TABLES:
            values = torch.tensor(flat[offset:offset + rows * cols].copy())
            self.tables[name] = torch.nn.Parameter(values.view(rows, cols))
            offset += rows * cols

    def layer_norm(self, x, gain):
        return F.layer_norm(x, (WIDTH,), weight=gain.view(-1), bias=None, eps=1e-5)

    def attention(self, h):
        w = self.tables
        B, T, C = h.shape
        d_head = C // N_HEADS

        def split(m):   # (B, T, C) -> (B, heads, T, d_head)
            return m.view(B, T, N_HEADS, d_head).transpose(1, 2)

        q, k, v = split(h @ w["Wq"]), split(h @ w["Wk"]), split(h @ w["Wv"])
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        weights = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        heads = (weights @ v).transpose(1, 2).reshape(B, T, C)
        return heads @ w["Wo"]

    def forward(self, tokens):
        w = self.tables
        T = tokens.shape[1]
        x = w["tok_emb"][tokens] + w["pos_emb"][:T]
        x = x + self.attention(self.layer_norm(x, w["ln1_gain"]))
        h = self.layer_norm(x, w["ln2_gain"])
        x = x + F.gelu(h @ w["W1"] + w["b1"].view(-1)) @ w["W2"] + w["b2"].view(-1)
        return self.layer_norm(x, w["lnf_gain"]) @ w["W_out"]


def loss_of(model, tokens, targets):
    logits = model(tokens)
    loss = F.cross_entropy(logits.reshape(-1, len(VOCAB)), targets.reshape(-1),
                           ignore_index=-1)  # mean over positions with a target
    return logits, loss


def flat_of(tensors):
    return torch.cat([t.detach().reshape(-1) for t in tensors]).numpy()


def main(input_path, output_path):
    flat, problems, step_problems, adam = read_input(input_path)
    model = TinyTransformer(flat)
    tables = [model.tables[name] for name, _, _ in TABLES]

    tokens, targets = make_batch(problems)
    logits, loss = loss_of(model, tokens, targets)
    loss.backward()
    grads = flat_of([t.grad for t in tables])

    optimizer = torch.optim.Adam(tables, **adam, weight_decay=0)
    step_losses = []
    for batch in step_problems:
        optimizer.zero_grad()
        _, step_loss = loss_of(model, *make_batch(batch))
        step_loss.backward()
        optimizer.step()
        step_losses.append(step_loss.item())

    with open(output_path, "wb") as out:
        for array in (logits.detach().numpy(), np.array([loss.item()]), grads,
                      np.array(step_losses), flat_of(tables)):
            out.write(np.asarray(array, dtype="<f4").tobytes())
    print(f"reference: loss {loss.item():.6f}, "
          f"after 10 Adam steps {step_losses[-1]:.6f}")


def bench(input_path, steps, repeat):
    """Milliseconds per training step of the same model, batch 32, one
    thread: the same initial weights as the C program's seed 1, batches of
    problems drawn at random (encoded before the clock starts), Adam."""
    import statistics
    import time
    flat, _, _, adam = read_input(input_path)
    rng = np.random.default_rng(1)
    batches = [make_batch(rng.integers(0, 100, 32).tolist()) for _ in range(steps)]
    # The C program's training step leaves out the seventh position, which
    # never has a target and which no other position reads; so does this.
    batches = [(tokens[:, :SEQ_LEN - 1], targets[:, :SEQ_LEN - 1])
               for tokens, targets in batches]
    timings = []
    for _ in range(repeat):
        model = TinyTransformer(flat)
        tables = [model.tables[name] for name, _, _ in TABLES]
        optimizer = torch.optim.Adam(tables, **adam)
        for tokens, targets in batches[:5]:        # warm up
            optimizer.zero_grad()
            loss_of(model, tokens, targets)[1].backward()
            optimizer.step()
        start = time.perf_counter()
        for tokens, targets in batches:
            optimizer.zero_grad()
            loss_of(model, tokens, targets)[1].backward()
            optimizer.step()
        timings.append((time.perf_counter() - start) / steps)
    ms = 1e3 * statistics.median(timings)
    print(f"torch_ms_per_step {ms:.3f}   (median of {repeat} runs of {steps} steps, "
          f"batch 32, {torch.get_num_threads()} thread; min {1e3 * min(timings):.3f}, "
          f"max {1e3 * max(timings):.3f})")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "bench":
        bench(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        main(sys.argv[1], sys.argv[2])
