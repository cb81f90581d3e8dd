"""Honest play (a player who sees only the view): the information-state playout kernel
(``kernel``), playing a policy through a deal (``play``), the rollout policies (``rollout``)
and the playout estimates of actions (``estimate``)."""
