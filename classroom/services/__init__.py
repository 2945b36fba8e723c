"""Business logic: every change to classes, sessions, tables and seats goes through here.

Functions are named ``<entity>_<action>``, take keyword arguments only, and raise Django's
``ValidationError`` with a message a teacher or child can read when the change is refused
(in which case nothing changed).
"""
