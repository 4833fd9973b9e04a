"""Computer players: pure (they get a state, return an action or a plan of presses)."""
