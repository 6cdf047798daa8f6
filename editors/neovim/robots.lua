-- robots lsp for every file named robots.txt, in Neovim.
--
-- Put this file in your config's lua/ directory and add
-- `require('robots')` to init.lua, or copy the part for your version.
-- The `robots` command must be on PATH
-- (go install github.com/robotskit/robots/cmd/robots@latest).

-- Neovim names the filetype of files called robots.txt "robots".

if vim.fn.has('nvim-0.11') == 1 then
  -- Neovim 0.11 and later: vim.lsp.config and vim.lsp.enable.
  vim.lsp.config('robots', {
    cmd = { 'robots', 'lsp' },
    filetypes = { 'robots' },
    root_markers = { '.git' },
  })
  vim.lsp.enable('robots')
else
  -- Neovim 0.7 to 0.10: one client, attached to each robots.txt buffer.
  local client_id
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'robots',
    callback = function(args)
      if not (client_id and vim.lsp.get_client_by_id(client_id)) then
        client_id = vim.lsp.start_client({
          name = 'robots',
          cmd = { 'robots', 'lsp' },
          root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h'),
        })
      end
      if client_id then
        vim.lsp.buf_attach_client(args.buf, client_id)
      end
    end,
  })
end
