from explore.encoders import autocast
from explore.encoders.autocast import choose_autocast_dtype


def test_auto_precision_is_bf16_only_where_bf16_is_measured_faster(monkeypatch):
    import torch

    monkeypatch.setattr(autocast, "bf16_pays_off", lambda: False)
    assert choose_autocast_dtype("cpu") is None
    assert choose_autocast_dtype("cpu", "bf16") is torch.bfloat16  # asked for by name, on any CPU
    monkeypatch.setattr(autocast, "bf16_pays_off", lambda: True)
    assert choose_autocast_dtype("cpu") is torch.bfloat16
    assert choose_autocast_dtype("cpu", "fp32") is None
