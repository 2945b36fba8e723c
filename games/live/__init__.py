"""The live runtime: table hosts, their registry, and the wire protocol."""
