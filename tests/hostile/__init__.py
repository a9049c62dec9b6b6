"""The fault-injection suite (issue 13): hostile engines, inputs and command lines."""
