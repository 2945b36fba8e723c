"""Downloads of a session's or a class's trials and summaries: CSV files and an Excel workbook.

``columns`` says what each file holds (one list of columns for CSV and Excel alike);
``trial_rows`` and ``summary_rows`` fetch what goes in them, through the analytics selectors;
``csv_files`` and ``workbook`` write them; ``downloads`` turns a kind of file into a response.
"""
