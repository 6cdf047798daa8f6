package scan

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A ManifestError is a line of the manifest in Job.OutDir that a rerun
// cannot use: cut short by a crash, or written by an older version
// without the part's checksum. Run tells it to Job.OnError, with the
// manifest's path for input, drops the line and reads again the inputs
// of the part it named (which it sets aside as a part in no line).
type ManifestError struct {
	// Line is the line's number, from 1.
	Line int
	// Err says what is wrong with it.
	Err error
}

// Error says which line, and what is wrong with it.
func (e *ManifestError) Error() string {
	return fmt.Sprintf("line %d: %v; the line is dropped and its inputs are read again", e.Line, e.Err)
}

// Unwrap returns Err.
func (e *ManifestError) Unwrap() error { return e.Err }

// A PartError is a part in Job.OutDir that a rerun does not trust:
// missing, not of the size, rows or SHA-256 that its manifest line
// records, without its summary, named by no line of the manifest, or
// holding standard input (which is read again). Run tells it to
// Job.OnError, with the part's path for input, moves the part aside
// (renamed with the suffix ".damaged" or ".orphan", so that readers of
// "*.parquet" skip it) and reads its inputs again: a rerun never trusts
// rows it cannot check.
type PartError struct {
	// Part is the part's base name; MovedTo the base name it now has, ""
	// when there was no file to move.
	Part, MovedTo string
	// Err says what is wrong with it.
	Err error
}

// Error says what is wrong with the part, and where it went.
func (e *PartError) Error() string {
	msg := e.Err.Error()
	if e.MovedTo != "" {
		msg += "; moved aside to " + e.MovedTo
	}
	return msg + "; its inputs are read again"
}

// Unwrap returns Err.
func (e *PartError) Unwrap() error { return e.Err }

// maxManifestLine bounds a line of the manifest: a part of a directory
// of a hundred thousand small files names them all.
const maxManifestLine = 256 << 20

// resume drops the inputs whose rows an earlier run into the OutDir
// wrote to parts that are still as its manifest records them, and counts
// those parts' summaries in this run's. Parts it cannot trust are moved
// aside and told to OnError; the manifest is rewritten with the lines of
// the parts kept. Standard input is never skipped.
func (r *runner) resume(inputs []input) ([]input, error) {
	dir := r.j.OutDir
	path := filepath.Join(dir, ManifestName)
	parts, err := r.readManifest(path)
	if err != nil {
		return nil, err
	}
	kept := parts[:0]
	owned := make(map[string]bool) // the files of the parts kept
	for _, p := range parts {
		sum, err := verifyPart(dir, &p)
		if err == nil && slices.ContainsFunc(p.Inputs, func(in ManifestEntry) bool { return in.Input == "-" }) {
			err = errors.New("it holds standard input, which is read again")
		}
		if err != nil {
			r.setAside(dir, p.Part, ".damaged", err)
			continue
		}
		kept = append(kept, p)
		owned[p.Part], owned[PartSummaryName(p.Part)] = true, true
		r.sum.Merge(sum)
	}
	if err := r.clearStrays(dir, owned); err != nil {
		return nil, err
	}
	if err := writeManifest(path, kept); err != nil {
		return nil, err
	}

	done := make(map[string]bool)
	for _, p := range kept {
		for _, in := range p.Inputs {
			done[in.Input] = true
		}
	}
	todo := inputs[:0]
	for _, in := range inputs {
		if in.kind != inputStdin && done[in.name] {
			r.skipped++
			continue
		}
		todo = append(todo, in)
	}
	if r.skipped > 0 && r.j.OnSkip != nil {
		r.call(func() { r.j.OnSkip(r.skipped, path) })
	}
	return todo, nil
}

// readManifest returns the parts the manifest at path lists, the last
// line of each part's name winning; a line it cannot read is told to
// OnError and left out.
func (r *runner) readManifest(path string) ([]ManifestPart, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var (
		parts []ManifestPart
		at    = make(map[string]int) // index in parts, by name
		line  []byte
	)
	for n := 1; ; n++ {
		line, err = readLine(br, line[:0])
		if err == io.EOF && len(line) == 0 {
			break
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var p ManifestPart
		switch uerr := json.Unmarshal(line, &p); {
		case uerr != nil:
			r.inputErr(path, &ManifestError{Line: n, Err: fmt.Errorf("not a JSON object (%v): a line cut short by a crash?", jsonReason(uerr))})
			continue
		case p.Part == "" || p.SHA256 == "":
			r.inputErr(path, &ManifestError{Line: n, Err: errors.New("no part and checksum (written by an older version of robots scan)")})
			continue
		case p.Part != filepath.Base(p.Part) || !strings.HasPrefix(p.Part, "part-"):
			r.inputErr(path, &ManifestError{Line: n, Err: fmt.Errorf("the part %q is not a part's name", p.Part)})
			continue
		}
		if i, ok := at[p.Part]; ok {
			parts[i] = p
			continue
		}
		at[p.Part] = len(parts)
		parts = append(parts, p)
	}
	return parts, nil
}

// readLine appends the next line of br to b, without its newline, up to
// maxManifestLine bytes.
func readLine(br *bufio.Reader, b []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxManifestLine {
			return b, fmt.Errorf("a line longer than %d bytes", maxManifestLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(b, []byte("\n")), err
	}
}

// jsonReason is the short reason of a JSON error.
func jsonReason(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return "at byte " + strconv.FormatInt(se.Offset, 10) + ": " + se.Error()
	}
	return err.Error()
}

// verifyPart checks a part against its manifest line: its size, its
// SHA-256, and its summary, which must count its rows. It returns the
// summary.
func verifyPart(dir string, p *ManifestPart) (*Summary, error) {
	f, err := os.Open(filepath.Join(dir, p.Part))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("the part is missing")
		}
		return nil, err
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	f.Close()
	switch {
	case err != nil:
		return nil, err
	case n != p.Bytes:
		return nil, fmt.Errorf("the part has %d bytes, the manifest says %d", n, p.Bytes)
	case hex.EncodeToString(h.Sum(nil)) != strings.ToLower(p.SHA256):
		return nil, errors.New("the part's SHA-256 is not the manifest's: its bytes changed")
	}
	var rows int64
	for _, in := range p.Inputs {
		rows += in.Rows
	}
	if rows != p.Rows {
		return nil, fmt.Errorf("the manifest line counts %d rows, its inputs %d", p.Rows, rows)
	}
	sf, err := os.Open(filepath.Join(dir, PartSummaryName(p.Part)))
	if err != nil {
		return nil, fmt.Errorf("its summary: %w", err)
	}
	defer sf.Close()
	sum, err := ReadSummary(sf)
	if err != nil {
		return nil, fmt.Errorf("its summary: %w", err)
	}
	if sum.Captures != p.Rows {
		return nil, fmt.Errorf("its summary counts %d rows, the manifest %d", sum.Captures, p.Rows)
	}
	return sum, nil
}

// setAside moves a part and its summary out of the way of readers and
// of this run, and tells why.
func (r *runner) setAside(dir, part, suffix string, why error) {
	pe := &PartError{Part: part, Err: why}
	for _, name := range []string{part, PartSummaryName(part)} {
		from := filepath.Join(dir, name)
		if _, err := os.Lstat(from); err != nil {
			continue
		}
		to := name + suffix
		for i := 2; ; i++ {
			if _, err := os.Lstat(filepath.Join(dir, to)); errors.Is(err, fs.ErrNotExist) {
				break
			}
			to = name + suffix + "." + strconv.Itoa(i)
		}
		if err := os.Rename(from, filepath.Join(dir, to)); err == nil && name == part {
			pe.MovedTo = to
		}
	}
	r.inputErr(filepath.Join(dir, part), pe)
}

// clearStrays removes the temporary files of runs that stopped, moves
// aside the parts that no line of the manifest names, and removes the
// summaries of parts that are gone.
func (r *runner) clearStrays(dir string, owned map[string]bool) error {
	for pass := range 2 {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range ents {
			name := e.Name()
			if !strings.HasPrefix(name, "part-") || owned[name] || !e.Type().IsRegular() {
				continue
			}
			switch {
			case pass == 0 && strings.HasSuffix(name, ".tmp"):
				os.Remove(filepath.Join(dir, name))
			case pass == 0 && strings.Count(name, ".") == 1 && !strings.HasSuffix(name, ".json"):
				// part-….parquet: not a summary, not a part moved aside.
				r.setAside(dir, name, ".orphan", errors.New("no line of the manifest names the part"))
			case pass == 1 && strings.HasSuffix(name, ".summary.json"):
				os.Remove(filepath.Join(dir, name)) // its part is gone
			}
		}
	}
	return nil
}

// writeManifest replaces the manifest at path with the lines of parts,
// through a temporary file renamed over it.
func writeManifest(path string, parts []ManifestPart) error {
	var buf bytes.Buffer
	for i := range parts {
		line, err := json.Marshal(&parts[i])
		if err != nil {
			return err
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o666); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
