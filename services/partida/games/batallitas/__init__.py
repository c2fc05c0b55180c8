"""Fanhunter Batallitas, the squad skirmish game (not registered yet: see RULES.md)."""
