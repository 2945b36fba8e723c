"""A real OpenID Connect provider for the single sign-on browser test: a Django site of its own
with django-oauth-toolkit's OIDC support, run as a second process on 127.0.0.1.

Its key, database, users and the registered application are made by the test
(tests/e2e/test_sign_in_sso.py); nothing here is part of Snapclass.
"""
