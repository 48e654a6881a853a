"""The web page of relnotes serve, in a real headless Chromium."""
