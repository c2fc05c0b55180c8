"""What every service shares: configuration, auth, errors, the gRPC server bootstrap."""
