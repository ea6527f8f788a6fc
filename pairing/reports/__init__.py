"""Read-only views of a tournament: standings with tie-breaks, crosstable, ARO list and
chart, player card.  Nothing here writes to the database."""
