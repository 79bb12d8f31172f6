"""Trained systems for SemEval-2022 Task 2 subtask A (idiomaticity detection)."""
