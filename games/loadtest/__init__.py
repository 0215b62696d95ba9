"""The load command's client (``manage.py loadtest``) and the bare listener it times
the channel layer with: a tool, not part of the live site.
"""
