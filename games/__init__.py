"""The games app: players, rule sets, tables, matches, deals and their pages."""
