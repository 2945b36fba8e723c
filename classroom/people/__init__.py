"""Who is at the tablet: names, nicknames, cookies, language, colour vision."""
