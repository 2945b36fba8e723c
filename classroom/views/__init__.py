"""Views: small, typed, and thin. Parsing in forms, rules in services, reads in selectors."""
