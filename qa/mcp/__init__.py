"""``relnotes mcp``: the answers as Model Context Protocol tools and resources (``server``), over
``qa.serving``; on stdio, the handshake answered before the SDK has loaded (``startup``)."""
