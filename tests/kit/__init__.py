"""The bot authors' kit: the wheel served at /start/ and the CLI's ladder commands."""
