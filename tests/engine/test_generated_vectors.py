"""The generated regression vectors are what their generator writes, and are labelled as such."""

from __future__ import annotations

import yaml

from tools.make_generated_vectors import OUT, expected_files


def test_generated_vectors_are_up_to_date() -> None:
    for path, text in expected_files().items():
        assert path.exists(), f"{path} is missing: run python -m tools.make_generated_vectors"
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} differs from what the reference engine records now: a rule change? "
            "Review, then run python -m tools.make_generated_vectors"
        )


def test_every_generated_vector_is_labelled_and_kept_apart() -> None:
    assert OUT.parent.name == "generated"
    for path in OUT.glob("*.yaml"):
        for scenario in yaml.safe_load(path.read_text(encoding="utf-8"))["scenarios"]:
            assert scenario["generated"] is True and "generated" in scenario["tags"], scenario["id"]
