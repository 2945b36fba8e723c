"""Game engines (pure rules, no Django) and the live runtime that hosts them."""
