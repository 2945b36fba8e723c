"""Hosting tables from the site: the table hosts, their log, fragments, tiles, notices."""
