"""Honest play (a player who sees only the view): the information-state playout kernel
(``kernel``), playing a policy through a deal (``play``), the rollout policies (``rollout``)
and the playout estimates of actions (``estimate``)."""

# the game loop's public names (engine imports only: no kernel is loaded by this)
from .play import DEFAULT_POLICY_SEED, decision_stream, play_honest, seeded_hash  # noqa: E402,F401
