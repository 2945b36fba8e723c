"""Downloads of a session's or a class's trials and summaries: CSV files, their codebook and an
Excel workbook with an About sheet.

``columns`` says what each file holds and what each column means (one list of columns for CSV
and Excel alike); ``trial_rows`` and ``summary_rows`` fetch what goes in them, through the
analytics selectors; ``sources`` gathers them for a session or a class; ``codebook`` describes
them; ``csv_files`` and ``workbook`` write them; ``downloads`` turns a kind of file into a
response. The workbook is built by a background task (``classroom.services.exports``).
"""
