"""Bandas: a gang skirmish on a continuous table in centimetres, with vehicles (unregistered)."""
