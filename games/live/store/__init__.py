"""What the live layer reads and keeps: the move's SQL rows, each open deal's
unchanging history per process, and presence (who is connected).
"""
