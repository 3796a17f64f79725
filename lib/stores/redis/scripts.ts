/**
 * The Lua scripts of the Redis adapters: every balance change is one atomic script, run with EVALSHA via ioredis
 * `defineCommand`.
 */

/**
 * Shared by the quota scripts. KEYS: the account hash, the open holds (hash id → units), their
 * expiries (sorted set id → expiry ms) and the lapsed reservations (sorted set id → lapse ms).
 *
 * Every number is an integer count of units (see `unitsPerCredit`), exact in Lua's doubles up to
 * 2^53. Numbers are formatted with `%.0f` before they reach Redis: Lua's own number-to-string
 * conversion keeps only 14 significant digits.
 */
const QUOTA_PRELUDE = `
local account, holds, expiry, lapsed = KEYS[1], KEYS[2], KEYS[3], KEYS[4]

local function int(n)
  return string.format('%.0f', n)
end

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function sweep(now, retention, limit)
  local due = redis.call('ZRANGEBYSCORE', expiry, '-inf', int(now), 'LIMIT', 0, limit)
  for _, id in ipairs(due) do
    local held = tonumber(redis.call('HGET', holds, id) or '0')
    redis.call('HINCRBY', account, 'reserved', int(-held))
    redis.call('HDEL', holds, id)
    redis.call('ZREM', expiry, id)
    redis.call('ZADD', lapsed, int(now), id)
  end
  redis.call('ZREMRANGEBYSCORE', lapsed, '-inf', '(' .. int(now - retention))
end

local function balance_of(default)
  local fields = redis.call('HMGET', account, 'balance', 'unmetered')
  if fields[2] then return nil end
  if fields[1] then return tonumber(fields[1]) end
  if default == 'unmetered' then return nil end
  return tonumber(default)
end
`;

/**
 * reserve. ARGV: id, amount, minimum, ttl ms, lapsed retention ms, sweep limit, default balance.
 * Returns `{'held', units}` or `{'refused', available units | 'unmetered'}`. Idempotent per id:
 * a resent reserve returns the existing hold instead of holding twice.
 */
const RESERVE = `${QUOTA_PRELUDE}
local id = ARGV[1]
local amount, minimum = tonumber(ARGV[2]), tonumber(ARGV[3])
local now = now_ms()
sweep(now, tonumber(ARGV[5]), tonumber(ARGV[6]))
local existing = redis.call('HGET', holds, id)
if existing then return {'held', existing} end
local balance = balance_of(ARGV[7])
local reserved = tonumber(redis.call('HGET', account, 'reserved') or '0')
local held = amount
local available = nil
if balance then
  available = balance - reserved
  if available < held then held = available end
end
if held < minimum or held <= 0 then
  if available == nil then return {'refused', 'unmetered'} end
  return {'refused', int(math.max(0, available))}
end
redis.call('HINCRBY', account, 'reserved', int(held))
redis.call('HSET', holds, id, int(held))
redis.call('ZADD', expiry, int(now + tonumber(ARGV[4])), id)
return {'held', int(held)}
`;

/**
 * settle. ARGV: id, charge, lapsed retention ms, sweep limit, default balance.
 * Returns 'settled' (the hold was open), 'settled-late' (it had lapsed: the charge still applies,
 * once) or 'none' (already settled or released, or unknown: nothing changes).
 */
const SETTLE = `${QUOTA_PRELUDE}
local id = ARGV[1]
local charge = tonumber(ARGV[2])
sweep(now_ms(), tonumber(ARGV[3]), tonumber(ARGV[4]))
local outcome
local held = redis.call('HGET', holds, id)
if held then
  redis.call('HINCRBY', account, 'reserved', int(-tonumber(held)))
  redis.call('HDEL', holds, id)
  redis.call('ZREM', expiry, id)
  outcome = 'settled'
elseif redis.call('ZREM', lapsed, id) == 1 then
  outcome = 'settled-late'
else
  return 'none'
end
local balance = balance_of(ARGV[5])
if balance then redis.call('HSET', account, 'balance', int(balance - charge)) end
redis.call('HINCRBY', account, 'spent', int(charge))
return outcome
`;

/**
 * release. ARGV: id, lapsed retention ms, sweep limit.
 * Returns 'released', 'released-late' (it had lapsed; its hold was already returned) or 'none'.
 */
const RELEASE = `${QUOTA_PRELUDE}
local id = ARGV[1]
sweep(now_ms(), tonumber(ARGV[2]), tonumber(ARGV[3]))
local held = redis.call('HGET', holds, id)
if held then
  redis.call('HINCRBY', account, 'reserved', int(-tonumber(held)))
  redis.call('HDEL', holds, id)
  redis.call('ZREM', expiry, id)
  return 'released'
end
if redis.call('ZREM', lapsed, id) == 1 then return 'released-late' end
return 'none'
`;

/**
 * account: sweeps, then reads. ARGV: lapsed retention ms, sweep limit, default balance.
 * Returns `{balance units | 'unmetered', reserved units, spent units, open holds}`.
 */
const ACCOUNT = `${QUOTA_PRELUDE}
sweep(now_ms(), tonumber(ARGV[1]), tonumber(ARGV[2]))
local balance = balance_of(ARGV[3])
local fields = redis.call('HMGET', account, 'reserved', 'spent')
return {balance and int(balance) or 'unmetered', fields[1] or '0', fields[2] or '0', int(redis.call('HLEN', holds))}
`;

/**
 * fund: sets or adds to a balance. KEYS: the account hash. ARGV: 'set' | 'add', units | 'unmetered', default balance.
 * Returns the new balance in units, or 'unmetered'.
 */
const FUND = `${QUOTA_PRELUDE}
local mode, value = ARGV[1], ARGV[2]
if mode == 'set' then
  if value == 'unmetered' then
    redis.call('HDEL', account, 'balance')
    redis.call('HSET', account, 'unmetered', '1')
    return 'unmetered'
  end
  redis.call('HDEL', account, 'unmetered')
  redis.call('HSET', account, 'balance', value)
  return value
end
local balance = balance_of(ARGV[3])
if balance == nil then return redis.error_reply('ERR rosetta: the account is unmetered; set a balance before adding to it') end
local next = int(balance + tonumber(value))
redis.call('HSET', account, 'balance', next)
return next
`;

/**
 * put-key: adds or replaces a key record and indexes its digest under its id, in one step.
 * KEYS: the record hash, the new id's index set, the index set of the id the record had when read.
 * ARGV: that id ('' for none), digest, id, allowedModels JSON or '', metadata JSON or '', rateLimits JSON or ''.
 * Returns '' or, when the record changed hands between the read and this call, the id it had:
 * the caller then runs unindex-key for that id.
 */
const PUT_KEY = `
local current = redis.call('HGET', KEYS[1], 'id') or ''
if current ~= '' and current == ARGV[1] and current ~= ARGV[3] then redis.call('SREM', KEYS[3], ARGV[2]) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'digest', ARGV[2], 'id', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'allowedModels', ARGV[4]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'metadata', ARGV[5]) end
if ARGV[6] and ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'rateLimits', ARGV[6]) end
redis.call('SADD', KEYS[2], ARGV[2])
if current ~= '' and current ~= ARGV[1] and current ~= ARGV[3] then return current end
return ''
`;

/**
 * unindex-key: drops a digest from an id's index unless the record belongs to that id (again).
 * KEYS: the record hash, the id's index set. ARGV: digest, id. Returns 1 if dropped.
 */
const UNINDEX_KEY = `
if redis.call('HGET', KEYS[1], 'id') == ARGV[2] then return 0 end
return redis.call('SREM', KEYS[2], ARGV[1])
`;

/**
 * remove-key: removes a key record if it still belongs to the id. KEYS: the record hash, the id's index set.
 * ARGV: digest, id. Returns 1 if a record was removed, else 0 (the stale index entry is dropped either way).
 */
const REMOVE_KEY = `
local current = redis.call('HGET', KEYS[1], 'id')
redis.call('SREM', KEYS[2], ARGV[1])
if current ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

/**
 * Shared by the rate-limit scripts. Each scope has two keys: a hash (`req`, `tok`: the levels of its request and
 * token buckets; `at`: when they were last refilled, ms) and a sorted set of the leases in flight (lease id → expiry
 * ms). Per scope, ARGV carries its limits: requests per window, tokens per window, calls in flight (-1: none).
 * Levels are kept as Lua doubles and written with `%.17g`, so a refill's fraction is not lost.
 */
const RATE_PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function num(n)
  return string.format('%.17g', n)
end

-- The scope's buckets refilled to now: {req, tok, at}; a bucket never seen (or expired) is full.
local function refilled(hash, rpm, tpm, window, now)
  local fields = redis.call('HMGET', hash, 'req', 'tok', 'at')
  local at = tonumber(fields[3]) or now
  local elapsed = math.max(0, now - at)
  local req, tok = tonumber(fields[1]), tonumber(fields[2])
  if rpm >= 0 then req = math.min(rpm, (req or rpm) + elapsed * rpm / window) end
  if tpm >= 0 then tok = math.min(tpm, (tok or tpm) + elapsed * tpm / window) end
  return req, tok
end

local function wait_for(level, units, limit, window)
  if level >= units then return 0 end
  return math.ceil((units - level) * window / limit)
end

-- Saves the levels and lets the hash expire once both buckets would be full again.
local function save(hash, req, tok, rpm, tpm, window, now)
  local full = 0
  if rpm > 0 then
    redis.call('HSET', hash, 'req', num(req))
    full = math.max(full, wait_for(req, rpm, rpm, window))
  end
  if tpm > 0 then
    redis.call('HSET', hash, 'tok', num(tok))
    full = math.max(full, wait_for(tok, tpm, tpm, window))
  end
  redis.call('HSET', hash, 'at', num(now))
  redis.call('PEXPIRE', hash, full + 1000)
end
`;

/**
 * rate-acquire. KEYS: per scope, its hash and its lease set. ARGV: lease id, tokens, window ms, lease ttl ms, then
 * per scope its three limits. Admits only if every scope has a request, min(tokens, its token limit) tokens and a
 * slot; then takes them all. Returns {1, state…} or {0, reason, retry ms, state…}, where state is per scope
 * {requests left, requests reset ms, tokens left, tokens reset ms} (-1 where there is no such limit).
 */
const RATE_ACQUIRE = `${RATE_PRELUDE}
local id, tokens, window, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local now = now_ms()
local scopes = #KEYS / 2
local levels = {}
local reason, retry = nil, 0
for i = 1, scopes do
  local hash, leases = KEYS[2 * i - 1], KEYS[2 * i]
  local rpm, tpm, conc = tonumber(ARGV[3 * i + 2]), tonumber(ARGV[3 * i + 3]), tonumber(ARGV[3 * i + 4])
  local req, tok = refilled(hash, rpm, tpm, window, now)
  levels[i] = {req, tok, rpm, tpm, conc}
  if rpm >= 0 then
    local wait = wait_for(req, 1, rpm, window)
    if wait > retry then reason, retry = 'requests', wait end
  end
  if tpm >= 0 then
    local wait = wait_for(tok, math.min(tokens, tpm), tpm, window)
    if wait > retry then reason, retry = 'tokens', wait end
  end
  redis.call('ZREMRANGEBYSCORE', leases, '-inf', num(now))
  if conc >= 0 and redis.call('ZCARD', leases) >= conc and 1000 > retry then reason, retry = 'concurrent', 1000 end
end
local result
if reason then
  result = {0, reason, retry}
else
  result = {1}
  for i = 1, scopes do
    local l = levels[i]
    if l[3] >= 0 then l[1] = l[1] - 1 end
    if l[4] >= 0 then l[2] = l[2] - tokens end
    save(KEYS[2 * i - 1], l[1], l[2], l[3], l[4], window, now)
    redis.call('ZADD', KEYS[2 * i], num(now + ttl), id)
    redis.call('PEXPIRE', KEYS[2 * i], ttl)
  end
end
for i = 1, scopes do
  local l = levels[i]
  if l[3] >= 0 then
    table.insert(result, math.max(0, math.floor(l[1])))
    table.insert(result, wait_for(l[1], l[3], l[3], window))
  else
    table.insert(result, -1)
    table.insert(result, -1)
  end
  if l[4] >= 0 then
    table.insert(result, math.max(0, math.floor(l[2])))
    table.insert(result, wait_for(l[2], l[4], l[4], window))
  else
    table.insert(result, -1)
    table.insert(result, -1)
  end
end
return result
`;

/**
 * rate-settle. KEYS: as rate-acquire. ARGV: lease id, tokens taken, tokens used, window ms, then per scope its three
 * limits. In each scope where the lease is still in flight, frees its slot and corrects the tokens taken to those
 * used. Returns how many scopes it settled (0: settled before, or lapsed).
 */
const RATE_SETTLE = `${RATE_PRELUDE}
local id, taken, used, window = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local now = now_ms()
local settled = 0
for i = 1, #KEYS / 2 do
  local hash, leases = KEYS[2 * i - 1], KEYS[2 * i]
  if redis.call('ZREM', leases, id) == 1 then
    settled = settled + 1
    local rpm, tpm = tonumber(ARGV[3 * i + 2]), tonumber(ARGV[3 * i + 3])
    if tpm >= 0 then
      local req, tok = refilled(hash, rpm, tpm, window, now)
      tok = math.min(tpm, tok + taken - used)
      save(hash, req, tok, rpm, tpm, window, now)
    end
  end
end
return settled
`;

/** A script as ioredis `defineCommand` takes it. */
export interface ScriptDefinition {
  /** The command name the script is defined under (prefixed, so it cannot clash with a host's own commands). */
  name: string;
  lua: string;
  /** How many of the arguments are keys; absent: as many as the first argument says (a variable count). */
  numberOfKeys?: number;
}

/** The quota store's scripts. */
export const QUOTA_SCRIPTS = Object.freeze({
  reserve: { name: 'rosettaQuotaReserve', lua: RESERVE, numberOfKeys: 4 },
  settle: { name: 'rosettaQuotaSettle', lua: SETTLE, numberOfKeys: 4 },
  release: { name: 'rosettaQuotaRelease', lua: RELEASE, numberOfKeys: 4 },
  account: { name: 'rosettaQuotaAccount', lua: ACCOUNT, numberOfKeys: 4 },
  fund: { name: 'rosettaQuotaFund', lua: FUND, numberOfKeys: 1 },
} satisfies Record<string, ScriptDefinition>);

/** The key store's scripts. */
export const KEY_SCRIPTS = Object.freeze({
  put: { name: 'rosettaKeyPut', lua: PUT_KEY, numberOfKeys: 3 },
  unindex: { name: 'rosettaKeyUnindex', lua: UNINDEX_KEY, numberOfKeys: 2 },
  remove: { name: 'rosettaKeyRemove', lua: REMOVE_KEY, numberOfKeys: 2 },
} satisfies Record<string, ScriptDefinition>);

/** The rate-limit store's scripts. */
export const RATE_LIMIT_SCRIPTS = Object.freeze({
  acquire: { name: 'rosettaRateAcquire', lua: RATE_ACQUIRE },
  settle: { name: 'rosettaRateSettle', lua: RATE_SETTLE },
} satisfies Record<string, ScriptDefinition>);
