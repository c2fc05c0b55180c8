"""The Redis store's Lua scripts. Each runs atomically, which is what makes a claim safe
across matcher replicas: no other command runs between checking and marking the tickets.

Every script takes the key prefix as ARGV[1] and builds its keys from it (ticket hashes name
their pool). The prefix is a hash tag ("{mm}" by default), so on a Redis Cluster every
matchmaking key lives in one slot and the scripts run there (routed by the one key they
declare); matchmaking state is small, unlike sessions, which shard by match.
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
  redis.call('HDEL', k, 'claim', 'claimdoc')
  redis.call('ZREM', h[1], id)
  redis.call('ZREM', P .. ':exp', id)
  redis.call('SREM', P .. ':open:' .. h[2], id)
  redis.call('EXPIRE', k, retain)
  redis.call('EXPIRE', h[3], retain)
  redis.call('PUBLISH', P .. ':events', id)
end
local function held(k, pid)
  local h = redis.call('HMGET', k, 'status', 'claim')
  return h[1] == 'CLAIMED' and h[2] == pid
end
-- Back to searching, in its pool at its original age.
local function back(id)
  local k = tkey(id)
  local h = redis.call('HMGET', k, 'pool', 'created')
  redis.call('HSET', k, 'status', 'SEARCHING')
  redis.call('HDEL', k, 'claim', 'claimdoc')
  redis.call('ZADD', h[1], h[2], id)
  redis.call('PUBLISH', P .. ':events', id)
end
-- Back to searching, the tickets the claim still holds.
local function release(pid, first, last)
  end_claim(pid)
  for j = first, last do
    if held(tkey(ARGV[j]), pid) then back(ARGV[j]) end
  end
end
-- A claimed ticket whose claim is no longer recorded (its keys evicted by a maxmemory
-- policy, say), which would stay claimed for good: the claim is recorded again, due at
-- `due`, from the copy of its proposal that each of its tickets keeps ("claimdoc": the
-- claim id, a space, the proposal), so that it is finished with the same match. A ticket
-- without a copy of this claim's (claimed by an older replica) goes back to its pool.
-- Returns the proposal, or nil.
local function reclaim(id, pid, due)
  local copy = redis.call('HGET', tkey(id), 'claimdoc')
  local owner, payload = string.match(copy or '', '^(%S+) (.*)$')
  if owner ~= pid then
    back(id)
    return nil
  end
  redis.call('ZADD', P .. ':claims', due, pid)
  redis.call('SET', P .. ':claim:' .. pid, payload)
  return payload
end
-- Batched scripts take, from ARGV[start] on, groups of: claim id, a value, n, n ticket ids
-- (one round trip and one script call for hundreds of proposals).
local function each_group(start, fn)
  local i = start
  while i <= #ARGV do
    local n = tonumber(ARGV[i + 2])
    fn(ARGV[i], ARGV[i + 1], i + 3, i + 2 + n)
    i = i + 3 + n
  end
end
"""

# ARGV: P, idem key, id, created, expires, max open, key ttl, pool, player, field/value...
# Returns the ticket's hash as HGETALL gives it (the earlier ticket's for a repeated request),
# or nil when the player has too many open tickets. Open tickets whose hash has vanished no
# longer count.
CREATE = """
local idem = ARGV[2]
local found = redis.call('GET', idem)
if found then return redis.call('HGETALL', tkey(found)) end
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
return redis.call('HGETALL', tkey(id))
"""

# ARGV: P, now, lease end, groups of (claim id, proposal json, tickets) -> 1 or 0 per group:
# 1 if all of the group's tickets were searching and unexpired, and are now claimed.
CLAIM = """
local now, out = tonumber(ARGV[2]), {}
each_group(4, function(pid, payload, first, last)
  local pools = {}
  for j = first, last do
    local h = redis.call('HMGET', tkey(ARGV[j]), 'status', 'expires', 'pool')
    if h[1] ~= 'SEARCHING' or tonumber(h[2]) <= now then
      table.insert(out, 0)
      return
    end
    pools[j] = h[3]
  end
  for j = first, last do
    redis.call('HSET', tkey(ARGV[j]), 'status', 'CLAIMED', 'claim', pid,
               'claimdoc', pid .. ' ' .. payload)
    redis.call('ZREM', pools[j], ARGV[j])
  end
  redis.call('ZADD', P .. ':claims', ARGV[3], pid)
  redis.call('SET', P .. ':claim:' .. pid, payload)
  table.insert(out, 1)
end)
return out
"""

# ARGV: P, retain, groups of (claim id, match id, tickets in seat order). Only tickets the
# claim still holds are assigned (a recovered claim may race its original matcher).
ASSIGN = """
each_group(3, function(pid, match_id, first, last)
  for j = first, last do
    if held(tkey(ARGV[j]), pid) then
      redis.call('HSET', tkey(ARGV[j]), 'match_id', match_id, 'seat', j - first)
      finish(ARGV[j], 'ASSIGNED', ARGV[2])
    end
  end
  end_claim(pid)
end)
return {}
"""

# ARGV: P, retain, groups of (claim id, reason, tickets). Only tickets the claim still
# holds fail (as ASSIGN).
FAIL = """
each_group(3, function(pid, reason, first, last)
  for j = first, last do
    if held(tkey(ARGV[j]), pid) then
      redis.call('HSET', tkey(ARGV[j]), 'failure', reason)
      finish(ARGV[j], 'FAILED', ARGV[2])
    end
  end
  end_claim(pid)
end)
return {}
"""

# ARGV: P, groups of (claim id, unused, tickets).
RELEASE = """
each_group(2, function(pid, _, first, last) release(pid, first, last) end)
return {}
"""

# ARGV: P, expired by, new lease end, groups of (claim id, unused, tickets): a claim that
# still holds a ticket unexpired at "expired by" is due again at the new lease end; one that
# does not is released.
POSTPONE = """
local by = tonumber(ARGV[2])
each_group(4, function(pid, _, first, last)
  if not redis.call('ZSCORE', P .. ':claims', pid) then return end  -- ended meanwhile
  for j = first, last do
    local k = tkey(ARGV[j])
    if held(k, pid) and tonumber(redis.call('HGET', k, 'expires')) > by then
      redis.call('ZADD', P .. ':claims', ARGV[3], pid)
      return
    end
  end
  release(pid, first, last)
end)
return {}
"""

# ARGV: P, ticket id, retain -> the status before.
CANCEL = """
local status = redis.call('HGET', tkey(ARGV[2]), 'status')
if status == 'SEARCHING' then finish(ARGV[2], 'CANCELLED', ARGV[3]) end
return status
"""

# ARGV: P, now, retain -> how many expired. A claimed ticket stays due: if its claim is
# released, the next sweep expires it; if its claim is no longer recorded, it is recorded
# again, due now.
EXPIRE = """
local n = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':exp', '-inf', ARGV[2])) do
  local h = redis.call('HMGET', tkey(id), 'status', 'claim')
  if h[1] == 'SEARCHING' then
    finish(id, 'EXPIRED', ARGV[3])
    n = n + 1
  elseif h[1] == 'CLAIMED' then
    if not (h[2] and redis.call('ZSCORE', P .. ':claims', h[2])) then
      reclaim(id, h[2] or '', ARGV[2])
    end
  else
    redis.call('ZREM', P .. ':exp', id)
  end
end
return n
"""

# ARGV: P, now, new lease end, limit -> proposal json of claims whose lease ran out, each
# now leased to the caller, so only one replica recovers a given claim. A claim whose
# proposal's key is gone is recorded again from its tickets, found among the unfinished
# ones (a scan, but only when a key was lost).
STALE = """
local out, lost = {}, {}
local due = redis.call('ZRANGEBYSCORE', P .. ':claims', '-inf', ARGV[2], 'LIMIT', 0, ARGV[4])
for _, pid in ipairs(due) do
  local payload = redis.call('GET', P .. ':claim:' .. pid)
  if payload then
    redis.call('ZADD', P .. ':claims', ARGV[3], pid)
    table.insert(out, payload)
  else
    redis.call('ZREM', P .. ':claims', pid)
    lost[pid] = true
  end
end
if next(lost) then
  for _, id in ipairs(redis.call('ZRANGE', P .. ':exp', 0, -1)) do
    local h = redis.call('HMGET', tkey(id), 'status', 'claim')
    if h[1] == 'CLAIMED' and lost[h[2]] then
      local payload = reclaim(id, h[2], ARGV[3])
      if payload then
        table.insert(out, payload)
        lost[h[2]] = nil  -- its other tickets hold the claim recorded again
      end
    end
  end
end
return out
"""

# ARGV: P, pool, first, last (ranks) -> the doc of each searching ticket in that range.
# Matchers read pools in chunks of these: one reply per chunk, not one per ticket.
LOAD = """
local out = {}
for _, id in ipairs(redis.call('ZRANGE', ARGV[2], ARGV[3], ARGV[4])) do
  local h = redis.call('HMGET', tkey(id), 'doc', 'status')
  if h[2] == 'SEARCHING' then table.insert(out, h[1]) end
end
return out
"""

SCRIPTS = {"load": LOAD, "create": CREATE, "claim": CLAIM, "assign": ASSIGN, "release": RELEASE,
           "postpone": POSTPONE, "fail": FAIL, "cancel": CANCEL, "expire": EXPIRE, "stale": STALE}
