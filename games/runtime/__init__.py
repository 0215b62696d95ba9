"""The process around the site: shutting down cleanly, loops that stop when cancelled,
logs that do not flood.
"""
