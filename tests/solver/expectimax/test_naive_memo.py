"""The brute force's memo (tests/naive_expectimax.py) changes nothing: on random small positions
the walk with the memo and the walk without it give the same values, action by action, and
stop at their node cap (``NodeCap``) on the same positions."""
import naive_expectimax as N
from engine.notation import parse_position

CAP = 3000


def _outcome(state, memo):
    try:
        if state.is_chance_node():
            return {"": N.value(state, CAP, memo)}
        return N.action_values(state, CAP, memo)
    except N.NodeCap:
        return "capped"


def test_the_memo_gives_the_plain_walks_values_and_caps():
    finished = capped = fractional = 0
    for text in N.random_positions(31, 100, max_deck=6):
        state = parse_position(text)
        plain = _outcome(state, memo=False)
        assert _outcome(state, memo=True) == plain, text
        if plain == "capped":
            capped += 1
        else:
            finished += 1
            fractional += any(0 < v < 1 for v in plain.values())
    # both outcomes are exercised, and some values are fractions
    assert finished >= 40 and capped >= 5 and fractional >= 2, (finished, capped, fractional)


def test_the_memo_counts_the_nodes_of_a_position_met_again():
    """A cap between the memo's node count and the plain walk's would tell them apart: the
    memo'd walk must raise exactly where the plain walk does, at every cap."""
    for text in N.random_positions(5, 40, max_deck=5):
        state = parse_position(text)
        if state.is_chance_node():
            continue
        for cap in (50, 200, 800):
            outcomes = []
            for memo in (False, True):
                try:
                    outcomes.append(N.value(state, cap, memo))
                except N.NodeCap:
                    outcomes.append("capped")
            assert outcomes[0] == outcomes[1], (text, cap, outcomes)
