// Command wasmbuild builds the checker of the web page in WebAssembly
// (internal/wasm) into the files package server embeds; go generate
// ./server runs it:
//
//	go run ./internal/tools/wasmbuild [-check]
//
// It builds internal/wasm with GOOS=js GOARCH=wasm, go build -trimpath
// -ldflags="-s -w", compresses it with gzip at its best compression into
// server/ui/wasm/checker.wasm.gz, copies the toolchain's wasm_exec.js
// (GOROOT/lib/wasm) beside it, and writes server/ui/wasm/inputs.txt: a
// SHA-256 over the Go source and embedded files of every package of this
// module the wasm depends on (and this command's own), the versions of
// the other modules it depends on, and the sizes and hash of what it
// wrote.
//
// With -check it writes nothing: it recomputes the sources' hash and
// exits 1, saying "run go generate ./server", when it differs from the
// one recorded, or when the files are not those recorded (server's
// TestWasmInputs runs it), 2 on an error.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

const (
	module  = "github.com/robotskit/robots"
	mainPkg = "./internal/wasm"
	self    = module + "/internal/tools/wasmbuild"
	outDir  = "server/ui/wasm"
)

func main() {
	check := flag.Bool("check", false, "only check that the built files match their sources")
	flag.Parse()
	root, err := moduleRoot()
	if err == nil {
		if *check {
			err = checkInputs(root)
		} else {
			err = build(root)
		}
	}
	var stale *staleError
	switch {
	case errors.As(err, &stale):
		fmt.Fprintln(os.Stderr, "wasmbuild:", err)
		os.Exit(1)
	case err != nil:
		fmt.Fprintln(os.Stderr, "wasmbuild:", err)
		os.Exit(2)
	}
}

type staleError struct{ msg string }

func (e *staleError) Error() string { return e.msg + ": run go generate ./server" }

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the module " + module)
	}
	return filepath.Dir(mod), nil
}

// jsEnv is the environment of a build for the browser.
func jsEnv() []string {
	return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
}

// sourcesHash is the SHA-256 of what the wasm is built from: for each
// package of the module it depends on, and this command, the package's
// path and each Go source and embedded file's name and SHA-256; for each
// other module, its path and version. The standard library is the
// toolchain's, recorded beside it and not checked.
func sourcesHash(root string) (string, error) {
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Dir,GoFiles,EmbedFiles,Module,Standard", mainPkg, "./internal/tools/wasmbuild")
	cmd.Dir, cmd.Env = root, jsEnv()
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list: %v", err)
	}
	var manifest []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath, Dir     string
			GoFiles, EmbedFiles []string
			Standard            bool
			Module              *struct{ Path, Version string }
		}
		if err := dec.Decode(&p); err != nil {
			return "", err
		}
		switch {
		case p.Standard:
			continue
		case p.Module == nil:
			return "", fmt.Errorf("%s: no module", p.ImportPath)
		case p.Module.Path != module:
			manifest = append(manifest, "module "+p.Module.Path+" "+p.Module.Version)
			continue
		}
		manifest = append(manifest, "package "+p.ImportPath)
		for _, f := range slices.Concat(p.GoFiles, p.EmbedFiles) {
			b, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return "", err
			}
			sum := sha256.Sum256(b)
			manifest = append(manifest, "file "+f+" "+hex.EncodeToString(sum[:]))
		}
	}
	slices.Sort(manifest)
	manifest = slices.Compact(manifest)
	sum := sha256.Sum256([]byte(strings.Join(manifest, "\n")))
	return hex.EncodeToString(sum[:]), nil
}

// build builds the wasm and writes the files.
func build(root string) error {
	hash, err := sourcesHash(root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wasmbuild")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	wasm := filepath.Join(tmp, "checker.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, mainPkg)
	cmd.Dir, cmd.Env = root, jsEnv()
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %v", err)
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(raw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	execJS, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	version, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return fmt.Errorf("go env GOVERSION: %v", err)
	}
	dir := filepath.Join(root, outDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range map[string][]byte{"checker.wasm.gz": gz.Bytes(), "wasm_exec.js": execJS} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	in := inputs{Sources: hash, Toolchain: strings.TrimSpace(string(version)), Wasm: len(raw), Gzip: gz.Len(),
		GzipSHA: sum(gz.Bytes()), ExecSHA: sum(execJS)}
	if err := os.WriteFile(filepath.Join(dir, "inputs.txt"), in.text(), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: checker.wasm %d bytes (%.1f MiB), %d gzipped (%d KiB)\n", outDir, len(raw), float64(len(raw))/(1<<20), gz.Len(), gz.Len()>>10)
	return nil
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// inputs is what inputs.txt records.
type inputs struct {
	Sources, Toolchain string
	Wasm, Gzip         int
	GzipSHA, ExecSHA   string
}

func (in *inputs) text() []byte {
	return fmt.Appendf(nil, `# Written by go generate ./server (internal/tools/wasmbuild): what
# checker.wasm.gz and wasm_exec.js were built from. Server's
# TestWasmInputs fails when the sources differ: run go generate ./server.
sources %s
toolchain %s
wasm %d
gzip %d
checker.wasm.gz %s
wasm_exec.js %s
`, in.Sources, in.Toolchain, in.Wasm, in.Gzip, in.GzipSHA, in.ExecSHA)
}

func readInputs(path string) (*inputs, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in := &inputs{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		switch k {
		case "sources":
			in.Sources = v
		case "toolchain":
			in.Toolchain = v
		case "wasm":
			fmt.Sscan(v, &in.Wasm)
		case "gzip":
			fmt.Sscan(v, &in.Gzip)
		case "checker.wasm.gz":
			in.GzipSHA = v
		case "wasm_exec.js":
			in.ExecSHA = v
		}
	}
	return in, sc.Err()
}

// checkInputs compares the sources' hash, and the files, with what
// inputs.txt records.
func checkInputs(root string) error {
	dir := filepath.Join(root, outDir)
	in, err := readInputs(filepath.Join(dir, "inputs.txt"))
	if errors.Is(err, os.ErrNotExist) {
		return &staleError{outDir + "/inputs.txt is missing"}
	}
	if err != nil {
		return err
	}
	hash, err := sourcesHash(root)
	if err != nil {
		return err
	}
	if hash != in.Sources {
		return &staleError{fmt.Sprintf("the WebAssembly checker (%s/checker.wasm.gz) was built from other sources than these (sources %s, recorded %s)", outDir, hash, in.Sources)}
	}
	for name, want := range map[string]string{"checker.wasm.gz": in.GzipSHA, "wasm_exec.js": in.ExecSHA} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err != nil || sum(b) != want {
			return &staleError{fmt.Sprintf("%s/%s is not the file %s/inputs.txt records", outDir, name, outDir)}
		}
	}
	if in.Gzip == 0 {
		return &staleError{outDir + "/inputs.txt records no size"}
	}
	return nil
}
