"""NLP: French lemmas from spaCy, cached by content (`lemmas`)."""

from extract.nlp.lemmas import (
    EXCLUDED,
    MODEL,
    MODEL_VERSION,
    PIECE,
    Lemmatizer,
    Token,
    default_cache,
    forget_model,
    load_model,
    split_text,
)

__all__ = ["EXCLUDED", "MODEL", "MODEL_VERSION", "PIECE", "Lemmatizer", "Token", "default_cache", "forget_model",
           "load_model",
           "split_text"]
