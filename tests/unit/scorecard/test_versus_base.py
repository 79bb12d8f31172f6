"""The trained-versus-base table of the results index: differences and cleared columns by hand."""

from __future__ import annotations

from pathlib import Path

from idiomkit.data.meaning_triples import VERSION as CORE_VERSION
from idiomkit.report import scorecard
from idiomkit.report.scorecard import ADMIRE_BY_TYPE
from idiomkit.report.versus_base import BASE_WITH_READER, admire_by_type_section, clears, versus_base_rows


def card(model, recipe, seed, idiom, stsb, trained=True, track="plain", val=None):
    training = {
        "label": recipe,
        "reads_max_seq_length": 512,
        "core_test_version": CORE_VERSION,
    }  # a run saved as runs are now
    training |= {"best": {"metric": "val_mean", "value": val, "step": 300}} if val is not None else {}
    params = {"track": track, "training": training if trained else None}
    metrics = {"semeval2b": {"ALL": {"idiom": idiom}}, "sts-guard": {"stsb-en": stsb}}
    rec = {"task": "scorecard", "model": model, "recipe": recipe, "seed": seed, "params": params, "metrics": metrics}
    return Path(f"{model}__{recipe}__{seed}.json"), rec


def test_a_trained_card_is_compared_with_its_base_with_the_reader(monkeypatch):
    monkeypatch.setattr(scorecard, "READER_VERSION", 1)  # cards without params.reader_version: version 1, current
    results = [
        card("me5", BASE_WITH_READER, 0, 0.30, 0.80, trained=False),
        card("me5", "flagship-v2", 0, 0.40, 0.785),
        card("me5", "flagship-v2", 1, 0.20, 0.795),  # mean idiom .30: equal, not higher
        card("me5", "flagship-v2", 0, 0.90, 0.90, track="marked"),  # another track: not counted
        card("minilm", "flagship", 0, 0.5, 0.5),  # no base with the reader: no row
    ]
    rows = versus_base_rows(results)
    assert len(rows) == 3  # header, rule, one model
    cells = [c.strip() for c in rows[2].strip("|").split("|")]
    assert cells[:3] == ["me5", "flagship-v2", "2"]
    assert "0.300 (+0.000)" in cells and "0.790 (-0.010)" in cells
    assert cells[-2] == "1 of 2"  # the STS guard is kept (within .01), the idiom column is not beaten
    assert cells[-1] == "0 ▲, 0 ▼ of 0"  # no prediction files beside these cards: no paired interval


def test_the_admire_table_by_sentence_type_compares_the_idiomatic_and_literal_items_apart(monkeypatch):
    monkeypatch.setattr(scorecard, "READER_VERSION", 1)

    def admire_card(recipe, idiomatic, literal, trained=True):
        path, rec = card("mpnet", recipe, 0, 0.3, 0.8, trained=trained)
        types = {"idiomatic": {"spearman": idiomatic, "top1": 0.5}, "literal": {"spearman": literal, "top1": 0.5}}
        rec["metrics"]["admire"] = {"pool": {"spearman": 0.4, **types}}
        return path, rec

    results = [admire_card(BASE_WITH_READER, 0.20, 0.65, trained=False), admire_card("flagship-v2", 0.08, 0.69)]
    rows = versus_base_rows(results, columns=ADMIRE_BY_TYPE)
    assert rows[0].split(" | ")[3:7] == [column for column, _, _ in ADMIRE_BY_TYPE]
    cells = [c.strip() for c in rows[2].strip("|").split("|")]
    assert cells[3:7] == ["0.080 (-0.120)", "0.500 (+0.000)", "0.690 (+0.040)", "0.500 (+0.000)"]
    assert cells[-2] == "1 of 4"
    assert admire_by_type_section(results)[0].startswith("### AdMIRe by sentence type")
    assert admire_by_type_section([results[1]]) == []  # no base with the reader: no section


def test_clears_is_strict_for_idiom_columns_and_tolerant_for_sts_guards():
    assert clears("2B idiom ρ", 0.31, 0.30) and not clears("2B idiom ρ", 0.30, 0.30)
    assert clears("STS-B test ρ", 0.791, 0.80) and not clears("STS-B test ρ", 0.789, 0.80)


def test_no_base_no_table():
    assert versus_base_rows([card("me5", "flagship-v2", 0, 0.4, 0.8)]) == []


def experiments_folder(root: Path, rules: dict[str, str | None]) -> Path:
    """``root/benchmarks/experiments`` with one flagship-v2 experiment per model (``rules``: its ``[select]`` metric,
    None: no rule); returns the results folder beside it."""
    folder = root / "benchmarks" / "experiments"
    folder.mkdir(parents=True)
    for model, metric in rules.items():
        text = f'[train]\nrecipe = "flagship-v2"\nmodel = "{model}"\n'
        text += f'\n[select]\nmetric = "{metric}"\n' if metric else ""
        (folder / f"flagship-v2-{model}.toml").write_text(text, encoding="utf-8")
    return root / "benchmarks" / "results" / "scorecard"


def test_the_recommendation_follows_the_validation_rule_of_the_experiment_files(tmp_path):
    """The highest mean validation value at the selected checkpoints wins, whatever the test columns say; a
    configuration whose experiment file names no rule, or on one seed, is no candidate; Portuguese: its models."""
    from idiomkit.report.scorecard import recommendation_line, recommended

    cards = experiments_folder(tmp_path, {"mpnet": "val_mean", "me5-small-enpt": "val_mean", "minilm": None})

    def at(path_rec):
        path, rec = path_rec
        return cards / path.name, rec

    results = [at(card("mpnet", "flagship-v2", s, 0.10, 0.8, val=0.60 + s / 100)) for s in (0, 1)]  # mean .605
    results += [at(card("me5-small-enpt", "flagship-v2", s, 0.90, 0.9, val=0.58)) for s in (0, 1)]  # best on test
    results += [at(card("minilm", "flagship-v2", s, 0.95, 0.9, val=0.99)) for s in (0, 1)]  # no rule in its file
    results += [at(card("mpnet", "zero-shot", 0, 0.99, 0.99, trained=False))]  # untrained: nothing to select
    assert recommended(results, portuguese=False) == ("mpnet", "flagship-v2")
    assert recommended(results, portuguese=True) == ("me5-small-enpt", "flagship-v2")
    line = recommendation_line(results)[0]
    assert line.startswith("**Recommended on validation**") and "val_mean 0.6050 over 2 seeds" in line
    assert recommended(results[2:3] + results[4:], portuguese=False) is None  # one seed of me5: no candidate
    assert "none yet" in recommendation_line(results[4:])[0]


def core_card(model, recipe, heldout, new_test=True):
    """A plain untrained card with a core test: the current one (its diagnostic column) or an earlier one."""
    path, rec = card(model, recipe, 0, 0.3, 0.8, trained=False)
    slice_ = {"n": 300 if new_test else 750, "accuracy": 0.99, "accuracy_ci95": [0.5, 0.7]}
    slice_["controls"] = {"balanced": {"accuracy": heldout}}  # the scorecard shows the control-balanced accuracy
    rec["metrics"]["meaning-triples"] = {"heldout": slice_, "seen": {"accuracy": 0.9}}
    rec["metrics"]["meaning-triples"] |= {"heldout_pie": {"n": 600, "accuracy": 0.7}} if new_test else {}
    return path, rec


def test_a_card_scored_on_the_earlier_core_test_is_marked_and_compared_with_nothing():
    from idiomkit.report.scorecard import CONTROL_NOTE, OLD_CORE_NOTE, headline, scorecard_rows, scorecard_section

    old, new = core_card("mpnet", "zero-shot", 0.90, new_test=False), core_card("minilm", "zero-shot", 0.50)
    assert headline(old[1]["metrics"])["core acc (held-out, balanced)"] is None  # the .90 is not a number to compare
    assert headline(new[1]["metrics"])["core acc (held-out, balanced)"] == 0.50
    rows = {line.split("|")[1].strip(): line for line in scorecard_rows([old, new], "plain")[2:]}
    assert "| † | † |" in rows["mpnet"] and "| 0.500 | 0.900 |" in rows["minilm"]
    assert OLD_CORE_NOTE in scorecard_section([old, new]) and OLD_CORE_NOTE not in scorecard_section([new])
    trained_before = card("me5", "flagship-v2", 0, 0.3, 0.8)
    trained_before[1]["params"]["training"].pop("core_test_version")  # trained before the current held-out split
    trained_before[1]["metrics"]["meaning-triples"] = new[1]["metrics"]["meaning-triples"]
    assert (
        headline(trained_before[1]["metrics"], stale=scorecard.stale_core(trained_before[1]))["core acc (seen)"] is None
    )
    assert "| † | † |" in scorecard_rows([trained_before], "plain")[2]
    failing = core_card("minilm", "zero-shot", 0.70)
    failing[1]["metrics"]["meaning-triples"]["seen"]["controls"] = {"headline": False}
    failing[1]["metrics"]["meaning-triples"]["heldout"]["controls"]["headline"] = False
    assert "| 0.700 | 0.900ᶜ |" in scorecard_rows([failing], "plain")[2]  # the balanced column is never marked
    assert CONTROL_NOTE in scorecard_section([failing]) and CONTROL_NOTE not in scorecard_section([new])
    readme = scorecard_section([old, new], readme=True)  # the README's table: no row on the earlier core test
    assert not any(line.startswith("| mpnet") for line in readme)
    assert any(line.startswith("| minilm") for line in readme)
    assert OLD_CORE_NOTE not in readme
    assert "1 more row(s) on the results pages (1 on an earlier core test)." in readme


def test_the_readme_leaves_one_seed_trainings_to_the_results_pages(monkeypatch):
    from idiomkit.report.scorecard import scorecard_section

    monkeypatch.setattr(scorecard, "READER_VERSION", 1)  # cards without params.reader_version: version 1, current
    results = [
        card("me5", "zero-shot", 0, 0.1, 0.8, trained=False),  # an untrained card: one deterministic seed is enough
        card("me5", "flagship-v2", 0, 0.4, 0.8),
        card("me5", "flagship-v2", 1, 0.3, 0.8),
        card("me5", "flagship-v2-no2b", 0, 0.2, 0.8),  # a one-seed ablation
        card("me5", "flagship-v2-nosts", 0, 0.2, 0.8),
    ]
    shown = [line.split("|")[2].strip() for line in scorecard_section(results, readme=True) if line.startswith("| me5")]
    assert shown == ["zero-shot", "flagship-v2"]
    assert "2 more row(s) on the results pages (2 trained on fewer than 2 seeds)." in scorecard_section(
        results, readme=True
    )
    pages = [line.split("|")[2].strip() for line in scorecard_section(results) if line.startswith("| me5")]
    assert (
        "flagship-v2-no2b" in pages
        and "flagship-v2-nosts" in pages
        and "more row(s)" not in "".join(scorecard_section(results))
    )


def test_a_trained_card_scored_at_its_training_length_is_marked_with_that_length(monkeypatch):
    from idiomkit.report.scorecard import SHORT_READ_NOTE, scorecard_rows, scorecard_section

    monkeypatch.setattr(scorecard, "READER_VERSION", 1)  # cards without params.reader_version: version 1, current

    old = card("me5", "flagship-v2", 0, 0.4, 0.8)
    old[1]["params"]["training"] = {"label": "flagship-v2", "config": {"max_seq_length": 64}}  # saved before the fix
    new = card("me5", "flagship-v2-mean", 0, 0.4, 0.8)
    new[1]["params"]["training"] |= {"config": {"max_seq_length": 64}}
    base = card("me5", "zero-shot", 0, 0.3, 0.8, trained=False)
    recipes = [line.split("|")[2].strip() for line in scorecard_rows([old, new, base], "plain")[2:]]
    assert sorted(recipes) == ["flagship-v2-mean", "flagship-v2‡64", "zero-shot"]
    assert SHORT_READ_NOTE in scorecard_section([old, base]) and SHORT_READ_NOTE not in scorecard_section([new, base])


def test_a_row_measured_with_an_older_idiom_reader_is_marked(monkeypatch):
    """With the reader at version 2: a card at version 1 (or older, with the reader, and no field) is marked §1; a
    card at version 2 and a card without the reader (recorded, or older and without one) are not."""
    import idiomkit.report.scorecard as report
    from idiomkit.report.scorecard import OLD_READER_NOTE, reader_version, scorecard_rows, scorecard_section

    monkeypatch.setattr(report, "READER_VERSION", 2)

    def reader_card(recipe, seed=0, **params):
        path, rec = card("me5", recipe, seed, 0.3, 0.8, trained=False)
        rec["params"] |= params
        return path, rec

    results = [
        reader_card("old", reader_version=1),
        reader_card("current", reader_version=2),
        reader_card("mixed", 0, reader_version=2),
        reader_card("mixed", 1, reader_version=1),
        reader_card("none", reader_version=None),
        reader_card("zero-shot+reader-replace", reader={"mode": "replace", "lexicon": 10}),  # before the field
        reader_card("zero-shot"),  # before the field, no reader
        card("me5", "flagship-v2", 0, 0.4, 0.8),  # a flagship before the field: trained with the reader
    ]
    recipes = sorted(line.split("|")[2].strip() for line in scorecard_rows(results, "plain")[2:])
    want = ["current", "flagship-v2§1", "mixed§1", "none", "old§1", "zero-shot", "zero-shot+reader-replace§1"]
    assert recipes == want
    assert [reader_version(rec) for _, rec in results[-3:]] == [1, None, 1]
    assert OLD_READER_NOTE in scorecard_section(results)
    assert OLD_READER_NOTE not in scorecard_section([r for r in results if r[1]["recipe"] in ("current", "none")])
    trained = card("me5", "flagship-v2-mean", 0, 0.4, 0.8)
    trained[1]["params"]["reader_version"] = 2
    base = reader_card(BASE_WITH_READER, reader_version=1)  # a current row against a base on the older reader
    assert versus_base_rows([base, trained])[2].startswith("| me5 | flagship-v2-mean§1 | 1 |")
    monkeypatch.setattr(report, "READER_VERSION", 1)  # today: nothing is older
    assert not any("§" in line for line in scorecard_section(results))


def test_a_model_trained_with_an_older_idiom_reader_is_marked_though_scored_with_the_current_one(monkeypatch):
    """With the reader at version 3: a flagship scored at version 3 but trained at 2 is marked §2 (the oldest of
    the two), here and against its base; one trained at 3, or trained before the field, is not; a model trained
    without the reader and scored with ``--reader`` at 3 is not."""
    import idiomkit.report.scorecard as report
    from idiomkit.report.scorecard import reader_version, scorecard_rows

    monkeypatch.setattr(report, "READER_VERSION", 3)

    def trained(recipe, at_training, **extra):
        path, rec = card("me5", recipe, 0, 0.4, 0.8)
        rec["params"]["reader_version"] = 3
        rec["params"]["training"] |= extra | ({"reader_version": at_training} if at_training != "absent" else {})
        return path, rec

    results = [
        trained("flagship-v2", 2, reader_digest="old"),
        trained("flagship-v2-student", 3),
        trained("flagship-v2-nosts", "absent"),  # trained before the field: the card's version alone
        trained("mnrl+reader-replace", None),  # trained without the reader, scored with one
    ]
    assert [reader_version(rec) for _, rec in results] == [2, 3, 3, 3]
    recipes = sorted(line.split("|")[2].strip() for line in scorecard_rows(results, "plain")[2:])
    assert recipes == ["flagship-v2-nosts", "flagship-v2-student", "flagship-v2§2", "mnrl+reader-replace"]
    path, base = card("me5", BASE_WITH_READER, 0, 0.3, 0.8, trained=False)
    base["params"]["reader_version"] = 3
    rows = versus_base_rows([(path, base), results[0], results[1]])
    assert [row.split("|")[2].strip() for row in rows[2:]] == ["flagship-v2§2", "flagship-v2-student"]


def test_a_row_without_a_reader_is_marked_when_an_older_lexicon_split_its_seen_triples(monkeypatch):
    """A model without a reader still has a seen column split from the lookup-equal triples by the evaluation
    lexicon: a card whose core test recorded an older lexicon version is marked §N (N that version); one recorded at
    the current version, or before the field, is not."""
    import idiomkit.report.scorecard as report
    from idiomkit.report.scorecard import CORE_BLOCK, reader_version, scorecard_rows

    monkeypatch.setattr(report, "READER_VERSION", 12)

    def plain(recipe, **block):
        path, rec = card("minilm", recipe, 0, 0.3, 0.8, trained=False)
        rec["params"]["reader_version"] = None
        rec["params"]["blocks"] = {CORE_BLOCK: {"lookup_lexicon": "evaluation (5339 entries)", **block}}
        return path, rec

    results = [plain("a", lookup_lexicon_version=11), plain("b", lookup_lexicon_version=12), plain("c")]
    assert [reader_version(rec) for _, rec in results] == [11, 12, None]
    recipes = sorted(line.split("|")[2].strip() for line in scorecard_rows(results, "plain")[2:])
    assert recipes == ["a§11", "b", "c"]


def test_a_trained_recommendation_names_the_experiment_that_makes_it(tmp_path):
    from idiomkit.report.scorecard import experiment_of, how_to_get

    card_path = tmp_path / "benchmarks" / "results" / "scorecard" / "mpnet__x__plain__seed0.json"
    experiments = tmp_path / "benchmarks" / "experiments"
    experiments.mkdir(parents=True)
    train = '[train]\nrecipe = "flagship-v2"\nmodel = "mpnet"\npooling = "mean"\nprecision = "bf16"\n'
    (experiments / "mine.toml").write_text(train, encoding="utf-8")
    (experiments / "other.toml").write_text(train.replace("mpnet", "minilm"), encoding="utf-8")
    assert experiment_of("mpnet", "flagship-v2-pool-mean-bf16", card_path) == "mine"
    assert experiment_of("mpnet", "flagship-v2-pool-mean", card_path) is None  # no experiment trains it in fp32
    method = '[method]\nscript = "idiomkit"\nsubcommand = "center"\n'
    method += 'positional = [{ inject = "run", experiment = "%s" }]\n'
    (experiments / "mine-center.toml").write_text(method % "mine", encoding="utf-8")
    (experiments / "other-center.toml").write_text(method % "other", encoding="utf-8")
    assert experiment_of("mpnet", "flagship-v2-pool-mean-bf16-center", card_path) == "mine-center"
    assert experiment_of("minilm", "flagship-v2-pool-mean-bf16-center", card_path) == "other-center"
    assert experiment_of("mpnet", "flagship-v2-pool-mean-center", card_path) is None  # no fp32 run to centre
    results = [(card_path, {"model": "mpnet", "recipe": "flagship-v2-pool-mean-bf16"})]
    assert how_to_get(("mpnet", "flagship-v2-pool-mean-bf16"), results) == (
        "`mpnet` flagship-v2-pool-mean-bf16 (`idiomkit reproduce --full --only mine --seed 0`)"
    )
    assert how_to_get(("mpnet", "zero-shot"), results) == "`mpnet` zero-shot"


def test_a_card_scored_on_an_earlier_construction_of_the_core_test_compares_with_nothing():
    from idiomkit.report.scorecard import stale_core

    path, rec = core_card("minilm", "zero-shot", 0.6)
    assert not stale_core(rec)
    rec["params"]["blocks"] = {"meaning-triples": {"core_test_version": CORE_VERSION - 1}}
    assert stale_core(rec)
    rec["params"]["blocks"]["meaning-triples"]["core_test_version"] = CORE_VERSION
    assert not stale_core(rec)
