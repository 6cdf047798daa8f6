package robots_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// allowedImports is the layering of the module: each package of the module
// may import only the packages of the module listed here (lower layers).
// A package missing from the map may import nothing of ours.
var allowedImports = map[string][]string{
	"internal/octets":          {},
	"internal/pattern":         {},
	"internal/textedit":        {},
	"internal/txtar":           {}, // test support
	"internal/spell":           {}, // "did you mean" distances
	"internal/warc":            {},
	"internal/warcgen":         {}, // Common-Crawl-shaped WARCs for the scan's benchmarks and the Beam test
	"internal/arena":           {},
	"internal/hostname":        {}, // Yandex's Host values, for the root package and the checker
	"internal/sniff":           {}, // what a body is (HTML, wide text, binary): one answer for lint, fetch, scan and page
	"internal/termtext":        {},
	"internal/htmlreport":      {}, // the report page of robots scan and robots logs // remote text made safe for a terminal: one escaping for lint's text and the CLI
	"internal/target":          {}, // a URL or a bare host to fetch: one reading for the CLI and the web forms
	"internal/aipref":          {}, // usage preferences (AIPREF, Content Signals): one reading for the root package, meta and fetch
	"internal/accesslog":       {}, // access logs and crawler IP ranges, for robots logs
	"internal/netguard":        {}, // the address guard of the services that fetch for remote users: robots serve and robots mcp
	"internal/boltfile":        {}, // checks and locks of a bbolt file before bbolt maps it: one for fetch/diskcache and history
	"internal/probe":           {"syntax", "internal/arena"},
	"internal/lines":           {"internal/octets"},
	"syntax":                   {"internal/lines"},
	"":                         {"syntax", "internal/lines", "internal/pattern", "internal/octets", "internal/hostname", "internal/aipref"},
	"meta":                     {"internal/aipref"},                                                                                                                                                                                                                                                                                                                                                                                                                                    // L1: indexing controls, no robots.txt
	"agents":                   {"", "internal/spell", "internal/lines"},                                                                                                                                                                                                                                                                                                                                                                                                               // just above the root package (L2): data, and the adapter to its Agent and Profile
	"fetch":                    {"", "syntax", "agents", "internal/sniff", "internal/aipref"},                                                                                                                                                                                                                                                                                                                                                                                          // L3: over HTTP, with the root package's rules
	"change":                   {"", "syntax", "agents", "internal/probe", "internal/textedit"},                                                                                                                                                                                                                                                                                                                                                                                        // L3: how two versions differ for robots (the fixer's proofs, robots diff)
	"lint":                     {"", "syntax", "agents", "change", "internal/hostname", "internal/sniff", "internal/arena", "internal/probe", "internal/pattern", "internal/spell", "internal/termtext", "internal/textedit", "internal/txtar", "lint/internal/check", "lint/internal/checks/fetch", "lint/internal/checks/file", "lint/internal/checks/lines", "lint/internal/checks/groups", "lint/internal/checks/rules", "lint/internal/checks/ext", "lint/internal/checks/cross"}, // L3: beside fetch, never importing it
	"usage":                    {"", "syntax", "agents", "meta", "internal/aipref"},                                                                                                                                                                                                                                                                                                                                                                                                    // L4: the usage verdict, combining its sources
	"page":                     {"", "syntax", "agents", "fetch", "meta", "internal/sniff", "usage"},                                                                                                                                                                                                                                                                                                                                                                                   // L4: a page as a robot sees it
	"internal/wire":            {"", "syntax", "agents", "fetch", "lint", "change", "usage"},                                                                                                                                                                                                                                                                                                                                                                                           // L4: JSON shapes of the CLI and the API, pure conversions, no I/O
	"internal/sitecheck":       {"fetch", "lint"},
	"internal/decide":          {"", "syntax", "agents", "fetch"}, // L4: robots test -url's verdict in words: one answer for the CLI and robots mcp                                                                                                                                                                                                                                                                                                                                                                                                                                      // L4: fetch-then-check of the CLI and the API
	"cmd/robots":               {"", "syntax", "internal/decide", "internal/mcpserver", "change", "internal/probe", "internal/pattern", "internal/spell", "agents", "fetch", "fetch/cachespec", "lint", "internal/txtar", "internal/textedit", "internal/wire", "internal/sitecheck", "internal/sniff", "internal/target", "internal/termtext", "meta", "page", "scan", "scan/parquet", "server", "usage", "history", "internal/timeline", "internal/accesslog", "internal/htmlreport", "internal/lsp"},
	"server":                   {"", "syntax", "agents", "fetch", "lint", "change", "meta", "page", "internal/wire", "internal/sitecheck", "internal/target", "internal/textedit", "internal/spell", "usage", "history", "internal/timeline", "internal/netguard", "internal/apicore"}, // L5: the web checker and API
	"internal/mcpserver":       {"", "syntax", "agents", "fetch", "lint", "page", "usage", "internal/decide", "internal/netguard", "internal/sitecheck", "internal/target", "internal/wire"},                                                                                           // L5: robots mcp's tools, over the CLI's engine
	"internal/apicore":         {"", "syntax", "agents", "fetch", "lint", "change", "page", "usage", "internal/wire", "internal/spell"},                                                                                                                                                // L5: the API's check and test answers without HTTP: one for the server and the page's WebAssembly checker
	"internal/wasm":            {"internal/apicore"},                                                                                                                                                                                                                                   // the page's checker in WebAssembly (js/wasm only: TestLayering lists it for GOOS=js)
	"internal/lsp":             {"", "syntax", "agents", "fetch", "lint", "change", "internal/textedit"},                                                                                                                                                                               // L5: the language server, over the checker, the fixer and the rules
	"scan":                     {"", "syntax", "agents", "fetch", "lint", "internal/warc", "internal/sniff", "internal/htmlreport", "usage"},
	"scan/parquet":             {"scan"}, // the Parquet writer, apart so that only its users link parquet-go
	"fetch/diskcache":          {"fetch", "internal/boltfile"},
	"fetch/rediscache":         {"fetch"},
	"fetch/cachespec":          {"fetch", "fetch/diskcache", "fetch/rediscache"},
	"fetch/internal/cachetest": {"fetch"},
	"fetch/internal/redistest": {},
	"history":                  {"internal/boltfile"},              // robots.txt versions per site in a bbolt file (robots watch, history, logs)
	"internal/timeline":        {"", "fetch", "change", "history"}, // a site's versions as robots read them at any time: one reading for watch, history, logs and the web page
	"internal/tools/confcheck": {},
	"internal/tools/lintstats": {"", "syntax", "lint"},
	"internal/tools/wasmbuild": {}, // go generate ./server: builds internal/wasm

	// lint's own packages: the pass and its model, the sections of checks
	// and what they share import only what lint may import.
	"lint/internal/check":           {"", "syntax", "change", "internal/arena", "internal/sniff", "internal/spell", "internal/textedit"},
	"lint/internal/check/checktest": {"syntax", "lint/internal/check", "lint/internal/testenv", "internal/textedit"}, // test support
	"lint/internal/testenv":         {},                                                                              // test support: the -corpus and -update flags
	"lint/internal/tokens":          {"agents"},
	"lint/internal/charset":         {},
	"lint/internal/eval":            {"syntax", "lint/internal/check", "internal/arena", "internal/pattern"},
	"lint/internal/checks/fetch":    {"syntax", "lint/internal/check", "lint/internal/charset"},
	"lint/internal/checks/file":     {"syntax", "lint/internal/check", "lint/internal/charset", "internal/sniff"},
	"lint/internal/checks/lines":    {"syntax", "lint/internal/check"},
	"lint/internal/checks/groups":   {"syntax", "lint/internal/check", "lint/internal/tokens", "internal/spell"},
	"lint/internal/checks/rules":    {"lint/internal/check", "lint/internal/eval", "lint/internal/tokens"},
	"lint/internal/checks/ext":      {"", "syntax", "agents", "lint/internal/check", "lint/internal/tokens", "internal/hostname", "internal/aipref"},
	"lint/internal/checks/cross":    {"lint/internal/check", "lint/internal/eval", "lint/internal/tokens"},
}

// forbiddenDeps lists packages, standard ones included, that a package must
// not depend on even indirectly: the matcher never touches the network.
var forbiddenDeps = map[string][]string{
	"":                 {"net", "net/http"},
	"syntax":           {"net", "net/http"},
	"internal/pattern": {"net", "net/http"},
	"internal/octets":  {"net", "net/http"},
	"internal/aipref":  {"net", "net/http"},
	"internal/lines":   {"net", "net/http"},
	"agents":           {"net", "net/http"},
	"fetch":            {"github.com/redis/go-redis/v9", "go.etcd.io/bbolt"}, // the cache backends live in fetch/diskcache and fetch/rediscache
	"scan":             {"github.com/parquet-go/parquet-go"},                 // Parquet lives in scan/parquet
}

// TestLayering fails on any import between packages of this module that
// the allowlist does not permit; it reads the graph from `go list`.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	// The packages built for the browser only, which ./... leaves out on
	// other systems.
	js := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", "./internal/wasm")
	js.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	more, err := js.Output()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list: %v", err)
	}
	out = append(out, more...)
	const mod = "github.com/robotskit/robots"
	rel := func(p string) (string, bool) {
		if p == mod {
			return "", true
		}
		r, ok := strings.CutPrefix(p, mod+"/")
		return r, ok
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
			Deps       []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		from, _ := rel(p.ImportPath)
		allowed, known := allowedImports[from]
		if !known {
			t.Errorf("package %q is not in the layering allowlist", p.ImportPath)
			continue
		}
		seen++
		for _, dep := range p.Deps {
			for _, bad := range forbiddenDeps[from] {
				if dep == bad {
					t.Errorf("forbidden dependency: %q depends on %q", p.ImportPath, dep)
				}
			}
		}
		for _, imp := range p.Imports {
			to, ours := rel(imp)
			if !ours {
				continue
			}
			ok := false
			for _, a := range allowed {
				ok = ok || a == to
			}
			if !ok {
				t.Errorf("forbidden import: %q imports %q", p.ImportPath, imp)
			}
		}
	}
	if seen == 0 {
		t.Fatal("go list reported no packages")
	}
}
