"""Running many processes: router, leases, proxy configuration, process tuning, limits."""
