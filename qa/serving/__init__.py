"""What the HTTP server (``qa.http``) and the MCP server (``qa.mcp``) share.

``background``: the service opened on a thread, so a server answers its handshake at once;
``reloading``: the service swapped for a rebuilt index; ``calls``: one call on a worker thread,
the wait for the index and the errors mapped once; ``api``: the operations agents and teams call
(arguments checked, JSON records fitted to a budget). Nothing heavy is imported here.
"""
