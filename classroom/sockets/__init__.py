"""The site's WebSockets: the teacher's pages and the tablets' lobby (``pages``), the tablets'
game tables (``table``), and what every socket shares (``base``, ``auth``, ``limits``)."""
