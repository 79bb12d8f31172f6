"""Trained systems for AdMIRe caption ranking (query encoder, feature and structured rankers)."""
