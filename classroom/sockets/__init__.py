"""The site's WebSockets: the teacher's pages and the tablets' lobby (``pages``), the tablets'
game tables (``table``), what every socket shares (``base``, ``auth``, ``limits``,
``outage_calm``), and the close codes they end with, defined once (``close_codes``)."""
