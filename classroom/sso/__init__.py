"""Single sign-on: teachers sign in with the school's Google Workspace, Microsoft Entra or other
OpenID Connect account, through django-allauth's ``openid_connect`` provider.

Only allauth's social part is used: the site keeps its own log-in, sign-up and password pages
(classroom/views/accounts.py). See docs/sign-in.md.
"""
