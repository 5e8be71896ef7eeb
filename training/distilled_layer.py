"""Distil a full-mode space's fine-tuned encoder into one replaced layer of the base model (the engine's
explore/encoders/distilled_layer.py), trained on cached token states so no transformer below it runs while training.

The base model's states entering its last layer are computed once per article (`token_states`, ~15 min for vital on
a 2-core CPU, cached); a copy of that layer (`LayerCopy`, starting at the base model's weights) is then trained so
that its mean-pooled output for each training article lands on the fine-tuned encoder's vector of that article. The
objective (`DistilledLayerTrainer`): cosine distance to the target, in-batch InfoNCE among the batch's targets, and a
listwise KL between the softmaxed similarities of the placed and of the target vector to all training targets, so the
placed text keeps the target's neighbour list, which is what `neighbour_overlap` measures.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


@dataclass(frozen=True)
class TokenStates:
    """The states entering layer `layer` of the base model, all articles' tokens end to end (fp16): article i's rows
    are `states[offsets[i]:offsets[i + 1]]`."""

    states: np.ndarray
    offsets: np.ndarray
    layer: int

    def batch(self, rows: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
        """(states (b, t, d) float32 zero-padded, mask (b, t) bool) of the articles `rows`."""
        lengths = self.offsets[rows + 1] - self.offsets[rows]
        x = np.zeros((len(rows), int(lengths.max()), self.states.shape[1]), np.float32)
        mask = np.zeros(x.shape[:2], bool)
        for j, (row, n) in enumerate(zip(rows, lengths)):
            x[j, :n] = self.states[self.offsets[row]:self.offsets[row] + n]
            mask[j, :n] = True
        return torch.from_numpy(x), torch.from_numpy(mask)

    def lengths(self, rows: np.ndarray) -> np.ndarray:
        return self.offsets[rows + 1] - self.offsets[rows]


def token_states(model, texts: list[str], layer: int, cache: Path, batch_size: int = 32) -> TokenStates:
    """The states entering transformer layer `layer` of the SentenceTransformer `model` for each text, tokenized and
    truncated as `model.encode` does; written to `cache` (a directory) once and read from there after."""
    cache = Path(cache)
    offsets_file, states_file = cache / "offsets.npy", cache / f"states-{layer}.npy"
    if offsets_file.exists() and states_file.exists():
        offsets = np.load(offsets_file)
        if len(offsets) == len(texts) + 1:
            return TokenStates(np.load(states_file, mmap_mode="r"), offsets, layer)
    cache.mkdir(parents=True, exist_ok=True)
    preprocess = getattr(model, "preprocess", None) or model.tokenize  # as the engine's runners tokenize
    features = {key: value for key, value in preprocess(texts).items() if torch.is_tensor(value)}  # padded
    lengths = features["attention_mask"].sum(1).numpy()
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    dim = (getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)()
    staging = cache / f"states-{layer}.partial.npy"
    states = np.lib.format.open_memmap(staging, mode="w+", dtype=np.float16, shape=(int(offsets[-1]), dim))
    transformer = model[0].auto_model
    order = np.argsort(-lengths, kind="stable")
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            width = int(lengths[rows].max())
            inputs = {key: value[rows, :width] for key, value in features.items()}
            hidden = transformer(**inputs, output_hidden_states=True).hidden_states[layer]
            for j, row in enumerate(rows):
                states[offsets[row]:offsets[row + 1]] = hidden[j, :lengths[row]].float().numpy()
    states.flush()
    del states
    staging.replace(states_file)
    np.save(offsets_file, offsets)
    return TokenStates(np.load(states_file, mmap_mode="r"), offsets, layer)


class LayerCopy(nn.Module):
    """A BERT (post-LayerNorm) encoder layer whose state dict has the names of transformers' `BertLayer`, so the
    base model's layer loads into it and its trained weights load back into the engine's swapped copy."""

    def __init__(self, state: dict, heads: int, eps: float = 1e-12):
        super().__init__()
        dim, inner = state["attention.self.query.weight"].shape[0], state["intermediate.dense.weight"].shape[0]
        self.heads = heads
        self.attention = nn.ModuleDict({
            "self": nn.ModuleDict({name: nn.Linear(dim, dim) for name in ("query", "key", "value")}),
            "output": nn.ModuleDict({"dense": nn.Linear(dim, dim), "LayerNorm": nn.LayerNorm(dim, eps=eps)})})
        self.intermediate = nn.ModuleDict({"dense": nn.Linear(dim, inner)})
        self.output = nn.ModuleDict({"dense": nn.Linear(inner, dim), "LayerNorm": nn.LayerNorm(dim, eps=eps)})
        self.load_state_dict({name: torch.as_tensor(np.asarray(value, dtype=np.float32)) if isinstance(value, np.ndarray)
                              else value.detach().float() for name, value in state.items()})

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Mean-pooled, L2-normalised output of the layer over the unmasked tokens (what the engine's model gives)."""
        b, t, d = x.shape
        attention = self.attention
        split = lambda z: z.view(b, t, self.heads, d // self.heads).transpose(1, 2)  # noqa: E731
        q, k, v = (split(attention["self"][name](x)) for name in ("query", "key", "value"))
        mixed = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :]).transpose(1, 2)
        x = attention["output"]["LayerNorm"](x + attention["output"]["dense"](mixed.reshape(b, t, d)))
        x = self.output["LayerNorm"](x + self.output["dense"](F.gelu(self.intermediate["dense"](x))))
        weights = mask[..., None].float()
        return F.normalize((x * weights).sum(1) / weights.sum(1), dim=1)


class DistilledLayerTrainer:
    """Fit a `LayerCopy` of the base layer so that the pooled output of each article's states is its target vector.

        trainer = DistilledLayerTrainer(seed=42).fit(layer_state, heads, states, train_rows, full[train_rows])
        placed = trainer.place(states, test_rows); trainer.state_dict_  # -> save_distilled_layer
    """

    def __init__(self, epochs: int = 3, batch_size: int = 32, learning_rate: float = 2e-4, temperature: float = 0.05,
                 listwise_temperature: float = 0.02, seed: int = 42, log=None):
        self.epochs = epochs
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.temperature = temperature
        self.listwise_temperature = listwise_temperature
        self.seed = seed
        self.log = log

    def fit(self, layer_state: dict, heads: int, states: TokenStates, rows: np.ndarray,
            targets: np.ndarray) -> "DistilledLayerTrainer":
        if len(rows) != len(targets):
            raise ValueError(f"{len(rows)} articles for {len(targets)} targets")
        torch.manual_seed(self.seed)
        rng = np.random.default_rng(self.seed)
        layer = LayerCopy(layer_state, heads)
        wanted = F.normalize(torch.from_numpy(np.asarray(targets, dtype=np.float32)), dim=1)
        batches = self._batches(states, np.arange(len(rows)), rows, rng)
        optimiser = torch.optim.AdamW(layer.parameters(), lr=self.learning_rate, weight_decay=0.01)
        total, warmup = self.epochs * len(batches), max(1, self.epochs * len(batches) // 10)
        schedule = torch.optim.lr_scheduler.LambdaLR(  # linear warm-up over a tenth of the steps, then linear decay
            optimiser, lambda step: min((step + 1) / warmup, max(0.0, (total - step) / max(1, total - warmup))))
        self.history_ = []
        for epoch in range(self.epochs):
            layer.train()
            total = 0.0
            for batch in self._batches(states, np.arange(len(rows)), rows, rng) if epoch else batches:
                placed, target = layer(*states.batch(rows[batch])), wanted[batch]
                loss = self._loss(placed, target, wanted)
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                schedule.step()
                total += loss.item() * len(batch)
            self.history_.append(total / len(rows))
            if self.log:
                self.log(f"epoch {epoch + 1}/{self.epochs}: loss {self.history_[-1]:.4f}")
        layer.eval()
        self.layer_ = layer
        self.state_dict_ = {name: value.detach().clone() for name, value in layer.state_dict().items()}
        return self

    def _loss(self, placed: torch.Tensor, target: torch.Tensor, all_targets: torch.Tensor) -> torch.Tensor:
        cosine = (1 - (placed * target).sum(1)).mean()
        in_batch = F.cross_entropy(placed @ target.T / self.temperature, torch.arange(len(placed)))
        listwise = F.kl_div(F.log_softmax(placed @ all_targets.T / self.listwise_temperature, dim=1),
                            F.log_softmax(target @ all_targets.T / self.listwise_temperature, dim=1),
                            log_target=True, reduction="batchmean")
        return cosine + in_batch + listwise

    def _batches(self, states: TokenStates, positions: np.ndarray, rows: np.ndarray, rng) -> list[np.ndarray]:
        """Shuffled batches of similar length (little padding): sorted by length within chunks of 16 batches."""
        order = rng.permutation(positions)
        chunk = self.batch_size * 16
        batches = []
        for start in range(0, len(order), chunk):
            part = order[start:start + chunk]
            part = part[np.argsort(states.lengths(rows[part]), kind="stable")]
            batches += [part[i:i + self.batch_size] for i in range(0, len(part), self.batch_size)]
        return [batches[i] for i in rng.permutation(len(batches))]

    def place(self, states: TokenStates, rows: np.ndarray, batch_size: int = 64) -> np.ndarray:
        """The trained layer's vectors of the articles `rows`."""
        with torch.no_grad():
            parts = [self.layer_(*states.batch(rows[i:i + batch_size])).numpy()
                     for i in range(0, len(rows), batch_size)]
        return np.concatenate(parts)
