"""PROVISIONAL: plus2's weights until the fit writes this file."""
WEIGHTS = (100, 20, 20, -20, 0, 0, -40, -110, -60, 20, 20, -40, 0, 20, -60, -60, 40)
TUNE = (1, 6, 2, 5, 1, 5)
