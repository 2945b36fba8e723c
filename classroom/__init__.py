"""Snapclass: the Django project package and the main app."""
