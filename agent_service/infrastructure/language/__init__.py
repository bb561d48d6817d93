"""Language as data: one file per language (``data/<code>.toml``) and the loader that reads it."""

from agent_service.infrastructure.language.packs import (
    data_detector,
    data_languages,
    language_data,
    language_detector,
    spoken_languages,
    word_list,
)

__all__ = [
    "data_detector",
    "data_languages",
    "language_data",
    "language_detector",
    "spoken_languages",
    "word_list",
]
