"""AdMIRe: a one-row subtask A TSV with CRLF line ends (tests/unit/methods, tests/integration/methods)."""

from idiomkit.data.admire import COLUMNS


def write_admire_tsv(tmp_path, **overrides):
    row = {
        "compound": "bad apple",
        "subset": "Test",
        "sentence_type": "idiomatic",
        "sentence": "He is the bad apple of the team.",
        "expected_order": str([f"{i}.png" for i in range(5)]),
    }
    for i in range(5):
        row[f"image{i + 1}_name"] = f"{i}.png"
        row[f"image{i + 1}_caption"] = f"caption {i}\\nmore"
    row.update(overrides)
    path = tmp_path / "a.tsv"
    path.write_bytes(("\t".join(COLUMNS) + "\r\n" + "\t".join(row[c] for c in COLUMNS) + "\r\n").encode())
    return path
