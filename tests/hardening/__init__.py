"""The hardening catalogue (docs/hardening.md), end to end through the CLI, in and out of process."""
