"""The chat: a Textual terminal UI over the same engine ``relnotes ask`` uses.

``make_app(backend_factory)`` builds the app for the CLI and the tests alike; the factory runs in
a worker thread, so the UI is on screen before the model and the index have loaded.
"""
