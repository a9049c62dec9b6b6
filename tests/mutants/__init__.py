"""Mutation testing of the conformance corpus: a catalogue of engines that each
misread one rule (:mod:`.catalogue`), and the report of which scenarios catch
them (``python -m tests.mutants.report``)."""
