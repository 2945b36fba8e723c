"""Skill analytics: measures from trials, selectors that feed them, charts."""
