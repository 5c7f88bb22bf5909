-- SPDX-License-Identifier: MIT
-- Every query of a DAO scenario through Lua gives the cost `lodestar scen`
-- accepts (the file's optimal length within its printed precision, the
-- rule of lds_scen_matches) and the same total work as the C command.
local lodestar = require "lodestar"

local SCEN = "tests/data/den011d.map.scen" -- copy of ../shared/data/movingai/scen/den011d.map.scen
local MAP = "tests/data/den011d.map"

local function read_scen(path)
  local out = {}
  for line in io.lines(path) do
    local f = {}
    for tok in line:gmatch("[^\t]+") do f[#f + 1] = tok end
    if #f == 9 then
      local frac = f[9]:match("%.(%d+)$") or ""
      out[#out + 1] = {sx = tonumber(f[5]), sy = tonumber(f[6]), gx = tonumber(f[7]),
        gy = tonumber(f[8]), optimal = tonumber(f[9]), tol = 0.5 * 10 ^ -#frac}
    end
  end
  return out
end

-- lds_scen_matches: rounds to the printed value, or truncates to it
local function matches(e, cost)
  local d = cost - e.optimal
  if math.abs(d) <= e.tol + 1e-9 then return true end
  return d >= 0 and d < 2 * e.tol + 1e-9
end

describe("Moving AI DAO scenario through Lua #slow", function()
  it("den011d: every query matches, same expansions and max error as `lodestar scen`", function()
    local grid = assert(lodestar.grid.load(MAP))
    local entries = read_scen(SCEN)
    assert.equal(780, #entries)
    local s = lodestar.search.astar(grid)
    local bad, expansions, max_err = {}, 0, 0
    for i, e in ipairs(entries) do
      s:start(e.sx, e.sy, e.gx, e.gy)
      assert.equal("found", s:run())
      local cost = s:cost()
      if not matches(e, cost) then bad[#bad + 1] = ("query %d: %.6f vs %s"):format(i, cost, e.optimal) end
      max_err = math.max(max_err, math.abs(cost - e.optimal))
      expansions = expansions + s:stats().expansions
      -- the path handed to Lua costs what the search says
      if i % 97 == 0 then assert.near(cost, s:path().cost, 1e-12) end
    end
    assert.same({}, bad)
    local build = os.getenv("LDS_BUILD") or "build" -- set by make test
    local cli = io.popen(build .. "/lodestar scen " .. SCEN .. " --json 2>/dev/null")
    local out = cli:read("*a")
    cli:close()
    local json = out:match("({.*})%s*$")
    assert.is_string(json, "no JSON line from build/lodestar scen")
    assert.equal(tonumber(json:match('"queries":(%d+)')), #entries)
    assert.equal(0, tonumber(json:match('"mismatches":(%d+)')))
    assert.equal(tonumber(json:match('"expansions":(%d+)')), expansions)
    assert.near(tonumber(json:match('"max_abs_error":([%d.e-]+)')), max_err, 1e-9)
  end)
end)
