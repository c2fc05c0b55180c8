"""The Redis store's Lua scripts. Each runs atomically, which is what makes a claim safe
across matcher replicas: no other command runs between checking and marking the tickets.

Every script takes the key prefix as ARGV[1] and builds its keys from it (ticket hashes name
their pool), so they suit a single Redis server, not a cluster.
"""

PRELUDE = """
local P = ARGV[1]
local function tkey(id) return P .. ':t:' .. id end
local function end_claim(pid)
  redis.call('ZREM', P .. ':claims', pid)
  redis.call('DEL', P .. ':claim:' .. pid)
end
-- Leaves the searching life for good; kept `retain` seconds for GetTicket and retries.
local function finish(id, status, retain)
  local k = tkey(id)
  local h = redis.call('HMGET', k, 'pool', 'player_id', 'idem')
  redis.call('HSET', k, 'status', status)
  redis.call('HDEL', k, 'claim')
  redis.call('ZREM', h[1], id)
  redis.call('ZREM', P .. ':exp', id)
  redis.call('SREM', P .. ':open:' .. h[2], id)
  redis.call('EXPIRE', k, retain)
  redis.call('EXPIRE', h[3], retain)
  redis.call('PUBLISH', P .. ':events', id)
end
"""

# ARGV: P, idem key, id, created, expires, max open, key ttl, pool, player, field/value...
# Returns the ticket id (the earlier one for a repeated request), or nil when the player has
# too many open tickets. Open tickets whose hash has vanished no longer count.
CREATE = """
local idem = ARGV[2]
local found = redis.call('GET', idem)
if found then return found end
local open, n = P .. ':open:' .. ARGV[9], 0
for _, tid in ipairs(redis.call('SMEMBERS', open)) do
  if redis.call('EXISTS', tkey(tid)) == 1 then n = n + 1 else redis.call('SREM', open, tid) end
end
if n >= tonumber(ARGV[6]) then return false end
local id = ARGV[3]
redis.call('HSET', tkey(id), unpack(ARGV, 10))
redis.call('EXPIRE', tkey(id), ARGV[7])
redis.call('ZADD', ARGV[8], ARGV[4], id)
redis.call('SADD', P .. ':pools', ARGV[8])
redis.call('ZADD', P .. ':exp', ARGV[5], id)
redis.call('SADD', open, id)
redis.call('SET', idem, id, 'EX', ARGV[7])
return id
"""

# ARGV: P, claim id, lease end, proposal json, now, ticket ids... -> 1 if all were claimed.
CLAIM = """
for i = 6, #ARGV do
  local h = redis.call('HMGET', tkey(ARGV[i]), 'status', 'expires')
  if h[1] ~= 'SEARCHING' or tonumber(h[2]) <= tonumber(ARGV[5]) then return 0 end
end
for i = 6, #ARGV do
  local k = tkey(ARGV[i])
  redis.call('HSET', k, 'status', 'CLAIMED', 'claim', ARGV[2])
  redis.call('ZREM', redis.call('HGET', k, 'pool'), ARGV[i])
end
redis.call('ZADD', P .. ':claims', ARGV[3], ARGV[2])
redis.call('SET', P .. ':claim:' .. ARGV[2], ARGV[4])
return 1
"""

# ARGV: P, claim id, match id, retain, ticket ids in seat order. Only tickets this claim
# still holds are assigned (a recovered claim may race its original matcher).
ASSIGN = """
for i = 5, #ARGV do
  local k = tkey(ARGV[i])
  local h = redis.call('HMGET', k, 'status', 'claim')
  if h[1] == 'CLAIMED' and h[2] == ARGV[2] then
    redis.call('HSET', k, 'match_id', ARGV[3], 'seat', i - 5)
    finish(ARGV[i], 'ASSIGNED', ARGV[4])
  end
end
end_claim(ARGV[2])
return 0
"""

# ARGV: P, claim id, ticket ids: back to searching, in their pool at their original age.
RELEASE = """
for i = 3, #ARGV do
  local k = tkey(ARGV[i])
  local h = redis.call('HMGET', k, 'status', 'claim', 'pool', 'created')
  if h[1] == 'CLAIMED' and h[2] == ARGV[2] then
    redis.call('HSET', k, 'status', 'SEARCHING')
    redis.call('HDEL', k, 'claim')
    redis.call('ZADD', h[3], h[4], ARGV[i])
    redis.call('PUBLISH', P .. ':events', ARGV[i])
  end
end
end_claim(ARGV[2])
return 0
"""

# ARGV: P, ticket id, retain -> the status before.
CANCEL = """
local status = redis.call('HGET', tkey(ARGV[2]), 'status')
if status == 'SEARCHING' then finish(ARGV[2], 'CANCELLED', ARGV[3]) end
return status
"""

# ARGV: P, now, retain -> how many expired. A claimed ticket stays due: if its claim is
# released, the next sweep expires it.
EXPIRE = """
local n = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':exp', '-inf', ARGV[2])) do
  local status = redis.call('HGET', tkey(id), 'status')
  if status == 'SEARCHING' then
    finish(id, 'EXPIRED', ARGV[3])
    n = n + 1
  elseif status ~= 'CLAIMED' then
    redis.call('ZREM', P .. ':exp', id)
  end
end
return n
"""

# ARGV: P, now, new lease end, limit -> proposal json of claims whose lease ran out, each
# now leased to the caller, so only one replica recovers a given claim.
STALE = """
local out = {}
local due = redis.call('ZRANGEBYSCORE', P .. ':claims', '-inf', ARGV[2], 'LIMIT', 0, ARGV[4])
for _, pid in ipairs(due) do
  local payload = redis.call('GET', P .. ':claim:' .. pid)
  if payload then
    redis.call('ZADD', P .. ':claims', ARGV[3], pid)
    table.insert(out, payload)
  else
    redis.call('ZREM', P .. ':claims', pid)
  end
end
return out
"""

SCRIPTS = {"create": CREATE, "claim": CLAIM, "assign": ASSIGN, "release": RELEASE,
           "cancel": CANCEL, "expire": EXPIRE, "stale": STALE}
