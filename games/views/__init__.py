"""Thin views: read the request, call an access helper or a service, render."""
