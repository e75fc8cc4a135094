"""Code every Roundhouse service imports: the engine contract, titles, wire protocol, event store."""
