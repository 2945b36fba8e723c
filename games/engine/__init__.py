"""What every game shares: the engine contract, settings, actions, the table state, refusals,
replay, timing and the adaptive ladder. Imports no game."""
