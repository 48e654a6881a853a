"""``python -m qa`` runs the relnotes command line."""

from qa.cli import main

if __name__ == "__main__":
    main()
