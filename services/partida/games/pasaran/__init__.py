"""¿Pasarán?: the Spanish Civil War, July 1936 to 1939, in quarters on an area map of Spain.

Not registered with the platform yet: protos and an adapter come first."""
