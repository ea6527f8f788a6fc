"""Everything that changes a tournament or talks to the pairing engine, one module per
concern.  Views call these (and :mod:`pairing.reports` for what they only read); the
services call the models and the engine, never the other way round."""
