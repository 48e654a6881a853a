"""``relnotes serve``: the answers over HTTP for a team (``app``), reloading a rebuilt index (``holder``)."""
