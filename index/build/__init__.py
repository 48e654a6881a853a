"""The build: chunks in, an index directory out."""
