"""What is on disk and how it is written: file names, the manifest, atomic swaps, vector stores."""
