"""Drawing the live pages: the teacher's console and projector, and the tablets' lobby."""
