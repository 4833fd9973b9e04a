"""The arcade's scenes: title (attract), lobby, one scene per game, results."""
