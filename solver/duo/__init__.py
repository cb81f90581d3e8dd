"""The two-player game: the deal-mode kernel (``kernel``), its clairvoyant search
(``search``), the open-hands expectimax (``open_hands``) and the honest two-seat policies
(``honest``)."""
