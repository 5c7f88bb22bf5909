-- SPDX-License-Identifier: MIT
-- Module-level functions, option lists, rule helpers, no globals.
describe("module", function()
  it("require sets no globals and returns the core table extended", function()
    local before = {}
    for k in pairs(_G) do before[k] = true end
    package.loaded["lodestar"], package.loaded["lodestar.core"] = nil, nil
    local lodestar = require "lodestar"
    for k in pairs(_G) do assert.is_true(before[k] ~= nil, "new global " .. tostring(k)) end
    assert.equal(require "lodestar.core", lodestar.core)
    assert.equal("lodestar", lodestar._NAME)
    assert.equal("lodestar.core", lodestar.core._NAME)
    assert.matches("^%d+%.%d+%.%d+$", lodestar._VERSION)
    assert.is_table(lodestar.smooth)  -- loaded on first use
    assert.is_table(lodestar.testing)
    assert.is_nil(lodestar.nothing_here)
  end)

  it("status_name and the option lists come from the core", function()
    local lodestar = require "lodestar"
    local names = {}
    for code = -8, 3 do names[#names + 1] = lodestar.status_name(code) end
    assert.same({"callback", "format", "io", "stale", "state", "limit", "nomem", "arg",
                 "ok", "running", "found", "no_path"}, names)
    assert.equal("unknown", lodestar.status_name(42))
    assert.same({"auto", "zero", "manhattan", "octile", "euclidean", "chebyshev",
                 "great_circle", "custom"}, lodestar.heuristics)
  end)

  it("heuristic_distance measures in cells", function()
    local lodestar = require "lodestar"
    assert.equal(7, lodestar.heuristic_distance("manhattan", 3, -4))
    assert.equal(4, lodestar.heuristic_distance("chebyshev", 3, -4))
    assert.equal(5, lodestar.heuristic_distance("euclidean", 3, -4))
    assert.near(4 + 3 * (math.sqrt(2) - 1), lodestar.heuristic_distance("octile", 3, -4), 1e-12)
    assert.equal(0, lodestar.heuristic_distance("zero", 3, -4))
    local ok, e = pcall(lodestar.heuristic_distance, "taxicab", 1, 1)
    assert.is_false(ok)
    assert.matches("(invalid option 'taxicab')", e, 1, true)
  end)

  it("rule.terrain and rule.near build bake rules", function()
    local lodestar = require "lodestar"
    local t = lodestar.rule.terrain({T = 5, W = false}, 1)
    assert.equal(5, t(0, 0, "T"))
    assert.is_false(t(0, 0, "W"))
    assert.equal(1, t(0, 0, "."))
    local near = lodestar.rule.near({{x = 2, y = 2}}, 4, 8)
    assert.equal(8, near(2, 2))
    assert.equal(6, near(3, 1))  -- distance 1 of 4
    assert.equal(0, near(6, 2))
    local g = lodestar.grid.new(5, 5)
    g:bake("smoke", near)
    assert.equal(4, g:layer_get("smoke", 0, 0)) -- distance 2
    local ok, e = pcall(lodestar.rule.terrain, "T")
    assert.is_false(ok)
    assert.matches("(table expected, got string)", e, 1, true)
  end)
end)
