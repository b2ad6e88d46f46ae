"""What the build writes besides the pages."""
