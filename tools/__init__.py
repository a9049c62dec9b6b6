"""Generators that write parts of the corpus (beside the layers: never imported by them).

    python -m tools.make_count_scenarios [--check]    # COUNT scenarios, from tools/data/ and the oracle
    python -m tools.make_generated_vectors [--check]  # regression vectors recorded from the reference
"""
