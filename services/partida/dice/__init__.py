"""The dice service: secret per-match seeds, forward-only streams, commitments and reveals."""
