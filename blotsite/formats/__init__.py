"""Date and number formats for languages Django ships no formats for (Armenian)."""
