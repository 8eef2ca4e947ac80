-- Run by test_neovim.py after docs/editors/arrayc.lua (the documented configuration) is loaded:
-- opens $ARRAYC_TEST_BROKEN and waits for its diagnostics, then opens $ARRAYC_TEST_CLEAN and waits
-- for its fusion hints; writes what the editor holds, as JSON, to $ARRAYC_TEST_OUT and quits.
local out = {}
vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('ARRAYC_TEST_BROKEN')))
out.diagnostics_arrived = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 20)
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(out.diagnostics, {
    lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity,
    message = d.message, source = d.source, code = d.code or lsp.code,
  })
end

vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('ARRAYC_TEST_CLEAN')))
local ns = vim.api.nvim_create_namespace('arrayc_inlay_hints')
local function hints()
  local lines = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, { details = true })) do
    lines[tostring(m[2] + 1)] = m[4].virt_text[1][1]
  end
  return lines
end
out.hints_arrived = vim.wait(20000, function()
  for _, text in pairs(hints()) do
    if text:find('▸', 1, true) then return true end
  end
  return false
end, 20)
out.hints = hints()
local f = io.open(os.getenv('ARRAYC_TEST_OUT'), 'w')
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd('qa!')
