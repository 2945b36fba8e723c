"""Any trial's columns as its measures read them (``TrialFacts``), for property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from classroom.analytics.row_measures import TrialFacts

_maybe = st.one_of(st.none(), st.booleans())


def trial_facts(*, min_size: int = 0, max_size: int = 40) -> st.SearchStrategy[list[TrialFacts]]:
    """Lists of trials with every column free, unset ones included."""
    return st.lists(
        st.builds(
            TrialFacts,
            target=_maybe,
            responded=_maybe,
            congruent=_maybe,
            rt_ms=st.one_of(st.none(), st.integers(min_value=0, max_value=5000)),
            correct=_maybe,
            plausible=st.booleans(),
        ),
        min_size=min_size,
        max_size=max_size,
    )
