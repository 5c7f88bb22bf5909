-- SPDX-License-Identifier: MIT
-- Helpers shared by the busted specs (tests/spec/*_spec.lua), found through
-- the lpath of .busted: `local support = require "support"`.
local assert = require "luassert"

local support = {}

--- Calls f(...) and returns the error it raises, as a string.
-- Fails the running test when f returns instead of raising.
-- @param f function expected to raise
-- @return string: the error message, with its "file:line: " position
function support.errmsg(f, ...)
  local ok, e = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  return tostring(e)
end

--- As support.errmsg, without the leading "file:line: " position.
-- @param f function expected to raise
-- @return string: the error message
function support.errtext(f, ...)
  return (support.errmsg(f, ...):gsub("^[^:]*:%d+: ", ""))
end

--- Fails the running test unless msg contains want (plain text, no pattern).
-- @param msg string searched
-- @param want string expected inside msg
function support.has(msg, want)
  assert.is_truthy(msg:find(want, 1, true), ("%q lacks %q"):format(msg, want))
end

return support
