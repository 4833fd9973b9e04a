"""What may be shown of a game: public views (no secrets), LED pictures, text."""
