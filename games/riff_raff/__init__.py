"""Riff Raff (驚濤駭浪): cargo on a rocking ship, simulated with pymunk."""
