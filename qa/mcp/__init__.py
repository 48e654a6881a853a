"""``relnotes mcp``: the answers as Model Context Protocol tools and resources (``server``), over ``qa.serving``."""
