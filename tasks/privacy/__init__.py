"""Privacy: find secrets and personal data in sources and memory files; forget on request."""
