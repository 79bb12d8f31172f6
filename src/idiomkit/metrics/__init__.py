"""Pure metric functions (no model, no data files): retrieval (:mod:`.retrieval`), TREC run files (:mod:`.trec`),
rankings of a few items (:mod:`.ranking`), classification (:mod:`.classification`) and similarity correlations
(:mod:`.similarity`). Tasks score with these; methods select with them.
"""
