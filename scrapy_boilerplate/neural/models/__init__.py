"""The shipped Web2Text model files (data only; see MODEL_CARD.md)."""
