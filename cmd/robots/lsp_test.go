package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/internal/wire"
)

// TestMain lets a test start the command as a process of its own: the
// test binary run with ROBOTS_TEST_MAIN=1 is robots (robots lsp is tested
// so, as an editor starts it).
func TestMain(m *testing.M) {
	if os.Getenv("ROBOTS_TEST_MAIN") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// lspProblems is a robots.txt with findings that robots fix and robots
// fmt change, one after non-ASCII text on its line (RB313: code point
// 16, UTF-16 unit 17, byte 22), and one folded over two lines (RB212).
const lspProblems = "User-agent: *\nDisallow: /a\n\nDisallow: /b\nAllow:\ndisalow: /x\n" +
	"Disallow: /é€😀 Disallow: /c\nDisallow: /é€😀/x\u00a0y\nDisallow: /😀/*\u200b\n" +
	"Disallow: admin/\nSitemap: /s.xml\n\nUser-agent: GPTBot\nDisallow /\n"

// lspMessy is a robots.txt that robots fmt lays out anew, with
// non-ASCII text in a line it moves.
const lspMessy = "# top\nuser-agent: a\ndisallow: /é😀\nUser-agent: *\nDisallow: /y\n\n\n\nSitemap: https://example.com/s.xml\nUser-agent: b\nAllow: /z\n"

// checkJSON is robots check -format json's findings of path.
func checkJSON(t *testing.T, path string) []wire.Diagnostic {
	t.Helper()
	out, errs, code := runCLI(t, nil, "check", "-format", "json", path)
	if code != exitFinding {
		t.Fatalf("robots check: exit %d: %s", code, errs)
	}
	var resp wire.CheckResponse
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// column converts a 1-based code point column of line (1-based) of text
// into the 0-based column in UTF-16 units, or bytes.
func column(text string, line, col int, bytes bool) int {
	l := strings.Split(text, "\n")[line-1]
	prefix := string([]rune(l)[:col-1])
	if bytes {
		return len(prefix)
	}
	return len(utf16.Encode([]rune(prefix)))
}

// lspProc is robots lsp as a process, spoken to as an editor does.
type lspProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	id    int
	notes []map[string]json.RawMessage
}

func startLSP(t *testing.T) *lspProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "lsp")
	cmd.Env = append(os.Environ(), "ROBOTS_TEST_MAIN=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &lspProc{t: t, cmd: cmd, in: in, out: bufio.NewReader(out)}
}

func (p *lspProc) send(v map[string]any) {
	p.t.Helper()
	v["jsonrpc"] = "2.0"
	body, _ := json.Marshal(v)
	if _, err := fmt.Fprintf(p.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		p.t.Fatal(err)
	}
}

// read reads one message.
func (p *lspProc) read() map[string]json.RawMessage {
	p.t.Helper()
	n := -1
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			p.t.Fatalf("reading a header: %v", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(p.out, body); err != nil {
		p.t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		p.t.Fatal(err)
	}
	return m
}

// call sends a request and returns its result, keeping the notifications
// that come before it.
func (p *lspProc) call(method string, params any, result any) {
	p.t.Helper()
	p.id++
	p.send(map[string]any{"id": p.id, "method": method, "params": params})
	for {
		m := p.read()
		if _, ok := m["method"]; ok {
			p.notes = append(p.notes, m)
			continue
		}
		if string(m["id"]) != strconv.Itoa(p.id) {
			p.t.Fatalf("a response to another request: %v", m)
		}
		if e, ok := m["error"]; ok {
			p.t.Fatalf("%s: %s", method, e)
		}
		if result != nil {
			if err := json.Unmarshal(m["result"], result); err != nil {
				p.t.Fatal(err)
			}
		}
		return
	}
}

// lspEdit is a TextEdit.
type lspEdit struct {
	Range struct {
		Start, End struct{ Line, Character int }
	}
	NewText string
}

// applyUTF16 applies edits whose positions count UTF-16 units.
func applyUTF16(t *testing.T, text string, edits []lspEdit) string {
	t.Helper()
	var starts []int
	starts = append(starts, 0)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	off := func(line, char int) int {
		if line >= len(starts) {
			return len(text)
		}
		o, n := starts[line], 0
		for _, r := range text[starts[line]:] {
			if n >= char || r == '\n' {
				break
			}
			n += len(utf16.Encode([]rune{r}))
			o += len(string(r))
		}
		return o
	}
	var es []textedit.Edit
	for _, e := range edits {
		es = append(es, textedit.Edit{Start: off(e.Range.Start.Line, e.Range.Start.Character), End: off(e.Range.End.Line, e.Range.End.Character), New: e.NewText})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	out, err := textedit.Apply(text, es)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLSPProcess runs robots lsp as an editor does, and compares what it
// says with robots check -format json, robots fix and robots fmt.
func TestLSPProcess(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(path, []byte(lspProblems), 0o666); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + filepath.ToSlash(path)
	p := startLSP(t)
	var init struct {
		Capabilities struct{ PositionEncoding string }
	}
	p.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &init)
	if init.Capabilities.PositionEncoding != "utf-16" {
		t.Errorf("positionEncoding %q", init.Capabilities.PositionEncoding)
	}
	p.send(map[string]any{"method": "initialized", "params": map[string]any{}})
	p.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "robots-txt", "version": 1, "text": lspProblems}}})

	// The diagnostics are robots check's findings.
	var diags []struct {
		Range struct {
			Start struct{ Line, Character int }
		}
		Code, Source string
	}
	for len(diags) == 0 {
		m := p.read()
		if string(m["method"]) == `"textDocument/publishDiagnostics"` {
			var params struct{ Diagnostics json.RawMessage }
			json.Unmarshal(m["params"], &params)
			json.Unmarshal(params.Diagnostics, &diags)
		}
	}
	var got, want []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s %d:%d %s", d.Code, d.Range.Start.Line, d.Range.Start.Character, d.Source))
	}
	for _, d := range checkJSON(t, path) {
		want = append(want, fmt.Sprintf("%s %d:%d robots", d.Code, d.Line-1, column(lspProblems, d.Line, d.Column, false)))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("robots lsp diagnostics:\n%s\nrobots check -format json:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Fix all is robots fix.
	var acts []struct {
		Title, Kind string
		Edit        struct{ Changes map[string][]lspEdit }
	}
	p.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 0, "character": 0}},
		"context": map[string]any{"diagnostics": []any{}, "only": []string{"source.fixAll"}}}, &acts)
	fixed, _, _ := runCLI(t, nil, "fix", path)
	if len(acts) != 1 || applyUTF16(t, lspProblems, acts[0].Edit.Changes[uri]) != fixed {
		t.Errorf("fix all: %+v; robots fix gives\n%s", acts, fixed)
	}

	// Formatting is robots fmt.
	messy := filepath.Join(dir, "messy.txt")
	if err := os.WriteFile(messy, []byte(lspMessy), 0o666); err != nil {
		t.Fatal(err)
	}
	p.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": "file://" + filepath.ToSlash(messy), "languageId": "robots-txt", "version": 1, "text": lspMessy}}})
	var edits []lspEdit
	p.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": "file://" + filepath.ToSlash(messy)}, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}, &edits)
	formatted, errs, code := runCLI(t, nil, "fmt", messy)
	if code != exitOK || formatted == lspMessy {
		t.Fatalf("robots fmt: exit %d: %s", code, errs)
	}
	if got := applyUTF16(t, lspMessy, edits); got != formatted {
		t.Errorf("formatting gives\n%s\nrobots fmt gives\n%s", got, formatted)
	}

	// Hover on the GPTBot group.
	var hover struct{ Contents struct{ Value string } }
	p.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]int{"line": 12, "character": 4}}, &hover)
	if !strings.Contains(hover.Contents.Value, "GPTBot") {
		t.Errorf("hover: %q", hover.Contents.Value)
	}

	p.call("shutdown", nil, nil)
	p.send(map[string]any{"method": "exit"})
	p.in.Close()
	errc := make(chan error, 1)
	go func() { errc <- p.cmd.Wait() }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("robots lsp after shutdown and exit: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("robots lsp did not exit")
	}
}

// TestLSPArgs: robots lsp takes no arguments.
func TestLSPArgs(t *testing.T) {
	if _, errs, code := runCLI(t, nil, "lsp", "robots.txt"); code != exitError || !strings.Contains(errs, "lsp takes no arguments") {
		t.Errorf("robots lsp robots.txt: exit %d, %q", code, errs)
	}
}

// nvimInit loads editors/neovim/robots.lua, the configuration the
// repository ships (on Neovim 0.7 to 0.10: vim.lsp.start_client and
// vim.lsp.buf_attach_client for each buffer of filetype robots), opens
// a robots.txt, waits for its diagnostics, asks for a hover, formats
// another robots.txt, and writes what it got as JSON.
const nvimInit = `
local out = vim.env.ROBOTS_NVIM_OUT
local function clients(buf)
  if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = buf }) end
  return vim.lsp.buf_get_clients(buf)
end
local function main()
  dofile(vim.env.ROBOTS_NVIM_CONFIG)
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.ROBOTS_NVIM_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  local ok = vim.wait(30000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  local ds = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(ds, { code = d.code or lsp.code, lnum = d.lnum, col = d.col, source = d.source })
  end
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 12, character = 2 } }, 10000)
  local hovertext = ''
  for _, r in pairs(hover or {}) do
    if r.result then hovertext = r.result.contents.value end
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.ROBOTS_NVIM_FMT))
  local buf2 = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return #vim.tbl_values(clients(buf2)) > 0 end, 50)
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ timeout_ms = 10000 })
  else
    vim.lsp.buf.formatting_sync(nil, 10000)
  end
  local text = table.concat(vim.api.nvim_buf_get_lines(buf2, 0, -1, false), '\n') .. '\n'
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode({ ok = ok, diagnostics = ds, hover = hovertext, formatted = text }))
  f:close()
  vim.lsp.stop_client(vim.lsp.get_active_clients())
  vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
  vim.cmd('qa!')
end
-- Out of the VimEnter autocommand, whose :edit would not run the
-- BufRead and FileType autocommands (they do not nest).
vim.api.nvim_create_autocmd('VimEnter', { callback = function() vim.schedule(function()
  local ok, err = pcall(main)
  if not ok then
    local f = io.open(out, 'w')
    f:write(vim.fn.json_encode({ error = tostring(err) }))
    f:close()
    vim.cmd('cq')
  end
end) end })
`

// TestNeovim starts robots lsp from Debian's Neovim (0.7 and later) in
// headless mode, as editors/neovim/robots.lua sets it up, and checks the
// diagnostics it shows against robots check, the hover, and the
// formatting against robots fmt. Without nvim it skips, except under
// CI=true, where it fails.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("nvim not found on PATH, and CI=true: the Neovim test must run (apt-get install neovim)")
		}
		t.Skip("nvim not found on PATH: the Neovim test is skipped (install Debian's neovim, or run with CI=true to make this a failure)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(path, []byte(lspProblems), 0o666); err != nil {
		t.Fatal(err)
	}
	// The second file is a robots.txt too, so that the configuration
	// attaches the server to it.
	messy := filepath.Join(dir, "other", "robots.txt")
	if err := os.MkdirAll(filepath.Dir(messy), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(messy, []byte(lspMessy), 0o666); err != nil {
		t.Fatal(err)
	}
	// editors/neovim/robots.lua runs "robots lsp": robots is this test
	// binary, run as the command.
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o777); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\nROBOTS_TEST_MAIN=1 exec " + strconv.Quote(os.Args[0]) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "robots"), []byte(wrapper), 0o777); err != nil {
		t.Fatal(err)
	}
	config, err := filepath.Abs(filepath.Join("..", "..", "editors", "neovim", "robots.lua"))
	if err != nil {
		t.Fatal(err)
	}
	initLua := filepath.Join(dir, "init.lua")
	if err := os.WriteFile(initLua, []byte(nvimInit), 0o666); err != nil {
		t.Fatal(err)
	}
	outPath := filepath.Join(dir, "out.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", initLua)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ROBOTS_NVIM_OUT="+outPath, "ROBOTS_NVIM_FILE="+path, "ROBOTS_NVIM_FMT="+messy, "ROBOTS_NVIM_CONFIG="+config,
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CACHE_HOME="+dir)
	combined, err := cmd.CombinedOutput()
	data, rerr := os.ReadFile(outPath)
	if rerr != nil {
		t.Fatalf("nvim wrote no result (%v): %v\n%s", err, rerr, combined)
	}
	t.Logf("nvim %s", data)
	var res struct {
		Error       string
		OK          bool
		Diagnostics []struct {
			Code      string
			Lnum, Col int
			Source    string
		}
		Hover, Formatted string
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if res.Error != "" || !res.OK {
		t.Fatalf("nvim: error %q, diagnostics arrived: %v\n%s", res.Error, res.OK, combined)
	}
	var got, want []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%s %d:%d %s", d.Code, d.Lnum, d.Col, d.Source))
	}
	// Neovim shows columns in bytes: it converted the server's UTF-16
	// positions.
	for _, d := range checkJSON(t, path) {
		want = append(want, fmt.Sprintf("%s %d:%d robots", d.Code, d.Line-1, column(lspProblems, d.Line, d.Column, true)))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Neovim's diagnostics:\n%s\nrobots check -format json:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(res.Hover, "Robots whose group this is") {
		t.Errorf("Neovim's hover on the GPTBot group: %q", res.Hover)
	}
	formatted, _, _ := runCLI(t, nil, "fmt", messy)
	if res.Formatted != formatted || formatted == lspMessy {
		t.Errorf("Neovim's formatted buffer:\n%s\nrobots fmt:\n%s", res.Formatted, formatted)
	}
}

// TestLSPConfigFile: robots lsp reads the .robots.toml that robots check
// reads for the same file, so the editor shows what the command reports;
// a file it cannot read is a diagnostic, not a silent default.
func TestLSPConfigFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "robots.txt")
	os.WriteFile(path, []byte(lspProblems), 0o666)
	os.WriteFile(filepath.Join(dir, ".robots.toml"), []byte("disable = [\"RB501\", \"RB305\"]\n"), 0o666)
	uri := "file://" + filepath.ToSlash(path)

	diagnostics := func() []string {
		p := startLSP(t)
		p.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, nil)
		p.send(map[string]any{"method": "initialized", "params": map[string]any{}})
		p.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": "robots-txt", "version": 1, "text": lspProblems}}})
		for {
			m := p.read()
			if string(m["method"]) != `"textDocument/publishDiagnostics"` {
				continue
			}
			var params struct {
				Diagnostics []struct {
					Range   struct{ Start struct{ Line int } }
					Code    string
					Message string
				}
			}
			json.Unmarshal(m["params"], &params)
			var out []string
			for _, d := range params.Diagnostics {
				out = append(out, fmt.Sprintf("%s %d %s", d.Code, d.Range.Start.Line, d.Message))
			}
			return out
		}
	}
	got := diagnostics()
	var codes, want []string
	for _, g := range got {
		codes = append(codes, strings.Fields(g)[0]+" "+strings.Fields(g)[1])
	}
	for _, d := range checkJSON(t, path) {
		want = append(want, fmt.Sprintf("%s %d", d.Code, d.Line-1))
	}
	if strings.Join(codes, "\n") != strings.Join(want, "\n") || len(want) == 0 {
		t.Errorf("with .robots.toml, robots lsp:\n%s\nrobots check:\n%s", strings.Join(codes, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range codes {
		if strings.HasPrefix(c, "RB501 ") || strings.HasPrefix(c, "RB305 ") {
			t.Errorf("a disabled check reported: %s", c)
		}
	}

	os.WriteFile(filepath.Join(dir, ".robots.toml"), []byte("disabled = [\"RB501\"]\n"), 0o666)
	got = diagnostics()
	if last := got[len(got)-1]; !strings.HasPrefix(last, "config 0 ") || !strings.Contains(last, `unknown key "disabled"; did you mean "disable"?`) {
		t.Errorf("a bad .robots.toml: %q", got)
	}
}
