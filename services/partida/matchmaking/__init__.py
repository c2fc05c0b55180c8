"""Matchmaking: players' tickets wait in pools until a pure match function groups them.

Layout (Open Match style): `pools.form_matches` decides who plays whom and touches nothing
(`index` makes it fast on big pools); `store` keeps tickets (in memory or in Redis) and makes
claiming atomic across replicas; `matcher.Matcher` runs the loop (read pools, form, claim,
create the match, assign); `service.MatchmakingServicer` is the thin gRPC face.
"""
