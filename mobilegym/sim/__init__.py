"""The simulated phone: UI toolkit, renderer, accessibility export, OS shell and world state."""
