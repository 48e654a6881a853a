"""The user cache of indexes and adapted models: listing, in-use stamps, pruning."""
