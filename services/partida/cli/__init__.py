"""The `partida` command line: play matches in the terminal, replay them, list games."""
