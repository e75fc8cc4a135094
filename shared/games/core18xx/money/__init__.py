"""The money side: market, certificates, money state, trains, payouts (README.md)."""
