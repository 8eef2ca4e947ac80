" Run by test_neovim.py: `nvim --headless --clean -u neovim_diagnostics.vim`. Starts `arrayc lsp` with
" Neovim's built-in LSP client (0.7+), opens $ARRAYC_TEST_FILE, waits for the server's diagnostics
" and writes what the editor holds, as JSON, to $ARRAYC_TEST_OUT; then quits.
lua << EOF
local file, out = os.getenv('ARRAYC_TEST_FILE'), os.getenv('ARRAYC_TEST_OUT')
local id = vim.lsp.start_client({
  name = 'arrayc',
  cmd = { os.getenv('ARRAYC'), 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
})
vim.cmd('edit ' .. vim.fn.fnameescape(file))
vim.lsp.buf_attach_client(0, id)
local got = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local diags = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(diags, {
    lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity,
    message = d.message, source = d.source, code = d.code or lsp.code,
  })
end
local f = io.open(out, 'w')
f:write(vim.fn.json_encode({ waited = got, diagnostics = diags }))
f:close()
vim.lsp.stop_client(id)
vim.cmd('qa!')
EOF
