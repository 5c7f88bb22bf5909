-- SPDX-License-Identifier: MIT
-- conf.lua — LÖVE 11 settings of the lodestar example (no audio: the
-- example makes no sound, and headless test machines have no sound card).
function love.conf(t)
  t.identity = "lodestar-example"
  t.version = "11.0"
  t.window.title = "lodestar: agents, doors, a hot-reloaded mod"
  t.window.width = 936
  t.window.height = 528
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
