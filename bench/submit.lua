-- wrk script: POST a JSON body from BENCH_BODY_FILE, made unique per request.
-- __REQUEST_ID__ and __PHONE__ in the template become a fresh id and a fresh valid US
-- number, so no request is an idempotent replay or a duplicate lead; each request also comes
-- from its own client address (X-Forwarded-For, believed when the server trusts 127.0.0.1), so
-- no per-client rate limit is what is measured.
-- thread_id is a global on purpose: setup() sets it in each thread's own Lua state, and a
-- `local thread_id` here would hide that value (every thread would then send the same ids).
local threads = {}
local counter = 0
local template

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  local file = assert(io.open(os.getenv("BENCH_BODY_FILE"), "r"))
  template = file:read("*a")
  file:close()
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  math.randomseed(os.time() + (thread_id or 0) * 7919)
end

function request()
  counter = counter + 1
  local n = thread_id * 1000000 + counter
  -- Exchanges 200-989 skipping N11 codes; the line number walks 0000-9999.
  local exchange = 200 + math.floor(n / 10000) % 790
  if exchange % 100 == 11 then exchange = exchange + 1 end
  local phone = string.format("512%03d%04d", exchange, n % 10000)
  local id = string.format("bench-%d-%d-%d", os.time(), thread_id, counter)
  local body = template:gsub("__REQUEST_ID__", id):gsub("__PHONE__", phone)
  -- 198.18.0.0/15, the range set aside for benchmarks; only ever a header value here.
  local client = string.format("198.%d.%d.%d", 18 + thread_id % 2, math.floor(counter / 256) % 256, counter % 256)
  -- Headers given to wrk.format replace wrk.headers, so the content type is named again.
  return wrk.format(nil, nil, {["Content-Type"] = "application/json", ["X-Forwarded-For"] = client}, body)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
