"""EZ-diffusion (Wagenmakers, van der Maas & Grasman 2007) and its reading in words."""

from __future__ import annotations

import pytest

from classroom.analytics.diffusion import (
    CAREFUL,
    HASTY,
    NEEDS_SUPPORT,
    QUICK_AND_ACCURATE,
    STYLE_TEXT,
    Diffusion,
    class_cuts,
    decision_style,
    edge_corrected,
    ez_diffusion,
    ez_from_trials,
)


def test_the_papers_worked_example() -> None:
    # Wagenmakers et al. (2007), p. 8: Pc = .802, VRT = .112, MRT = .723 give v = 0.1,
    # a = 0.14, Ter = 0.3.
    fit = ez_diffusion(proportion_correct=0.802, rt_variance_s2=0.112, rt_mean_s=0.723, trials=100)
    assert fit is not None
    assert fit.drift == pytest.approx(0.0999, abs=1e-4)
    assert fit.boundary == pytest.approx(0.1400, abs=1e-4)
    assert fit.nondecision_s == pytest.approx(0.3000, abs=1e-4)


def test_edge_corrections() -> None:
    assert edge_corrected(1.0, 50) == pytest.approx(0.99)
    assert edge_corrected(0.0, 50) == pytest.approx(0.01)
    assert edge_corrected(0.5, 50) == pytest.approx(0.51)
    assert edge_corrected(0.7, 50) == 0.7
    perfect = ez_diffusion(proportion_correct=1.0, rt_variance_s2=0.02, rt_mean_s=0.6, trials=50)
    assert perfect is not None
    assert perfect.drift > 0
    below = ez_diffusion(proportion_correct=0.3, rt_variance_s2=0.02, rt_mean_s=0.6, trials=50)
    assert below is not None
    assert below.drift < 0
    assert below.boundary > 0


def test_from_trials_and_what_cannot_be_fitted() -> None:
    fit = ez_from_trials(correct_rts_ms=[500, 600, 700], correct=3, trials=4)
    assert fit is not None
    # VRT = 0.01 s^2, MRT = 0.6 s, Pc = .75.
    same = ez_diffusion(proportion_correct=0.75, rt_variance_s2=0.01, rt_mean_s=0.6, trials=4)
    assert same is not None
    assert fit.drift == pytest.approx(same.drift)
    assert fit.boundary == pytest.approx(same.boundary)
    assert fit.nondecision_s == pytest.approx(same.nondecision_s)
    assert ez_from_trials(correct_rts_ms=[500], correct=1, trials=4) is None
    assert ez_from_trials(correct_rts_ms=[500, 500], correct=2, trials=4) is None
    with pytest.raises(ValueError, match="proportion_correct"):
        ez_diffusion(proportion_correct=1.2, rt_variance_s2=0.01, rt_mean_s=0.6, trials=4)


def test_words_on_two_axes() -> None:
    cuts = {"drift_cut": 0.2, "boundary_cut": 0.12}
    assert decision_style(Diffusion(0.3, 0.10, 0.3), **cuts) == QUICK_AND_ACCURATE
    assert decision_style(Diffusion(0.3, 0.15, 0.3), **cuts) == CAREFUL
    assert decision_style(Diffusion(0.1, 0.08, 0.3), **cuts) == HASTY
    assert decision_style(Diffusion(0.1, 0.15, 0.3), **cuts) == NEEDS_SUPPORT
    assert STYLE_TEXT[HASTY] == "hasty"
    assert class_cuts([Diffusion(0.1, 0.1, 0.3), Diffusion(0.3, 0.2, 0.3)]) == (
        0.2,
        0.15000000000000002,
    )
    assert class_cuts([]) is None
