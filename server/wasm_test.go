package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// TestWasmServed: the page names the checker and wasm_exec.js by the
// hash of their content; the checker is served gzip-compressed to a
// client that takes gzip, decompressed to one that does not, as
// application/wasm, cached for a year; the page's policy lets it compile
// WebAssembly.
func TestWasmServed(t *testing.T) {
	_, ts := newTest(t, Config{RateLimit: -1})
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path string, header ...string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, page := get("/")
	if !strings.Contains(string(page), `data-wasm="`+wasmURL+`"`) || !strings.Contains(string(page), `data-wasm-exec="`+wasmExecURL+`"`) {
		t.Errorf("the page does not name %s and %s", wasmURL, wasmExecURL)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval';") {
		t.Errorf("the policy does not let the page compile WebAssembly: %s", csp)
	}
	if !strings.HasPrefix(wasmURL, "/static/checker-") || len(wasmHash) != 16 {
		t.Errorf("wasm URL %s", wasmURL)
	}

	resp, gz := get(wasmURL, "Accept-Encoding", "gzip, deflate, br")
	h := resp.Header
	if resp.StatusCode != 200 || h.Get("Content-Encoding") != "gzip" || h.Get("Content-Type") != "application/wasm" ||
		h.Get("Cache-Control") != "public, max-age=31536000, immutable" || !strings.Contains(h.Get("Vary"), "Accept-Encoding") || h.Get("ETag") == "" {
		t.Errorf("GET %s with gzip: %d %v", wasmURL, resp.StatusCode, h)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatalf("the gzip answer is not gzip: %v", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil || !bytes.HasPrefix(raw, []byte("\x00asm")) {
		t.Fatalf("the gzip answer is not WebAssembly: %v", err)
	}
	if len(gz) >= len(raw)/2 {
		t.Errorf("gzip: %d octets for %d", len(gz), len(raw))
	}
	t.Logf("the checker: %d octets, %d gzipped", len(raw), len(gz))

	for _, ae := range []string{"", "identity", "gzip;q=0, br"} {
		resp, b := get(wasmURL, "Accept-Encoding", ae)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(b, raw) {
			t.Errorf("GET %s with Accept-Encoding %q: %d %v, %d octets", wasmURL, ae, resp.StatusCode, resp.Header, len(b))
		}
	}
	if resp, _ := get(wasmURL, "Accept-Encoding", "gzip", "If-None-Match", h.Get("ETag")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("GET %s again: %d, want 304", wasmURL, resp.StatusCode)
	}
	resp, js := get(wasmExecURL)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") || !bytes.Contains(js, []byte("globalThis.Go")) && !bytes.Contains(js, []byte("class Go")) {
		t.Errorf("GET %s: %d %v", wasmExecURL, resp.StatusCode, resp.Header)
	}
	if resp, _ := get("/static/checker-0000000000000000.wasm"); resp.StatusCode != 404 {
		t.Errorf("another checker's name: %d, want 404", resp.StatusCode)
	}
	for header, want := range map[string]bool{"gzip": true, "GZIP;q=0.5": true, "x-gzip": true, "*": true, "": false, "br": false, "gzip;q=0": false, "*, gzip;q=0": false, "deflate, *;q=0.1": true} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v", header, got)
		}
	}
}

// TestWasmInputs: the committed checker (ui/wasm) was built from these
// sources: the hash of the Go files of every package of the module it
// depends on is the one ui/wasm/inputs.txt records, and so are the files.
func TestWasmInputs(t *testing.T) {
	out, err := exec.Command("go", "run", "../internal/tools/wasmbuild", "-check").CombinedOutput()
	if err != nil {
		t.Fatalf("%s(%v)\nthe WebAssembly checker in ui/wasm does not match its sources: run go generate ./server", out, err)
	}
}
