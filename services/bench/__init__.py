"""`roundhouse bench live`: its load generator and the service-process launcher it shares with tests/e2e."""
