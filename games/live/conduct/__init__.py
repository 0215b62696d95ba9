"""The conductor: bots, turn clocks, pauses and the next deal, for every table that is
due; decisions made in a pool of processes.
"""
