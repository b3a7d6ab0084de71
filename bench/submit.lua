-- wrk script: POST a JSON body from BENCH_BODY_FILE, made unique per request.
-- __REQUEST_ID__ and __PHONE__ in the template become a fresh id and a fresh valid US
-- number, so no request is an idempotent replay or a duplicate lead.
local threads = {}
local counter = 0
local thread_id = 0
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
  math.randomseed(os.time() + thread_id * 7919)
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
  return wrk.format(nil, nil, nil, body)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests": %d, "duration_us": %d, "p50_us": %d, "p99_us": %d, ' ..
    '"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
