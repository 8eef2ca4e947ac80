-- arrayc in Neovim 0.7 or later, with the built-in LSP client (see docs/editors.md).
--
-- Starts `arrayc lsp` for `*.arr` files: diagnostics, hover (K: `:lua vim.lsp.buf.hover()`), go to
-- definition, references, document symbols, code lenses ("fuse-report", "run with defaults":
-- `:lua vim.lsp.codelens.run()` on a function's line) and inlay hints: the shape of every `let`
-- and the fusion pass's kernel of every statement. Neovim 0.10 and later draw inlay hints
-- themselves; on older versions this file shows them at the end of their line.
--
-- Load it from your init.lua:   dofile('/path/to/arrayc/docs/editors/arrayc.lua')
-- Options (set before loading):
--   vim.g.arrayc_path      the arrayc executable (default: `arrayc` on $PATH)
--   vim.g.arrayc_settings  the server's settings, e.g.
--                          { fusion = { algorithm = 'greedy', costModel = 'max-locality' } }
-- tests/lsp/test_neovim.py runs this file in a headless Neovim.

local ns = vim.api.nvim_create_namespace('arrayc_inlay_hints')
local client_id = nil

-- Neovim < 0.10: ask for the inlay hints of the whole buffer and show them after their line.
local function show_hints(buf)
  if vim.lsp.inlay_hint or not vim.api.nvim_buf_is_loaded(buf) then
    return
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = {
      start = { line = 0, character = 0 },
      ['end'] = { line = vim.api.nvim_buf_line_count(buf), character = 0 },
    },
  }
  pcall(vim.lsp.buf_request, buf, 'textDocument/inlayHint', params, function(err, hints)
    if err or not hints or not vim.api.nvim_buf_is_loaded(buf) then
      return
    end
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    local by_line = {}
    for _, h in ipairs(hints) do
      local l = h.position.line
      by_line[l] = (by_line[l] and by_line[l] .. '   ' or '') .. h.label
    end
    for l, text in pairs(by_line) do
      pcall(vim.api.nvim_buf_set_extmark, buf, ns, l, 0, { virt_text = { { text, 'Comment' } }, virt_text_pos = 'eol' })
    end
  end)
end

-- Hints and lenses of a buffer, once the server is attached to it (before, requests fail).
local function refresh(buf)
  show_hints(buf)
  pcall(vim.api.nvim_buf_call, buf, vim.lsp.codelens.refresh)
end

local function attach(buf)
  if not client_id then
    local capabilities = vim.lsp.protocol.make_client_capabilities()
    capabilities.workspace = capabilities.workspace or {}
    -- The server asks for a refresh when the background fusion pass has new hints.
    capabilities.workspace.inlayHint = { refreshSupport = true }
    client_id = vim.lsp.start_client({
      name = 'arrayc',
      cmd = { vim.g.arrayc_path or 'arrayc', 'lsp' },
      root_dir = vim.fn.getcwd(),
      capabilities = capabilities,
      init_options = vim.g.arrayc_settings,
      on_attach = function(_, b)
        if vim.lsp.inlay_hint then
          pcall(vim.lsp.inlay_hint.enable, true, { bufnr = b })
        end
        refresh(b)
      end,
      handlers = {
        ['workspace/inlayHint/refresh'] = function()
          for _, b in ipairs(vim.lsp.get_buffers_by_client_id(client_id)) do
            show_hints(b)
          end
          return vim.NIL
        end,
      },
    })
  end
  vim.lsp.buf_attach_client(buf, client_id)
end

local group = vim.api.nvim_create_augroup('arrayc', { clear = true })
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  group = group,
  pattern = '*.arr',
  callback = function(args)
    vim.bo[args.buf].filetype = 'arrayc'
    vim.bo[args.buf].commentstring = '# %s'
    attach(args.buf)
  end,
})
vim.api.nvim_create_autocmd({ 'TextChanged', 'InsertLeave' }, {
  group = group,
  pattern = '*.arr',
  callback = function(args)
    refresh(args.buf)
  end,
})
