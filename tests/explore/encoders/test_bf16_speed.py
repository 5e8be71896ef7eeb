"""auto precision trusts a measurement, not the CPU flag; these hold on CPUs with and without native bf16."""
import pytest

from explore.encoders import bf16_speed


def test_the_probe_measures_only_where_bf16_instructions_exist_and_the_summary_says_what_auto_does():
    speedup = bf16_speed.bf16_speedup()
    if bf16_speed.cpu_supports_bf16():
        assert speedup > 0.0
        assert f"bf16 matmul {speedup:.2f}x fp32" in bf16_speed.bf16_summary()
    else:
        assert speedup == 0.0 and bf16_speed.bf16_summary() == "native bf16 on this CPU: no (auto computes in fp32)"
    assert bf16_speed.bf16_pays_off() is (speedup >= bf16_speed.MIN_SPEEDUP)
    assert ("auto computes in bf16" in bf16_speed.bf16_summary()) is bf16_speed.bf16_pays_off()


@pytest.mark.parametrize("speedup, pays", [(0.55, False), (1.1, False), (1.15, True), (2.5, True)])
def test_bf16_pays_off_only_when_clearly_faster(monkeypatch, speedup, pays):
    monkeypatch.setattr(bf16_speed, "bf16_speedup", lambda: speedup)
    assert bf16_speed.bf16_pays_off() is pays
