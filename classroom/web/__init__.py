"""The HTTP side: client address, rate limits, access log, no-store, the installable app."""
