"""Commotion (一路玩到掛, Perpetual Commotion): real-time race solitaire on shared piles."""
