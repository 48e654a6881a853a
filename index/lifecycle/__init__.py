"""An index's life: where it lives, whether it is stale, opening it (building or updating first)."""
