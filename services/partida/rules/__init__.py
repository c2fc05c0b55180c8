"""The rules service: matches adjudicated by the engines, session state, live streams."""
