__version__ = "0.9.0.dev0"  # the Go release 0.9.0-dev (internal/version)
