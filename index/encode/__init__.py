"""Text encoders, one backend a module, and the one place that chooses which a build or an open uses."""
