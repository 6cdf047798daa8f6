package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:generate go run ../internal/tools/wasmbuild

// The checker of the page in WebAssembly (internal/wasm), built by go
// generate ./server into ui/wasm: checker.wasm.gz, gzip-compressed, and
// the toolchain's wasm_exec.js that runs it. Each is served under a name
// with a hash of its content, cached for a year: a new build is a new
// name, which the page names (wasmURL, wasmExecURL).
var (
	wasmGz      = mustUI("ui/wasm/checker.wasm.gz")
	wasmExec    = mustUI("ui/wasm/wasm_exec.js")
	wasmHash    = contentHash(wasmGz)
	wasmURL     = "/static/checker-" + wasmHash + ".wasm"
	execHash    = contentHash(wasmExec)
	wasmExecURL = "/static/wasm_exec-" + execHash + ".js"

	// wasmRaw is the checker decompressed, for the clients that do not
	// take gzip; made on the first such request.
	wasmRaw = sync.OnceValue(func() []byte {
		zr, err := gzip.NewReader(bytes.NewReader(wasmGz))
		if err != nil {
			return nil
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			return nil
		}
		return b
	})
)

func mustUI(name string) []byte {
	b, err := uiFiles.ReadFile(name)
	if err != nil {
		panic("server: " + name + " is not embedded: run go generate ./server")
	}
	return b
}

func contentHash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

// immutable is the Cache-Control of a file whose name changes with its
// content.
const immutable = "public, max-age=31536000, immutable"

// wasmHandler serves the checker: gzip-compressed to a client that takes
// gzip (the browsers), decompressed to any other.
func wasmHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/wasm")
		h.Set("Cache-Control", immutable)
		h.Add("Vary", "Accept-Encoding")
		body, etag := wasmGz, `"`+wasmHash+`-gzip"`
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
		} else if body, etag = wasmRaw(), `"`+wasmHash+`"`; body == nil {
			http.Error(w, "the checker could not be decompressed", http.StatusInternalServerError)
			return
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// wasmExecHandler serves wasm_exec.js.
func wasmExecHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", immutable)
		h.Set("ETag", `"`+execHash+`"`)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(wasmExec))
	})
}

// acceptsGzip reports whether an Accept-Encoding header takes gzip: it
// names gzip (or x-gzip, or *) without q=0.
func acceptsGzip(header string) bool {
	star, gz := false, -1
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch c := strings.ToLower(strings.TrimSpace(coding)); c {
		case "gzip", "x-gzip":
			if q > 0 {
				gz = 1
			} else {
				gz = 0
			}
		case "*":
			star = q > 0
		}
	}
	if gz >= 0 {
		return gz == 1
	}
	return star
}
